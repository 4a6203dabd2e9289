package estimate

import (
	"context"
	"slices"
	"sort"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/understand"
)

// PlanResult and PlanRow are a billing-mode answer's rows
// (render.PlanResult).
type (
	PlanResult = render.PlanResult
	PlanRow    = render.PlanRow
)

// Plan answers "A100 80G 包月多少", "AutoDL 3090 包周多少钱", "3090 一天
// 多少钱": in the mode asked.
func (r *Answers) Plan(_ context.Context, res *Result) {
	q := res.Query
	if wantsOptimizer(q) {
		r.Optimize(res)
		return
	}
	pr := &PlanResult{Mode: q.BillingMode, Rows: r.planRows(q)}
	res.Plan = pr
	res.Reply = r.Rd.Plan(pr, render.PlanAsk{Platforms: q.Platforms, NamedGPUs: q.NamedGPUs, Now: r.Now(), English: q.English})
}

// planRows are the platforms and GPUs asked about (the named ones, or
// every marketplace) with a list price, those with a plan price first.
func (r *Answers) planRows(q understand.Query) []PlanRow {
	var rows []PlanRow
	for _, p := range r.planPlatforms(q) {
		for _, pr := range p.Prices {
			if len(q.GPUs) > 0 && !slices.Contains(q.GPUs, pr.GPU) {
				continue
			}
			row := PlanRow{Platform: p.ID, GPU: pr.GPU, Offered: slices.Contains(p.Billing.Modes, q.BillingMode), HourlyCNY: pr.CNYPerHour}
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

func (r *Answers) planPlatforms(q understand.Query) []*catalog.Platform {
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
