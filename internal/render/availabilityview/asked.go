package availabilityview

import (
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/i18n"
)

// partNames are the message keys of the parts of the day
// (configs/weekwords.yaml's ids).
var partNames = map[string]string{
	"evening_peak": "availability.part.evening_peak", "small_hours": "availability.part.small_hours",
	"early_morning": "availability.part.early_morning", "morning": "availability.part.morning", "noon": "availability.part.noon",
	"afternoon": "availability.part.afternoon", "dusk": "availability.part.dusk", "evening": "availability.part.evening",
	"daytime": "availability.part.daytime",
}

// relNames are the message keys of the days counted from today.
var relNames = []string{"availability.rel.today", "availability.rel.tomorrow", "availability.rel.day_after"}

// WindowName names the window a question asked about: "周末晚上（18–24
// 点）", "明天（周四）10–11 点", "每天 20–21 点"; "weekend evenings
// (18:00–24:00)", "tomorrow (Thursday), 10:00–11:00".
func WindowName(w *AskedRow, l i18n.Lang) string {
	day := ""
	switch {
	case w.Set != "":
		day = l.T(dayNames[w.Set])
	case w.Relative && len(w.Days) == 1 && w.RelDays >= 0 && w.RelDays < len(relNames):
		day = l.T("availability.rel.day", l.T(relNames[w.RelDays]), l.L("availability.day_of_week")[w.Days[0]])
	case len(w.Days) == 1:
		day = l.L("availability.days_of_week")[w.Days[0]]
	}
	hours := ""
	switch {
	case w.Clock:
		hours = l.T("availability.hours", w.Start, w.End)
	case w.Part != "":
		hours = l.T("availability.part.hours", l.T(partNames[w.Part]), l.T("availability.hours", w.Start, w.End))
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
func askedLine(w *AskedRow, pf *history.Profile, l i18n.Lang) string {
	share, weight := Share(pf, w.Days, w.Hours)
	if weight == 0 {
		return l.T("availability.asked.no_data", pf.GPU, WindowName(w, l))
	}
	verdict := l.T("availability.asked.hard")
	switch {
	case share >= 0.7:
		verdict = l.T("availability.asked.easy")
	case share >= 0.3:
		verdict = l.T("availability.asked.mixed")
	}
	return l.T("availability.asked.line", pf.GPU, WindowName(w, l), verdict, share*100)
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
