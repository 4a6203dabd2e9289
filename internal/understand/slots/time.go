package slots

import (
	"strings"

	"github.com/labgpu/bot/internal/textgate"
)

// billingModes are the words for each billing mode, non-hourly first.
var billingModes = []struct {
	mode string
	re   *textgate.Regexp
}{
	{ModeSpot, textgate.MustCompile(`竞价|抢占式?实例|可中断|\bspot\b|interruptible|preemptible`)},
	{ModeYearly, textgate.MustCompile(`包年|一年|每年|年付|年租|按年|\bper year\b|\byearly\b|\bannual(?:ly)?\b|\ba year\b`)},
	{ModeMonthly, textgate.MustCompile(`包月|包越|一个月|每个?月|月租|月付|按月|租一月|\bper month\b|\bmonthly\b|\ba month\b|\b1 month\b|30\s*天`)},
	{ModeWeekly, textgate.MustCompile(`包周|一周|两周|几周|半个月|每周|周租|按周|一个?星期|一个?礼拜|\bwhole week\b|\b\d+ weeks\b|\btwo weeks\b|\bper week\b|\bweekly\b|\ba week\b|\b1 week\b|7\s*天`)},
	{ModeDaily, textgate.MustCompile(`包日|包天|按天|一天|每天|日租|天租|\bper day\b|\bdaily\b|\ba day\b|\b1 day\b|24\s*(?:小时|h)`)},
	{ModeHourly, textgate.MustCompile(`按量|按小时|按时计|每小时|一小时|\bper hour\b|\bhourly\b|pay[ -]as[ -]you[ -]go|按需|on[ -]demand`)},
}

// reNamedPlan names a plan outright (包周, 按月, 月租, 年付): it wins over
// words of frequency or length ("每周跑100小时，包月划算吗" asks about
// 包月, not a weekly plan).
var reNamedPlan = textgate.MustCompile(`包[日天周月年越]|按[天周月年]|[日天周月年]租|[月年]付|竞价|抢占式?实例|\bspot\b|\b(?:daily|weekly|monthly|yearly|annual)\s+(?:plan|subscription|rental|package|pass)s?\b`)

// extractBillingMode reads the billing mode asked about: a plan named
// outright, else the leftmost non-hourly mode ("按量和包月哪个划算" asks
// about 包月), else hourly.
func extractBillingMode(x *Extraction) {
	if loc := reNamedPlan.FindStringIndex(x.rest); loc != nil {
		named := x.rest[loc[0]:loc[1]]
		for _, bm := range billingModes {
			if bm.re.MatchString(named) {
				x.q.BillingMode, x.q.ModeNamed = bm.mode, true
				x.use(loc[0], loc[1], phMode)
				return
			}
		}
	}
	best, at, span := "", -1, []int(nil)
	for _, bm := range billingModes {
		loc := bm.re.FindStringIndex(x.rest)
		if loc == nil {
			continue
		}
		if bm.mode == ModeHourly && best != "" {
			break
		}
		if at < 0 || loc[0] < at {
			best, at, span = bm.mode, loc[0], loc
		}
	}
	if best == "" {
		return
	}
	x.q.BillingMode = best
	x.use(span[0], span[1], phMode)
}

var (
	periods = []struct {
		period string
		re     *textgate.Regexp
	}{
		{PeriodLastWeek, textgate.MustCompile(`上周|上星期|上个星期|上礼拜|上个礼拜|\blast week\b|\bprevious week\b`)},
		{PeriodThisWeek, textgate.MustCompile(`本周|这周|这星期|这个星期|这礼拜|这个礼拜|\bthis week\b`)},
		{PeriodLastMonth, textgate.MustCompile(`上个?月|\blast month\b|\bprevious month\b`)},
		{PeriodThisMonth, textgate.MustCompile(`本月|这个月|这月|当月|\bthis month\b|month to date`)},
	}
	// reWeek is an ISO week: "2026-w47", "w47", "第47周".
	reWeek = textgate.MustCompile(`(?:(\d{4})\s*-?\s*)?\bw(\d{1,2})\b|第\s*(\d{1,2})\s*周`)
)

// extractPeriod reads a time span (this week, last month) and an ISO
// week.
func extractPeriod(x *Extraction) {
	for _, p := range periods {
		if p.re.MatchString(x.rest) {
			x.q.Period = p.period
			break
		}
	}
	if m := reWeek.FindStringSubmatch(x.rest); m != nil {
		w := m[2] + m[3]
		if len(w) == 1 {
			w = "0" + w
		}
		if w != "00" {
			// An impossible week ("W60") is kept: the digest names it.
			x.q.Week = strings.TrimPrefix(m[1]+"-W"+w, "-")
		}
	}
}
