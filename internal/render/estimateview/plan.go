package estimateview

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// modeSpot is the spot billing mode (understand.ModeSpot); the modes are
// catalog.PlanModes' keys and "hourly".
const modeSpot = "spot"

// Plan is a billing-mode answer ("A100 80G 包月多少"): each platform's
// price for the mode asked, or the pay-as-you-go price times the mode's
// hours when no such price is on record, with what the question named
// (platforms, cards), the time of the answer (for stale list prices) and
// the language. The JSON carries the rows ("plan").
type Plan struct {
	Plan      PlanResult `json:"plan"`
	Platforms []string   `json:"-"`
	NamedGPUs []string   `json:"-"`
	Now       time.Time  `json:"-"`
	Lang      i18n.Lang  `json:"-"`
	// Verdict answers the yes/no question asked ("200块能包一个月4090吗";
	// nil when none was asked): the first line.
	Verdict *PlanVerdict `json:"verdict,omitempty"`
	// Cards is the cheapest term for every card asked when several were
	// ("4张4090一天多少"; nil for one): all of them and one, labelled.
	Cards *PlanCards `json:"cards,omitempty"`
	// USD: the member asks in US dollars ("and per month?" after "in
	// USD?"): the lowest figure is said in dollars too.
	USD bool `json:"-"`
}

// PlanCards is the cheapest price of one term (Row's plan, or its
// pay-as-you-go for the whole term when ByHourly) for Count cards: Cost
// is one card's.
type PlanCards struct {
	Count    int        `json:"count"`
	Row      PlanRow    `json:"row"`
	Cost     [2]float64 `json:"cost_cny"`
	ByHourly bool       `json:"by_hourly,omitempty"`
}

// PlanResult is a billing-mode answer's mode and rows, those with a plan
// price first.
type PlanResult struct {
	Mode string    `json:"billing_mode"`
	Rows []PlanRow `json:"rows"`
}

// PlanRow is one platform and GPU in a billing-mode answer. PlanCNY is
// the plan's price for one period (CNY per GPU; for spot, per GPU-hour),
// nil when no source gives one; HourlyCNY is the pay-as-you-go list price
// (CNY per GPU-hour) and HourlyTimesCNY that price times the period's
// hours (24, 168, 720, 8760); Source names the price's source for a
// reader.
type PlanRow struct {
	Platform       string          `json:"platform"`
	GPU            string          `json:"gpu"`
	Offered        bool            `json:"offered"`
	PlanCNY        *catalog.Figure `json:"plan_cny,omitempty"`
	HourlyCNY      catalog.Figure  `json:"hourly_cny_per_gpu_hour"`
	HourlyTimesCNY [2]float64      `json:"hourly_times_period_cny"`
	Source         string          `json:"source"`
	// Stale is set when the figure shown (the plan price, else the hourly
	// one) is an old list price (see catalog.ListPriceStale).
	Stale bool `json:"stale_price,omitempty"`
}

// periodKeys name the billing modes' periods ("周", "month").
var periodKeys = map[string]string{"daily": "plan.period.daily", "weekly": "plan.period.weekly", "monthly": "plan.period.monthly",
	"yearly": "plan.period.yearly"}

// PeriodWord names a billing mode's period ("周", "month"); "" for a mode
// without one.
func PeriodWord(mode string, l i18n.Lang) string {
	if k, ok := periodKeys[mode]; ok {
		return l.T(k)
	}
	return ""
}

// figureMarks are the marks of a catalog figure: * unverified, 过时 old.
func (p Plan) figureMarks(rd *render.Renderer, f catalog.Figure) string {
	s := unverifiedMark(f.Verified)
	if catalog.ListPriceStale(f.AsOf, p.Now, rd.ListPriceMaxAge) {
		s += p.Lang.T("plan.stale_mark")
	}
	return s
}

// Reply is the verdict, a row per platform and GPU (the plan price, the
// hourly price times the period, whether the mode is offered, the
// source) and the notes on what the figures mean.
func (p Plan) Reply(rd *render.Renderer) chat.Reply {
	l, mode, en := p.Lang, p.Plan.Mode, p.Lang.English()
	if len(p.Plan.Rows) == 0 {
		return chat.Reply{Title: l.T("plan.none", render.ModeName(mode, en))}
	}
	hours := catalog.PlanModes[mode]
	full := chat.Reply{Title: p.verdict(rd), Table: p.table(rd)}
	if mode != modeSpot {
		full.Notes = append(full.Notes, l.T("plan.hourly_times_note", hours, render.ModeName(mode, en), render.ModeName(mode, en)))
	} else {
		full.Notes = append(full.Notes, l.T("plan.spot_note"))
	}
	full.Notes = append(full.Notes, p.legend(rd)...)
	if c := p.Cards; c != nil && c.Count > 1 && c.Cost[0] > 0 {
		how := render.ModeName(mode, en)
		if c.ByHourly {
			how = l.T("plan.yesno.hourly_term", PeriodWord(mode, l))
		}
		n := float64(c.Count)
		full.Lines = append(full.Lines, l.T("plan.cards", c.Count, rd.PlatformName(c.Row.Platform, en), how,
			rangeText([2]float64{c.Cost[0] * n, c.Cost[1] * n}), rangeText(c.Cost)))
	}
	if p.USD {
		if line := USDLine(rd, l, p.lowest()); line != "" {
			full.Lines = append([]string{line}, full.Lines...)
		}
	}
	rep := full
	rep.Table = p.phoneTable(rd, full.Table)
	if p.Verdict != nil {
		rep.Title = p.verdictLine(rd)
		rep.Lines = append([]string{full.Title}, rep.Lines...)
		full.Title, full.Lines = rep.Title, rep.Lines
	}
	rep.Full = &full
	return rep
}

// lowest is the lowest term figure of the rows (a plan price, else
// pay-as-you-go over the term), CNY, as a range.
func (p Plan) lowest() [2]float64 {
	var best [2]float64
	for _, r := range p.Plan.Rows {
		c := r.HourlyTimesCNY
		if r.PlanCNY != nil {
			c = [2]float64{r.PlanCNY.Low, r.PlanCNY.High}
		}
		if c[0] > 0 && (best[0] == 0 || c[0] < best[0]) {
			best = c
		}
	}
	return best
}

// table is the plan rows as a table.
func (p Plan) table(rd *render.Renderer) *chat.Table {
	l, mode, en := p.Lang, p.Plan.Mode, p.Lang.English()
	times := l.T("plan.table.times", catalog.PlanModes[mode])
	if mode == modeSpot {
		times = l.T("plan.table.times_spot")
	}
	t := &chat.Table{Header: []string{l.T("plan.table.platform"), "GPU", l.T("plan.table.price", render.ModeName(mode, en)), times,
		l.T("plan.table.offered"), l.T("plan.table.source")}}
	for _, row := range p.Plan.Rows {
		price := l.T("plan.table.none")
		if row.PlanCNY != nil {
			price = render.FigureText(*row.PlanCNY) + p.figureMarks(rd, *row.PlanCNY)
		}
		offered := l.T("plan.table.yes")
		if !row.Offered {
			offered = l.T("plan.table.no")
		}
		times := render.FigureText(row.HourlyCNY)
		if mode != modeSpot {
			times = rangeText(row.HourlyTimesCNY) + p.figureMarks(rd, row.HourlyCNY)
		}
		t.Rows = append(t.Rows, []string{rd.PlatformName(row.Platform, en), row.GPU, price, times, offered, row.Source})
	}
	return t
}

// rangeText is a CNY range to the yuan, "1440" or "936-1080".
func rangeText(r [2]float64) string {
	s := fmt.Sprintf("%.0f", r[0])
	if r[1] > r[0]+0.5 {
		s += fmt.Sprintf("-%.0f", r[1])
	}
	return s
}

// verdict is the first line: the plan prices on record, or plainly that
// there are none and what pay-as-you-go comes to.
func (p Plan) verdict(rd *render.Renderer) string {
	l, en, rows := p.Lang, p.Lang.English(), p.Plan.Rows
	mode := render.ModeName(p.Plan.Mode, en)
	what := strings.TrimSpace(rd.PlatformNames(p.Platforms, en) + " " + render.JoinIDs(p.NamedGPUs, en))
	if what == "" {
		what = l.T("plan.verdict.all")
	}
	if p.Plan.Mode == modeSpot {
		return p.spotVerdict(rd, what)
	}
	// The cheapest hourly figure among verified, current ones when there
	// are any: a verdict never rests on a doubtful price unmarked.
	cheapest, found := rows[0], false
	for _, row := range rows {
		trusted := row.HourlyCNY.Verified && !row.Stale
		if trusted && (!found || row.HourlyTimesCNY[0] < cheapest.HourlyTimesCNY[0]) {
			cheapest, found = row, true
		}
	}
	hourly := l.T("plan.verdict.hourly", rd.PlatformName(cheapest.Platform, en), cheapest.GPU, cheapest.HourlyTimesCNY[0], PeriodWord(p.Plan.Mode, l),
		cheapest.HourlyCNY.Low, p.figureMarks(rd, cheapest.HourlyCNY), catalog.PlanModes[p.Plan.Mode])
	// The first row with a plan price (current ones rank first).
	for _, best := range rows {
		if best.PlanCNY != nil {
			return l.T("plan.verdict.on_record", what, mode, rd.PlatformName(best.Platform, en), best.GPU, mode, render.FigureText(*best.PlanCNY),
				p.figureMarks(rd, *best.PlanCNY), best.Source, hourly)
		}
	}
	return l.T("plan.verdict.none_on_record", what, mode, mode, hourly)
}

// spotVerdict names the platforms with spot instances; spot prices are
// not on record.
func (p Plan) spotVerdict(rd *render.Renderer, what string) string {
	l, en := p.Lang, p.Lang.English()
	var offered []string
	for _, row := range p.Plan.Rows {
		if row.Offered && !slices.Contains(offered, rd.PlatformName(row.Platform, en)) {
			offered = append(offered, rd.PlatformName(row.Platform, en))
		}
	}
	if len(offered) == 0 {
		return l.T("plan.verdict.no_spot", what)
	}
	return l.T("plan.verdict.spot", what, render.JoinIDs(offered, en))
}

// legend explains the marks the plan rows carry.
func (p Plan) legend(rd *render.Renderer) []string {
	l, en := p.Lang, p.Lang.English()
	var out []string
	unverified := false
	var stale []render.OfferRow
	for _, row := range p.Plan.Rows {
		unverified = unverified || !row.HourlyCNY.Verified || row.PlanCNY != nil && !row.PlanCNY.Verified
		if row.Stale {
			stale = append(stale, render.OfferRow{Platform: row.Platform, Caveats: []stock.Caveat{stock.CaveatStalePrice}})
		}
	}
	if unverified {
		out = append(out, render.UnverifiedFigureNote(en))
	}
	if s := rd.StaleLine(stale, en); s != "" {
		out = append(out, l.T("plan.ranked_last", s))
	}
	return out
}
