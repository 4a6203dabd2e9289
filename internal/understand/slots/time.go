package slots

import (
	"strings"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// billingModes are the words for each billing mode, non-hourly first
// (configs/slots/billing.yaml).
var billingModes = []struct {
	mode string
	re   *words.Expr
}{
	{ModeSpot, words.NewExpr("billing.spot")},
	{ModeYearly, words.NewExpr("billing.yearly")},
	{ModeMonthly, words.NewExpr("billing.monthly")},
	{ModeWeekly, words.NewExpr("billing.weekly")},
	{ModeDaily, words.NewExpr("billing.daily")},
	{ModeHourly, words.NewExpr("billing.hourly")},
}

// reNamedPlan names a plan outright (包周, 按月, 月租, 年付): it wins over
// words of frequency or length ("每周跑100小时，包月划算吗" asks about
// 包月, not a weekly plan).
var reNamedPlan = words.NewExpr("billing.named_plan")

// reHourlyTime: after an hourly word, a time ("一小时后"), not the mode;
// reHourlyMute: before it, a mute or pause ("静音一小时吧"): how long.
var (
	reHourlyTime = words.NewExpr("billing.hourly_time_after")
	reHourlyMute = words.NewExpr("billing.hourly_time_before")
)

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
		if loc != nil && bm.mode == ModeHourly && (reHourlyTime.MatchString(x.rest[loc[1]:]) || reHourlyMute.MatchString(x.rest[:loc[0]])) {
			loc = nil // "一小时后呢", "静音一小时": a time
		}
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
		re     *words.Expr
	}{
		{PeriodLastWeek, words.NewExpr("billing.last_week")},
		{PeriodThisWeek, words.NewExpr("billing.this_week")},
		{PeriodLastMonth, words.NewExpr("billing.last_month")},
		{PeriodThisMonth, words.NewExpr("billing.this_month")},
	}
	// reWeek is an ISO week: "2026-w47", "w47", "第47周".
	reWeek = words.NewExpr("billing.iso_week")
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
