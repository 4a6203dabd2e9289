package availabilityview

import (
	"testing"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/i18n"
)

// names are the names of the days and parts of the day these tests say
// (the answer hands the vocabulary's).
var names = &Names{
	Sets: map[string]catalog.Text{"weekend": {Zh: "周末", En: "weekends"}, "weekday": {Zh: "工作日", En: "weekdays"}},
	Weekdays: [7]catalog.Text{{Zh: "周一", En: "Mondays"}, {Zh: "周二", En: "Tuesdays"}, {Zh: "周三", En: "Wednesdays"},
		{Zh: "周四", En: "Thursdays"}, {Zh: "周五", En: "Fridays"}, {Zh: "周六", En: "Saturdays"}, {Zh: "周日", En: "Sundays"}},
	Days: [7]catalog.Text{{Zh: "周一", En: "Monday"}, {Zh: "周二", En: "Tuesday"}, {Zh: "周三", En: "Wednesday"},
		{Zh: "周四", En: "Thursday"}, {Zh: "周五", En: "Friday"}, {Zh: "周六", En: "Saturday"}, {Zh: "周日", En: "Sunday"}},
	Relative: []catalog.Text{{Zh: "今天", En: "today"}, {Zh: "明天", En: "tomorrow"}, {Zh: "后天", En: "the day after tomorrow"}},
	Parts: map[string]catalog.Text{"evening": {Zh: "晚上", En: "evenings"}, "morning": {Zh: "上午", En: "mornings"},
		"evening_peak": {Zh: "晚高峰", En: "the evening peak"}, "small_hours": {Zh: "凌晨", En: "after midnight"}},
}

// TestWindowName: the window a question named, as the answer names it.
func TestWindowName(t *testing.T) {
	for _, c := range []struct {
		w      AskedRow
		zh, en string
	}{
		{AskedRow{Days: []int{5, 6}, Set: "weekend", Part: "evening", Start: 18, End: 24}, "周末晚上（18–24 点）", "weekends, evenings (18:00–24:00)"},
		{AskedRow{Days: []int{0, 1, 2, 3, 4}, Set: "weekday", Part: "morning", Start: 8, End: 12}, "工作日上午（8–12 点）", "weekdays, mornings (08:00–12:00)"},
		{AskedRow{Days: []int{5, 6}, Set: "weekend"}, "周末", "weekends"},
		{AskedRow{Part: "evening_peak", Start: 19, End: 23}, "每天晚高峰（19–23 点）", "the evening peak (19:00–23:00)"},
		{AskedRow{Days: []int{3}, Relative: true, RelDays: 1, Clock: true, Start: 10, End: 11}, "明天（周四）10–11 点", "tomorrow (Thursday), 10:00–11:00"},
		{AskedRow{Days: []int{2}, Relative: true, RelDays: 0}, "今天（周三）", "today (Wednesday)"},
		{AskedRow{Clock: true, Start: 20, End: 21}, "每天 20–21 点", "20:00–21:00"},
		{AskedRow{Days: []int{5}, Part: "small_hours", Start: 0, End: 6}, "周六凌晨（0–6 点）", "Saturdays, after midnight (00:00–06:00)"},
	} {
		if got := WindowName(&c.w, names, i18n.ZH); got != c.zh {
			t.Errorf("%+v: %q, want %q", c.w, got, c.zh)
		}
		if got := WindowName(&c.w, names, i18n.EN); got != c.en {
			t.Errorf("%+v: %q, want %q", c.w, got, c.en)
		}
	}
}

// weekendOnly is a profile in stock all weekend and sold out on weekdays.
func weekendOnly() *history.Profile {
	pf := &history.Profile{GPU: "A100 80GB", Days: 14}
	for d := range 7 {
		for h := range 24 {
			pf.Hours[d][h] = history.Hour{Weight: 12}
			if d >= 5 {
				pf.Hours[d][h].Share = 1
			}
		}
	}
	return pf
}

func evenings(days ...int) *AskedRow {
	w := &AskedRow{Days: days, Part: "evening", Start: 18, End: 24, Hours: []int{18, 19, 20, 21, 22, 23}}
	if len(days) == 2 {
		w.Set = "weekend"
	} else {
		w.Set = "weekday"
	}
	return w
}

func TestAskedLineAndWholeDayWindows(t *testing.T) {
	pf := weekendOnly()
	if got, want := askedLine(evenings(5, 6), pf, names, i18n.ZH), "A100 80GB 周末晚上（18–24 点）好抢：有货 100%。"; got != want {
		t.Errorf("weekend evening: %q, want %q", got, want)
	}
	if got, want := askedLine(evenings(0, 1, 2, 3, 4), pf, names, i18n.ZH), "A100 80GB 工作日晚上（18–24 点）难抢：有货 0%。"; got != want {
		t.Errorf("weekday evening: %q, want %q", got, want)
	}
	if got, want := askedLine(evenings(5, 6), pf, names, i18n.EN), "A100 80GB, weekends, evenings (18:00–24:00): usually free, in stock 100% of the time."; got != want {
		t.Errorf("weekend evening: %q, want %q", got, want)
	}
	best, worst := pf.Windows()
	if got := WindowText(best, names, i18n.ZH); got != "周末全天（有货 100%）" {
		t.Errorf("best %+v = %q, want the whole weekend", best, got)
	}
	if got := WindowText(worst, names, i18n.ZH); got != "工作日全天（有货 0%）" {
		t.Errorf("worst %+v = %q, want all weekday", worst, got)
	}
	if got := WindowText(history.Window{Days: "weekday", Start: 7, End: 12, Share: 0.96}, names, i18n.EN); got != "weekdays 07:00–12:00 (in stock 96%)" {
		t.Errorf("weekday mornings: %q", got)
	}
	if got := WindowText(history.Window{}, names, i18n.ZH); got != "（数据不够）" {
		t.Errorf("no window: %q", got)
	}
	for _, c := range []struct {
		w      history.Window
		zh, en string
	}{
		{history.Window{Days: "daily", Start: 0, End: 24, Share: 0.5}, "每天全天（有货 50%）", "every day, all day (in stock 50%)"},
		{history.Window{Days: "daily", Start: 9, End: 12, Share: 0.8}, "每天 9–12 点（有货 80%）", "every day 09:00–12:00 (in stock 80%)"},
		{history.Window{Days: "weekend", Start: 0, End: 24, Share: 1}, "周末全天（有货 100%）", "weekends, all day (in stock 100%)"},
	} {
		if got := WindowText(c.w, names, i18n.ZH); got != c.zh {
			t.Errorf("%+v: %q, want %q", c.w, got, c.zh)
		}
		if got := WindowText(c.w, names, i18n.EN); got != c.en {
			t.Errorf("%+v: %q, want %q", c.w, got, c.en)
		}
	}
	// Without names (none handed over) the days go unnamed; no panic.
	if got := WindowName(&AskedRow{Days: []int{9}, Relative: true, RelDays: 7, Part: "evening", Start: 18, End: 24}, nil, i18n.ZH); got != "（18–24 点）" {
		t.Errorf("no names: %q", got)
	}
	empty := &history.Profile{GPU: "A100 80GB", Days: 1}
	if got := askedLine(evenings(0, 1, 2, 3, 4), empty, names, i18n.ZH); got != "A100 80GB 工作日晚上（18–24 点）还没有轮询数据，说不准。" {
		t.Errorf("no data: %q", got)
	}
	mixed := weekendOnly()
	mixed.Hours[0][18].Share = 0.5
	if share, slots := Share(mixed, []int{0}, []int{18}); share != 0.5 || slots != 12 {
		t.Errorf("share %v slots %d", share, slots)
	}
}

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		d      time.Duration
		zh, en string
	}{
		{3 * time.Minute, "10 分钟", "10 min"}, {24 * time.Minute, "20 分钟", "20 min"}, {25 * time.Minute, "30 分钟", "30 min"},
		{100 * time.Minute, "1.5 小时", "1.5 h"}, {50 * time.Hour, "2 天", "2 days"},
	} {
		if got := Duration(c.d, i18n.ZH); got != c.zh {
			t.Errorf("%v: %q, want %q", c.d, got, c.zh)
		}
		if got := Duration(c.d, i18n.EN); got != c.en {
			t.Errorf("%v: %q, want %q", c.d, got, c.en)
		}
	}
}
