package planview

import (
	"fmt"

	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/render"
)

// Verdict answers a yes/no question about renting for a usage profile
// (render.Verdict): is the plan asked worth it (Kind worth: the plan's
// cost for the profile, Plan, or the price the question stated, Stated,
// against the cheapest way, Best, and the cheapest pay-as-you-go, Hourly),
// or is a budget enough (Kind can or fits: the cheapest way against
// BudgetCNY). Mode is the plan asked ("monthly"); costs are CNY for the
// whole span.
type Verdict struct {
	render.Verdict
	Mode      string       `json:"mode,omitempty"`
	Plan      *plan.Option `json:"plan,omitempty"`
	Stated    [2]float64   `json:"stated_cny,omitzero"`
	Best      plan.Option  `json:"best"`
	Hourly    *plan.Option `json:"hourly,omitempty"`
	BudgetCNY float64      `json:"budget_cny,omitempty"`
	// BudgetSaid: how the budget was said (in dollars, per card).
	BudgetSaid render.BudgetSaid `json:"budget_said,omitzero"`
}

// verdictLine is the first line of a plan answer to a yes/no question.
func (p Plans) verdictLine(rd *render.Renderer) string {
	v, l := p.Verdict, p.Lang
	en := l.English()
	use := useText(p.Result, p.Assumed, l)
	if v.BudgetCNY > 0 {
		b := v.Best
		key := "plan.opt.yesno.budget_yes"
		switch v.Answer {
		case render.VerdictNo:
			key = "plan.opt.yesno.budget_no"
		case render.VerdictUnsure:
			key = "plan.opt.yesno.budget_unsure"
		}
		return v.Line(l.T(key, use, rd.PlatformName(b.Platform, en), render.ModeName(b.Mode, en), cost(b)+mark(b.Price), render.BudgetText(l, v.BudgetCNY, v.BudgetSaid)), l)
	}
	mode := render.ModeName(v.Mode, en)
	planCost := ""
	switch {
	case v.Stated[1] > 0:
		planCost = l.T("plan.opt.yesno.stated", mode, costRange(v.Stated))
	case v.Plan != nil:
		planCost = l.T("plan.opt.yesno.plan", rd.PlatformName(v.Plan.Platform, en), mode, cost(*v.Plan)+mark(v.Plan.Price))
	default:
		planCost = l.T("plan.opt.yesno.no_plan", mode)
	}
	other := v.Hourly
	if other == nil || v.Best.Mode != "hourly" && v.Answer == render.VerdictNo {
		other = &v.Best
	}
	alt := l.T("plan.opt.yesno.other", rd.PlatformName(other.Platform, en), render.ModeName(other.Mode, en), cost(*other)+mark(other.Price))
	if v.Answer == render.VerdictYes {
		return v.Line(l.T("plan.opt.yesno.worth", use, planCost, alt), l)
	}
	return v.Line(l.T("plan.opt.yesno.worth", use, alt, planCost), l)
}

// costRange is a cost to the yuan: "900" or "700-900".
func costRange(c [2]float64) string {
	if c[1]-c[0] >= 0.5 {
		return fmt.Sprintf("%.0f-%.0f", c[0], c[1])
	}
	return fmt.Sprintf("%.0f", c[0])
}

// useText is the usage the answer priced: "每周 21 小时、4 周", "共 720
// 小时、30 天".
func useText(res plan.Result, as Assumed, l i18n.Lang) string {
	p := res.Profile
	span := spanText(p.Weeks, l)
	if as.RunThrough {
		span = runThroughText(p.Hours(), l)
	}
	use := l.T("plan.opt.use.total", p.Hours(), span)
	if as.RunThrough {
		use = l.T("plan.opt.use.run_through", p.Hours(), span)
	}
	if p.HoursPerWeek > 0 {
		use = l.T("plan.opt.use.per_week", p.HoursPerWeek, span)
	}
	return use
}
