package words

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/textgate"
)

// The one vocabulary of times of day and of the week
// (configs/slots/time.yaml): parts of the day, each both a span of hours
// and a point in time; a plan's windows of the day; weekdays; weekends
// and working days; days from today. Hours are local, 0–24.
//
// Where the bot's readings disagree today, the vocabulary keeps each
// reading's own words side by side, and each reading is its own
// function: the span (DayPartIn, the availability answer's "工作日晚上好抢
// 吗") and the point (DayPartAt, the mute's "静音到晚上"); a plan's window
// (WindowIn, WindowOf: "晚上跑"); the part of the week a question names
// (package when's ReadWeekWindow: "周末晚上"). See time.yaml for the
// hours.
//
// The names of the parts of the day and of the week are data here too
// (DayPart.Name, WeekPart.Name, Weekday.Name and OneName,
// RelativeDay.Name), not sentences of the message catalog: the
// availability answer hands them to its renderer.

// DayPart is a part of the day: "晚上" is 18:00–24:00 as a span, 20:00 as
// a point in time.
type DayPart struct {
	// ID names the part ("evening"); Name is how an answer names the
	// span ("晚上", "evenings").
	ID   string
	Name catalog.Text
	// From and To are the span's hours [From, To); To may be 24.
	From, To int
	// At is the hour the part means as a point in time ("静音到晚上": 20);
	// -1 when it is no point.
	At int
	// Clock is how an hour said with the part reads (ClockHour): "pm",
	// "noon", "midnight" or "".
	Clock string

	words   []string // the span's words (regexp alternatives)
	atWords []string // the point's words (plain, ContainsAny)
	re      *textgate.Regexp
}

// Hours are the span's hours in order, wrapping past midnight.
func (d DayPart) Hours() []int { return HourSpan(d.From, d.To) }

// ClockHour turns an hour said with the part into 0–23, as a mute's end
// reads it: "晚上10点" 22, "晚上12点" 0 (midnight), "中午1点" 13, "凌晨12点" 0.
func (d DayPart) ClockHour(h int) int {
	switch {
	case d.Clock == ClockPM && h == 12:
		return 0
	case d.Clock == ClockPM && h < 12:
		return h + 12
	case d.Clock == ClockNoon && h >= 1 && h <= 5:
		return h + 12
	case d.Clock == ClockMidnight && h == 12:
		return 0
	}
	return h
}

// How an hour said with a part of the day reads (DayPart.Clock).
const (
	ClockPM       = "pm"
	ClockNoon     = "noon"
	ClockMidnight = "midnight"
)

// Windows of the day a plan runs in (Query.Window).
const (
	WindowDay     = "day"
	WindowEvening = "evening"
)

// Weekday is a day of the week: ISO 1 (Monday) … 7 (Sunday).
type Weekday struct {
	ISO int
	// Name is how an answer names it as a day that recurs ("周五",
	// "Fridays"), OneName as one day ("明天（周五）", "tomorrow (Friday)").
	Name, OneName catalog.Text
	// zh: the characters after 周/星期/礼拜 ("五"; Sunday "日", "天");
	// digit: the digit a due date also takes there; names and short: the
	// English names; stem: what the availability answer reads before
	// "day(s)".
	zh           []string
	digit        string
	names, short []string
	stem         string
}

// WeekPart is a part of the week: weekends (6, 7) or working days (1–5).
type WeekPart struct {
	// ID is "weekend" or "weekday", the ids the availability history
	// groups its days by (history.Window.Days) and when.WeekWindow.Set.
	ID   string
	Name catalog.Text
	// Days are ISO weekdays.
	Days []int

	re *textgate.Regexp
}

// RelativeDay is a day named from today: "明天" is 1.
type RelativeDay struct {
	Days int
	Name catalog.Text

	words, also []string
}

// vocabularyFile is time.yaml's vocabulary sections (any file may hold
// them; one does).
type vocabularyFile struct {
	DayParts     []dayPartData         `yaml:"day_parts" json:"day_parts,omitempty"`
	Windows      map[string]windowData `yaml:"windows" json:"windows,omitempty"`
	Weekdays     []weekdayData         `yaml:"weekdays" json:"weekdays,omitempty"`
	WeekParts    []weekPartData        `yaml:"week_parts" json:"week_parts,omitempty"`
	RelativeDays []relativeDayData     `yaml:"relative_days" json:"relative_days,omitempty"`
}

type dayPartData struct {
	ID      string       `yaml:"id" json:"id,omitempty"`
	Name    catalog.Text `yaml:"name" json:"name,omitempty"`
	Hours   []int        `yaml:"hours" json:"hours,omitempty"`
	At      *int         `yaml:"at" json:"at,omitempty"`
	Clock   string       `yaml:"clock" json:"clock,omitempty"`
	Words   []string     `yaml:"words" json:"words,omitempty"`
	AtWords []string     `yaml:"at_words" json:"at_words,omitempty"`
}

type windowData struct {
	Hours []int    `yaml:"hours" json:"hours,omitempty"`
	Words []string `yaml:"words" json:"words,omitempty"`
}

type weekdayData struct {
	Name    catalog.Text `yaml:"name" json:"name,omitempty"`
	OneName catalog.Text `yaml:"one_name" json:"one_name,omitempty"`
	Words   []string     `yaml:"words" json:"words,omitempty"`
	Digit   string       `yaml:"digit" json:"digit,omitempty"`
	Names   []string     `yaml:"names" json:"names,omitempty"`
	Short   []string     `yaml:"short" json:"short,omitempty"`
	Stem    string       `yaml:"stem" json:"stem,omitempty"`
}

type weekPartData struct {
	ID    string       `yaml:"id" json:"id,omitempty"`
	Name  catalog.Text `yaml:"name" json:"name,omitempty"`
	Days  []int        `yaml:"days" json:"days,omitempty"`
	Words []string     `yaml:"words" json:"words,omitempty"`
}

type relativeDayData struct {
	Days  int          `yaml:"days" json:"days,omitempty"`
	Name  catalog.Text `yaml:"name" json:"name,omitempty"`
	Words []string     `yaml:"words" json:"words,omitempty"`
	Also  []string     `yaml:"also" json:"also,omitempty"`
}

// window is a plan's window of the day: its hours [from, to) (wrapping
// past midnight) and its words.
type window struct {
	id       string
	from, to int
	words    []string
}

// vocabulary is the vocabulary read and checked, with the patterns made
// of it.
type vocabulary struct {
	parts    []DayPart
	windows  []window // evening first
	weekdays []Weekday
	week     []WeekPart
	relative []RelativeDay
	// fragments are made of the weekdays ({{weekday}}, {{en_weekday}});
	// patterns of the windows, the weekdays and the days from today
	// (keys "time.window_evening" …).
	fragments, patterns                map[string]string
	weekdayRe, weekdayEnRe, relativeRe *textgate.Regexp
}

// newVocabulary merges and checks the vocabulary sections of the files;
// frags are the files' fragments (the weekdays read {{week}}).
func newVocabulary(files []*vocabularyFile, frags map[string]string) (*vocabulary, error) {
	var f vocabularyFile
	for _, x := range files {
		f.DayParts = append(f.DayParts, x.DayParts...)
		f.Weekdays = append(f.Weekdays, x.Weekdays...)
		f.WeekParts = append(f.WeekParts, x.WeekParts...)
		f.RelativeDays = append(f.RelativeDays, x.RelativeDays...)
		for k, w := range x.Windows {
			if f.Windows == nil {
				f.Windows = map[string]windowData{}
			}
			f.Windows[k] = w
		}
	}
	v := &vocabulary{fragments: map[string]string{}, patterns: map[string]string{}}
	for _, p := range f.DayParts {
		d, err := dayPartOf(p)
		if err != nil {
			return nil, err
		}
		v.parts = append(v.parts, d)
	}
	for _, id := range []string{WindowEvening, WindowDay} {
		w, ok := f.Windows[id]
		if !ok || len(w.Hours) != 2 || len(w.Words) == 0 {
			return nil, fmt.Errorf("slots: vocabulary: window %s needs hours [from, to] and words", id)
		}
		v.windows = append(v.windows, window{id, w.Hours[0], w.Hours[1], w.Words})
		v.patterns["time.window_"+id] = strings.Join(w.Words, "|")
	}
	if err := v.addWeekdays(f.Weekdays, frags["week"]); err != nil {
		return nil, err
	}
	for _, p := range f.WeekParts {
		if len(p.Words) == 0 || len(p.Days) == 0 || !named(p.Name) || slices.ContainsFunc(p.Days, func(d int) bool { return d < 1 || d > 7 }) {
			return nil, fmt.Errorf("slots: vocabulary: week part %q needs days 1–7, words and a name", p.ID)
		}
		v.week = append(v.week, WeekPart{ID: p.ID, Name: p.Name, Days: p.Days, re: textgate.Lazy(strings.Join(p.Words, "|"))})
	}
	var rel []string
	for _, r := range f.RelativeDays {
		if len(r.Words) > 0 && !named(r.Name) {
			return nil, fmt.Errorf("slots: vocabulary: the day %d days from today has words but no name", r.Days)
		}
		v.relative = append(v.relative, RelativeDay{Days: r.Days, Name: r.Name, words: r.Words, also: r.Also})
		rel = append(rel, r.Words...)
	}
	if len(rel) == 0 {
		return nil, fmt.Errorf("slots: vocabulary: no relative_days")
	}
	v.relativeRe = textgate.Lazy(strings.Join(rel, "|"))
	return v, nil
}

// dayPartOf checks one part of the day.
func dayPartOf(p dayPartData) (DayPart, error) {
	d := DayPart{ID: p.ID, Name: p.Name, At: -1, Clock: p.Clock, words: p.Words, atWords: p.AtWords}
	switch {
	case len(p.Hours) != 2 || p.Hours[0] < 0 || p.Hours[1] > 24 || p.Hours[0] >= p.Hours[1]:
		return d, fmt.Errorf("slots: vocabulary: day part %q: hours must be [from, to] within 0–24", p.ID)
	case len(p.Words) == 0 || !named(p.Name):
		return d, fmt.Errorf("slots: vocabulary: day part %q needs words and a name", p.ID)
	case len(p.AtWords) > 0 && p.At == nil:
		return d, fmt.Errorf("slots: vocabulary: day part %q has at_words but no at", p.ID)
	case p.Clock != "" && p.Clock != ClockPM && p.Clock != ClockNoon && p.Clock != ClockMidnight:
		return d, fmt.Errorf("slots: vocabulary: day part %q: clock %q is none of pm, noon, midnight", p.ID, p.Clock)
	}
	d.From, d.To = p.Hours[0], p.Hours[1]
	if p.At != nil {
		d.At = *p.At
	}
	d.re = textgate.Lazy(strings.Join(p.Words, "|"))
	return d, nil
}

// addWeekdays reads the weekdays (Monday first) and makes their
// fragments and patterns; week is what comes before a weekday's
// character ("(?:周|星期|礼拜)").
func (v *vocabulary) addWeekdays(ws []weekdayData, week string) error {
	if len(ws) != 7 {
		return fmt.Errorf("slots: vocabulary: %d weekdays, want 7", len(ws))
	}
	if week == "" {
		return fmt.Errorf("slots: vocabulary: no fragment week (what comes before a weekday)")
	}
	var zh, digits, names, short, stems []string
	for i, w := range ws {
		if len(w.Words) == 0 || w.Digit == "" || len(w.Names) == 0 || w.Stem == "" || !named(w.Name) || !named(w.OneName) {
			return fmt.Errorf("slots: vocabulary: weekday %d needs words, digit, names, stem, name and one_name", i+1)
		}
		v.weekdays = append(v.weekdays, Weekday{ISO: i + 1, Name: w.Name, OneName: w.OneName, zh: w.Words, digit: w.Digit, names: w.Names, short: w.Short, stem: w.Stem})
		zh = append(zh, w.Words...)
		digits = append(digits, w.Digit)
		names = append(names, w.Names...)
		short = append(short, w.Short...)
		stems = append(stems, w.Stem)
	}
	for _, s := range append(append([]string{}, zh...), digits...) {
		if len([]rune(s)) != 1 || regexp.QuoteMeta(s) != s {
			return fmt.Errorf("slots: vocabulary: weekday word %q is not one plain character", s)
		}
	}
	// A due date's weekday: "周五", "周5"; an English weekday.
	v.fragments["weekday"] = "([" + strings.Join(zh, "") + strings.Join(digits, "") + "])"
	v.fragments["en_weekday"] = "(" + strings.Join(append(names, short...), "|") + `)\b`
	// The availability answer's weekday: "周三", "星期天" (no digit);
	// "wednesdays".
	v.weekdayRe = textgate.Lazy(week + "([" + strings.Join(zh, "") + "])")
	v.weekdayEnRe = textgate.Lazy(`\b(` + strings.Join(stems, "|") + `)days?\b`)
	return nil
}

// named reports whether a name is given in both languages.
func named(t catalog.Text) bool { return t.Zh != "" && t.En != "" }

// compiles checks that every pattern of the vocabulary compiles (when
// the data is compiled, and by the tests; the bot compiles each when
// first used).
func (v *vocabulary) compiles() error {
	res := []*textgate.Regexp{v.weekdayRe, v.weekdayEnRe, v.relativeRe}
	for _, d := range v.parts {
		res = append(res, d.re)
	}
	for _, w := range v.week {
		res = append(res, w.re)
	}
	for _, r := range res {
		if _, err := regexp.Compile(r.String()); err != nil {
			return fmt.Errorf("slots: vocabulary: %w", err)
		}
	}
	return nil
}

// DayParts are the parts of the day, in the order DayPartIn tries them.
func DayParts() []DayPart { return data().vocab.parts }

// DayPartIn is the part of the day a folded text names as a span: the
// first (in DayParts' order) whose words it has ("工作日晚上好抢吗": evening,
// 18–24).
func DayPartIn(folded string) (DayPart, bool) {
	for _, d := range DayParts() {
		if d.re.MatchString(folded) {
			return d, true
		}
	}
	return DayPart{}, false
}

// DayPartAt is the part of the day a folded text names as a point in
// time ("静音到晚上": evening, At 20): the last (in DayParts' order) of
// those with a point whose point words it has.
func DayPartAt(folded string) (DayPart, bool) {
	var out DayPart
	found := false
	for _, d := range DayParts() {
		if len(d.atWords) > 0 && ContainsAny(folded, d.atWords) {
			out, found = d, true
		}
	}
	return out, found
}

// DayPartByID is the part of the day with the id.
func DayPartByID(id string) (DayPart, bool) {
	for _, d := range DayParts() {
		if d.ID == id {
			return d, true
		}
	}
	return DayPart{}, false
}

// DayPartNamed is the part of the day whose span words include word
// exactly ("夜里": evening).
func DayPartNamed(word string) (DayPart, bool) {
	for _, d := range DayParts() {
		for _, w := range d.words {
			if w == word {
				return d, true
			}
		}
	}
	return DayPart{}, false
}

// WindowIn is the window of the day a folded text names for a plan's
// work ("晚上跑": WindowEvening, "白天训练": WindowDay), "" when none: the
// evening's words first.
func WindowIn(folded string) string {
	for _, w := range data().vocab.windows {
		if windowExpr[w.id].MatchString(folded) {
			return w.id
		}
	}
	return ""
}

// WindowExpr is the pattern of a window of the day (WindowEvening,
// WindowDay), made of its words.
func WindowExpr(id string) *Expr { return windowExpr[id] }

// windowExpr are the windows' patterns (made of their words).
var windowExpr = map[string]*Expr{
	WindowEvening: NewExpr("time.window_" + WindowEvening),
	WindowDay:     NewExpr("time.window_" + WindowDay),
}

// WindowOf is the window of the day a run starting at hour h (0–23) is
// in: the evening from 17:00 to 05:00.
func WindowOf(h int) string {
	for _, w := range data().vocab.windows {
		if inSpan(h, w.from, w.to) {
			return w.id
		}
	}
	return WindowDay
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

// inSpan reports whether hour h is in [from, to), wrapping past
// midnight when to ≤ from.
func inSpan(h, from, to int) bool {
	if from < to {
		return h >= from && h < to
	}
	return h >= from || h < to
}

// Weekdays are the days of the week, Monday first.
func Weekdays() []Weekday { return data().vocab.weekdays }

// Index is the weekday counted as the availability history counts days
// of the week (history.Profile.Hours, when.WeekWindow.Days): 0 Monday …
// 6 Sunday (DayIndex).
func (w Weekday) Index() int { return DayIndex(w.ISO) }

// DayIndex is an ISO weekday (1 Monday … 7 Sunday) counted as the
// availability history counts days of the week (0 Monday): the one place
// ISO weekdays become those (a WeekPart's Days are ISO weekdays).
func DayIndex(iso int) int { return iso - 1 }

// WeekParts are the parts of the week, in the order WeekPartIn tries
// them.
func WeekParts() []WeekPart { return data().vocab.week }

// RelativeDays are the days named from today, today first.
func RelativeDays() []RelativeDay { return data().vocab.relative }

// WeekdayOf is the ISO weekday (1 Monday … 7 Sunday) a word names: the
// character after 周/星期/礼拜 ("五"; "日", "天"), its digit ("5"), or an
// English name or short name ("friday", "fri"); 0 when none.
func WeekdayOf(word string) int {
	for _, w := range Weekdays() {
		if word == w.digit || contains(w.zh, word) || contains(w.names, word) || contains(w.short, word) {
			return w.ISO
		}
	}
	return 0
}

// WeekdayIn is the weekday a folded text names as the availability
// answer reads it: "周三", "星期天", "礼拜六", else "wednesdays".
func WeekdayIn(folded string) (Weekday, bool) {
	v := data().vocab
	if m := v.weekdayRe.FindStringSubmatch(folded); m != nil {
		for _, w := range v.weekdays {
			if contains(w.zh, m[1]) {
				return w, true
			}
		}
	}
	if m := v.weekdayEnRe.FindStringSubmatch(folded); m != nil {
		for _, w := range v.weekdays {
			if w.stem == m[1] {
				return w, true
			}
		}
	}
	return Weekday{}, false
}

// WeekPartIn is the part of the week a folded text names ("周末", "工作
// 日", "weekdays"), the first in time.yaml's order.
func WeekPartIn(folded string) (WeekPart, bool) {
	for _, w := range data().vocab.week {
		if w.re.MatchString(folded) {
			return w, true
		}
	}
	return WeekPart{}, false
}

// RelativeDayIn is the day from today a folded text names as the
// availability answer reads it (the leftmost of the days' words: "明天上
// 午" 1, "今晚" 0, "后天" 2).
func RelativeDayIn(folded string) (RelativeDay, bool) {
	v := data().vocab
	m := v.relativeRe.FindString(folded)
	if m == "" {
		return RelativeDay{}, false
	}
	for _, r := range v.relative {
		for _, w := range r.words {
			if strings.TrimSuffix(strings.TrimPrefix(w, `\b`), `\b`) == m {
				return r, true
			}
		}
	}
	return RelativeDay{}, false
}

// RelativeDayOf is the days from today a word names ("明天" 1, "大后天" 3),
// its words and the words only a due date reads alike.
func RelativeDayOf(word string) (int, bool) {
	for _, r := range data().vocab.relative {
		for _, w := range append(append([]string{}, r.words...), r.also...) {
			if strings.TrimSuffix(strings.TrimPrefix(w, `\b`), `\b`) == word {
				return r.Days, true
			}
		}
	}
	return 0, false
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
