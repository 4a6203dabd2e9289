package understand

import "github.com/labgpu/bot/internal/understand/slots/words"

// kwConditionCost ask what a stated period, schedule or budget comes to
// (configs/slots/pipeline.yaml).
var kwConditionCost = words.NewWords("pipeline.condition_cost")

// kwConditionOffer ask for offers: a VRAM floor or ceiling with them asks
// for the cards within it.
var kwConditionOffer = words.NewWords("pipeline.condition_offer_ask")

// conditionRule answers a question by what its stated conditions (issue
// 28) say it asks when the scorer chose an answer that cannot apply them:
//   - a rental period, a schedule or a budget with a card (or a budget
//     over a period), no job, asking what it comes to: its cost over
//     that time (plan: "A100 80G 租三天多少钱", "预算1000块 4090 能跑多
//     少小时");
//   - a VRAM floor or ceiling asking for offers (a price ceiling, "哪家",
//     "最便宜") with no job (or with a price ceiling beside it): the cards
//     within it (stock: "48G显存的卡 一小时5块以内有吗");
//   - a region, a group of platforms or a price over several cards with a
//     card, read as a pitfall, a fact check, the subscriptions or outside
//     what the bot does: the offers there (stock: "要美国的机器 H100");
//   - a card's price asked in US dollars read as its availability: its
//     prices (prices when a platform is named, else stock).
func conditionRule(q *Query, folded string) {
	target, from := conditionIntent(q, folded)
	if target != "" && redirectable(q.Intent, from...) {
		q.Intent, q.Topic = target, ""
		if q.Currency != "" && q.Intent == IntentStock && len(q.Platforms) > 0 && len(q.GPUs) == 0 && q.Region == "" && q.PlatformGroup == "" {
			q.Intent = IntentPrices
		}
	}
}

// conditionSettles reports whether the conditions of an ask-back's best
// reading (q, its intent that reading's) make it the answer: they imply
// that intent, or one the rule would answer it with (conditionRule then
// ran).
func conditionSettles(q *Query, folded string) bool {
	target, from := conditionIntent(q, folded)
	if target == "" || target != q.Intent && !redirectable(q.Intent, from...) {
		return false
	}
	conditionRule(q, folded)
	q.Intent = target
	return true
}

// conditionIntent is the intent the question's conditions imply and the
// readings it replaces ("" when they imply none).
func conditionIntent(q *Query, folded string) (string, []string) {
	job := q.Model != "" || q.ParamsB > 0 || q.Workload != "" || q.Method != "" || q.ModelText != ""
	card := len(q.GPUs) > 0 || q.GPUCount > 0
	cost := ContainsAny(folded, kwConditionCost.List())
	switch {
	case !job && cost && (card && (q.PeriodDays > 0 || len(q.Schedule) > 0 || q.BudgetTotalCNY > 0) || q.BudgetTotalCNY > 0 && q.PeriodDays > 0):
		return IntentPlan, []string{IntentPrices, IntentStock, IntentAdvice, IntentFactCheck, IntentAvailability, IntentUnknown}
	case (q.VRAMMinGB > 0 || q.VRAMMaxGB > 0) && (!job || q.MaxPriceCNY > 0) && (q.MaxPriceCNY > 0 || ContainsAny(folded, kwConditionOffer.List())):
		from := []string{IntentEstimate, IntentAdvice, IntentFactCheck, IntentUnknown}
		if len(q.GPUs) < 2 && len(q.Platforms) < 2 {
			// "显存48G起步的卡 哪家便宜": no two things to compare.
			from = append(from, IntentCompare)
		}
		return IntentStock, from
	case (q.Region != "" || q.PlatformGroup != "" || q.PriceTotalCNY > 0) && card && !job:
		from := []string{IntentAdvice, IntentFactCheck, IntentSubscriptions, IntentUnknown}
		if q.Region != "" {
			from = append(from, IntentPrices)
		}
		return IntentStock, from
	case (q.Currency != "" || q.GPUCount > 1) && card && cost && !job:
		// "runpod的4090多少刀", "how much per hour for 8 H100s": a price.
		return IntentStock, []string{IntentAvailability}
	}
	return "", nil
}

// redirectable reports whether intent is one of those a condition rule
// may answer otherwise.
func redirectable(intent string, from ...string) bool {
	for _, f := range from {
		if intent == f {
			return true
		}
	}
	return false
}
