package slots

import "slices"

// WeekWindow is the part of the week a question names ("周末晚上",
// "工作日上午", "明天上午10点", "on weekend evenings"): its days and its
// local hours, read with the one vocabulary of times of day and of the
// week (vocabulary.go, configs/slots/time.yaml).
type WeekWindow struct {
	// Set is a named set of days (WeekPart.ID: "weekend", "weekday"), Days
	// its days or the one day of the week named ("周三": [2]), counted as
	// the availability history counts them (Weekday.Index: 0 is Monday).
	// Both are empty for a day counted from today (Relative) and for every
	// day.
	Set  string
	Days []int
	// Relative: a day counted from today, RelDays days on ("今天" 0,
	// "明天" 1, "后天" 2); which day of the week that is depends on the
	// clock, so the answer works it out.
	Relative bool
	RelDays  int
	// Part is the part of the day named (DayPart.ID: "evening",
	// "evening_peak" …); "" for a clock time or no hours.
	Part string
	// Clock: the hours are a clock time or range ("10点", "下午3点到6点").
	Clock bool
	// Start and End are the local hours [Start, End) of Part (its span,
	// DayPart.From and To) or Clock (End up to 24; an evening run may wrap
	// past midnight, End < Start); both 0 when the question names no
	// hours.
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

var (
	// reClockHours is a clock hour or range of hours a question names
	// ("10点", "下午3点到6点", "10pm"): time.yaml's clock_hours, whose
	// groups are the part of the day before it, the hour, am/pm, the end
	// hour and its am/pm.
	reClockHours = NewExpr("time.clock_hours")
	// reEveningBefore: an evening said before a bare 5–11 o'clock makes it
	// an evening hour ("只有晚上能跑，7点到11点" 19–23).
	reEveningBefore = NewExpr("time.clock_evening_before")
)

// WeekSlots reads the part of the week the whole message names into
// Query.When (nil when it names none: "几点有卡" asks for the best hours).
func (x *Extraction) WeekSlots() {
	x.q.When = ReadWeekWindow(x.whole)
}

// ReadWeekWindow reads the part of the week folded text names; nil when
// none. Days: a part of the week first (WeekPartIn), then a day of the
// week (WeekdayIn), then a day from today (RelativeDayIn). Hours: a clock
// time first, then a part of the day as a span (DayPartIn).
func ReadWeekWindow(s string) *WeekWindow {
	w := &WeekWindow{}
	named := true
	if p, ok := WeekPartIn(s); ok {
		w.Set = p.ID
		for _, d := range p.Days {
			w.Days = append(w.Days, dayIndex(d))
		}
	} else if d, ok := WeekdayIn(s); ok {
		w.Days = []int{d.Index()}
	} else if r, ok := RelativeDayIn(s); ok {
		w.Relative, w.RelDays = true, r.Days
	} else {
		named = false
	}
	if start, end, ok := clockHours(s); ok {
		w.Clock, w.Start, w.End = true, start, end
	} else if p, ok := DayPartIn(s); ok {
		w.Part, w.Start, w.End = p.ID, p.From, p.To
	}
	if !named && !w.HasHours() {
		return nil
	}
	return w
}

// clockHours reads a clock hour or range of hours: "上午10点" is 10–11,
// "下午3点到6点" 15–18, "10pm" 22–23. The hours are clockHour's (ParseNum
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
		h, isHour := clockHour(num)
		// Chinese numerals only after a part of the day: "快一点" is not
		// one o'clock.
		if !isHour || !isDigit(num[0]) && (pre == "" || !plainNumeral(num)) {
			continue
		}
		// The part of the day before the hour says how it reads (its
		// clock); "只有晚上能跑，7点到11点": an evening said earlier makes a
		// bare 5–11 o'clock an evening hour.
		part, _ := dayPartNamed(pre)
		pm := part.Clock == clockPM || m[3] == "pm" || part.Clock == clockNoon && h < 6 ||
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
			e, ok := clockHour(m[4])
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

// plainNumeral reports whether a Chinese numeral is written as a count is,
// up to 99: one digit, or 十 with at most one digit before and after it
// ("八", "十二", "二十四"); not "一二" or "十十" (which ParseNum reads).
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
