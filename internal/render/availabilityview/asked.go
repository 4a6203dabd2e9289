package availabilityview

import (
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/i18n"
)

// Names are how the answer names the days and parts of the day it says:
// the one vocabulary's names (configs/slots/time.yaml), which the
// availability answer hands over (render reads no understanding), by the
// ids the rows carry. A name not there is said as "".
type Names struct {
	// Sets are the named sets of days by id ("weekend", "weekday":
	// AskedRow.Set, history.Window.Days).
	Sets map[string]catalog.Text
	// Weekdays are the days of the week (0 Monday) as days that recur
	// ("周三", "Wednesdays"); Days the same as one day ("周三",
	// "Wednesday").
	Weekdays, Days [7]catalog.Text
	// Relative are the days from today by how many days on (0 today, 1
	// tomorrow, 2 the day after).
	Relative []catalog.Text
	// Parts are the parts of the day by id ("evening").
	Parts map[string]catalog.Text
}

// say is a name in the asker's language.
func say(t catalog.Text, l i18n.Lang) string { return i18n.Pick(l, t.Zh, t.En) }

// set is the name of a named set of days ("周末").
func (n *Names) set(id string, l i18n.Lang) string {
	if n == nil {
		return ""
	}
	return say(n.Sets[id], l)
}

// part is the name of a part of the day ("晚上").
func (n *Names) part(id string, l i18n.Lang) string {
	if n == nil {
		return ""
	}
	return say(n.Parts[id], l)
}

// weekday is day d (0 Monday) as a day that recurs ("周三",
// "Wednesdays"), or as one day ("Wednesday") when one.
func (n *Names) weekday(d int, one bool, l i18n.Lang) string {
	if n == nil || d < 0 || d >= len(n.Weekdays) {
		return ""
	}
	if one {
		return say(n.Days[d], l)
	}
	return say(n.Weekdays[d], l)
}

// relative is the name of the day days from today ("明天"); ok is false
// when it has none.
func (n *Names) relative(days int, l i18n.Lang) (string, bool) {
	if n == nil || days < 0 || days >= len(n.Relative) || n.Relative[days] == (catalog.Text{}) {
		return "", false
	}
	return say(n.Relative[days], l), true
}

// WindowName names the window a question asked about: "周末晚上（18–24
// 点）", "明天（周四）10–11 点", "每天 20–21 点"; "weekend evenings
// (18:00–24:00)", "tomorrow (Thursday), 10:00–11:00".
func WindowName(w *AskedRow, n *Names, l i18n.Lang) string {
	day := ""
	switch {
	case w.Set != "":
		day = n.set(w.Set, l)
	case w.Relative && len(w.Days) == 1:
		if rel, ok := n.relative(w.RelDays, l); ok {
			day = l.T("availability.rel.day", rel, n.weekday(w.Days[0], true, l))
		}
	case len(w.Days) == 1:
		day = n.weekday(w.Days[0], false, l)
	}
	hours := ""
	switch {
	case w.Clock:
		hours = l.T("availability.hours", w.Start, w.End)
	case w.Part != "":
		hours = l.T("availability.part.hours", n.part(w.Part, l), l.T("availability.hours", w.Start, w.End))
	}
	switch {
	case w.Days == nil && w.Clock:
		return l.T("availability.every_day_clock", hours)
	case w.Days == nil:
		return l.T("availability.every_day", hours)
	case hours == "":
		return day
	}
	return l.T("availability.day_hours", day, hours)
}

// askedLine answers the question about its window: "A100 80GB 周末晚上
// （18–24 点）好抢：有货 100%。".
func askedLine(w *AskedRow, pf *history.Profile, n *Names, l i18n.Lang) string {
	share, weight := Share(pf, w.Days, w.Hours)
	if weight == 0 {
		return l.T("availability.asked.no_data", pf.GPU, WindowName(w, n, l))
	}
	verdict := l.T("availability.asked.hard")
	switch {
	case share >= 0.7:
		verdict = l.T("availability.asked.easy")
	case share >= 0.3:
		verdict = l.T("availability.asked.mixed")
	}
	return l.T("availability.asked.line", pf.GPU, WindowName(w, n, l), verdict, share*100)
}

// askedWhy is askedLine without its verdict word, for a yes/no
// question's verdict to open: "A100 80GB 周末晚上（18–24 点）有货 100%。".
func askedWhy(w *AskedRow, pf *history.Profile, n *Names, l i18n.Lang) string {
	share, weight := Share(pf, w.Days, w.Hours)
	if weight == 0 {
		return l.T("availability.asked.no_data", pf.GPU, WindowName(w, n, l))
	}
	return l.T("availability.asked.why", pf.GPU, WindowName(w, n, l), share*100)
}

// Share is pf's share with stock on days (0 Monday; nil every day) at
// hours (nil all day), weighted by the slots behind each hour; weight 0
// when the window has no data.
func Share(pf *history.Profile, days, hours []int) (share float64, weight int) {
	if days == nil {
		days = []int{0, 1, 2, 3, 4, 5, 6}
	}
	if hours == nil {
		for h := range 24 {
			hours = append(hours, h)
		}
	}
	var s float64
	for _, d := range days {
		for _, h := range hours {
			x := pf.Hours[d][h]
			s += x.Share * float64(x.Weight)
			weight += x.Weight
		}
	}
	if weight == 0 {
		return 0, 0
	}
	return s / float64(weight), weight
}
