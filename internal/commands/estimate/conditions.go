package estimate

import (
	"slices"
	"sort"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/understand"
)

// Hours a day a schedule runs when the question gives no hours (said in
// the answer): an evening is the seeds' busy window 19:00-23:00, a night
// 22:00-08:00, a working day 08:00-18:00; a schedule of days only
// (weekdays, weekends) runs the whole day.
const (
	eveningHours = 4
	nightHours   = 10
	daytimeHours = 10
	wholeDay     = 24
)

// scheduleHours are the hours a day and the days a week a schedule runs
// (Query.Schedule), and the window of the day; ok is false for no
// schedule.
func scheduleHours(schedule []string) (perDay float64, days int, window string, ok bool) {
	if len(schedule) == 0 {
		return 0, 0, "", false
	}
	perDay, days = wholeDay, 7
	for _, s := range schedule {
		switch s {
		case understand.ScheduleEvenings:
			perDay, window = eveningHours, plan.WindowEvening
		case understand.ScheduleNights:
			perDay, window = nightHours, plan.WindowEvening
		case understand.ScheduleDaytime:
			perDay, window = daytimeHours, plan.WindowDay
		case understand.ScheduleWeekdays:
			days = 5
		case understand.ScheduleWeekends:
			days = 2
		}
	}
	return perDay, days, window, true
}

// weekHours are the hours a week the schedule and the schedules added
// to it run ("只有晚上跑" then "周末也跑": the evenings and the weekends,
// the weekend evenings counted once; each added schedule is one of its
// own); window is the schedule's when nothing is added; ok is false for
// no schedule.
func weekHours(schedule, also []string) (hours float64, window string, ok bool) {
	perDay, days, window, ok := scheduleHours(schedule)
	if !ok {
		return 0, "", false
	}
	if len(also) == 0 {
		return perDay * float64(days), window, true
	}
	var week [2][24]bool // weekdays, weekends × the hours of a day
	for _, part := range append([][]string{schedule}, splitEach(also)...) {
		d, h := scheduleMask(part)
		for c := range week {
			for i := range week[c] {
				week[c][i] = week[c][i] || d[c] && h[i]
			}
		}
	}
	for c, n := range [2]float64{5, 2} {
		for _, on := range week[c] {
			if on {
				hours += n
			}
		}
	}
	return hours, "", true
}

// splitEach is each element of xs as a list of its own.
func splitEach(xs []string) [][]string {
	out := make([][]string, len(xs))
	for i, x := range xs {
		out[i] = []string{x}
	}
	return out
}

// scheduleMask is when a schedule runs: on weekdays and weekends, and the
// hours of the day (an evening 19:00-23:00, a night 22:00-08:00, a
// working day 08:00-18:00, as scheduleHours counts them).
func scheduleMask(schedule []string) (days [2]bool, hours [24]bool) {
	days = [2]bool{true, true}
	from, to := 0, 24
	for _, s := range schedule {
		switch s {
		case understand.ScheduleEvenings:
			from, to = 19, 19+eveningHours
		case understand.ScheduleNights:
			from, to = 22, 22+nightHours
		case understand.ScheduleDaytime:
			from, to = 8, 8+daytimeHours
		case understand.ScheduleWeekdays:
			days = [2]bool{true, false}
		case understand.ScheduleWeekends:
			days = [2]bool{false, true}
		}
	}
	for h := from; h < to; h++ {
		hours[h%24] = true
	}
	return days, hours
}

// planGPUs applies the VRAM asked to a plan question's cards: none named,
// the cards within it (the optimizer prices the cheapest, as it does a
// family's variants); named, those within it.
func planGPUs(env *answer.Env, q *understand.Query, uses *answer.Uses) {
	uses.Add(answer.NarrowByVRAM(env.Cat, q)...)
}

// optimizerUses are what the optimizer does with the conditions: the
// period is its span and the schedule its hours (the verdict says the
// span), the group its platforms, the budget and the currency its lines;
// list prices have no region, and it costs a whole job, so an hourly
// ceiling is not used.
func optimizerUses(uses *answer.Uses) {
	uses.Add(answer.Said(understand.CondPeriod, understand.CondBudget, understand.CondCurrency)...)
	uses.Add(answer.Applied(understand.CondSchedule, understand.CondPlatformGroup)...)
	uses.Add(answer.NotUsed(understand.CondRegion, answer.WhyListRegion), answer.NotUsed(understand.CondPriceTotal, answer.WhyNoPrice),
		answer.NotUsed(understand.CondPricePerCard, answer.WhyNoPrice))
}

// inGroup keeps the optimizer's platforms and prices of the platform
// group asked.
func inGroup(env *answer.Env, group string, plats []plan.Platform, prices []plan.Price) ([]plan.Platform, []plan.Price) {
	if group == "" {
		return plats, prices
	}
	plats = slices.DeleteFunc(plats, func(p plan.Platform) bool { return !answer.InGroup(env.Cat, p.ID, group) })
	prices = slices.DeleteFunc(prices, func(p plan.Price) bool { return !answer.InGroup(env.Cat, p.Platform, group) })
	return plats, prices
}

// periodNote prices the estimate's cheapest option over the period the
// question states (the job runs that long: days × the schedule's hours a
// day, else around the clock), in the billing mode cheapest for it; nil
// without a period or a price.
func periodNote(env *answer.Env, q understand.Query, o estimator.Option) *estimateview.PeriodNote {
	if q.PeriodDays <= 0 {
		return nil
	}
	hours := q.PeriodDays * wholeDay
	if week, _, ok := weekHours(q.Schedule, q.ScheduleAlso); ok {
		hours = q.PeriodDays * week / 7
	}
	best, ok := CheapestPlan(env, o.Platform, o.GPU, o.GPUCount, hours)
	if !ok {
		return nil
	}
	return &estimateview.PeriodNote{Days: q.PeriodDays, Hours: hours, Platform: o.Platform, GPU: o.GPU, Count: max(o.GPUCount, 1),
		Mode: best.Mode, CNY: best.CostCNY, JobHours: o.Hours}
}

// estimateUses are what an estimate does with the conditions: the VRAM
// (the cards within it), the platform group (its prices), the period (a
// line pricing the card over it, with the schedule's hours), the budget
// and the currency (lines); list prices have no region and a job's cost
// filters no hourly price.
func estimateUses(q *understand.Query, e *estimateview.Estimate, uses *answer.Uses) {
	uses.Add(answer.Applied(understand.CondPlatformGroup)...)
	if e.Period != nil {
		uses.Add(answer.Said(understand.CondPeriod)...)
		uses.Add(answer.Applied(understand.CondSchedule)...)
	}
	if len(e.Options) > 0 {
		uses.Add(answer.Said(understand.CondBudget, understand.CondCurrency)...)
	}
	uses.Add(answer.NotUsed(understand.CondRegion, answer.WhyListRegion), answer.NotUsed(understand.CondPriceTotal, answer.WhyNoPrice),
		answer.NotUsed(understand.CondPricePerCard, answer.WhyNoPrice))
}

// budgetHours answers "预算1000块 4090 能跑多少小时": per platform of the
// group asked, the card's pay-as-you-go list price and the hours the
// budget buys at it for the cards asked, cheapest first.
func budgetHours(env *answer.Env, q understand.Query) estimateview.Budget {
	b := estimateview.Budget{BudgetCNY: q.BudgetTotalCNY, BudgetSaid: budgetSaid(q, q.BudgetTotalCNY), Count: max(q.GPUCount, 1), Lang: i18n.Of(q.English)}
	n := float64(b.Count)
	for _, p := range planPlatforms(env, q) {
		if !answer.InGroup(env.Cat, p.ID, q.PlatformGroup) {
			continue
		}
		for _, pr := range p.Prices {
			f := pr.CNYPerHour
			if len(q.GPUs) > 0 && !slices.Contains(q.GPUs, pr.GPU) || f.Low <= 0 || catalog.ListPriceStale(f.AsOf, env.Now(), env.ListPriceMaxAge) {
				continue
			}
			b.Rows = append(b.Rows, estimateview.BudgetRow{Platform: p.ID, GPU: pr.GPU, Price: f,
				Hours: [2]float64{b.BudgetCNY / (f.High * n), b.BudgetCNY / (f.Low * n)}, Source: answer.Cite(env.Cat, p.ID, f, q.English)})
		}
	}
	sort.SliceStable(b.Rows, func(i, j int) bool {
		if b.Rows[i].Price.Verified != b.Rows[j].Price.Verified {
			return b.Rows[i].Price.Verified
		}
		return b.Rows[i].Price.Mid() < b.Rows[j].Price.Mid()
	})
	return b
}
