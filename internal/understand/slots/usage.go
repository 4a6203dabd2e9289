package slots

import (
	"math"
	"strings"

	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand/slots/when"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// The usage profile of a plan question (issue 16): "每周跑40小时",
// "一个月要跑300小时", "连续训练5天", "晚上跑", "数据盘200G" (SizeGB); the
// words are configs/slots/usage.yaml's, the window of the day the
// vocabulary's (words.WindowIn, words.WindowOf), a due date package
// when's (ReadDeadline).
var (
	// reHoursPerWeek: "每周跑40小时", "一周 40h", "40小时/周", "40 hours a week".
	reHoursPerWeek = words.NewExprs("usage.hours_per_week", 2)
	// reHoursPerDay: "每天跑8小时", "每晚4个小时", "8 hours a day".
	reHoursPerDay = words.NewExprs("usage.hours_per_day", 3)
	// reTotalHours: "300小时", "300 h", "300 GPU hours".
	reTotalHours = words.NewExpr("usage.total_hours")
	// reTotalSaid says the hours are a total ("一共60小时").
	reTotalSaid = words.NewExpr("usage.total_said")
	// reSpan: how long the work lasts: "5天", "三周", "一个月", "半个月",
	// "一个多月" (多: a quarter unit more), "2 weeks".
	reSpan = words.NewExpr("usage.span")
	// reSpanEnglish: "for a month", "over two weeks", "within the next
	// three days", "in a couple of weeks" (a preposition first: "40 hours a
	// week" is a rate, not a span).
	reSpanEnglish = words.NewExpr("usage.span_english")
	// reDaysPerWeek: "每周跑5天" (with "每天8小时": 40 h a week, not 56).
	reDaysPerWeek = words.NewExpr("usage.days_per_week")
	// reSetup: the hours of setup a question states before the GPU work
	// ("配环境要一天左右", "装环境大概5小时", "setup takes a day"): the unit
	// is group 2 (hours or days).
	reSetup = words.NewExpr("usage.setup")
	// reWeekdaysOnly and reWeekendsOnly: the days a week the work runs
	// ("周末不跑", "只在周末", "weekdays only"); reFullDay: the whole day
	// ("周末两天跑满").
	reWeekdaysOnly = words.NewExpr("usage.weekdays_only")
	reWeekendsOnly = words.NewExpr("usage.weekends_only")
	reFullDay      = words.NewExpr("usage.full_day")
	// rePerMonth: a total is per month ("100 hours a month").
	rePerMonth = words.NewExpr("usage.per_month")
	// reContinuous: the cards run around the clock.
	reContinuous = words.NewExpr("usage.continuous")
	// dayUnits: a setup time's units counted in days.
	dayUnits = words.NewWords("usage.day_units")
)

// daysPerYear is a year of a span ("半年": 180 days, six months of the
// catalog's 30 days); maxSpanYears the most years read as one ("2025年"
// is a date).
const (
	daysPerYear  = 360
	maxSpanYears = 5
)

// minTotalHours is the fewest hours read as a job's total: "多少钱一小时"
// is a price unit, not a usage profile.
const minTotalHours = 5

// extractUsage reads the usage profile: hours per week (hours per day ×
// 7, or × the days a week stated, wins over any other number: "跑一周，
// 每天12小时" is 84 h a week), total hours, the span in days, a deadline,
// whether the cards run around the clock, and the window of the day. It
// blanks nothing: "一个月" is also the billing mode.
func extractUsage(x *Extraction) {
	q := x.q
	// spanText is rest without the setup and rate phrases, so "配环境要一
	// 天", "一天跑8小时" and "每周5天" are not read as a span.
	spanText := x.rest
	if m := reSetup.FindStringSubmatchIndex(x.rest); m != nil {
		if v, ok := setupHours(x.rest[m[2]:m[3]], x.rest[m[4]:m[5]]); ok {
			q.SetupHours = v
			spanText = blank(spanText, m[0], m[1])
		}
	}
	spanText = usageRate(x, spanText)
	q.Deadline = when.ReadDeadline(x.rest)
	if d := q.Deadline; d != nil {
		if i := strings.Index(spanText, d.Text); i >= 0 && d.Text != "" {
			spanText = blank(spanText, i, i+len(d.Text))
		}
	}
	if m := rePerMonth.FindStringIndex(spanText); m != nil && q.TotalHours > 0 {
		// "一个月大概用120小时，租两周": the rate's month is no span.
		spanText = blank(spanText, m[0], m[1])
	}
	q.SpanDays, x.spanAt = spanDays(spanText)
	if q.TotalHours > 0 && rePerMonth.MatchString(x.rest) {
		switch {
		case q.SpanDays == 0:
			q.SpanDays = 30 // "~100 hours a month"
		case q.SpanDays != 30:
			// "每月200小时，用4个月": the hours of every month of the span
			// (800 h over 120 days, not 200 h in all); "每月100小时 用两
			// 周": 47 h.
			q.TotalHours = math.Round(q.TotalHours * q.SpanDays / 30)
		}
		if h := q.SpanDays * 24; q.TotalHours > h {
			// More hours a month than it has ("每月99999小时"): the
			// cards run around the clock for the span.
			q.TotalHours, q.Continuous = h, true
		}
	}
	q.Continuous = q.Continuous || reContinuous.MatchString(x.rest)
	if q.Window == "" {
		q.Window = words.WindowIn(x.rest)
	}
}

// usageRate reads hours per week (or in all) into x.q and returns
// spanText with the phrases it read blanked: a clock range a day ("晚上7
// 点到11点" 4 h, evening), else hours a day, × the days a week (5 for
// weekdays only, 2 for weekends only, "每周跑5天"); else hours a week;
// else a total.
func usageRate(x *Extraction, spanText string) string {
	q := x.q
	perDay, perDayOK := 0.0, false
	if loc, h, window, ok := clockRange(x.rest); ok {
		perDay, perDayOK, q.Window = h, true, window
		spanText = blank(spanText, loc[0], loc[1])
	} else if loc, v, ok := firstNumAt(reHoursPerDay.All(), x.rest); ok && v > 0 && v <= 24 {
		perDay, perDayOK = v, true
		spanText = blank(spanText, loc[0], loc[1])
	}
	daysPerWeek := 7.0
	switch m := reDaysPerWeek.FindStringSubmatchIndex(x.rest); {
	case m != nil:
		if v, ok := words.ParseNum(x.rest[m[2]:m[3]]); ok && v >= 1 && v <= 7 {
			daysPerWeek = v
			spanText = blank(spanText, m[0], m[1])
		}
	case reWeekdaysOnly.MatchString(x.rest):
		daysPerWeek = 5
	case reWeekendsOnly.MatchString(x.rest):
		daysPerWeek = 2
		if !perDayOK && reFullDay.MatchString(x.rest) {
			perDay, perDayOK, q.Continuous = 24, true, true // "周末两天跑满"
		}
	}
	switch {
	case perDayOK:
		q.HoursPerWeek = perDay * daysPerWeek
	default:
		if loc, v, ok := firstNumAt(reHoursPerWeek.All(), x.rest); ok {
			q.HoursPerWeek = v
			return blank(spanText, loc[0], loc[1])
		}
		if v, ok := firstNum([]*textgate.Regexp{reTotalHours.Regexp()}, spanText); ok && v >= minTotalHours && v != 24 {
			q.TotalHours, q.TotalSaid = v, reTotalSaid.MatchString(spanText)
		}
	}
	return spanText
}

// spanDays is how long the work lasts, in days: "5天", "三周", "一个半月"
// (45), "一个多月" (a quarter unit more: 38), "over two weeks"; 0 when
// unstated. at is the span's place in s (nil: none).
func spanDays(s string) (days float64, at []int) {
	// The longest span stated: "一周就周末两天跑满…租一个月" is a month (a
	// rate's "一周" is never longer than the work).
	best := 0.0
	for _, m := range reSpan.FindAllStringSubmatchIndex(s, -1) {
		d, ok := spanMatch(s, m)
		if ok && d > best {
			best, at = d, m[:2]
		}
	}
	if best > 0 {
		return best, at
	}
	if m := reSpanEnglish.FindStringSubmatchIndex(s); m != nil {
		return englishCount(s[m[2]:m[3]]) * spanUnitDays(s[m[4]:m[5]]), m[:2]
	}
	return 0, nil
}

// spanMatch is the days of one match of reSpan (its submatch indexes
// in s).
func spanMatch(s string, m []int) (float64, bool) {
	group := func(i int) string {
		if m[2*i] < 0 {
			return ""
		}
		return s[m[2*i]:m[2*i+1]]
	}
	v, ok := words.Number("numbers.half", group(1))
	if !ok {
		v, ok = words.ParseNum(group(1))
	}
	if !ok || v <= 0 {
		return 0, false
	}
	unit := spanUnitDays(group(4))
	if unit >= daysPerYear && v > maxSpanYears {
		return 0, false // "2025年" is a year, not a span
	}
	switch {
	case isHalf(group(2)):
		return (v + 0.5) * unit, true
	case group(3) != "":
		// 多: a quarter unit more.
		return math.Round((v + 0.25) * unit), true
	}
	return v * unit, true
}

// clockRange reads a daily clock range ("晚上7点到11点", "每晚10点到早上8
// 点", "8pm to 2am") as hours a day and the window it falls in; loc is
// its span in s. Its hours are when.ClockHour's (ParseNum and 0–24).
func clockRange(s string) (loc []int, hours float64, window string, ok bool) {
	loc, from, to, ok := when.ClockSpan(s)
	if loc == nil {
		return nil, 0, "", false
	}
	return loc, rangeHours(from, to), words.WindowOf(from), ok
}

// rangeHours is the hours from one clock hour to another, past midnight
// if need be ("22 to 8" is 10).
func rangeHours(from, to int) float64 {
	h := (to - from + 24) % 24
	if h == 0 {
		h = 24
	}
	return float64(h)
}

// setupHours is a stated setup time in hours ("一天" 24, "半天" 12,
// "5小时" 5); ok is false past a week, which is not setup.
func setupHours(num, unit string) (float64, bool) {
	v, ok := words.Number("numbers.half", num)
	if !ok {
		v, ok = words.ParseNum(num)
	}
	if !ok {
		v, ok = englishNumber(num) // "a day"
	}
	if !ok || v <= 0 {
		return 0, false
	}
	if dayUnits.Has(unit) {
		v *= 24
	}
	return v, v <= 168
}

// englishCount is "a"/"one" 1 … "ten" 10, "a couple of" 2, "a few" 3
// (numbers.english); 1 for another word.
func englishCount(s string) float64 {
	if v, ok := englishNumber(s); ok {
		return v
	}
	return 1
}

// firstNumAt is firstNum with the span of the match.
func firstNumAt(res []*textgate.Regexp, s string) ([]int, float64, bool) {
	for _, re := range res {
		if m := re.FindStringSubmatchIndex(s); m != nil {
			if v, ok := words.ParseNum(s[m[2]:m[3]]); ok {
				return m[:2], v, true
			}
		}
	}
	return nil, 0, false
}

// firstNum is the number of the first regexp that matches.
func firstNum(res []*textgate.Regexp, s string) (float64, bool) {
	for _, re := range res {
		if m := re.FindStringSubmatch(s); m != nil {
			if v, ok := words.ParseNum(m[1]); ok {
				return v, true
			}
		}
	}
	return 0, false
}

// spanUnitDays is the days of a span unit ("周" 7, "月" 30:
// usage.span_unit_days), 1 for another.
func spanUnitDays(unit string) float64 {
	if v, ok := words.Number("usage.span_unit_days", unit); ok {
		return v
	}
	return 1
}
