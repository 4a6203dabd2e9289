package availability

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/availabilityview"
	"github.com/labgpu/bot/internal/understand"
)

// TestAnswer: the answer's payload from the Query alone — which card,
// none kept, and a history read in the bot's zone with the window asked
// (a day from today is its weekday at the bot's clock).
func TestAnswer(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, loc) // a Wednesday
	h := &history.Recorder{Now: func() time.Time { return now }}
	for at := now.Add(-10 * 24 * time.Hour); at.Before(now); at = at.Add(history.FineSlot) {
		s := history.Slot{Polls: 1, In: 1, Price: 198}
		if at.In(loc).Hour() >= 19 {
			s = history.Slot{Polls: 1, Out: 1}
		}
		if err := h.Add(context.Background(), at, map[history.Key]history.Slot{{Platform: "autodl", GPU: "RTX 4090"}: s}); err != nil {
			t.Fatal(err)
		}
	}
	env := &answer.Env{Now: func() time.Time { return now }, History: h, Rd: &render.Renderer{Clock: render.Clock{Loc: loc}}}
	payload := func(q understand.Query) availabilityview.Availability {
		out := Answer(context.Background(), &answer.Ask{Query: q, Env: env})
		return out.Payload.(availabilityview.Availability)
	}
	if p := payload(understand.Query{}); p.Figures != nil || p.Question == "" {
		t.Errorf("no card: %+v", p)
	}
	if p := payload(understand.Query{GPUs: []string{"A100 80GB"}, Platforms: []string{"autodl"}}); p.Figures == nil || p.Figures.GPU != "A100 80GB" ||
		p.Profile != nil || !slices.Equal(p.Where, []string{"autodl"}) {
		t.Errorf("no history: %+v", p)
	}
	when := &understand.WeekWindow{Relative: true, RelDays: 1, Part: "evening", Start: 18, End: 24}
	p := payload(understand.Query{GPUs: []string{"RTX 4090"}, When: when})
	f := p.Figures
	if f == nil || f.Days < 10 || len(f.Hours) != 7*24 || p.HourOfWeek != 2*24+12 {
		t.Fatalf("history: %+v", p)
	}
	if a := f.Asked; a == nil || !slices.Equal(a.Days, []int{3}) || len(a.Hours) != 6 || a.Share != 0.17 || a.Slots == 0 {
		t.Errorf("tomorrow evening: %+v", f.Asked)
	}
}
