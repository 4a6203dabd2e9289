package render

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/stock"
)

// modeSpot is the spot billing mode (understand.ModeSpot); the modes are
// catalog.PlanModes' keys and "hourly".
const modeSpot = "spot"

// PlanResult is a billing-mode answer (intent plan): each platform's price
// for the mode asked, or the pay-as-you-go price times the mode's hours
// when no such price is on record. A later plan optimizer fills in here.
type PlanResult struct {
	Mode string    `json:"billing_mode"`
	Rows []PlanRow `json:"rows"`
}

// PlanRow is one platform and GPU in a billing-mode answer. PlanCNY is
// the plan's price for one period (CNY per GPU; for spot, per GPU-hour),
// nil when no source gives one; HourlyCNY is the pay-as-you-go list price
// (CNY per GPU-hour) and HourlyTimesCNY that price times the period's
// hours (24, 168, 720, 8760).
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

// PlanAsk is what a billing-mode question asked: the platforms and cards
// named, the time of the answer (for stale list prices) and the language.
type PlanAsk struct {
	Platforms []string
	NamedGPUs []string
	Now       time.Time
	English   bool
}

// modeNames and periodWords name the billing modes and their periods.
var (
	modeNames = map[string][2]string{"daily": {"包日（按天）", "daily"}, "weekly": {"包周", "weekly"}, "monthly": {"包月", "monthly"},
		"yearly": {"包年", "yearly"}, modeSpot: {"竞价（可中断）", "spot (interruptible)"}, "hourly": {"按量", "pay-as-you-go"}}
	periodWords = map[string][2]string{"daily": {"天", "day"}, "weekly": {"周", "week"}, "monthly": {"月", "month"}, "yearly": {"年", "year"}}
)

// ModeName names a billing mode ("包月", "monthly").
func ModeName(mode string, en bool) string { return TextFor(modeNames, mode, [2]string{}, en) }

// figureMarks are the marks of a catalog figure: * unverified, 过时 old.
func (r *Renderer) figureMarks(f catalog.Figure, now time.Time, en bool) string {
	s := unverifiedMark(f.Verified)
	if catalog.ListPriceStale(f.AsOf, now, r.ListPriceMaxAge) {
		s += pick1(en, "（过时）", " (old)")
	}
	return s
}

// Plan is the billing-mode answer: the verdict, a row per platform and
// GPU (the plan price, the hourly price times the period, whether the
// mode is offered, the source) and the notes on what the figures mean.
func (r *Renderer) Plan(pr *PlanResult, ask PlanAsk) chat.Reply {
	en, mode := ask.English, pr.Mode
	if len(pr.Rows) == 0 {
		return chat.Reply{Title: fmt.Sprintf(pick1(en, "目录里没有%s的价格，也没有能折算的按量标价。", "No %s price on record, and no pay-as-you-go list price to scale."), ModeName(mode, en))}
	}
	hours := catalog.PlanModes[mode]
	rep := chat.Reply{Title: r.planVerdict(pr, ask), Table: r.planTable(pr, ask)}
	if mode != modeSpot {
		rep.Notes = append(rep.Notes, fmt.Sprintf(pick1(en, "“按量×%g 小时”是按量标价乘上一整%s的小时数，只作对照，不是平台的%s价；包期内关机通常也保留 GPU。",
			"“hourly × %g h” is the pay-as-you-go list price times the hours of a whole %s period, for comparison only, not the platform's %s price; plans usually keep the GPU while shut down."),
			hours, ModeName(mode, en), ModeName(mode, en)))
	} else {
		rep.Notes = append(rep.Notes, pick1(en, "竞价实例随时可能被回收，要能断点续训（见“竞价实例被回收”）。", "Spot instances can be reclaimed at any time; checkpoint so you can resume."))
	}
	rep.Notes = append(rep.Notes, r.planLegend(pr.Rows, en)...)
	return rep
}

// planTable is the plan rows as a table.
func (r *Renderer) planTable(pr *PlanResult, ask PlanAsk) *chat.Table {
	en, mode := ask.English, pr.Mode
	times := fmt.Sprintf(pick1(en, "按量×%g 小时", "hourly × %g h"), catalog.PlanModes[mode])
	if mode == modeSpot {
		times = pick1(en, "按量 元/卡时", "pay-as-you-go CNY/GPU-h")
	}
	t := &chat.Table{Header: picks(en, []string{"平台", "GPU", ModeName(mode, en) + "价", times, "有这种计费吗", "来源"},
		[]string{"platform", "GPU", ModeName(mode, en) + " price", times, "offered", "source"})}
	for _, row := range pr.Rows {
		plan := pick1(en, "没有记录", "none on record")
		if row.PlanCNY != nil {
			plan = FigureText(*row.PlanCNY) + r.figureMarks(*row.PlanCNY, ask.Now, en)
		}
		offered := pick1(en, "有", "yes")
		if !row.Offered {
			offered = pick1(en, "没有", "no")
		}
		times := fmt.Sprintf("%.0f", row.HourlyTimesCNY[0])
		if row.HourlyTimesCNY[1] > row.HourlyTimesCNY[0]+0.5 {
			times += fmt.Sprintf("-%.0f", row.HourlyTimesCNY[1])
		}
		times += r.figureMarks(row.HourlyCNY, ask.Now, en)
		if mode == modeSpot {
			times = FigureText(row.HourlyCNY)
		}
		t.Rows = append(t.Rows, []string{r.PlatformName(row.Platform, en), row.GPU, plan, times, offered, row.Source})
	}
	return t
}

// planVerdict is the first line: the plan prices on record, or plainly
// that there are none and what pay-as-you-go comes to.
func (r *Renderer) planVerdict(pr *PlanResult, ask PlanAsk) string {
	en := ask.English
	mode := ModeName(pr.Mode, en)
	what := strings.TrimSpace(r.PlatformNames(ask.Platforms, en) + " " + JoinIDs(ask.NamedGPUs, en))
	if what == "" {
		what = pick1(en, "各平台", "across platforms")
	}
	if pr.Mode == modeSpot {
		return r.spotVerdict(pr.Rows, what, en)
	}
	if !en {
		what += " "
	}
	// The cheapest hourly figure among verified, current ones when there
	// are any: a verdict never rests on a doubtful price unmarked.
	cheapest, found := pr.Rows[0], false
	for _, row := range pr.Rows {
		trusted := row.HourlyCNY.Verified && !row.Stale
		if trusted && (!found || row.HourlyTimesCNY[0] < cheapest.HourlyTimesCNY[0]) {
			cheapest, found = row, true
		}
	}
	hourly := fmt.Sprintf(pick1(en, "按量标价折算最低 %s %s 约 %.0f 元/%s（%.2f%s 元/卡时 × %g 小时）", "at pay-as-you-go list prices the lowest is %s %s, about %.0f CNY per %s (%.2f%s CNY/GPU-h × %g h)"),
		r.PlatformName(cheapest.Platform, en), cheapest.GPU, cheapest.HourlyTimesCNY[0], TextFor(periodWords, pr.Mode, [2]string{}, en),
		cheapest.HourlyCNY.Low, r.figureMarks(cheapest.HourlyCNY, ask.Now, en), catalog.PlanModes[pr.Mode])
	// The first row with a plan price (current ones rank first).
	for _, best := range pr.Rows {
		if best.PlanCNY != nil {
			return fmt.Sprintf(pick1(en, "%s%s：目录里有 %s %s 的%s价 %s%s 元（%s）；%s。", "%s %s: on record, %s %s %s price %s%s CNY (%s); %s."),
				what, mode, r.PlatformName(best.Platform, en), best.GPU, mode, FigureText(*best.PlanCNY), r.figureMarks(*best.PlanCNY, ask.Now, en), best.Source, hourly)
		}
	}
	return fmt.Sprintf(pick1(en, "%s%s：目录里没有%s价；%s。", "%s %s: no %s price on record; %s."), what, mode, mode, hourly)
}

// spotVerdict names the platforms with spot instances; spot prices are
// not on record.
func (r *Renderer) spotVerdict(rows []PlanRow, what string, en bool) string {
	var offered []string
	for _, row := range rows {
		if row.Offered && !slices.Contains(offered, r.PlatformName(row.Platform, en)) {
			offered = append(offered, r.PlatformName(row.Platform, en))
		}
	}
	if len(offered) == 0 {
		return fmt.Sprintf(pick1(en, "%s 没有竞价（可中断）实例的记录，只有按量价。", "%s: no spot (interruptible) instances on record, only pay-as-you-go."), what)
	}
	return fmt.Sprintf(pick1(en, "%s：有竞价实例的是 %s；竞价价格随行情变，目录里没有具体数字。", "%s: spot instances exist on %s; spot prices move with the market and none is on record."), what, JoinIDs(offered, en))
}

// planLegend explains the marks the plan rows carry.
func (r *Renderer) planLegend(rows []PlanRow, en bool) []string {
	var out []string
	unverified := false
	var stale []OfferRow
	for _, row := range rows {
		unverified = unverified || !row.HourlyCNY.Verified || row.PlanCNY != nil && !row.PlanCNY.Verified
		if row.Stale {
			stale = append(stale, OfferRow{Platform: row.Platform, Caveats: []stock.Caveat{stock.CaveatStalePrice}})
		}
	}
	if unverified {
		out = append(out, UnverifiedFigureNote(en))
	}
	if l := r.StaleLine(stale, en); l != "" {
		out = append(out, l+pick1(en, "，排在后面。", "; ranked last."))
	}
	return out
}
