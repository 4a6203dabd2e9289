package estimate

import (
	"math"
	"slices"
	"time"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/render/planview"
	"github.com/labgpu/bot/internal/understand"
)

// Defaults of a plan question that does not say (stated in the answer).
const (
	defaultPlanGPU      = "RTX 4090"
	defaultPlanWeeks    = 4   // "每周40小时" priced over four weeks
	defaultDiskGB       = 50  // GB of data disk
	setupHoursPerWeek   = 2   // environment and uploads, no GPU needed
	sessionHours        = 8   // one start per 8 h of work
	hoursPerWeekOfClock = 168 // wall-clock hours in a week
)

// wantsOptimizer: the question gives a usage profile (hours, a span to
// run through), so it asks for the cheapest way to rent, not one mode's
// price.
func wantsOptimizer(q understand.Query) bool {
	return q.HoursPerWeek > 0 || q.TotalHours > 0 || (q.Continuous || q.SetupHours > 0) && q.SpanDays > 0 ||
		q.SpanDays > 0 && q.BillingMode == "" && q.Window != "" || q.PeriodDays > 0 || len(q.Schedule) > 0
}

// Profile reads the usage profile of a plan question, and what it
// assumed because the question did not say. prices are the known prices
// (a family named without its size, "V100", is priced as its cheapest
// variant with a price); now is the bot's clock, for a deadline
// ("ddl是下周五": the span runs from now to it).
func Profile(q understand.Query, prices []plan.Price, now time.Time) (plan.Profile, planview.Assumed) {
	as := planview.Assumed{Mentioned: q.BillingMode}
	if q.ModeNamed {
		as.Asked = q.BillingMode
	}
	p := plan.Profile{GPU: q.GPU, Count: max(q.GPUCount, 1), HoursPerWeek: q.HoursPerWeek, TotalHours: q.TotalHours, Window: q.Window, DiskGB: q.SizeGB}
	if len(q.GPUs) > 0 && (p.GPU == "" || q.GPUFamily) {
		if id, ok := cheapestVariant(q.GPUs, prices); ok {
			p.GPU = id
			if len(q.GPUs) > 1 && q.GPUFamily {
				as.Variant = q.GPU
			}
		} else {
			p.GPU = q.GPUs[len(q.GPUs)-1] // none priced: the largest variant, which the answer names
		}
	}
	if p.GPU == "" {
		p.GPU, as.GPU = defaultPlanGPU, true
	}
	days := q.SpanDays
	if days == 0 {
		days = q.PeriodDays // "for a weekend"
	}
	if p.HoursPerWeek == 0 && p.TotalHours == 0 {
		// "白天上课晚上才跑": the schedule's hours, said in the answer; a
		// span under a week is its own days ("周末两天连着跑": around the
		// clock for two days).
		if week, window, ok := weekHours(q.Schedule, q.ScheduleAlso); ok && len(q.ScheduleAlso) > 0 {
			p.HoursPerWeek, p.Window = week, window
		} else if perDay, n, window, ok := scheduleHours(q.Schedule); ok && !(days > 0 && days < 7 && perDay == wholeDay) {
			if days > 0 && days < 7 {
				n = 7
			}
			p.HoursPerWeek, as.ScheduleHours, as.ScheduleDays = perDay*float64(n), perDay, n
			if p.Window == "" {
				p.Window = window
			}
		}
	}
	if days == 0 && q.Deadline != nil && !now.IsZero() {
		days = q.Deadline.Days(now)
		as.Deadline, as.DeadlineDate = q.Deadline.Text, q.Deadline.Date(now)
	}
	p.Weeks = days / 7
	switch {
	case p.HoursPerWeek > 0 && p.Weeks == 0:
		p.Weeks, as.Span = defaultPlanWeeks, true
	case p.HoursPerWeek == 0 && p.TotalHours == 0:
		// "连续训练5天": around the clock for the span.
		p.TotalHours, as.Hours = p.Weeks*hoursPerWeekOfClock, !q.Continuous
	case p.Weeks == 0:
		// "一共跑50小时" with no span: the hours run back to back (the
		// shortest honest span), said as "连续跑约 2 天".
		p.Weeks, as.Span, as.RunThrough = p.TotalHours/hoursPerWeekOfClock, true, true
	}
	if p.DiskGB <= 0 {
		p.DiskGB, as.Disk = defaultDiskGB, true
	}
	p.SetupHours = math.Max(1, math.Round(setupHoursPerWeek*p.Weeks))
	if q.SetupHours > 0 {
		p.SetupHours, as.SetupStated = q.SetupHours, true
	}
	p.Starts = int(math.Ceil(p.Hours() / sessionHours))
	if q.Continuous || p.Hours() >= p.SpanHours()-1 {
		p.Starts = 1
	}
	return p, as
}

// cheapestVariant is the variant of ids with the lowest known price per
// GPU-hour (pay-as-you-go, or a plan's price over its term's hours); ok
// is false when none has a price.
func cheapestVariant(ids []string, prices []plan.Price) (string, bool) {
	best, bestCNY := "", math.Inf(1)
	for _, id := range ids {
		for _, pr := range prices {
			if pr.GPU != id || pr.Mode == "spot" || pr.CNY.Mid() <= 0 {
				continue
			}
			per := pr.CNY.Mid()
			if t := catalog.TermHours(pr.Mode); t > 0 {
				per /= t
			}
			if per < bestCNY {
				best, bestCNY = id, per
			}
		}
	}
	return best, best != ""
}

// optimize answers "我们组每周跑40小时4090，包周还是按量": every platform
// and mode priced for the profile, cheapest first, each price's source
// named for a reader.
func optimize(env *answer.Env, q understand.Query) planview.Plans {
	plats, prices := plan.FromCatalog(env.Cat, env.LabPlans)
	plats, prices = inGroup(env, q.PlatformGroup, plats, prices)
	asked := prices // the prices a family's variant is picked from
	if len(q.Platforms) > 0 {
		plats = slices.DeleteFunc(plats, func(p plan.Platform) bool { return !slices.Contains(q.Platforms, p.ID) })
		asked = slices.DeleteFunc(slices.Clone(prices), func(p plan.Price) bool { return !slices.Contains(q.Platforms, p.Platform) })
	}
	var now time.Time
	if env.Now != nil {
		now = env.Now()
	}
	prof, as := Profile(q, asked, now)
	out := plan.Optimize(prof, plats, prices, env.QueueRisk)
	p := planview.Plans{Result: out, Assumed: as, Lang: i18n.Of(q.English), BudgetCNY: q.BudgetTotalCNY, USD: q.Currency == understand.CurrencyUSD}
	for _, o := range out.Options {
		src := ""
		if !o.Price.Lab {
			src = answer.Cite(env.Cat, o.Price.Platform, o.Price.CNY, q.English)
		}
		p.Sources = append(p.Sources, src)
	}
	if len(out.Options) > 0 {
		p.RulesSource = rulesSource(env, out.Options[0], q.English)
		p.Verdict = plansVerdict(out, as, q)
	}
	return p
}

// rulesSource names the source of the billing rules of o's mode on its
// platform ("" when the catalog has none).
func rulesSource(env *answer.Env, o plan.Option, en bool) string {
	pl, ok := env.Cat.Platform(o.Platform)
	if !ok {
		return ""
	}
	r, ok := pl.RuleFor(o.Mode)
	if !ok {
		return ""
	}
	return answer.Cite(env.Cat, o.Platform, catalog.Figure{AsOf: r.AsOf, Source: r.Source, Verified: r.Verified}, en)
}

// CheapestPlan is the cheapest way to rent gpu (count cards) for a job of
// hours on platform, at the catalog's and the lab's prices (env.LabPlans),
// and the option it rests on; ok is false when no price is known. The
// estimate answer says which plan it assumed.
func CheapestPlan(env *answer.Env, platform, gpu string, count int, hours float64) (plan.Option, bool) {
	plats, prices := plan.FromCatalog(env.Cat, env.LabPlans)
	prof := plan.Profile{GPU: gpu, Count: max(count, 1), TotalHours: hours, Weeks: hours / hoursPerWeekOfClock, Starts: 1}
	plats = slices.DeleteFunc(plats, func(p plan.Platform) bool { return p.ID != platform })
	out := plan.Optimize(prof, plats, prices, nil)
	if len(out.Options) == 0 {
		return plan.Option{}, false
	}
	return out.Options[0], true
}

// planNote is the billing mode the estimate's cheapest option o assumed:
// pay-as-you-go, or the plan that is cheaper for its hours on its
// platform, with its price's source.
func planNote(env *answer.Env, o estimator.Option, en bool) *estimateview.PlanNote {
	n := &estimateview.PlanNote{Hours: o.Hours}
	best, ok := CheapestPlan(env, o.Platform, o.GPU, o.GPUCount, o.Hours)
	if !ok || best.Mode == "hourly" || best.Mid() >= o.TotalCNY {
		return n
	}
	n.Platform, n.Mode, n.CNY, n.Source = o.Platform, best.Mode, best.Mid(), answer.Cite(env.Cat, o.Platform, best.Price.CNY, en)
	return n
}
