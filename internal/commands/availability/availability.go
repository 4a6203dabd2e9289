// Package availability answers "4090 什么时候好抢" / "when is an A100
// usually free" from the availability history (internal/history): the
// history of the card asked about, its best and worst windows of the
// week, its hours, the wait at this hour of the week and, when the
// question names a part of the week (Query.When), the share with stock
// then. render/availabilityview says it.
package availability

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/availabilityview"
	"github.com/labgpu/bot/internal/understand"
)

// Intent is the intent's name (configs/intents/availability.yaml).
const Intent = understand.IntentAvailability

func init() { answer.Register(answer.Intent{Name: Intent, Answer: Answer}) }

// Answer answers intent availability. Budget: one history.Profile (under
// 10 ms on a year-scale history, see the benchmark) and no store access.
func Answer(_ context.Context, a *answer.Ask) answer.Out {
	q := a.Query
	l := i18n.Of(q.English)
	out := availabilityview.Availability{Lang: l, Names: names()}
	if len(q.GPUs) == 0 {
		out.Question = l.T("availability.which_gpu")
		return answer.Out{Payload: out, Query: q}
	}
	now, loc := a.Now(), a.Rd.Clock.Location()
	gpu, pf := profile(a.History, q.GPUs, q.Platforms, now, loc)
	if !pf.Known() {
		out.Figures, out.Where = &availabilityview.Figures{GPU: gpu, Platforms: q.Platforms}, q.Platforms
		return answer.Out{Payload: out, Query: q}
	}
	out.Figures, out.Profile, out.HourOfWeek = figures(&pf, now, loc), &pf, history.HourOfWeek(now, loc)
	if q.When != nil {
		out.Figures.Asked = asked(q.When, &pf, now, loc)
	}
	if q.YesNo != nil && q.YesNo.Kind == understand.YesNoEasy {
		out.Verdict = easyVerdict(&pf, out.Figures, out.HourOfWeek)
	}
	return answer.Out{Payload: out, Query: q}
}

// Shares of the time a card is in stock from which it is easy to get,
// and under which it is hard (between: it depends).
const (
	easyShare = 0.7
	hardShare = 0.3
)

// easyVerdict answers "好抢吗" from the share of the time the card was in
// stock: in the window the question names, else at this hour of the
// week, else over the week; nil without data.
func easyVerdict(pf *history.Profile, f *availabilityview.Figures, hourOfWeek int) *render.Verdict {
	share, weight := 0.0, 0
	switch {
	case f.Asked != nil:
		share, weight = availabilityview.Share(pf, f.Asked.Days, f.Asked.Hours)
	default:
		if x := pf.Hours[hourOfWeek/24][hourOfWeek%24]; x.Weight > 0 {
			share, weight = x.Share, 1
		} else {
			share, weight = availabilityview.Share(pf, nil, nil)
		}
	}
	if weight == 0 {
		return nil
	}
	v := &render.Verdict{Kind: render.AskEasy, Answer: render.VerdictUnsure}
	switch {
	case share >= easyShare:
		v.Answer = render.VerdictYes
	case share < hardShare:
		v.Answer = render.VerdictNo
	}
	return v
}

// profile is the history of the GPU asked about: of a family named
// without its size ("A100"), the variant with the most days of history
// (the first when none has any).
func profile(h *history.Recorder, gpus, platforms []string, now time.Time, loc *time.Location) (string, history.Profile) {
	gpu := gpus[0]
	var pf history.Profile
	if h == nil {
		return gpu, pf
	}
	for _, id := range gpus {
		if p := h.Profile(id, platforms, now, loc); p.Days > pf.Days {
			gpu, pf = id, p
		}
	}
	return gpu, pf
}

// figures are the rows of a known profile at now.
func figures(pf *history.Profile, now time.Time, loc *time.Location) *availabilityview.Figures {
	f := &availabilityview.Figures{GPU: pf.GPU, Platforms: pf.Platforms, Days: pf.Days, From: pf.From, To: pf.To}
	f.Best, f.Worst = pf.Windows()
	for d := range 7 {
		for h := range 24 {
			x := pf.Hours[d][h]
			if x.Weight > 0 {
				f.Hours = append(f.Hours, availabilityview.HourRow{Day: d, Hour: h, Share: round2(x.Share), PriceCNY: x.Price, Slots: x.Weight})
			}
		}
	}
	if w := pf.WaitAt(history.HourOfWeek(now, loc)); w.Samples > 0 {
		f.WaitNow = &availabilityview.WaitRow{MedianMinutes: w.Median.Minutes(), P90Minutes: w.P90.Minutes(), Samples: w.Samples}
	}
	return f
}

// asked is the share with stock in the window the question names; a
// day counted from today ("明天") is its day of the week at now.
func asked(w *understand.WeekWindow, pf *history.Profile, now time.Time, loc *time.Location) *availabilityview.AskedRow {
	row := &availabilityview.AskedRow{Days: w.Days, Hours: w.Hours(), Set: w.Set, Relative: w.Relative, RelDays: w.RelDays,
		Part: w.Part, Clock: w.Clock, Start: w.Start, End: w.End}
	if w.Relative {
		row.Days = []int{history.HourOfWeek(now.In(loc).AddDate(0, 0, w.RelDays), loc) / 24}
	}
	share, slots := availabilityview.Share(pf, row.Days, row.Hours)
	row.Share, row.Slots = round2(share), slots
	return row
}

// names are the vocabulary's names of the days and parts of the day,
// by the ids the rows carry (read once).
var names = sync.OnceValue(func() *availabilityview.Names {
	n := &availabilityview.Names{Sets: map[string]catalog.Text{}, Parts: map[string]catalog.Text{}}
	for _, p := range understand.WeekParts() {
		n.Sets[p.ID] = p.Name
	}
	for _, d := range understand.Weekdays() {
		n.Weekdays[d.Index()], n.Days[d.Index()] = d.Name, d.OneName
	}
	for _, r := range understand.RelativeDays() {
		if r.Days >= len(n.Relative) {
			n.Relative = append(n.Relative, make([]catalog.Text, r.Days+1-len(n.Relative))...)
		}
		n.Relative[r.Days] = r.Name
	}
	for _, p := range understand.DayParts() {
		n.Parts[p.ID] = p.Name
	}
	return n
})

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Answers are what other answers read from the availability history:
// the subscription reply's wait line.
type Answers struct {
	// H is the history (nil: none kept here); Now the clock and Loc the
	// time zone of hours.
	H   *history.Recorder
	Now func() time.Time
	Loc *time.Location
}

// SubscribeLine is the line a subscription reply adds from the history:
// the typical wait when sold out at this hour of the week ("" without
// history or samples).
func (a *Answers) SubscribeLine(gpus, platforms []string, en bool) string {
	if a == nil || a.H == nil || len(gpus) == 0 {
		return ""
	}
	now := a.Now()
	_, pf := profile(a.H, gpus, platforms, now, a.Loc)
	return availabilityview.WaitLine(&pf, history.HourOfWeek(now, a.Loc), i18n.Of(en))
}
