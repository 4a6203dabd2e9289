package when

import (
	"slices"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// TestReadWeekWindow: the part of the week a question names, its days
// (a set, a day of the week, a day from today) and hours (a clock time
// first, then a part of the day).
func TestReadWeekWindow(t *testing.T) {
	for _, c := range []struct {
		q          string
		set        string
		days       []int
		rel        int // -1: no day from today
		part       string
		start, end int // 0, 0: all day
	}{
		{"周末晚上A100 80G好抢吗", "weekend", []int{5, 6}, -1, "evening", 18, 24},
		{"工作日上午4090好租吗", "weekday", []int{0, 1, 2, 3, 4}, -1, "morning", 8, 12},
		{"4090 周末好抢吗", "weekend", []int{5, 6}, -1, "", 0, 0},
		{"晚高峰4090有卡吗", "", nil, -1, "evening_peak", 19, 23},
		{"明天上午10点想开4090，能抢到吗", "", nil, 1, "", 10, 11},
		{"后天下午A100好抢吗", "", nil, 2, "afternoon", 13, 18},
		{"今晚4090好抢吗", "", nil, 0, "evening", 18, 24},
		{"恒源云4090晚上8点有卡吗", "", nil, -1, "", 20, 21},
		{"晚上八点半4090好抢吗", "", nil, -1, "", 20, 21},
		{"下午3点到6点3090有货吗", "", nil, -1, "", 15, 18},
		{"周六凌晨A100好租吗", "", []int{5}, -1, "small_hours", 0, 6},
		{"星期天中午1点", "", []int{6}, -1, "", 13, 14},
		{"is a 4090 free on weekend evenings", "weekend", []int{5, 6}, -1, "evening", 18, 24},
		{"can I get an a100 at 10pm", "", nil, -1, "", 22, 23},
		{"a100 on tuesdays at 12am", "", []int{1}, -1, "", 0, 1},
		{"4090 tomorrow during the day", "", nil, 1, "daytime", 8, 18},
		// An evening said before a bare clock range (a new user's test).
		{"白天上课只有晚上能跑，7点到11点，4090，按量会不会抢不到卡", "", nil, -1, "", 19, 23},
	} {
		w := ReadWeekWindow(catalog.Fold(c.q))
		if w == nil {
			t.Errorf("%q: no window", c.q)
			continue
		}
		rel := -1
		if w.Relative {
			rel = w.RelDays
		}
		var hours []int
		if c.end > 0 {
			hours = words.HourSpan(c.start, c.end)
		}
		if w.Set != c.set || !slices.Equal(w.Days, c.days) || rel != c.rel || w.Part != c.part || !slices.Equal(w.Hours(), hours) ||
			w.Clock != (c.end > 0 && c.part == "") {
			t.Errorf("%q: %+v hours %v; want set %q days %v rel %d part %q %d–%d", c.q, *w, w.Hours(), c.set, c.days, c.rel, c.part, c.start, c.end)
		}
	}
	for _, q := range []string{"4090什么时候好抢", "autodl 4090 一般几点有卡", "A100周几好租", "A100 80G 便宜一点的", "4090现在没卡的话一般要等多久",
		"when is a 4090 usually free", "RTX 4090 多少钱", "4090点了吗", "晚上一二点", "凌晨十十点", ""} {
		if w := ReadWeekWindow(catalog.Fold(q)); w != nil && (w.Clock || len(w.Days) > 0 || w.Relative) && !strings.Contains(q, "晚上") && !strings.Contains(q, "凌晨") {
			t.Errorf("%q: window %+v, want none", q, *w)
		}
	}
	// Chinese numerals that are no count are no clock hour.
	for _, q := range []string{"晚上一二点", "凌晨十十点", "下午十一二点"} {
		if w := ReadWeekWindow(catalog.Fold(q)); w == nil || w.Clock {
			t.Errorf("%q: %+v, want the part of the day only", q, w)
		}
	}
}

func TestPlainNumeral(t *testing.T) {
	for s, want := range map[string]bool{"一": true, "两": true, "十": true, "十二": true, "二十": true, "二十三": true, "二十四": true,
		"一二": false, "十十": false, "十一二": false, "一二十": false, "二十十": false} {
		if got := plainNumeral(s); got != want {
			t.Errorf("plainNumeral(%s) = %v, want %v", s, got, want)
		}
	}
}

// TestWeekWindowWords: every word of a part of the day, a part of the
// week, a weekday and a day from today reads into the window the
// availability answer read from its own word file (weekwords.yaml) before the one
// vocabulary (the table is that file's, copied): its id, days (0 Monday)
// and hours.
func TestWeekWindowWords(t *testing.T) {
	type want struct {
		set        string
		days       []int
		rel        int // -1: no day from today
		part       string
		start, end int
	}
	weekend, weekdays := []int{5, 6}, []int{0, 1, 2, 3, 4}
	cases := map[string]want{
		// Parts of the day, by precedence (晚高峰 before 晚上).
		"晚高峰": {"", nil, -1, "evening_peak", 19, 23}, "evening peak": {"", nil, -1, "evening_peak", 19, 23},
		"peak hour": {"", nil, -1, "evening_peak", 19, 23}, "peak hours": {"", nil, -1, "evening_peak", 19, 23},
		"凌晨": {"", nil, -1, "small_hours", 0, 6}, "半夜": {"", nil, -1, "small_hours", 0, 6}, "深夜": {"", nil, -1, "small_hours", 0, 6},
		"后半夜": {"", nil, -1, "small_hours", 0, 6}, "after midnight": {"", nil, -1, "small_hours", 0, 6}, "small hours": {"", nil, -1, "small_hours", 0, 6},
		"早上": {"", nil, -1, "early_morning", 6, 9}, "早晨": {"", nil, -1, "early_morning", 6, 9}, "清早": {"", nil, -1, "early_morning", 6, 9},
		"一早": {"", nil, -1, "early_morning", 6, 9}, "今早": {"", nil, 0, "early_morning", 6, 9}, "明早": {"", nil, 1, "early_morning", 6, 9},
		"early morning": {"", nil, -1, "early_morning", 6, 9},
		"上午":            {"", nil, -1, "morning", 8, 12}, "morning": {"", nil, -1, "morning", 8, 12}, "mornings": {"", nil, -1, "morning", 8, 12},
		"中午": {"", nil, -1, "noon", 11, 14}, "noon": {"", nil, -1, "noon", 11, 14}, "lunchtime": {"", nil, -1, "noon", 11, 14},
		"lunch time": {"", nil, -1, "noon", 11, 14},
		"下午":         {"", nil, -1, "afternoon", 13, 18}, "afternoon": {"", nil, -1, "afternoon", 13, 18}, "afternoons": {"", nil, -1, "afternoon", 13, 18},
		"傍晚": {"", nil, -1, "dusk", 17, 19}, "dusk": {"", nil, -1, "dusk", 17, 19},
		"晚上": {"", nil, -1, "evening", 18, 24}, "夜里": {"", nil, -1, "evening", 18, 24}, "夜间": {"", nil, -1, "evening", 18, 24},
		"今晚": {"", nil, 0, "evening", 18, 24}, "明晚": {"", nil, 1, "evening", 18, 24}, "下班后": {"", nil, -1, "evening", 18, 24},
		"evening": {"", nil, -1, "evening", 18, 24}, "evenings": {"", nil, -1, "evening", 18, 24}, "tonight": {"", nil, 0, "evening", 18, 24},
		"at night": {"", nil, -1, "evening", 18, 24}, "night": {"", nil, -1, "evening", 18, 24}, "nights": {"", nil, -1, "evening", 18, 24},
		"白天": {"", nil, -1, "daytime", 8, 18}, "日间": {"", nil, -1, "daytime", 8, 18}, "daytime": {"", nil, -1, "daytime", 8, 18},
		"during the day": {"", nil, -1, "daytime", 8, 18},
		// Parts of the week.
		"周末": {"weekend", weekend, -1, "", 0, 0}, "双休": {"weekend", weekend, -1, "", 0, 0}, "礼拜六日": {"weekend", weekend, -1, "", 0, 0},
		"周六日": {"weekend", weekend, -1, "", 0, 0}, "weekend": {"weekend", weekend, -1, "", 0, 0}, "weekends": {"weekend", weekend, -1, "", 0, 0},
		"工作日": {"weekday", weekdays, -1, "", 0, 0}, "周中": {"weekday", weekdays, -1, "", 0, 0}, "平日": {"weekday", weekdays, -1, "", 0, 0},
		"周一到周五": {"weekday", weekdays, -1, "", 0, 0}, "weekday": {"weekday", weekdays, -1, "", 0, 0}, "weekdays": {"weekday", weekdays, -1, "", 0, 0},
		// Weekdays in English (singular or plural).
		"monday": {"", []int{0}, -1, "", 0, 0}, "tuesdays": {"", []int{1}, -1, "", 0, 0}, "wednesday": {"", []int{2}, -1, "", 0, 0},
		"thursdays": {"", []int{3}, -1, "", 0, 0}, "friday": {"", []int{4}, -1, "", 0, 0}, "saturdays": {"", []int{5}, -1, "", 0, 0},
		"sunday": {"", []int{6}, -1, "", 0, 0},
		// Days from today ("大后天" reads as 后天, as before).
		"今天": {"", nil, 0, "", 0, 0}, "明天": {"", nil, 1, "", 0, 0}, "后天": {"", nil, 2, "", 0, 0}, "大后天": {"", nil, 2, "", 0, 0},
		"today": {"", nil, 0, "", 0, 0}, "tomorrow": {"", nil, 1, "", 0, 0},
		// Clock hours and how a part of the day before them reads them.
		"上午10点": {"", nil, -1, "", 10, 11}, "早上8点": {"", nil, -1, "", 8, 9}, "中午1点": {"", nil, -1, "", 13, 14},
		"中午12点": {"", nil, -1, "", 12, 13}, "下午3点": {"", nil, -1, "", 15, 16}, "晚上8点": {"", nil, -1, "", 20, 21},
		"晚上12点": {"", nil, -1, "", 12, 13}, "凌晨2点": {"", nil, -1, "", 2, 3}, "凌晨十二点": {"", nil, -1, "", 12, 13},
		"下午两点": {"", nil, -1, "", 14, 15}, "晚上十点": {"", nil, -1, "", 22, 23}, "10pm": {"", nil, -1, "", 22, 23}, "12am": {"", nil, -1, "", 0, 1},
		"3pm-6pm": {"", nil, -1, "", 15, 18}, "10:00到14:00": {"", nil, -1, "", 10, 14}, "24点": {"", nil, -1, "", 0, 1},
		"每晚7点到11点": {"", nil, -1, "", 19, 23}, "夜里9点": {"", nil, -1, "", 21, 22}, "9点": {"", nil, -1, "", 9, 10},
	}
	// Weekdays in Chinese, after each of 周, 星期 and 礼拜.
	for i, c := range []string{"一", "二", "三", "四", "五", "六", "日"} {
		for _, pre := range []string{"周", "星期", "礼拜"} {
			cases[pre+c] = want{"", []int{i}, -1, "", 0, 0}
		}
	}
	cases["周天"], cases["星期天"], cases["礼拜天"] = want{"", []int{6}, -1, "", 0, 0}, want{"", []int{6}, -1, "", 0, 0}, want{"", []int{6}, -1, "", 0, 0}
	for word, c := range cases {
		q := "4090 " + word + " 好抢吗"
		w := ReadWeekWindow(catalog.Fold(q))
		if w == nil {
			t.Errorf("%q: no window", q)
			continue
		}
		rel := -1
		if w.Relative {
			rel = w.RelDays
		}
		clock := c.part == "" && c.end > 0
		if w.Set != c.set || !slices.Equal(w.Days, c.days) || rel != c.rel || w.Part != c.part || w.Clock != clock || w.Start != c.start || w.End != c.end {
			t.Errorf("%q: %+v; want %+v", q, *w, c)
		}
	}
}

// FuzzReadWeekWindow: any text reads without a panic into a window whose
// days are days of the week and whose hours are hours of the day.
func FuzzReadWeekWindow(f *testing.F) {
	for _, s := range []string{"周末晚上", "明天上午10点", "晚上八点半", "下午3点到6点", "10pm-2am", "凌晨十十点", "24点到25点", "12am", "4090点", "晚上99点", "\xff周三"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := ReadWeekWindow(catalog.Fold(s))
		if w == nil {
			return
		}
		for _, d := range w.Days {
			if d < 0 || d > 6 {
				t.Fatalf("%q: day %d", s, d)
			}
		}
		for _, h := range w.Hours() {
			if h < 0 || h > 23 {
				t.Fatalf("%q: hour %d", s, h)
			}
		}
		if w.Relative && (w.RelDays < 0 || w.RelDays > 2) {
			t.Fatalf("%q: %d days from today", s, w.RelDays)
		}
	})
}

// TestClockHour: an hour of the clock is ParseNum's whole number within
// 0–24, digits or Chinese numerals.
func TestClockHour(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "7": 7, "07": 7, "24": 24, "十一": 11, "两": 2, "二十四": 24} {
		if h, ok := ClockHour(s); !ok || h != want {
			t.Errorf("ClockHour(%q) = %d %v, want %d", s, h, ok, want)
		}
	}
	for _, s := range []string{"25", "99", "二十五", "1.5", "-1", "", "半", "a"} {
		if h, ok := ClockHour(s); ok {
			t.Errorf("ClockHour(%q) = %d, want none", s, h)
		}
	}
}
