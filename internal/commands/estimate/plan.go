package estimate

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
)

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
	// one) is an old list price (see stock.ListPriceStale).
	Stale bool `json:"stale_price,omitempty"`
}

// figureMarks are the marks of a catalog figure: * unverified, 过时 old.
func (r *Answers) figureMarks(f catalog.Figure, en bool) string {
	s := ""
	if !f.Verified {
		s += render.MarkUnverified
	}
	if stock.ListPriceStale(f.AsOf, r.Now(), r.ListPriceMaxAge) {
		s += answer.Pick(en, "（过时）", " (old)")
	}
	return s
}

// modeName names a billing mode; modeHours are the wall-clock hours of one
// period.
func modeName(mode string, en bool) string {
	zh := map[string]string{understand.ModeDaily: "包日（按天）", understand.ModeWeekly: "包周", understand.ModeMonthly: "包月", understand.ModeYearly: "包年", understand.ModeSpot: "竞价（可中断）", understand.ModeHourly: "按量"}
	e := map[string]string{understand.ModeDaily: "daily", understand.ModeWeekly: "weekly", understand.ModeMonthly: "monthly", understand.ModeYearly: "yearly", understand.ModeSpot: "spot (interruptible)", understand.ModeHourly: "pay-as-you-go"}
	if en {
		return e[mode]
	}
	return zh[mode]
}

// Plan answers "A100 80G 包月多少", "AutoDL 3090 包周多少钱", "3090 一天
// 多少钱": in the mode asked.
func (r *Answers) Plan(_ context.Context, res *Result) {
	q := res.Query
	en := q.English
	mode := q.BillingMode
	pr := &PlanResult{Mode: mode}
	res.Plan = pr
	pr.Rows = r.planRows(q)
	if len(pr.Rows) == 0 {
		res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "目录里没有%s的价格，也没有能折算的按量标价。", "No %s price on record, and no pay-as-you-go list price to scale."), modeName(mode, en))}
		return
	}
	hours := catalog.PlanModes[mode]
	withPlan := 0
	for _, row := range pr.Rows {
		if row.PlanCNY != nil {
			withPlan++
		}
	}
	rep := chat.Reply{Title: r.planVerdict(pr, q, withPlan, en)}
	times := fmt.Sprintf(answer.Pick(en, "按量×%g 小时", "hourly × %g h"), hours)
	if mode == understand.ModeSpot {
		times = answer.Pick(en, "按量 元/卡时", "pay-as-you-go CNY/GPU-h")
	}
	t := &chat.Table{Header: answer.Picks(en, []string{"平台", "GPU", modeName(mode, en) + "价", times, "有这种计费吗", "来源"},
		[]string{"platform", "GPU", modeName(mode, en) + " price", times, "offered", "source"})}
	for _, row := range pr.Rows {
		plan := answer.Pick(en, "没有记录", "none on record")
		if row.PlanCNY != nil {
			plan = answer.FigureText(*row.PlanCNY) + r.figureMarks(*row.PlanCNY, en)
		}
		offered := answer.Pick(en, "有", "yes")
		if !row.Offered {
			offered = answer.Pick(en, "没有", "no")
		}
		times := fmt.Sprintf("%.0f", row.HourlyTimesCNY[0])
		if row.HourlyTimesCNY[1] > row.HourlyTimesCNY[0]+0.5 {
			times += fmt.Sprintf("-%.0f", row.HourlyTimesCNY[1])
		}
		times += r.figureMarks(row.HourlyCNY, en)
		if mode == understand.ModeSpot {
			times = answer.FigureText(row.HourlyCNY)
		}
		t.Rows = append(t.Rows, []string{r.Rd.PlatformName(row.Platform, en), row.GPU, plan, times, offered, row.Source})
	}
	rep.Table = t
	if mode != understand.ModeSpot {
		rep.Notes = append(rep.Notes, fmt.Sprintf(answer.Pick(en, "“按量×%g 小时”是按量标价乘上一整%s的小时数，只作对照，不是平台的%s价；包期内关机通常也保留 GPU。",
			"“hourly × %g h” is the pay-as-you-go list price times the hours of a whole %s period, for comparison only, not the platform's %s price; plans usually keep the GPU while shut down."),
			hours, modeName(mode, en), modeName(mode, en)))
	} else {
		rep.Notes = append(rep.Notes, answer.Pick(en, "竞价实例随时可能被回收，要能断点续训（见“竞价实例被回收”）。", "Spot instances can be reclaimed at any time; checkpoint so you can resume."))
	}
	rep.Notes = append(rep.Notes, r.planLegend(pr.Rows, en)...)
	res.Reply = rep
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
			row.Stale = stock.ListPriceStale(shown.AsOf, r.Now(), r.ListPriceMaxAge)
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

// planVerdict is the first line: the plan prices on record, or plainly
// that there are none and what pay-as-you-go comes to.
func (r *Answers) planVerdict(pr *PlanResult, q understand.Query, withPlan int, en bool) string {
	mode := modeName(pr.Mode, en)
	what := strings.TrimSpace(r.Rd.PlatformNames(q.Platforms, en) + " " + answer.JoinIDs(q.NamedGPUs, en))
	if what == "" {
		what = answer.Pick(en, "各平台", "across platforms")
	}
	if !en {
		what += " "
	}
	best := pr.Rows[0]
	if pr.Mode == understand.ModeSpot {
		what = strings.TrimSpace(what)
		var offered []string
		for _, row := range pr.Rows {
			if row.Offered && !slices.Contains(offered, r.Rd.PlatformName(row.Platform, en)) {
				offered = append(offered, r.Rd.PlatformName(row.Platform, en))
			}
		}
		if len(offered) == 0 {
			return fmt.Sprintf(answer.Pick(en, "%s 没有竞价（可中断）实例的记录，只有按量价。", "%s: no spot (interruptible) instances on record, only pay-as-you-go."), what)
		}
		return fmt.Sprintf(answer.Pick(en, "%s：有竞价实例的是 %s；竞价价格随行情变，目录里没有具体数字。", "%s: spot instances exist on %s; spot prices move with the market and none is on record."), what, answer.JoinIDs(offered, en))
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
	hourly := fmt.Sprintf(answer.Pick(en, "按量标价折算最低 %s %s 约 %.0f 元/%s（%.2f%s 元/卡时 × %g 小时）", "at pay-as-you-go list prices the lowest is %s %s, about %.0f CNY per %s (%.2f%s CNY/GPU-h × %g h)"),
		r.Rd.PlatformName(cheapest.Platform, en), cheapest.GPU, cheapest.HourlyTimesCNY[0], periodWord(pr.Mode, en), cheapest.HourlyCNY.Low, r.figureMarks(cheapest.HourlyCNY, en), catalog.PlanModes[pr.Mode])
	for _, row := range pr.Rows {
		if row.PlanCNY != nil {
			// The first row with a plan price (current ones rank first).
			best = row
			break
		}
	}
	if withPlan > 0 {
		return fmt.Sprintf(answer.Pick(en, "%s%s：目录里有 %s %s 的%s价 %s%s 元（%s）；%s。", "%s %s: on record, %s %s %s price %s%s CNY (%s); %s."),
			what, mode, r.Rd.PlatformName(best.Platform, en), best.GPU, mode, answer.FigureText(*best.PlanCNY), r.figureMarks(*best.PlanCNY, en), best.Source, hourly)
	}
	return fmt.Sprintf(answer.Pick(en, "%s%s：目录里没有%s价；%s。", "%s %s: no %s price on record; %s."), what, mode, mode, hourly)
}

// planLegend explains the marks the plan rows carry.
func (r *Answers) planLegend(rows []PlanRow, en bool) []string {
	var out []string
	unverified := false
	var stale []render.OfferRow
	for _, row := range rows {
		unverified = unverified || !row.HourlyCNY.Verified || row.PlanCNY != nil && !row.PlanCNY.Verified
		if row.Stale {
			stale = append(stale, render.OfferRow{Platform: row.Platform, Caveats: []stock.Caveat{stock.CaveatStalePrice}})
		}
	}
	if unverified {
		out = append(out, answer.UnverifiedFigureNote(en))
	}
	if l := r.Rd.StaleLine(stale, en); l != "" {
		out = append(out, l+answer.Pick(en, "，排在后面。", "; ranked last."))
	}
	return out
}

func periodWord(mode string, en bool) string {
	zh := map[string]string{understand.ModeDaily: "天", understand.ModeWeekly: "周", understand.ModeMonthly: "月", understand.ModeYearly: "年"}
	e := map[string]string{understand.ModeDaily: "day", understand.ModeWeekly: "week", understand.ModeMonthly: "month", understand.ModeYearly: "year"}
	if en {
		return e[mode]
	}
	return zh[mode]
}
