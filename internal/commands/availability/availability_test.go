package availability

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/availabilityview"
	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/understand/slots/when"
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

// TestNames: the names the answer hands its renderer are the
// vocabulary's, and they are the words the message catalog said before
// the vocabulary named them (copied below): every part of the day, set of
// days, weekday and day from today.
func TestNames(t *testing.T) {
	tx := func(zh, en string) catalog.Text { return catalog.Text{Zh: zh, En: en} }
	want := &availabilityview.Names{
		Sets: map[string]catalog.Text{"weekday": tx("工作日", "weekdays"), "weekend": tx("周末", "weekends")},
		Weekdays: [7]catalog.Text{tx("周一", "Mondays"), tx("周二", "Tuesdays"), tx("周三", "Wednesdays"), tx("周四", "Thursdays"),
			tx("周五", "Fridays"), tx("周六", "Saturdays"), tx("周日", "Sundays")},
		Days: [7]catalog.Text{tx("周一", "Monday"), tx("周二", "Tuesday"), tx("周三", "Wednesday"), tx("周四", "Thursday"),
			tx("周五", "Friday"), tx("周六", "Saturday"), tx("周日", "Sunday")},
		// 大后天 (3) is read by due dates only: no name.
		Relative: []catalog.Text{tx("今天", "today"), tx("明天", "tomorrow"), tx("后天", "the day after tomorrow"), {}},
		Parts: map[string]catalog.Text{
			"evening_peak": tx("晚高峰", "the evening peak"), "small_hours": tx("凌晨", "after midnight"),
			"early_morning": tx("早上", "early mornings"), "morning": tx("上午", "mornings"), "noon": tx("中午", "around noon"),
			"afternoon": tx("下午", "afternoons"), "dusk": tx("傍晚", "early evenings"), "evening": tx("晚上", "evenings"),
			"daytime": tx("白天", "daytime"),
		},
	}
	if got := names(); !reflect.DeepEqual(got, want) {
		t.Errorf("names %+v\nwant %+v", got, want)
	}
}

// TestAnswerNamesTheWindow: a question's window is named with the
// vocabulary's names, from the question as understood.
func TestAnswerNamesTheWindow(t *testing.T) {
	for _, c := range []struct {
		q      string
		zh, en string
	}{
		{"周末晚上A100好抢吗", "周末晚上（18–24 点）", "weekends, evenings (18:00–24:00)"},
		{"工作日早上4090好抢吗", "工作日早上（6–9 点）", "weekdays, early mornings (06:00–09:00)"},
		{"周三傍晚4090好抢吗", "周三傍晚（17–19 点）", "Wednesdays, early evenings (17:00–19:00)"},
		{"星期天中午4090好抢吗", "周日中午（11–14 点）", "Sundays, around noon (11:00–14:00)"},
		{"4090 晚高峰好抢吗", "每天晚高峰（19–23 点）", "the evening peak (19:00–23:00)"},
		{"礼拜六凌晨4090好抢吗", "周六凌晨（0–6 点）", "Saturdays, after midnight (00:00–06:00)"},
		{"4090 下午好抢吗", "每天下午（13–18 点）", "afternoons (13:00–18:00)"},
		{"4090 白天好抢吗", "每天白天（8–18 点）", "daytime (08:00–18:00)"},
		{"4090 上午好抢吗", "每天上午（8–12 点）", "mornings (08:00–12:00)"},
	} {
		w := when.ReadWeekWindow(catalog.Fold(c.q))
		if w == nil {
			t.Errorf("%q: no window", c.q)
			continue
		}
		row := &availabilityview.AskedRow{Days: w.Days, Set: w.Set, Part: w.Part, Clock: w.Clock, Start: w.Start, End: w.End}
		if got := availabilityview.WindowName(row, names(), i18n.ZH); got != c.zh {
			t.Errorf("%q: %q, want %q", c.q, got, c.zh)
		}
		if got := availabilityview.WindowName(row, names(), i18n.EN); got != c.en {
			t.Errorf("%q: %q, want %q", c.q, got, c.en)
		}
	}
}
