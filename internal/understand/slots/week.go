package slots

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/strictyaml"
	"github.com/labgpu/bot/internal/textgate"
)

// WeekWindow is the part of the week a question names ("周末晚上",
// "工作日上午", "明天上午10点", "on weekend evenings"): its days and its
// local hours. The words are configs/weekwords.yaml's.
type WeekWindow struct {
	// Set is a named set of days ("weekend", "weekday"), Days its days or
	// the one day of the week named ("周三": [2]); 0 is Monday. Both are
	// empty for a day counted from today (Relative) and for every day.
	Set  string
	Days []int
	// Relative: a day counted from today, RelDays days on ("今天" 0,
	// "明天" 1, "后天" 2); which day of the week that is depends on the
	// clock, so the answer works it out.
	Relative bool
	RelDays  int
	// Part is the part of the day named ("evening", "evening_peak", the
	// ids of weekwords.yaml's parts); "" for a clock time or no hours.
	Part string
	// Clock: the hours are a clock time or range ("10点", "下午3点到6点").
	Clock bool
	// Start and End are the local hours [Start, End) of Part or Clock
	// (End up to 24; an evening run may wrap past midnight, End <
	// Start); both 0 when the question names no hours.
	Start, End int
}

// HasHours reports whether the window names hours (a part of the day or
// a clock time), not only days.
func (w *WeekWindow) HasHours() bool { return w.Part != "" || w.Clock }

// Hours are the local hours of the window, in order (an evening run may
// wrap past midnight); nil when it names no hours (the whole day).
func (w *WeekWindow) Hours() []int {
	if !w.HasHours() {
		return nil
	}
	return HourSpan(w.Start, w.End)
}

// HourSpan lists the hours from start to end (exclusive, wrapping
// midnight): 22, 2 → 22, 23, 0, 1.
func HourSpan(start, end int) []int {
	var out []int
	for h := start; h != end%24 || len(out) == 0; h = (h + 1) % 24 {
		out = append(out, h)
		if len(out) == 24 {
			break
		}
	}
	return out
}

// weekWords is configs/weekwords.yaml.
type weekWords struct {
	Sets []struct {
		ID   string `yaml:"id"`
		Re   string `yaml:"re"`
		Days []int  `yaml:"days"`
	} `yaml:"sets"`
	Weekdays []struct {
		Re   string         `yaml:"re"`
		Days map[string]int `yaml:"days"`
	} `yaml:"weekdays"`
	Relative struct {
		Re   string         `yaml:"re"`
		Days map[string]int `yaml:"days"`
	} `yaml:"relative"`
	Parts []struct {
		ID    string `yaml:"id"`
		Re    string `yaml:"re"`
		Hours [2]int `yaml:"hours"`
	} `yaml:"parts"`
	Clock struct {
		Re            string   `yaml:"re"`
		PM            []string `yaml:"pm"`
		Noon          []string `yaml:"noon"`
		EveningBefore string   `yaml:"evening_before"`
	} `yaml:"clock"`
}

// weekRes are weekwords.yaml's words with their expressions, gated.
type weekRes struct {
	weekWords
	sets, weekdays, parts []*textgate.Regexp
	relative, clock, eve  *textgate.Regexp
}

// WeekFile is the word file of the parts of the week in the configs FS.
const WeekFile = "weekwords.yaml"

// loadWeekWords reads WeekFile (embedded; its test rules out errors).
var loadWeekWords = sync.OnceValue(func() *weekRes {
	r, err := readWeekWords(WeekFile)
	if err != nil {
		panic(err)
	}
	return r
})

func readWeekWords(name string) (*weekRes, error) {
	b, err := configs.FS.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("slots: %w", err)
	}
	r := &weekRes{}
	if err := strictyaml.Decode(b, &r.weekWords); err != nil {
		return nil, fmt.Errorf("slots: %s: %w", name, err)
	}
	bad := func(what string) error { return fmt.Errorf("slots: %s: %s", name, what) }
	for _, s := range r.Sets {
		if s.ID == "" || s.Re == "" || len(s.Days) == 0 || slices.ContainsFunc(s.Days, func(d int) bool { return d < 0 || d > 6 }) {
			return nil, bad("a set needs an id, an expression and days 0–6")
		}
		r.sets = append(r.sets, textgate.Lazy(s.Re))
	}
	for _, d := range r.Weekdays {
		for _, v := range d.Days {
			if v < 0 || v > 6 {
				return nil, bad("a weekday is 0–6")
			}
		}
		r.weekdays = append(r.weekdays, textgate.Lazy(d.Re))
	}
	for _, p := range r.Parts {
		if p.ID == "" || p.Re == "" || p.Hours[0] < 0 || p.Hours[1] > 24 || p.Hours[0] == p.Hours[1] {
			return nil, bad("a part of the day needs an id, an expression and hours [start, end) within 0–24")
		}
		r.parts = append(r.parts, textgate.Lazy(p.Re))
	}
	if r.Relative.Re == "" || r.Clock.Re == "" || r.Clock.EveningBefore == "" {
		return nil, bad("relative, clock and clock.evening_before need their expressions")
	}
	r.relative, r.clock, r.eve = textgate.Lazy(r.Relative.Re), textgate.Lazy(r.Clock.Re), textgate.Lazy(r.Clock.EveningBefore)
	return r, nil
}

// WeekSlots reads the part of the week the whole message names into
// Query.When (nil when it names none: "几点有卡" asks for the best hours).
func (x *Extraction) WeekSlots() {
	x.q.When = ReadWeekWindow(x.whole)
}

// ReadWeekWindow reads the part of the week folded text names; nil when
// none. Days: a named set first, then a day of the week, then a day from
// today. Hours: a clock time first, then a part of the day.
func ReadWeekWindow(s string) *WeekWindow {
	ww := loadWeekWords()
	w := &WeekWindow{}
	named := false
	for i, re := range ww.sets {
		if re.MatchString(s) {
			w.Set, w.Days, named = ww.Sets[i].ID, slices.Clone(ww.Sets[i].Days), true
			break
		}
	}
	if !named {
		named = ww.weekday(s, w) || ww.relativeDay(s, w)
	}
	if start, end, ok := ww.clockHours(s); ok {
		w.Clock, w.Start, w.End = true, start, end
	} else {
		for i, re := range ww.parts {
			if re.MatchString(s) {
				p := ww.Parts[i]
				w.Part, w.Start, w.End = p.ID, p.Hours[0], p.Hours[1]
				break
			}
		}
	}
	if !named && !w.HasHours() {
		return nil
	}
	return w
}

// weekday reads one day of the week ("周三", "on tuesdays").
func (ww *weekRes) weekday(s string, w *WeekWindow) bool {
	for i, re := range ww.weekdays {
		if m := re.FindStringSubmatch(s); m != nil && len(m) > 1 {
			w.Days = []int{ww.Weekdays[i].Days[m[1]]}
			return true
		}
	}
	return false
}

// relativeDay reads a day counted from today ("明天", "tonight").
func (ww *weekRes) relativeDay(s string, w *WeekWindow) bool {
	m := ww.relative.FindStringIndex(s)
	if m == nil {
		return false
	}
	w.Relative, w.RelDays = true, ww.Relative.Days[s[m[0]:m[1]]]
	return true
}

// clockHours reads a clock hour or range of hours: "上午10点" is 10–11,
// "下午3点到6点" 15–18, "10pm" 22–23.
func (ww *weekRes) clockHours(s string) (start, end int, ok bool) {
	for _, ix := range ww.clock.FindAllStringSubmatchIndex(s, -1) {
		if ix[4] > 0 && s[ix[4]-1] >= '0' && s[ix[4]-1] <= '9' {
			continue // the end of a longer number: "4090点"
		}
		m := make([]string, len(ix)/2)
		for i := range m {
			if ix[2*i] >= 0 {
				m[i] = s[ix[2*i]:ix[2*i+1]]
			}
		}
		pre, num := m[1], m[2]
		h, isDigits := 0, num[0] >= '0' && num[0] <= '9'
		if isDigits {
			h, _ = strconv.Atoi(num)
		} else {
			// Chinese numerals only after a part of the day: "快一点" is
			// not one o'clock.
			v, ok := ParseNum(num)
			if pre == "" || !ok || !plainNumeral(num) {
				continue
			}
			h = int(v)
		}
		// "只有晚上能跑，7点到11点": an evening said earlier makes a bare
		// 5–11 o'clock an evening hour.
		pm := slices.Contains(ww.Clock.PM, pre) || m[3] == "pm" || slices.Contains(ww.Clock.Noon, pre) && h < 6 ||
			pre == "" && m[3] == "" && h >= 5 && h < 12 && ww.eve.MatchString(s[:ix[0]])
		if h > 24 || m[3] != "" && (h == 0 || h > 12) {
			continue
		}
		if m[3] == "am" && h == 12 {
			h = 0
		}
		if pm && h < 12 {
			h += 12
		}
		start, end = h%24, h%24+1
		if m[4] != "" {
			e, _ := strconv.Atoi(m[4])
			if e > 24 {
				continue
			}
			if (pm || m[5] == "pm") && e < 12 {
				e += 12
			}
			if e != start {
				end = e
			}
		}
		return start, end, true
	}
	return 0, 0, false
}

// plainNumeral reports whether a Chinese numeral is written as a count is,
// up to 99: one digit, or 十 with at most one digit before and after it
// ("八", "十二", "二十四"); not "一二" or "十十".
func plainNumeral(s string) bool {
	rs := []rune(s)
	isTen := func(r rune) bool { v, ok := ParseNum(string(r)); return ok && v == 10 }
	ten := slices.IndexFunc(rs, isTen)
	switch {
	case ten < 0:
		return len(rs) == 1
	case ten > 1 || len(rs)-ten > 2 || slices.ContainsFunc(rs[ten+1:], isTen):
		return false
	}
	return true
}
