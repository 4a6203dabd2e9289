package frame

import (
	"github.com/labgpu/bot/internal/understand"
)

// budgetFollow reports whether q asks whether the plan f costs no more
// than an amount ("is that under $500?", "1000块够吗"): a yes/no question
// with an amount in all and no card, job or usage of its own.
func budgetFollow(f, q Query) bool {
	if f.Intent != understand.IntentPlan || q.YesNo == nil || HasSubject(q) || q.UnknownGPU != "" || HasJob(q) {
		return false
	}
	if q.PriceUnit != "" && q.PriceUnit != "month" || q.MaxPriceCNY > 0 {
		return false
	}
	b := valuesOf(q)
	return (q.PriceCNY > 0 || q.BudgetTotalCNY > 0) && !b.usage && !b.mode && !b.count
}

// withBudget is the plan f asked against the amount q states: its
// budget, in the currency q says it in (the verdict first).
func withBudget(f, q Query) Query {
	m := cloneQuery(f)
	budget := q.BudgetTotalCNY
	if budget <= 0 {
		budget = q.PriceCNY
	}
	m.Confidence, m.Alternatives, m.Problems = 1, nil, q.Problems
	m.English = Language(f, q)
	m.YesNo, m.BudgetTotalCNY, m.PriceCNY, m.PriceUnit = q.YesNo, budget, 0, ""
	c := understand.Condition{Kind: understand.CondBudget, Value: budget}
	if q.Currency != "" {
		m.Currency, c.Name = q.Currency, q.Currency
	}
	m.Conditions = keptConditions(f.Conditions, append(slicesClone(q.Conditions), c))
	return m
}

// slicesClone is a copy of cs, for an append that must not write into
// q's array.
func slicesClone(cs []understand.Condition) []understand.Condition {
	return append([]understand.Condition(nil), cs...)
}
