package slots

import (
	"math"
	"strconv"
	"strings"

	"github.com/labgpu/bot/internal/textgate"
)

// The usage profile of a plan question (issue 16): "每周跑40小时",
// "一个月要跑300小时", "连续训练5天", "晚上跑", "数据盘200G" (SizeGB).
var (
	// reHoursPerWeek: "每周跑40小时", "一周 40h", "40小时/周", "40 hours a week".
	reHoursPerWeek = []*textgate.Regexp{
		textgate.MustCompile(`(?:每周|一周|每个?星期|每个?礼拜|一个?星期)[^，,。；;]{0,16}?` + numPat + `\s*(?:个)?\s*(?:小时|钟头|h\b|hours?)`),
		textgate.MustCompile(numPat + `\s*(?:个)?\s*(?:小时|h|hours?)\s*(?:/|每|一|a|per)\s*(?:周|星期|礼拜|week|wk)`),
	}
	// reHoursPerDay: "每天跑8小时", "每晚4个小时", "8 hours a day".
	reHoursPerDay = []*textgate.Regexp{
		textgate.MustCompile(`(?:每天|一天|每日|每晚|每个?晚上|每夜|每个?白天|每个?工作日)[^\d零一二两三四五六七八九十百]{0,8}` + numPat + `\s*(?:个)?\s*(?:小时|钟头|h\b|hours?)`),
		textgate.MustCompile(numPat + `\s*(?:个)?\s*(?:小时|h|hours?)\s*(?:/|每|a|per|every|each|on)\s*(?:天|日|晚|工作日|weekdays?\s*(?:evening|night|morning)?s?|day|night|evening)`),
		textgate.MustCompile(numPat + `\s*(?:h|hours?)\s+(?:nightly|daily)\b`),
	}
	// reTotalHours: "300小时", "300 h", "300 GPU hours".
	reTotalHours = textgate.MustCompile(numPat + `\s*(?:个)?\s*(?:小时|钟头|卡时|h\b|(?:gpu[ -])?hours?)`)
	// reSpan: how long the work lasts: "5天", "三周", "一个月", "半个月",
	// "一个多月" (多: a quarter unit more), "2 weeks".
	reSpan = textgate.MustCompile(`(半|` + numPat[1:len(numPat)-1] + `)\s*(?:个)?\s*(半)?\s*(多)?\s*(?:个)?\s*(天|日|周|星期|礼拜|月|days?|weeks?|months?)`)
	// reSpanEnglish: "for a month", "over two weeks", "within the next
	// three days", "in a couple of weeks" (a preposition first: "40 hours a
	// week" is a rate, not a span).
	reSpanEnglish = textgate.MustCompile(`\b(?:for|over|in|within|across|during)\s+(?:the\s+)?(?:next\s+|coming\s+)?(a|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few)\s+(day|week|month)s?\b`)
	// reDaysPerWeek: "每周跑5天" (with "每天8小时": 40 h a week, not 56).
	reDaysPerWeek = textgate.MustCompile(`(?:每周|一周|每个?星期|每个?礼拜)\s*(?:只|就)?\s*(?:跑|用|训练|开)?\s*` + numPat + `\s*(?:个)?\s*(?:天|日)`)
	// reSetup: the hours of setup a question states before the GPU work
	// ("配环境要一天左右", "装环境大概5小时", "setup takes a day"): the unit
	// is group 2 (hours or days).
	reSetup = textgate.MustCompile(`(?:配环境|装环境|搭环境|配置环境|环境配置|环境搭建|传数据|上传数据|准备数据|setup|set up|setting up)[^\d零一二两三四五六七八九十半]{0,8}?(半|half an?|an?|` + numPat[1:len(numPat)-1] + `)\s*(?:个)?\s*(?:多)?\s*(小时|钟头|天|h\b|hours?|days?)`)
	// reWeekdaysOnly and reWeekendsOnly: the days a week the work runs
	// ("周末不跑", "只在周末", "weekdays only"); reFullDay: the whole day
	// ("周末两天跑满").
	reWeekdaysOnly = textgate.MustCompile(`工作日|周末不(?:跑|用|开)|周末休息|周一到周五|weekdays?\b|not on weekends|no weekends|except weekends`)
	reWeekendsOnly = textgate.MustCompile(`(?:只|就|仅)(?:在|有)?(?:周末|星期六日|礼拜六日)|周末两天|周六日|(?:only|just) (?:on )?weekends?|weekends? only`)
	reFullDay      = textgate.MustCompile(`跑满|全天|一整天|24\s*小时|all day|around the clock`)
	// reClockRange: "晚上7点到11点", "10点到早上8点", "19:00-23:00": the
	// groups are the first hour's word (晚上), the hour, the second hour's
	// word (早上) and its hour.
	reClockRange = textgate.MustCompile(`(晚上|下午|夜里|早上|上午|白天|凌晨)?\s*(\d{1,2})\s*(?:点|:00|：00)\s*(?:半)?\s*(?:到|至|-|~|—|–)\s*(晚上|下午|夜里|早上|上午|凌晨|第二天|次日)?\s*(\d{1,2})\s*(?:点|:00|：00)`)
	// reClockRangeEnglish: "8pm to 2am", "from 7 pm until 11 pm".
	reClockRangeEnglish = textgate.MustCompile(`(\d{1,2})\s*(am|pm)\s*(?:to|-|until|till|through)\s*(\d{1,2})\s*(am|pm)`)
	// rePerMonth: a total is per month ("100 hours a month").
	rePerMonth = textgate.MustCompile(`(?:hours?|h)\s*(?:a|per|each|every)\s*month|每个?月`)
	// reContinuous: the cards run around the clock.
	reContinuous = textgate.MustCompile(`连续|连着|连轴|不关机|不停|不间断|一直跑|24\s*小时|全天|nonstop|non-stop|around the clock|continuous(?:ly)?|straight`)
	// reEvening and reDaytime: the hours of the day the work runs.
	reEvening = textgate.MustCompile(`晚上|每晚|晚高峰|夜里|夜间|下班后|半夜|evening|at night|nights?\b|nightly`)
	reDaytime = textgate.MustCompile(`白天|上午|下午|错峰|daytime|during the day|mornings?\b`)
)

// minTotalHours is the fewest hours read as a job's total: "多少钱一小时"
// is a price unit, not a usage profile.
const minTotalHours = 5

// Windows of the day (Query.Window).
const (
	WindowDay     = "day"
	WindowEvening = "evening"
)

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
	extractDeadline(x)
	if d := q.Deadline; d != nil {
		if i := strings.Index(spanText, d.Text); i >= 0 && d.Text != "" {
			spanText = blank(spanText, i, i+len(d.Text))
		}
	}
	q.SpanDays = spanDays(spanText)
	if q.SpanDays == 0 && q.TotalHours > 0 && rePerMonth.MatchString(x.rest) {
		q.SpanDays = 30 // "~100 hours a month"
	}
	q.Continuous = q.Continuous || reContinuous.MatchString(x.rest)
	switch {
	case q.Window != "":
	case reEvening.MatchString(x.rest):
		q.Window = WindowEvening
	case reDaytime.MatchString(x.rest):
		q.Window = WindowDay
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
	} else if loc, v, ok := firstNumAt(reHoursPerDay, x.rest); ok && v > 0 && v <= 24 {
		perDay, perDayOK = v, true
		spanText = blank(spanText, loc[0], loc[1])
	}
	daysPerWeek := 7.0
	switch m := reDaysPerWeek.FindStringSubmatchIndex(x.rest); {
	case m != nil:
		if v, ok := ParseNum(x.rest[m[2]:m[3]]); ok && v >= 1 && v <= 7 {
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
		if loc, v, ok := firstNumAt(reHoursPerWeek, x.rest); ok {
			q.HoursPerWeek = v
			return blank(spanText, loc[0], loc[1])
		}
		if v, ok := firstNum([]*textgate.Regexp{reTotalHours}, spanText); ok && v >= minTotalHours && v != 24 {
			q.TotalHours = v
		}
	}
	return spanText
}

// spanDays is how long the work lasts, in days: "5天", "三周", "一个半月"
// (45), "一个多月" (a quarter unit more: 38), "over two weeks"; 0 when
// unstated.
func spanDays(s string) float64 {
	// The longest span stated: "一周就周末两天跑满…租一个月" is a month (a
	// rate's "一周" is never longer than the work).
	best := 0.0
	for _, m := range reSpan.FindAllStringSubmatch(s, -1) {
		v, ok := 0.5, m[1] == "半"
		if !ok {
			v, ok = ParseNum(m[1])
		}
		if !ok || v <= 0 {
			continue
		}
		unit := spanUnitDays(m[4])
		d := v * unit
		switch {
		case m[2] == "半":
			d = (v + 0.5) * unit
		case m[3] == "多":
			d = math.Round((v + 0.25) * unit)
		}
		best = math.Max(best, d)
	}
	if best > 0 {
		return best
	}
	if m := reSpanEnglish.FindStringSubmatch(s); m != nil {
		return englishCount(m[1]) * spanUnitDays(m[2])
	}
	return 0
}

// clockRange reads a daily clock range ("晚上7点到11点", "每晚10点到早上8
// 点", "8pm to 2am") as hours a day and the window it falls in; loc is
// its span in s.
func clockRange(s string) (loc []int, hours float64, window string, ok bool) {
	if m := reClockRange.FindStringSubmatchIndex(s); m != nil {
		from, _ := strconv.Atoi(s[m[4]:m[5]])
		to, _ := strconv.Atoi(s[m[8]:m[9]])
		pm := m[2] >= 0 && strings.ContainsAny(s[m[2]:m[3]], "晚下夜") || m[2] < 0 && reEvening.MatchString(s[:m[0]])
		if pm && from < 12 {
			from += 12
		}
		morning := m[6] >= 0 && strings.ContainsAny(s[m[6]:m[7]], "早凌上")
		if !morning && to < from && to+12 > from && to <= 12 {
			to += 12
		}
		return m[:2], rangeHours(from, to), windowOf(from), from <= 24 && to <= 24
	}
	if m := reClockRangeEnglish.FindStringSubmatchIndex(s); m != nil {
		from, _ := strconv.Atoi(s[m[2]:m[3]])
		to, _ := strconv.Atoi(s[m[6]:m[7]])
		from, to = from%12+12*boolInt(s[m[4]:m[5]] == "pm"), to%12+12*boolInt(s[m[8]:m[9]] == "pm")
		return m[:2], rangeHours(from, to), windowOf(from), true
	}
	return nil, 0, "", false
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

// windowOf is the window of the day a run starting at hour h is in.
func windowOf(h int) string {
	if h >= 17 || h < 5 {
		return WindowEvening
	}
	return WindowDay
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// setupHours is a stated setup time in hours ("一天" 24, "半天" 12,
// "5小时" 5); ok is false past a week, which is not setup.
func setupHours(num, unit string) (float64, bool) {
	v, ok := 0.5, num == "半" || strings.HasPrefix(num, "half")
	if !ok {
		v, ok = ParseNum(num)
	}
	if !ok && (num == "a" || num == "an") {
		v, ok = 1, true
	}
	if !ok || v <= 0 {
		return 0, false
	}
	if strings.HasPrefix(unit, "天") || strings.HasPrefix(unit, "day") {
		v *= 24
	}
	return v, v <= 168
}

// englishCount is "a"/"one" 1 … "ten" 10, "a couple of" 2, "a few" 3.
func englishCount(s string) float64 {
	for i, w := range []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"} {
		if s == w {
			return float64(i + 1)
		}
	}
	switch s {
	case "a couple of":
		return 2
	case "a few":
		return 3
	}
	return 1
}

// firstNumAt is firstNum with the span of the match.
func firstNumAt(res []*textgate.Regexp, s string) ([]int, float64, bool) {
	for _, re := range res {
		if m := re.FindStringSubmatchIndex(s); m != nil {
			if v, ok := ParseNum(s[m[2]:m[3]]); ok {
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
			if v, ok := ParseNum(m[1]); ok {
				return v, true
			}
		}
	}
	return 0, false
}

// spanUnitDays is the days of a span unit ("周" 7, "月" 30).
func spanUnitDays(unit string) float64 {
	switch unit {
	case "周", "星期", "礼拜", "week", "weeks":
		return 7
	case "月", "month", "months":
		return 30
	}
	return 1
}
