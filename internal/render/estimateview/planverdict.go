package estimateview

import (
	"fmt"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/render"
)

// PlanVerdict answers a yes/no question about a billing mode's price
// (render.Verdict): is a budget (BudgetCNY) enough for one term at the
// cheapest price on record (Row, Cost its low and high, CNY per GPU per
// term); or, asked whether the plan is worth it with no usage given,
// from how many hours a term it beats pay-as-you-go (BreakEvenHours, at
// the price the question stated, StatedCNY, else the cheapest on
// record).
type PlanVerdict struct {
	render.Verdict
	Row       PlanRow    `json:"row"`
	Cost      [2]float64 `json:"cost_cny"`
	BudgetCNY float64    `json:"budget_cny,omitempty"`
	// BudgetSaid: how the budget was said (in dollars, per card).
	BudgetSaid     render.BudgetSaid `json:"budget_said,omitzero"`
	StatedCNY      float64           `json:"stated_cny,omitempty"`
	BreakEvenHours float64           `json:"break_even_hours,omitempty"`
	// ByHourly: Cost is the pay-as-you-go price for a whole term (no
	// plan price is lower); AroundTheClock: the question runs the card
	// the whole term.
	ByHourly       bool `json:"by_hourly,omitempty"`
	AroundTheClock bool `json:"around_the_clock,omitempty"`
	// Count is how many cards a budget's Cost is for (1: one).
	Count int `json:"count,omitempty"`
}

// verdictLine is the first line of a billing-mode answer to a yes/no
// question.
func (p Plan) verdictLine(rd *render.Renderer) string {
	v, l, en := p.Verdict, p.Lang, p.Lang.English()
	mode := render.ModeName(p.Plan.Mode, en)
	where := rd.PlatformName(v.Row.Platform, en)
	price := rangeText(v.Cost) + p.figureMarks(rd, p.shownFigure(v.Row))
	if v.ByHourly {
		mode = l.T("plan.yesno.hourly_term", PeriodWord(p.Plan.Mode, l))
		price = rangeText(v.Cost) + p.figureMarks(rd, v.Row.HourlyCNY)
	}
	if v.BudgetCNY > 0 {
		key := "plan.yesno.budget_yes"
		switch v.Answer {
		case render.VerdictNo:
			key = "plan.yesno.budget_no"
		case render.VerdictUnsure:
			key = "plan.yesno.budget_unsure"
		}
		gpu := v.Row.GPU
		if v.Count > 1 {
			gpu = fmt.Sprintf("%s×%d", gpu, v.Count)
		}
		return v.Line(l.T(key, gpu, mode, price, where, render.BudgetText(l, v.BudgetCNY, v.BudgetSaid)), l)
	}
	if v.StatedCNY > 0 {
		price = render.TrimF(v.StatedCNY)
		where = l.T("plan.yesno.stated")
	}
	hourlyTerm := rangeText(v.Row.HourlyTimesCNY) + p.figureMarks(rd, v.Row.HourlyCNY)
	switch {
	case v.Answer == render.VerdictNo:
		return v.Line(l.T("plan.yesno.worth_never", v.Row.GPU, mode, price, where, PeriodWord(p.Plan.Mode, l), hourlyTerm), l)
	case v.AroundTheClock:
		return v.Line(l.T("plan.yesno.worth_full", v.Row.GPU, mode, price, where, PeriodWord(p.Plan.Mode, l), hourlyTerm), l)
	}
	return v.Line(l.T("plan.yesno.worth_hours", v.Row.GPU, mode, price, where, PeriodWord(p.Plan.Mode, l), v.BreakEvenHours,
		render.TrimF(v.Row.HourlyCNY.Low)), l)
}

// shownFigure is the figure a row's price shows: its plan price, else
// its hourly one.
func (p Plan) shownFigure(row PlanRow) catalog.Figure {
	if row.PlanCNY != nil {
		return *row.PlanCNY
	}
	return row.HourlyCNY
}

// phoneTable is the rows narrow enough for a phone: platform, the card
// when several are listed, the plan's price and the hourly price times
// the period (dropped when the table is still too wide).
func (p Plan) phoneTable(rd *render.Renderer, full *chat.Table) *chat.Table {
	gpus := map[string]bool{}
	for _, row := range p.Plan.Rows {
		gpus[row.GPU] = true
	}
	keep := []int{0, 1, 2, 3}
	if len(gpus) == 1 {
		keep = []int{0, 2, 3}
	}
	for _, cols := range [][]int{keep, keep[:len(keep)-1]} {
		t := &chat.Table{}
		for _, c := range cols {
			h := full.Header[c]
			if c == 3 && p.Plan.Mode != modeSpot {
				h = p.Lang.T("plan.table.times_short", catalog.PlanModes[p.Plan.Mode])
			}
			t.Header = append(t.Header, h)
		}
		for _, r := range full.Rows {
			var row []string
			for _, c := range cols {
				row = append(row, r[c])
			}
			t.Rows = append(t.Rows, row)
		}
		if render.TableFits(t) {
			return t
		}
	}
	return nil
}
