package estimateview

import (
	"fmt"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// PeriodNote prices an estimate's cheapest card over the period the
// question states ("跑一周"): Days of it, Hours of running (around the
// clock, or the schedule's hours), the card (Platform, GPU, Count), the
// billing mode cheapest for those hours and its cost for all the cards
// (CNY, low and high), beside the job's own hours.
type PeriodNote struct {
	Days, Hours   float64
	Platform, GPU string
	Count         int
	Mode          string
	CNY           [2]float64
	JobHours      float64
}

// BudgetLine says whether a budget covers a cost (CNY, low and high): yes
// when the high end is within it, no when the low end is over it, else
// that it depends on the price; "" without a budget.
func BudgetLine(l i18n.Lang, budget float64, cost [2]float64) string {
	switch {
	case budget <= 0:
		return ""
	case cost[1] <= budget:
		return l.T("estimate.budget.enough", render.TrimF(budget), rangeText(cost), budget-cost[1])
	case cost[0] > budget:
		return l.T("estimate.budget.short", render.TrimF(budget), rangeText(cost), cost[0]-budget)
	}
	return l.T("estimate.budget.maybe", render.TrimF(budget), rangeText(cost))
}

// USDLine is a cost in US dollars at the catalog's rate ("折合美元：约 $73
// （1 USD = 7.20 元）。"); "" without a rate.
func USDLine(rd *render.Renderer, l i18n.Lang, cost [2]float64) string {
	fx := rd.Cat.FXUSDCNY
	if fx <= 0 {
		return ""
	}
	// Whole dollars, or cents under $20 ("$1.21-2.20", not "$1-2").
	f := "%.0f"
	if cost[1]/fx < 20 {
		f = "%.2f"
	}
	lo, hi := fmt.Sprintf(f, cost[0]/fx), fmt.Sprintf(f, cost[1]/fx)
	s := "$" + lo
	if hi != lo {
		s += "-" + hi
	}
	return l.T("estimate.usd", s, fx)
}

// conditionLines are the lines an estimate adds for the conditions the
// question stated: the budget against the cost (over the period when one
// is stated, else the job's), the card over the period, the cost in
// dollars.
func (e Estimate) conditionLines(rd *render.Renderer) []string {
	l, en := e.Lang, e.Lang.English()
	if len(e.Estimate.Options) == 0 {
		return nil
	}
	best := e.Estimate.Options[0]
	cost := [2]float64{best.TotalLowCNY, best.TotalHighCNY}
	if cost[1] < cost[0] || cost[1] == 0 {
		cost = [2]float64{best.TotalCNY, best.TotalCNY}
	}
	var out []string
	if p := e.Period; p != nil {
		cost = p.CNY
		out = append(out, l.T("estimate.period", render.TrimF(p.Days), p.Hours, rd.PlatformName(p.Platform, en), p.GPU, p.Count,
			render.ModeName(p.Mode, en), rangeText(p.CNY), p.JobHours))
	}
	if line := BudgetLine(l, e.BudgetCNY, cost); line != "" {
		out = append([]string{line}, out...)
	}
	if e.Runs > 1 && e.Period == nil {
		// "一个月跑10次": the figures are of all the runs; one run's beside.
		out = append([]string{l.T("estimate.runs", e.Runs, e.weeklyNote(l), rangeText(cost), rangeText(e.RunCNY), e.RunHours)}, out...)
	}
	if e.USD {
		if line := USDLine(rd, l, cost); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// Budget is the hours a budget buys ("预算1000块 4090 能跑多少小时"): per
// platform, the card's pay-as-you-go list price (CNY per GPU-hour) and
// the hours the budget buys at it for Count cards (at the price's high
// and low ends), cheapest first. The JSON carries the rows.
type Budget struct {
	BudgetCNY float64 `json:"budget_total_cny"`
	// BudgetSaid: how the budget was said (in dollars, per card).
	BudgetSaid render.BudgetSaid `json:"budget_said,omitzero"`
	Count      int               `json:"gpu_count"`
	Rows       []BudgetRow       `json:"budget_rows"`
	Lang       i18n.Lang         `json:"-"`
}

// BudgetRow is one platform's card in a Budget.
type BudgetRow struct {
	Platform string         `json:"platform"`
	GPU      string         `json:"gpu"`
	Price    catalog.Figure `json:"cny_per_gpu_hour"`
	Hours    [2]float64     `json:"hours"`
	Source   string         `json:"source"`
}

// Reply is the hours at the cheapest price first, then a row per
// platform.
func (b Budget) Reply(rd *render.Renderer) chat.Reply {
	l, en := b.Lang, b.Lang.English()
	if len(b.Rows) == 0 {
		return chat.Reply{Title: l.T("estimate.budget_hours.none", render.BudgetText(l, b.BudgetCNY, b.BudgetSaid))}
	}
	best := b.Rows[0]
	rep := chat.Reply{Title: l.T("estimate.budget_hours.verdict", render.BudgetText(l, b.BudgetCNY, b.BudgetSaid), best.GPU, max(b.Count, 1), rd.PlatformName(best.Platform, en),
		render.FigureText(best.Price), rangeText(best.Hours))}
	t := &chat.Table{Header: l.L("estimate.budget_hours.header")}
	for _, r := range b.Rows[:min(len(b.Rows), render.ShortRows)] {
		t.Rows = append(t.Rows, []string{rd.PlatformName(r.Platform, en), r.GPU, render.FigureText(r.Price) + unverifiedMark(r.Price.Verified), rangeText(r.Hours), r.Source})
	}
	rep.Table = t
	rep.Notes = append(rep.Notes, l.T("estimate.budget_hours.note"))
	return rep
}

// weeklyNote says how runs every week were counted ("" when the runs were
// said as a count): so often a week, over how many weeks (assumed when
// none was said), by how many members.
func (e Estimate) weeklyNote(l i18n.Lang) string {
	if e.RunsPerWeek <= 0 {
		return ""
	}
	var note string
	if e.People > 1 {
		note = l.T("estimate.runs_weekly_people", e.RunsPerWeek, e.Weeks, e.People)
	} else {
		note = l.T("estimate.runs_weekly", e.RunsPerWeek, e.Weeks)
	}
	if e.WeeksAssumed {
		note += l.T("estimate.runs_weeks_assumed")
	}
	return l.T("estimate.runs_note", note)
}
