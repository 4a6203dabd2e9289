package estimate

import (
	"math"
	"slices"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/render/planview"
	"github.com/labgpu/bot/internal/understand"
)

// Thresholds of the cost verdicts: a card is worth it when its run costs
// at most worthShare of the cheapest's; two runs within sameShare of each
// other cost about the same.
const (
	worthShare = 1.15
	sameShare  = 0.05
)

// jobVerdict answers a yes/no question about an estimated job (q.YesNo):
// whether it fits the card or the VRAM asked, whether it is done within
// the budget or the time asked, whether the card named is worth it, or
// dearer or cheaper than another; nil when the question asks none of
// these or the estimate cannot decide it. anyCard estimates the job on
// every card (for "worth it", when the question named cards).
func jobVerdict(cat *catalog.Catalog, est *estimator.Estimate, q understand.Query, anyCard func() *estimator.Estimate) *estimateview.Verdict {
	y := q.YesNo
	if q.BudgetTotalCNY > 0 && (y == nil || y.Kind == understand.YesNoCan || y.Kind == understand.YesNoFits) {
		// A total budget stated ("总预算500 两张卡跑完7B LoRA 够吗", or
		// with no question at all): whether it is enough comes first.
		if v := optionsVerdict(cat, est.Options, q); v != nil {
			return v
		}
	}
	if y == nil {
		return nil
	}
	switch y.Kind {
	case understand.YesNoWorth:
		all := est
		if len(q.GPUs) > 0 {
			all = anyCard()
		}
		if v := worthVerdict(cat, est, all, q); v != nil {
			return v
		}
	case understand.YesNoCheaper:
		return cheaperVerdict(cat, est, q)
	case understand.YesNoCan:
		if q.PriceCNY > 0 || y.WithinHours > 0 {
			return canVerdict(cat, est, q)
		}
	}
	return fitsVerdict(est, q)
}

// fitsVerdict: does the job fit the card asked (as many as asked, one
// when no count is given) or the VRAM size stated.
func fitsVerdict(est *estimator.Estimate, q understand.Query) *estimateview.Verdict {
	if q.YesNo != nil && q.YesNo.Lesser {
		// "do I need an A100 or is a 4080 fine?", "two 4090s or is one
		// enough?": one of the smallest card named.
		q.GPUs, q.GPUCount = smallestCard(est, q.GPUs), 1
	}
	v := &estimateview.Verdict{Verdict: render.Verdict{Kind: render.AskFits}, Why: estimateview.WhyVRAM, Count: max(q.GPUCount, 1)}
	need := oneCardNeed(est)
	if f := askedFit(est, q); f != nil {
		v.Card, v.HaveGB = f.GPU, f.MemoryGB
		if f.Fits && f.GPUCount <= v.Count {
			v.Answer, v.NeedGB = render.VerdictYes, f.VRAMPerGPU
			v.MicroBatch = trainingMicroBatch(est, f.MicroBatch)
			v.ShortCard, v.ShortGB = shortVariant(est, q, v.Count)
			return v
		}
		v.Answer, v.NeedGB = render.VerdictNo, need
		if v.Count > 1 {
			v.NeedGB, v.TotalGB = f.VRAMPerGPU, need
		}
		if f.Fits {
			v.FitsOn = f.GPUCount
		}
		return v
	}
	if q.YesNo.VRAMGB <= 0 || len(q.GPUs) > 0 {
		return nil
	}
	v.HaveGB, v.Count = q.YesNo.VRAMGB, 1
	room := estimator.FitFraction * q.YesNo.VRAMGB * (1 << 30) / 1e9
	v.NeedGB, v.Answer = need, render.VerdictNo
	if need <= room {
		v.Answer = render.VerdictYes
		if est.Method != estimator.MethodInference && est.VRAM.Total > room {
			v.MicroBatch = 1
		}
	}
	return v
}

// oneCardNeed is the VRAM the job needs on one card, GB: at micro-batch
// 1 with gradient accumulation for training, at the asked batch for
// inference.
func oneCardNeed(est *estimator.Estimate) float64 {
	if est.Method != estimator.MethodInference && est.VRAMMin > 0 {
		return est.VRAMMin
	}
	return est.VRAM.Total
}

// trainingMicroBatch is the micro-batch a training fit needs below the
// asked batch (0: the whole batch fits).
func trainingMicroBatch(est *estimator.Estimate, mb int) int {
	if est.Method == estimator.MethodInference || mb >= est.Batch {
		return 0
	}
	return mb
}

// smallestCard is the card of gpus with the least memory among the
// estimate's fits (gpus unchanged when none is there).
func smallestCard(est *estimator.Estimate, gpus []string) []string {
	var best *estimator.Fit
	for i := range est.Fits {
		f := &est.Fits[i]
		if slices.Contains(gpus, f.GPU) && (best == nil || f.MemoryGB < best.MemoryGB) {
			best = f
		}
	}
	if best == nil {
		return gpus
	}
	return []string{best.GPU}
}

// shortVariant is a variant of the family q asked that the job does not
// fit on count cards, and its VRAM ("" when none or no family).
func shortVariant(est *estimator.Estimate, q understand.Query, count int) (string, float64) {
	if !q.GPUFamily {
		return "", 0
	}
	for _, f := range est.Fits {
		if slices.Contains(q.GPUs, f.GPU) && (!f.Fits || f.GPUCount > count) {
			return f.GPU, f.MemoryGB
		}
	}
	return "", 0
}

// askedFit is the fit of the card the question named (of a family, the
// member that fits on the fewest cards); nil when it named none.
func askedFit(est *estimator.Estimate, q understand.Query) *estimator.Fit {
	var best *estimator.Fit
	for i := range est.Fits {
		f := &est.Fits[i]
		if !slices.Contains(q.GPUs, f.GPU) {
			continue
		}
		switch {
		case best == nil:
			best = f
		case f.Fits && (!best.Fits || f.GPUCount < best.GPUCount):
			best = f
		}
	}
	return best
}

// canVerdict: is the job done within the budget (q.PriceCNY, CNY in all)
// and the time (q.YesNo.WithinHours) asked, on the card asked or the
// cheapest (the fastest, for a time alone).
func canVerdict(cat *catalog.Catalog, est *estimator.Estimate, q understand.Query) *estimateview.Verdict {
	if v := optionsVerdict(cat, est.Options, q); v != nil {
		return v
	}
	if f := askedFit(est, q); f != nil && !f.Fits {
		return fitsVerdict(est, q)
	}
	return nil
}

// optionsVerdict is canVerdict over the priced runs of a job (an LLM's or
// another workload's); nil when none is on the cards asked.
func optionsVerdict(cat *catalog.Catalog, opts []estimator.Option, q understand.Query) *estimateview.Verdict {
	budget, within := q.PriceCNY, 0.0
	if q.BudgetTotalCNY > 0 {
		budget = q.BudgetTotalCNY
	}
	if q.YesNo != nil {
		within = q.YesNo.WithinHours
	}
	o := askedOption(cat, opts, q, within > 0 && budget == 0)
	if o == nil {
		return nil
	}
	v := &estimateview.Verdict{Verdict: render.Verdict{Kind: render.AskCan, Answer: render.VerdictYes}, Option: o, BudgetCNY: budget, WithinHours: within,
		BudgetSaid: budgetSaid(q, budget)}
	switch {
	case budget > 0 && o.TotalCNY > budget:
		v.Answer, v.Why, v.WithinHours = render.VerdictNo, estimateview.WhyBudget, 0
		v.Kind = budgetKind(q.YesNo)
	case within > 0 && o.Hours > within:
		v.Answer, v.Why, v.BudgetCNY = render.VerdictNo, estimateview.WhyTime, 0
	case within > 0 && !(budget > 0 && q.Runs > 1):
		v.Why = estimateview.WhyTime
	default:
		v.Why, v.Kind = estimateview.WhyBudget, budgetKind(q.YesNo)
	}
	return v
}

// askedOption is the option a verdict rests on: the cheapest (or, with
// fastest, the quickest) on the cards the question named, as many as it
// named, else of all; nil when none is priced.
func askedOption(cat *catalog.Catalog, opts []estimator.Option, q understand.Query, fastest bool) *estimator.Option {
	var best *estimator.Option
	for i := range opts {
		o := &opts[i]
		if len(q.GPUs) > 0 && !onCards(cat, o.GPU, q.GPUs) || q.GPUCount > 0 && o.GPUCount != q.GPUCount {
			continue
		}
		if best == nil || !fastest && o.TotalCNY < best.TotalCNY || fastest && o.Hours < best.Hours {
			best = o
		}
	}
	return best
}

// onCards reports whether gpu is one of the cards named (or a member of
// a family named).
func onCards(cat *catalog.Catalog, gpu string, named []string) bool {
	for _, n := range named {
		if gpu == n || slices.Contains(cat.FamilyMembers(n), gpu) {
			return true
		}
	}
	return false
}

// worthVerdict: is the card named worth it for the job — its cheapest
// run (in est) costs at most worthShare of the cheapest run on any card
// (in all).
func worthVerdict(cat *catalog.Catalog, est, all *estimator.Estimate, q understand.Query) *estimateview.Verdict {
	if len(q.GPUs) == 0 || all == nil || all.Cheapest < 0 {
		return nil
	}
	named := askedOption(cat, est.Options, q, false)
	if named == nil {
		return nil
	}
	best := &all.Options[all.Cheapest]
	v := &estimateview.Verdict{Verdict: render.Verdict{Kind: render.AskWorth, Answer: render.VerdictYes}, Why: estimateview.WhyCost, Option: named, Other: best}
	if named.TotalCNY > worthShare*best.TotalCNY {
		v.Answer = render.VerdictNo
	}
	return v
}

// cheaperVerdict: is the first card named cheaper (or, asked the other
// way round, dearer) for the job than the second.
func cheaperVerdict(cat *catalog.Catalog, est *estimator.Estimate, q understand.Query) *estimateview.Verdict {
	if len(q.NamedGPUs) < 2 {
		return nil
	}
	a := askedOption(cat, est.Options, understand.Query{GPUs: q.NamedGPUs[:1], GPUCount: q.GPUCount}, false)
	b := askedOption(cat, est.Options, understand.Query{GPUs: q.NamedGPUs[1:2], GPUCount: q.GPUCount}, false)
	if a == nil || b == nil || b.TotalCNY <= 0 {
		return nil
	}
	kind := render.AskCheaper
	if q.YesNo.Dearer {
		kind = render.AskDearer
	}
	v := &estimateview.Verdict{Verdict: render.Verdict{Kind: kind}, Why: estimateview.WhyCards, Option: a, Other: b}
	ratio := a.TotalCNY / b.TotalCNY
	cheaper, dearer := ratio < 1-sameShare, ratio > 1+sameShare
	switch {
	case !cheaper && !dearer:
		v.Answer = render.VerdictSame
	case cheaper == (kind == render.AskCheaper):
		v.Answer = render.VerdictYes
	default:
		v.Answer = render.VerdictNo
	}
	return v
}

// plansVerdict answers a yes/no question about renting for a usage
// profile (res, its options cheapest first): with a budget asked
// ("1000块够租一个月3090吗"), whether the cheapest way is within it; with a
// plan asked ("3090包月值吗"), whether that plan — its price as the
// question states it, else its cheapest on record — is the cheapest way.
// nil for any other question.
func plansVerdict(res plan.Result, as planview.Assumed, q understand.Query) *planview.Verdict {
	y := q.YesNo
	if len(res.Options) == 0 {
		return nil
	}
	budget := q.BudgetTotalCNY
	if budget <= 0 && y != nil {
		budget = q.PriceCNY
	}
	if y == nil {
		if budget <= 0 {
			return nil
		}
		// A budget stated without a question mark ("预算800，两张A100跑一
		// 周") is still asked whether it is enough: the verdict first.
		y = &understand.YesNo{Kind: understand.YesNoCan, Enough: true}
	}
	best := res.Options[0]
	v := &planview.Verdict{Best: best}
	if i := slices.IndexFunc(res.Options, func(o plan.Option) bool { return o.Mode == "hourly" }); i >= 0 {
		v.Hourly = &res.Options[i]
	}
	mode := as.Asked
	if mode == "" {
		mode = as.Mentioned
	}
	switch {
	case y.Kind != understand.YesNoWorth && budget > 0:
		v.Kind, v.BudgetCNY, v.BudgetSaid = budgetKind(y), budget, budgetSaid(q, budget)
		v.Answer = budgetAnswer(best.CostCNY, budget)
	case y.Kind == understand.YesNoWorth && mode != "" && mode != "hourly":
		v.Kind, v.Mode = render.AskWorth, mode
		planCost := [2]float64{}
		if i := slices.IndexFunc(res.Options, func(o plan.Option) bool { return o.Mode == mode }); i >= 0 {
			v.Plan, planCost = &res.Options[i], res.Options[i].CostCNY
		}
		if q.PriceCNY > 0 && q.ModeNamed {
			// "包月 900 值吗": the plan at the price stated, for as many
			// terms as the span needs.
			terms := max(1, math.Ceil(res.Profile.SpanHours()/catalog.TermHours(mode)-0.05))
			n := terms * float64(max(res.Profile.Count, 1))
			v.Stated = [2]float64{q.PriceCNY * n, q.PriceCNY * n}
			planCost = v.Stated
		}
		v.Answer = worthAnswer(planCost, best, v.Plan)
	default:
		return nil
	}
	return v
}

// budgetKind is how a budget's verdict is worded: 够 / 不够 when the
// question asks whether it is enough or states the budget with no
// question ("预算800，两张A100跑一周"), 能 / 不能 when it asks whether
// it can be done ("100块能搞定吗").
func budgetKind(y *understand.YesNo) string {
	if y == nil || y.Enough || y.Kind != understand.YesNoCan {
		return render.AskBudget
	}
	return render.AskCan
}

// budgetAnswer: is a cost range within a budget — yes when all of it
// is, no when none of it is, unsure between.
func budgetAnswer(cost [2]float64, budget float64) string {
	switch {
	case cost[1] <= budget:
		return render.VerdictYes
	case cost[0] > budget:
		return render.VerdictNo
	}
	return render.VerdictUnsure
}

// worthAnswer: is a plan costing planCost (zero: no price) worth it
// against the cheapest way, best — yes when it is the cheapest or about
// as cheap, no when it costs more, unsure when it has no price.
func worthAnswer(planCost [2]float64, best plan.Option, p *plan.Option) string {
	mid := (planCost[0] + planCost[1]) / 2
	switch {
	case mid <= 0:
		return render.VerdictUnsure
	case p != nil && *p == best && planCost == best.CostCNY:
		return render.VerdictYes
	case mid <= best.Mid()*(1+sameShare):
		return render.VerdictYes
	}
	return render.VerdictNo
}

// modeVerdict answers a yes/no question about a billing mode's price
// with no usage profile (rows, those with a plan price first): with a
// budget asked ("200块能包一个月4090吗"), whether one term is within it at
// the cheapest price on record (the plan's, or pay-as-you-go for the
// whole term); asked whether the plan is worth it ("4090包月值不值"),
// from how many hours a term it beats pay-as-you-go on its platform — a
// plan dearer than a whole term of pay-as-you-go never is; run around
// the clock ("24/7"), whether it beats a whole term of it. nil for any
// other question or with no row.
func modeVerdict(rows []estimateview.PlanRow, mode string, q understand.Query) *estimateview.PlanVerdict {
	y := q.YesNo
	term := catalog.TermHours(mode)
	budget := q.PriceCNY
	if q.BudgetTotalCNY > 0 {
		budget = q.BudgetTotalCNY
	}
	if y == nil && q.BudgetTotalCNY > 0 {
		y = &understand.YesNo{Kind: understand.YesNoCan, Enough: true}
	}
	if y == nil || len(rows) == 0 || term == 0 || mode == understand.ModeSpot {
		return nil
	}
	switch {
	case y.Kind != understand.YesNoWorth && budget > 0:
		best, cost, hourly := cheapestTerm(rows)
		// A budget is for every card asked ("两张3090包一个月 预算2500").
		n := float64(max(q.GPUCount, 1))
		cost = [2]float64{cost[0] * n, cost[1] * n}
		v := &estimateview.PlanVerdict{Row: best, Cost: cost, ByHourly: hourly, BudgetCNY: budget, BudgetSaid: budgetSaid(q, budget), Count: max(q.GPUCount, 1)}
		v.Kind, v.Answer = budgetKind(y), budgetAnswer(cost, budget)
		return v
	case y.Kind == understand.YesNoWorth:
		return worthMode(rows, term, q)
	}
	return nil
}

// worthMode is modeVerdict's "is the plan worth it": the plan at the
// price the question stated, else its cheapest price on record.
func worthMode(rows []estimateview.PlanRow, term float64, q understand.Query) *estimateview.PlanVerdict {
	var best *estimateview.PlanRow
	for i := range rows {
		r := &rows[i]
		if r.PlanCNY != nil && r.HourlyCNY.Low > 0 && (best == nil || r.PlanCNY.Low < best.PlanCNY.Low) {
			best = r
		}
	}
	if best == nil {
		return nil
	}
	v := &estimateview.PlanVerdict{Verdict: render.Verdict{Kind: render.AskWorth, Answer: render.VerdictUnsure}, Row: *best,
		Cost: [2]float64{best.PlanCNY.Low, max(best.PlanCNY.High, best.PlanCNY.Low)}}
	price := v.Cost[0]
	if q.PriceCNY > 0 && q.ModeNamed {
		v.StatedCNY, price = q.PriceCNY, q.PriceCNY
	}
	v.BreakEvenHours = price / best.HourlyCNY.Low
	switch {
	case v.BreakEvenHours >= 0.95*term:
		v.Answer = render.VerdictNo
	case q.Continuous:
		v.Answer, v.AroundTheClock = render.VerdictYes, true
	}
	return v
}

// cheapestTerm is the row with the lowest price for one term — its plan
// price, or its hourly price times the term (hourly) when that is lower
// — and that price's low and high ends.
func cheapestTerm(rows []estimateview.PlanRow) (best estimateview.PlanRow, cost [2]float64, hourly bool) {
	for i, r := range rows {
		c, h := r.HourlyTimesCNY, true
		if r.PlanCNY != nil && (c[0] <= 0 || r.PlanCNY.Low < c[0]) {
			c, h = [2]float64{r.PlanCNY.Low, max(r.PlanCNY.High, r.PlanCNY.Low)}, false
		}
		if c[0] > 0 && (i == 0 || cost[0] <= 0 || c[0] < cost[0]) {
			best, cost, hourly = r, c, h
		}
	}
	return best, cost, hourly
}

// budgetSaid is how the question said the budget a verdict weighs
// (budget, CNY in all): in US dollars at the rate read, per card for the
// cards counted; nothing for another amount than the budget's.
func budgetSaid(q understand.Query, budget float64) render.BudgetSaid {
	c, ok := q.Condition(understand.CondBudget)
	if !ok || budget <= 0 || math.Abs(c.Value-budget) > 1e-6 {
		return render.BudgetSaid{}
	}
	var said render.BudgetSaid
	if c.Name == understand.CurrencyUSD {
		if fx, ok := q.Condition(understand.CondCurrency); ok && fx.Value > 0 {
			said.USDRate = fx.Value
		}
	}
	if c.Count > 1 {
		said.Cards = c.Count
	}
	return said
}
