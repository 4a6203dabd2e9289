package estimate

import (
	"context"
	"slices"
	"sort"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/understand"
)

func init() { answer.Register(answer.Intent{Name: understand.IntentPlan, Answer: planAnswer}) }

// planAnswer answers "A100 80G 包月多少", "AutoDL 3090 包周多少钱", "3090 一天
// 多少钱": in the mode asked (estimateview.Plan); with a usage profile
// ("每周跑40小时4090，包周还是按量"), the cheapest way to rent it
// (planview.Plans).
func planAnswer(_ context.Context, a *answer.Ask) answer.Out {
	q := a.Query
	uses := answer.UsesOf(&q)
	planGPUs(a.Env, &q, uses)
	if wantsOptimizer(q) {
		p := optimize(a.Env, q)
		optimizerUses(uses)
		if len(p.Result.Options) == 0 {
			// No plan to check a budget against or to convert.
			uses.Add(answer.NotUsed(understand.CondBudget, answer.WhyAnswer), answer.NotUsed(understand.CondCurrency, answer.WhyNoCNY))
		}
		return answer.Out{Payload: p, Query: q, Uses: uses.List()}
	}
	if q.BudgetTotalCNY > 0 && (q.BillingMode == "" || q.BillingMode == understand.ModeHourly) {
		// "预算1000块 4090 能跑多少小时": the hours the budget buys.
		uses.Add(answer.Said(understand.CondBudget)...)
		uses.Add(budgetCurrency(q)...)
		uses.Add(answer.Applied(understand.CondPlatformGroup)...)
		return answer.Out{Payload: budgetHours(a.Env, q), Query: q, Uses: uses.List()}
	}
	uses.Add(answer.Applied(understand.CondPlatformGroup)...)
	uses.Add(answer.NotUsed(understand.CondRegion, answer.WhyListRegion))
	p := estimateview.Plan{Plan: estimateview.PlanResult{Mode: q.BillingMode, Rows: planRows(a.Env, q)}, Platforms: q.Platforms,
		NamedGPUs: q.NamedGPUs, Now: a.Now(), Lang: i18n.Of(q.English), USD: q.Currency == understand.CurrencyUSD}
	if p.USD {
		uses.Add(answer.Said(understand.CondCurrency)...)
	}
	p.Verdict = modeVerdict(p.Plan.Rows, q.BillingMode, q)
	if q.GPUCount > 1 && len(p.Plan.Rows) > 0 && catalog.TermHours(q.BillingMode) > 0 && q.BillingMode != understand.ModeSpot {
		best, cost, hourly := cheapestTerm(p.Plan.Rows)
		p.Cards = &estimateview.PlanCards{Count: q.GPUCount, Row: best, Cost: cost, ByHourly: hourly}
	}
	if p.Verdict != nil && p.Verdict.BudgetCNY > 0 {
		uses.Add(answer.Said(understand.CondBudget)...)
		uses.Add(budgetCurrency(q)...)
	}
	return answer.Out{Payload: p, Query: q, Uses: uses.List()}
}

// planRows are the platforms and GPUs asked about (the named ones, or
// every marketplace) with a list price, those with a plan price first.
func planRows(r *answer.Env, q understand.Query) []estimateview.PlanRow {
	var rows []estimateview.PlanRow
	for _, p := range planPlatforms(r, q) {
		if !answer.InGroup(r.Cat, p.ID, q.PlatformGroup) {
			continue
		}
		for _, pr := range p.Prices {
			if len(q.GPUs) > 0 && !slices.Contains(q.GPUs, pr.GPU) {
				continue
			}
			row := estimateview.PlanRow{Platform: p.ID, GPU: pr.GPU, Offered: slices.Contains(p.Billing.Modes, q.BillingMode), HourlyCNY: pr.CNYPerHour}
			h := catalog.PlanModes[q.BillingMode]
			row.HourlyTimesCNY = [2]float64{pr.CNYPerHour.Low * h, pr.CNYPerHour.High * h}
			row.Source = answer.Cite(r.Cat, p.ID, pr.CNYPerHour, q.English)
			shown := pr.CNYPerHour
			if pl, ok := pr.PlanFor(q.BillingMode); ok {
				f := pl.CNY
				row.PlanCNY = &f
				row.Source = answer.Cite(r.Cat, p.ID, f, q.English)
				shown = f
			}
			row.Stale = catalog.ListPriceStale(shown.AsOf, r.Now(), r.ListPriceMaxAge)
			rows = append(rows, row)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].Stale != rows[j].Stale {
			return !rows[i].Stale
		}
		if (rows[i].PlanCNY != nil) != (rows[j].PlanCNY != nil) {
			return rows[i].PlanCNY != nil
		}
		return rows[i].HourlyCNY.Mid() < rows[j].HourlyCNY.Mid()
	})
	return rows
}

// planPlatforms are the platforms named, or the GPU marketplaces and
// clouds (no free tiers, no AI-art clouds).
func planPlatforms(r *answer.Env, q understand.Query) []*catalog.Platform {
	if len(q.Platforms) > 0 {
		return r.MainPlatforms(q)
	}
	var out []*catalog.Platform
	for i := range r.Cat.Platforms {
		p := &r.Cat.Platforms[i]
		if p.Kind != "free tier" && p.Kind != "ai-art cloud" {
			out = append(out, p)
		}
	}
	return out
}

// budgetCurrency is the currency's use when an answer weighs the budget:
// a budget said in US dollars is converted at the rate and said so
// ("$100（约 720 元）"); none otherwise.
func budgetCurrency(q understand.Query) []answer.Use {
	if c, ok := q.Condition(understand.CondBudget); ok && c.Name == understand.CurrencyUSD {
		return answer.Said(understand.CondCurrency)
	}
	return nil
}
