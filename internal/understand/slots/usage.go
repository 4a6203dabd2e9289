package slots

import (
	"math"
	"strings"

	"github.com/labgpu/bot/internal/textgate"
)

// The usage profile of a plan question (issue 16): "每周跑40小时",
// "一个月要跑300小时", "连续训练5天", "晚上跑", "数据盘200G" (SizeGB).
var (
	// reHoursPerWeek: "每周跑40小时", "一周 40h", "40小时/周", "40 hours a week".
	reHoursPerWeek = []*textgate.Regexp{
		textgate.MustCompile(`(?:每周|一周|每个?星期|每个?礼拜|一个?星期)[^\d零一二两三四五六七八九十百]{0,8}` + numPat + `\s*(?:个)?\s*(?:小时|钟头|h\b|hours?)`),
		textgate.MustCompile(numPat + `\s*(?:个)?\s*(?:小时|h|hours?)\s*(?:/|每|一|a|per)\s*(?:周|星期|礼拜|week|wk)`),
	}
	// reHoursPerDay: "每天跑8小时", "每晚4个小时", "8 hours a day".
	reHoursPerDay = []*textgate.Regexp{
		textgate.MustCompile(`(?:每天|一天|每日|每晚|每个?晚上|每夜|每个?白天)[^\d零一二两三四五六七八九十百]{0,8}` + numPat + `\s*(?:个)?\s*(?:小时|钟头|h\b|hours?)`),
		textgate.MustCompile(numPat + `\s*(?:个)?\s*(?:小时|h|hours?)\s*(?:/|每|a|per|every|each)\s*(?:天|日|晚|day|night|evening)`),
		textgate.MustCompile(numPat + `\s*(?:h|hours?)\s+(?:nightly|daily)\b`),
	}
	// reTotalHours: "300小时", "300 h", "300 GPU hours".
	reTotalHours = textgate.MustCompile(numPat + `\s*(?:个)?\s*(?:小时|钟头|卡时|h\b|(?:gpu[ -])?hours?)`)
	// reSpan: how long the work lasts: "5天", "三周", "一个月", "半个月",
	// "一个多月" (多: a quarter unit more), "2 weeks".
	reSpan = textgate.MustCompile(`(半|` + numPat[1:len(numPat)-1] + `)\s*(?:个)?\s*(多)?\s*(?:个)?\s*(天|日|周|星期|礼拜|月|days?|weeks?|months?)`)
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
	// reContinuous: the cards run around the clock.
	reContinuous = textgate.MustCompile(`连续|不停|不间断|一直跑|24\s*小时|全天|nonstop|non-stop|around the clock|continuous(?:ly)?|straight`)
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
	// spanText is rest without the rate phrases, so "一天跑8小时" and
	// "每周5天" are not read as a span.
	spanText := x.rest
	if m := reSetup.FindStringSubmatchIndex(x.rest); m != nil {
		if v, ok := setupHours(x.rest[m[2]:m[3]], x.rest[m[4]:m[5]]); ok {
			q.SetupHours = v
			spanText = blank(spanText, m[0], m[1])
		}
	}
	perDay, perDayOK := 0.0, false
	if loc, v, ok := firstNumAt(reHoursPerDay, x.rest); ok && v > 0 && v <= 24 {
		perDay, perDayOK = v, true
		spanText = blank(spanText, loc[0], loc[1])
	}
	daysPerWeek := 7.0
	if m := reDaysPerWeek.FindStringSubmatchIndex(x.rest); m != nil {
		if v, ok := ParseNum(x.rest[m[2]:m[3]]); ok && v >= 1 && v <= 7 {
			daysPerWeek = v
			spanText = blank(spanText, m[0], m[1])
		}
	}
	if perDayOK {
		q.HoursPerWeek = perDay * daysPerWeek
	} else if loc, v, ok := firstNumAt(reHoursPerWeek, x.rest); ok {
		q.HoursPerWeek = v
		spanText = blank(spanText, loc[0], loc[1])
	} else if v, ok := firstNum([]*textgate.Regexp{reTotalHours}, spanText); ok && v >= minTotalHours && v != 24 {
		q.TotalHours = v
	}
	extractDeadline(x)
	if d := q.Deadline; d != nil {
		if i := strings.Index(spanText, d.Text); i >= 0 && d.Text != "" {
			spanText = blank(spanText, i, i+len(d.Text))
		}
	}
	if m := reSpan.FindStringSubmatch(spanText); m != nil {
		v, ok := 0.5, m[1] == "半"
		if !ok {
			v, ok = ParseNum(m[1])
		}
		if ok && v > 0 {
			q.SpanDays = v * spanUnitDays(m[len(m)-1])
			if m[2] == "多" {
				q.SpanDays = math.Round((v + 0.25) * spanUnitDays(m[len(m)-1]))
			}
		}
	}
	if q.SpanDays == 0 {
		if m := reSpanEnglish.FindStringSubmatch(spanText); m != nil {
			q.SpanDays = englishCount(m[1]) * spanUnitDays(m[2])
		}
	}
	q.Continuous = reContinuous.MatchString(x.rest)
	switch {
	case reEvening.MatchString(x.rest):
		q.Window = WindowEvening
	case reDaytime.MatchString(x.rest):
		q.Window = WindowDay
	}
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
