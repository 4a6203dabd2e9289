package when

import "github.com/labgpu/bot/internal/understand/slots/words"

// The words of a daily clock range (configs/slots/usage.yaml).
var (
	// reClockRange: "晚上7点到11点", "10点到早上8点", "19:00-23:00": the
	// groups are the first hour's word (晚上), the hour, the second hour's
	// word (早上) and its hour.
	reClockRange = words.NewExpr("usage.clock_range")
	// reClockRangeShort: "早9到晚9", "晚8到早8": each end named by its part
	// of the day, no 点; pmShort are the parts whose hours are after noon.
	reClockRangeShort = words.NewExpr("usage.clock_range_short")
	pmShort           = words.NewWords("usage.pm_short")
	// reClockRangeEnglish: "8pm to 2am", "from 7 pm until 11 pm".
	reClockRangeEnglish = words.NewExpr("usage.clock_range_english")
	// reEvening: the words of the evening window (the vocabulary's).
	reEvening = words.WindowExpr(words.WindowEvening)
	// rangeToMorning: a clock range's second word after which the hour is
	// a morning's.
	rangeToMorning = words.NewWords("usage.range_to_morning")
)

// ClockSpan reads a daily clock range as the hours it starts and ends
// (0–24, the end past midnight below the start: 22 to 8); loc is its
// span in s, nil when there is none, and ok is false when an hour is no
// clock hour.
func ClockSpan(s string) (loc []int, from, to int, ok bool) {
	if m := reClockRange.FindStringSubmatchIndex(s); m != nil {
		from, okFrom := ClockHour(s[m[4]:m[5]])
		to, okTo := ClockHour(s[m[8]:m[9]])
		pm := m[2] >= 0 && pmWord(s[m[2]:m[3]]) || m[2] < 0 && reEvening.MatchString(s[:m[0]])
		if pm && from < 12 {
			from += 12
		}
		morning := m[6] >= 0 && rangeToMorning.Has(s[m[6]:m[7]])
		if !morning && to < from && to+12 > from && to <= 12 {
			to += 12
		}
		return m[:2], from, to, okFrom && okTo
	}
	if m := reClockRangeShort.FindStringSubmatchIndex(s); m != nil {
		// "早9到晚9": both ends named by their part of the day.
		from, okFrom := ClockHour(s[m[4]:m[5]])
		to, okTo := ClockHour(s[m[8]:m[9]])
		if pmShort.Has(s[m[2]:m[3]]) && from < 12 {
			from += 12
		}
		if pmShort.Has(s[m[6]:m[7]]) && to < 12 {
			to += 12
		}
		return m[:2], from, to, okFrom && okTo
	}
	if m := reClockRangeEnglish.FindStringSubmatchIndex(s); m != nil {
		from, okFrom := ClockHour(s[m[2]:m[3]])
		to, okTo := ClockHour(s[m[6]:m[7]])
		from, to = from%12+12*boolInt(s[m[4]:m[5]] == "pm"), to%12+12*boolInt(s[m[8]:m[9]] == "pm")
		return m[:2], from, to, okFrom && okTo
	}
	return nil, 0, 0, false
}

// pmWord reports whether a clock range's first word is a part of the
// day whose hours are afternoon or evening ("晚上", "下午", "夜里").
func pmWord(w string) bool {
	d, ok := words.DayPartNamed(w)
	return ok && d.Clock == words.ClockPM
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
