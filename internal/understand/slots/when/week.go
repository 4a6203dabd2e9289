// Package when reads the times a question names with the one vocabulary
// of times of day and of the week (package words, configs/slots/time.yaml):
// the part of the week and its hours ("周末晚上", "明天上午10点",
// ReadWeekWindow), an hour of the clock (ClockHour), and a plan's due date
// ("ddl是下周五", ReadDeadline) with the day it falls on. It imports
// nothing of the slot extractors (package slots) or the pipeline.
package when

import (
	"math"
	"slices"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// WeekWindow is the part of the week a question names ("周末晚上",
// "工作日上午", "明天上午10点", "on weekend evenings"): its days and its
// local hours, read with the one vocabulary of times of day and of the
// week (package words, configs/slots/time.yaml).
type WeekWindow struct {
	// Set is a named set of days (words.WeekPart.ID: "weekend",
	// "weekday"), Days its days or the one day of the week named ("周三":
	// [2]), counted as the availability history counts them
	// (words.Weekday.Index: 0 is Monday). Both are empty for a day counted
	// from today (Relative) and for every day.
	Set  string
	Days []int
	// Relative: a day counted from today, RelDays days on ("今天" 0,
	// "明天" 1, "后天" 2); which day of the week that is depends on the
	// clock, so the answer works it out.
	Relative bool
	RelDays  int
	// Part is the part of the day named (words.DayPart.ID: "evening",
	// "evening_peak" …); "" for a clock time or no hours.
	Part string
	// Clock: the hours are a clock time or range ("10点", "下午3点到6点").
	Clock bool
	// Start and End are the local hours [Start, End) of Part (its span,
	// words.DayPart.From and To) or Clock (End up to 24; an evening run
	// may wrap past midnight, End < Start); both 0 when the question
	// names no hours.
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
	return words.HourSpan(w.Start, w.End)
}

var (
	// reClockHours is a clock hour or range of hours a question names
	// ("10点", "下午3点到6点", "10pm"): time.yaml's clock_hours, whose
	// groups are the part of the day before it, the hour, am/pm, the end
	// hour and its am/pm.
	reClockHours = words.NewExpr("time.clock_hours")
	// reEveningBefore: an evening said before a bare 5–11 o'clock makes it
	// an evening hour ("只有晚上能跑，7点到11点" 19–23).
	reEveningBefore = words.NewExpr("time.clock_evening_before")
)

// ReadWeekWindow reads the part of the week folded text names; nil when
// none. Days: a part of the week first (words.WeekPartIn), then a day of the
// week (WeekdayIn), then a day from today (RelativeDayIn). Hours: a clock
// time first, then a part of the day as a span (DayPartIn).
func ReadWeekWindow(s string) *WeekWindow {
	w := &WeekWindow{}
	named := true
	if p, ok := words.WeekPartIn(s); ok {
		w.Set = p.ID
		for _, d := range p.Days {
			w.Days = append(w.Days, words.DayIndex(d))
		}
	} else if d, ok := words.WeekdayIn(s); ok {
		w.Days = []int{d.Index()}
	} else if r, ok := words.RelativeDayIn(s); ok {
		w.Relative, w.RelDays = true, r.Days
	} else {
		named = false
	}
	if start, end, ok := clockHours(s); ok {
		w.Clock, w.Start, w.End = true, start, end
	} else if p, ok := words.DayPartIn(s); ok {
		w.Part, w.Start, w.End = p.ID, p.From, p.To
	}
	if !named && !w.HasHours() {
		return nil
	}
	return w
}

// clockHours reads a clock hour or range of hours: "上午10点" is 10–11,
// "下午3点到6点" 15–18, "10pm" 22–23. The hours are ClockHour's (ParseNum
// and 0–24).
func clockHours(s string) (start, end int, ok bool) {
	for _, ix := range reClockHours.FindAllStringSubmatchIndex(s, -1) {
		if ix[4] > 0 && isDigit(s[ix[4]-1]) {
			continue // the end of a longer number: "4090点"
		}
		m := make([]string, len(ix)/2)
		for i := range m {
			if ix[2*i] >= 0 {
				m[i] = s[ix[2*i]:ix[2*i+1]]
			}
		}
		pre, num := m[1], m[2]
		h, isHour := ClockHour(num)
		// Chinese numerals only after a part of the day: "快一点" is not
		// one o'clock.
		if !isHour || !isDigit(num[0]) && (pre == "" || !plainNumeral(num)) {
			continue
		}
		// The part of the day before the hour says how it reads (its
		// clock); "只有晚上能跑，7点到11点": an evening said earlier makes a
		// bare 5–11 o'clock an evening hour.
		part, _ := words.DayPartNamed(pre)
		pm := part.Clock == words.ClockPM || m[3] == "pm" || part.Clock == words.ClockNoon && h < 6 ||
			pre == "" && m[3] == "" && h >= 5 && h < 12 && reEveningBefore.MatchString(s[:ix[0]])
		if m[3] != "" && (h == 0 || h > 12) {
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
			e, ok := ClockHour(m[4])
			if !ok {
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

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// ClockHour is an hour of the clock as written ("7", "07", "十一"): the
// one number parser's (words.ParseNum) whole number within 0–24; ok is
// false for any other.
func ClockHour(s string) (int, bool) {
	v, ok := words.ParseNum(s)
	if !ok || v != math.Trunc(v) || v < 0 || v > 24 {
		return 0, false
	}
	return int(v), true
}

// plainNumeral reports whether a Chinese numeral is written as a count is,
// up to 99: one digit, or 十 with at most one digit before and after it
// ("八", "十二", "二十四"); not "一二" or "十十" (which ParseNum reads).
func plainNumeral(s string) bool {
	rs := []rune(s)
	isTen := func(r rune) bool { v, ok := words.ParseNum(string(r)); return ok && v == 10 }
	ten := slices.IndexFunc(rs, isTen)
	switch {
	case ten < 0:
		return len(rs) == 1
	case ten > 1 || len(rs)-ten > 2 || slices.ContainsFunc(rs[ten+1:], isTen):
		return false
	}
	return true
}
