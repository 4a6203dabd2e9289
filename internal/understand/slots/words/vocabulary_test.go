package words

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// TestDayParts: each part of the day is a span and, where the mute reads
// it, a point in time, with its hours as time.yaml documents them.
func TestDayParts(t *testing.T) {
	for _, c := range []struct {
		text     string
		id       string
		from, to int
		at       int
	}{
		{"工作日晚上好抢吗", "evening", 18, 24, 20},
		{"4090 下午有卡吗", "afternoon", 13, 18, 14},
		{"凌晨", "small_hours", 0, 6, 5},
		{"上午", "morning", 8, 12, 8},
		{"早上", "early_morning", 6, 9, 8},
		{"中午", "noon", 11, 14, 12},
		{"晚高峰好抢吗", "evening_peak", 19, 23, -1},
		{"傍晚", "dusk", 17, 19, -1},
		{"白天", "daytime", 8, 18, -1},
		{"weekday evenings", "evening", 18, 24, 20},
	} {
		d, ok := DayPartIn(catalog.Fold(c.text))
		if !ok || d.ID != c.id || d.From != c.from || d.To != c.to || d.At != c.at {
			t.Errorf("%q: %+v %v, want %s %d–%d at %d", c.text, d, ok, c.id, c.from, c.to, c.at)
		}
	}
	if _, ok := DayPartIn("4090 多少钱"); ok {
		t.Error("a part of the day in 4090 多少钱")
	}
	ev, _ := DayPartIn("晚上")
	if h := ev.Hours(); len(h) != 6 || h[0] != 18 || h[5] != 23 {
		t.Errorf("evening hours %v", h)
	}
	if ev.Name.Zh != "晚上" || ev.Name.En != "evenings" {
		t.Errorf("evening's name %+v", ev.Name)
	}
}

// TestDayPartAtIsTheMutes: the point reading (DayPartAt, ClockHour) is
// the mute's reading as it was written before the vocabulary (the table
// below, copied): its words (the last part named wins), default hours
// and clock hours.
func TestDayPartAtIsTheMutes(t *testing.T) {
	old := []struct {
		words       []string
		pm, noon    bool
		defaultHour int
	}{
		{words: []string{"凌晨"}, defaultHour: 5},
		{words: []string{"早上", "早晨", "上午", "明早", "morning"}, defaultHour: 8},
		{words: []string{"中午", "noon"}, noon: true, defaultHour: 12},
		{words: []string{"下午", "afternoon"}, pm: true, defaultHour: 14},
		{words: []string{"晚上", "今晚", "明晚", "evening", "night", "tonight"}, pm: true, defaultHour: 20},
	}
	oldHour := func(h, part int) int {
		d := old[part]
		switch {
		case d.pm && h == 12:
			return 0
		case d.pm && h < 12:
			return h + 12
		case d.noon && h >= 1 && h <= 5:
			return h + 12
		case d.defaultHour == 5 && h == 12:
			return 0
		}
		return h
	}
	words := []string{"", "凌晨", "早上", "早晨", "上午", "明早", "morning", "中午", "noon", "下午", "afternoon", "晚上", "今晚", "明晚",
		"evening", "night", "tonight", "nights", "overnight", "半夜", "夜里", "白天", "傍晚", "afternoons", "mornings"}
	for _, a := range words {
		for _, b := range words {
			text := a + "到" + b
			part := -1
			for i, d := range old {
				if ContainsAny(text, d.words) {
					part = i
				}
			}
			d, ok := DayPartAt(text)
			if ok != (part >= 0) {
				t.Errorf("%q: point %v, the mute's %d", text, ok, part)
				continue
			}
			if !ok {
				continue
			}
			if d.At != old[part].defaultHour {
				t.Errorf("%q: at %d, the mute's %d", text, d.At, old[part].defaultHour)
			}
			for h := 0; h <= 24; h++ {
				if got, want := d.ClockHour(h), oldHour(h, part); got != want {
					t.Errorf("%q %d点: %d, the mute's %d", text, h, got, want)
				}
			}
		}
	}
}

// The availability answer's readings of a question's window, copied from
// internal/commands/availability/window.go as they are before it reads
// the vocabulary: the oracles of the vocabulary's span readings.
var (
	oldPeriods = []struct {
		re         *regexp.Regexp
		start, end int
		zh, en     string
	}{
		{regexp.MustCompile(`晚高峰|evening peak|peak hours?`), 19, 23, "晚高峰", "the evening peak"},
		{regexp.MustCompile(`凌晨|半夜|深夜|后半夜|after midnight|small hours`), 0, 6, "凌晨", "after midnight"},
		{regexp.MustCompile(`早上|早晨|清早|一早|今早|明早|early morning`), 6, 9, "早上", "early mornings"},
		{regexp.MustCompile(`上午|\bmornings?\b`), 8, 12, "上午", "mornings"},
		{regexp.MustCompile(`中午|\bnoon\b|lunch ?time`), 11, 14, "中午", "around noon"},
		{regexp.MustCompile(`下午|\bafternoons?\b`), 13, 18, "下午", "afternoons"},
		{regexp.MustCompile(`傍晚|\bdusk\b`), 17, 19, "傍晚", "early evenings"},
		{regexp.MustCompile(`晚上|夜里|夜间|今晚|明晚|下班后|\bevenings?\b|\btonight\b|at night|\bnights?\b`), 18, 24, "晚上", "evenings"},
		{regexp.MustCompile(`白天|日间|\bdaytime\b|during the day`), 8, 18, "白天", "daytime"},
	}
	oldDayWords = []struct {
		re     *regexp.Regexp
		days   []int
		zh, en string
	}{
		{regexp.MustCompile(`周末|双休|礼拜六日|周六日|\bweekends?\b`), []int{5, 6}, "周末", "weekends"},
		{regexp.MustCompile(`工作日|周中|平日|周一到周五|\bweekdays?\b`), []int{0, 1, 2, 3, 4}, "工作日", "weekdays"},
	}
	oldDayOfWeek = regexp.MustCompile(`(?:周|星期|礼拜)([一二三四五六日天])`)
	oldDayEn     = regexp.MustCompile(`\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b`)
	oldRelDay    = regexp.MustCompile(`今天|今晚|今早|明天|明晚|明早|后天|\btoday\b|\btonight\b|\btomorrow\b`)
	oldZhDays    = []string{"周一", "周二", "周三", "周四", "周五", "周六", "周日"}
	oldEnDays    = []string{"Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"}
)

// windowTexts are texts naming parts of the day and of the week in many
// ways (and some naming none).
func windowTexts() []string {
	parts := []string{"", "晚高峰", "凌晨", "半夜", "深夜", "后半夜", "早上", "早晨", "清早", "一早", "今早", "明早", "上午", "中午", "下午", "傍晚",
		"晚上", "夜里", "夜间", "今晚", "明晚", "下班后", "白天", "日间", "evening peak", "peak hour", "after midnight", "small hours",
		"early morning", "morning", "mornings", "noon", "lunchtime", "lunch time", "afternoon", "dusk", "evening", "evenings",
		"tonight", "at night", "night", "nights", "nightly", "daytime", "during the day", "overnight", "eveningtime"}
	days := []string{"", "周末", "双休", "礼拜六日", "周六日", "weekend", "weekends", "工作日", "周中", "平日", "周一到周五", "weekday", "weekdays",
		"周三", "星期天", "礼拜六", "周日", "周5", "monday", "tuesdays", "wednesday", "thursdays", "friday", "saturdays", "sundays", "thu",
		"今天", "明天", "后天", "大后天", "today", "tomorrow", "明儿", "tomorrows"}
	var out []string
	for _, d := range days {
		for _, p := range parts {
			out = append(out, "4090 "+d+p+"好抢吗", d+" "+p+" a100", p+d)
		}
	}
	return out
}

// TestSpanReadingsAreTheAvailabilitys: DayPartIn, WeekPartIn, WeekdayIn
// and RelativeDayIn read what the availability answer reads today, with
// its names and hours, so that its copy can be pointed at them.
func TestSpanReadingsAreTheAvailabilitys(t *testing.T) {
	for _, text := range windowTexts() {
		s := catalog.Fold(text)
		d, ok := DayPartIn(s)
		i := slices.IndexFunc(oldPeriods, func(p struct {
			re         *regexp.Regexp
			start, end int
			zh, en     string
		}) bool {
			return p.re.MatchString(s)
		})
		if ok != (i >= 0) || ok && (d.From != oldPeriods[i].start || d.To != oldPeriods[i].end || d.Name.Zh != oldPeriods[i].zh || d.Name.En != oldPeriods[i].en) {
			t.Errorf("%q: day part %+v %v, the answer's %d", text, d, ok, i)
		}
		w, ok := WeekPartIn(s)
		j := -1
		for k, dw := range oldDayWords {
			if dw.re.MatchString(s) {
				j = k
				break
			}
		}
		if ok != (j >= 0) || ok && (w.Name.Zh != oldDayWords[j].zh || w.Name.En != oldDayWords[j].en || !sameDays(w.Days, oldDayWords[j].days)) {
			t.Errorf("%q: week part %+v %v, the answer's %d", text, w, ok, j)
		}
		wd, ok := WeekdayIn(s)
		old := -1
		if m := oldDayOfWeek.FindStringSubmatch(s); m != nil {
			old = min(strings.Index("一二三四五六日天", m[1])/len("一"), 6)
		} else if m := oldDayEn.FindStringSubmatch(s); m != nil {
			old = map[string]int{"mon": 0, "tues": 1, "wednes": 2, "thurs": 3, "fri": 4, "satur": 5, "sun": 6}[m[1]]
		}
		if ok != (old >= 0) || ok && (wd.ISO != old+1 || wd.Name.Zh != oldZhDays[old] || wd.Name.En != oldEnDays[old]) {
			t.Errorf("%q: weekday %+v %v, the answer's %d", text, wd, ok, old)
		}
		rd, ok := RelativeDayIn(s)
		oldAdd := -1
		if m := oldRelDay.FindString(s); m != "" {
			oldAdd = 0
			switch {
			case strings.HasPrefix(m, "明") || m == "tomorrow":
				oldAdd = 1
			case m == "后天":
				oldAdd = 2
			}
		}
		if ok != (oldAdd >= 0) || ok && rd.Days != oldAdd {
			t.Errorf("%q: relative day %+v %v, the answer's %d", text, rd, ok, oldAdd)
		}
	}
}

// sameDays: ISO weekdays against the availability answer's (0 Monday).
func sameDays(iso, old []int) bool {
	if len(iso) != len(old) {
		return false
	}
	for i := range iso {
		if iso[i] != old[i]+1 {
			return false
		}
	}
	return true
}

// TestWindows: a plan's window of the day, by its words (the evening's
// first) or by the hour a run starts.
func TestWindows(t *testing.T) {
	for text, want := range map[string]string{
		"晚上跑": WindowEvening, "每晚": WindowEvening, "半夜": WindowEvening, "at night": WindowEvening, "nightly": WindowEvening,
		"白天训练": WindowDay, "错峰": WindowDay, "mornings": WindowDay, "下午和晚上": WindowEvening, "4090 多少钱": "",
	} {
		if got := WindowIn(text); got != want {
			t.Errorf("WindowIn(%q) = %q, want %q", text, got, want)
		}
	}
	for h := 0; h < 40; h++ {
		want := WindowDay
		if h >= 17 || h < 5 {
			want = WindowEvening
		}
		if got := WindowOf(h); got != want {
			t.Errorf("WindowOf(%d) = %q, want %q", h, got, want)
		}
	}
}

// TestWeekdayOf: a due date's weekday words.
func TestWeekdayOf(t *testing.T) {
	for w, want := range map[string]int{
		"一": 1, "五": 5, "六": 6, "日": 7, "天": 7, "1": 1, "7": 7, "monday": 1, "mon": 1, "tue": 2, "tues": 2, "thur": 4, "thurs": 4, "sunday": 7, "两": 0, "八": 0, "": 0,
	} {
		if got := WeekdayOf(w); got != want {
			t.Errorf("WeekdayOf(%q) = %d, want %d", w, got, want)
		}
	}
	for w, want := range map[string]int{"明天": 1, "后天": 2, "大后天": 3, "今天": 0, "tomorrow": 1} {
		if got, ok := RelativeDayOf(w); !ok || got != want {
			t.Errorf("RelativeDayOf(%q) = %d %v, want %d", w, got, ok, want)
		}
	}
	if _, ok := RelativeDayOf("下周"); ok {
		t.Error("下周 is a day from today")
	}
}

// TestVocabularyRefusesUnnamed: every item an answer names has its name
// in both languages, and a part of the week its days within 1–7; a file
// without is refused.
func TestVocabularyRefusesUnnamed(t *testing.T) {
	good, err := configs.FS.ReadFile("slots/time.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ old, new, want string }{
		"weekday one_name": {"one_name: {zh: 周一, en: Monday}, ", "", "one_name"},
		"weekday name":     {"{name: {zh: 周二, en: Tuesdays}, ", "{", "weekday 2"},
		"day part name":    {"    name: {zh: 傍晚, en: early evenings}\n", "", `"dusk"`},
		"week part name":   {"    name: {zh: 周末, en: weekends}\n", "", `"weekend"`},
		"week part days":   {"days: [6, 7]", "days: [6, 8]", `"weekend"`},
		"relative name":    {"    name: {zh: 明天, en: tomorrow}\n", "", "1 days"},
	} {
		if !strings.Contains(string(good), c.old) {
			t.Fatalf("%s: time.yaml has no %q", name, c.old)
		}
		bad := strings.Replace(string(good), c.old, c.new, 1)
		_, err := LoadData(fstest.MapFS{"slots/time.yaml": {Data: []byte(bad)}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %s", name, err, c.want)
		}
	}
}

// TestHourSpan: a span of hours wraps past midnight; 0–24 is the whole
// day.
func TestHourSpan(t *testing.T) {
	for _, c := range []struct {
		start, end int
		want       []int
	}{{18, 24, []int{18, 19, 20, 21, 22, 23}}, {22, 2, []int{22, 23, 0, 1}}, {0, 24, nil}, {5, 6, []int{5}}} {
		want := c.want
		if want == nil {
			for h := range 24 {
				want = append(want, h)
			}
		}
		if got := HourSpan(c.start, c.end); !slices.Equal(got, want) {
			t.Errorf("HourSpan(%d, %d) = %v", c.start, c.end, got)
		}
	}
}
