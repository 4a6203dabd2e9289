// Package planview says the plan optimizer's answer (Plans, a
// render.Payload over a plan.Result): the cheapest way to rent first, a
// table of at most five plans (total CNY for the whole span, source and
// date of each price), the break-even point, the queue risk or, without
// history, the seeds' evening-queue anecdote labelled as such; every plan
// and the winner's billing rules behind "详情". The words are the message
// catalog's plan.opt.* keys.
package planview

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
)

// Plans is the optimizer's answer ("我们组每周跑40小时4090，包周还是按量"):
// every platform and mode priced for the usage profile, cheapest first
// (Result, the JSON's "plans"), what the answer assumed, each option's
// price source as a reader names it (Sources, by the index of
// Result.Options; "" for the lab's own prices, named from their SeenBy),
// the source of the winner's billing rules (RulesSource) and the
// language.
type Plans struct {
	Result      plan.Result `json:"plans"`
	Assumed     Assumed     `json:"-"`
	Sources     []string    `json:"-"`
	RulesSource string      `json:"-"`
	Lang        i18n.Lang   `json:"-"`
	// BudgetCNY is the budget the question states (0: none) and USD
	// whether it asks in US dollars: each adds a line about the cheapest
	// plan (conditionLines).
	BudgetCNY float64 `json:"-"`
	USD       bool    `json:"-"`
	// Verdict answers the yes/no question asked ("3090包月值吗", "1000块够
	// 租一个月3090吗"; nil when none was asked): the first line.
	Verdict *Verdict `json:"verdict,omitempty"`
}

// Assumed lists what the answer assumed because the question did not say
// (shown in one line): the card, the span, the disk.
type Assumed struct {
	GPU, Span, Hours, Disk bool
	// RunThrough: the question gave only a total ("一共跑50小时"), so the
	// span is the hours run back to back ("连续跑约 2 天").
	RunThrough bool
	// Variant is the family the question named without a size ("V100")
	// when the answer priced its cheapest variant with a price.
	Variant string
	// Deadline is the due date as written ("下周五") when the span runs
	// from now to it, DeadlineDate that day.
	Deadline     string
	DeadlineDate time.Time
	// SetupStated: the question gave its setup time ("配环境要一天"), so the
	// answer says what no-card mode saves on it.
	SetupStated bool
	// Mentioned is the billing mode the question's words also read as
	// ("租一个月": monthly), named outright or not.
	Mentioned string
	// Asked is the billing mode the question named ("包周还是按量":
	// weekly), so the answer says so when no price of it is on record.
	Asked string
	// ScheduleHours and ScheduleDays are the hours a day and days a week
	// read from the schedule the question states without hours ("晚上才
	// 跑": 4 and 7; 0: none).
	ScheduleHours float64
	ScheduleDays  int
}

// shortRows is the most plans the short form shows.
const shortRows = 5

// Reply is the optimizer's answer: the short form, and every plan with
// the winner's rules behind "详情".
func (p Plans) Reply(rd *render.Renderer) chat.Reply {
	res, as, l := p.Result, p.Assumed, p.Lang
	en := l.English()
	if len(res.Options) == 0 {
		return chat.Reply{English: en, Title: l.T("plan.opt.none", res.Profile.GPU)}
	}
	rep := chat.Reply{English: en, Title: verdict(rd, res, as, l), Table: p.shortTable(rd)}
	if p.Verdict != nil {
		rep.Lines = append(rep.Lines, rep.Title)
		rep.Title = p.verdictLine(rd)
	}
	rep.Lines = append(rep.Lines, p.conditionLines(rd)...)
	if usd := estimateview.USDLine(rd, l, res.Options[0].CostCNY); p.USD && usd != "" && p.Verdict == nil {
		// Asked in US dollars ("in USD?"): the total in dollars first,
		// the plan in CNY right after it.
		rep.Lines = append([]string{rep.Title}, slices.DeleteFunc(rep.Lines, func(s string) bool { return s == usd })...)
		rep.Title = usd
	}
	if line, ok := missingMode(res, as.Asked, l); ok {
		rep.Lines = append(rep.Lines, line)
	} else if line, ok := hiddenMode(rd, res, as.Mentioned, l); ok {
		rep.Lines = append(rep.Lines, line)
	}
	rep.Notes = notes(rd, res, as, l)
	full := rep
	full.Table = p.table(rd, len(res.Options))
	full.Notes = append(append([]string(nil), rep.Notes...), p.rules(rd.Cat, res.Options[0])...)
	if n := render.ShownRows(len(res.Options), phoneRows); len(res.Options) > n {
		rep.Notes = append([]string{l.T("estimate.more_options", len(res.Options)-n)}, rep.Notes...)
	}
	rep.Full = &full
	return rep
}

// phoneRows are the plans the short form's table shows.
const phoneRows = 3

// shortTable is the first plans narrow enough for a phone: platform,
// mode and total (what it includes and the price's source are in 详情).
func (p Plans) shortTable(rd *render.Renderer) *chat.Table {
	l, en := p.Lang, p.Lang.English()
	t := &chat.Table{Header: l.L("plan.opt.short_table")}
	for _, o := range p.Result.Options[:render.ShownRows(len(p.Result.Options), phoneRows)] {
		t.Rows = append(t.Rows, []string{rd.ShortName(o.Platform, en), render.ModeName(o.Mode, en), cost(o) + mark(o.Price)})
	}
	return t
}

// verdict is the first line: the cheapest plan, its total, and where a
// plan shown in the table starts to pay off.
func verdict(rd *render.Renderer, res plan.Result, as Assumed, l i18n.Lang) string {
	en := l.English()
	p, best := res.Profile, res.Options[0]
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
		if math.Abs(p.Weeks-math.Round(p.Weeks)) > 0.05 {
			// Not whole weeks: the hours in all say more than a fraction of a week.
			use = l.T("plan.opt.use.per_week_total", p.HoursPerWeek, span, p.Hours())
		}
	}
	cards := p.GPU
	if p.Count > 1 {
		cards = fmt.Sprintf("%s×%d", p.GPU, p.Count)
	}
	s := l.T("plan.opt.verdict", cards, use, rd.PlatformName(best.Platform, en), render.ModeName(best.Mode, en), cost(best), mark(best.Price))
	if p.Count > 1 {
		// Several cards: the total first, then one card's share, labelled.
		s = l.T("plan.opt.verdict_cards", cards, use, rd.PlatformName(best.Platform, en), render.ModeName(best.Mode, en), p.Count, cost(best), mark(best.Price), perCard(best, p.Count))
	}
	if be, ok := breakEven(res, best.Platform); ok {
		m := ""
		if !be.Verified {
			m = "*"
		}
		s += l.T("plan.opt.break_even", rd.PlatformName(be.Platform, en), render.ModeName(be.Mode, en), m, be.HoursPerTerm, termWord(be.Mode, l))
	}
	return s
}

// runThroughText is the span of hours run back to back: "连续跑约 2 天",
// or "连续跑约 10 小时" under a day.
func runThroughText(hours float64, l i18n.Lang) string {
	if hours < 24 {
		return l.T("plan.opt.run_through_hours", hours)
	}
	return l.T("plan.opt.run_through_days", math.Max(1, math.Round(hours/24)))
}

// missingMode is the line for a billing mode the question asked about
// that no option has a price for ("包周：没有查到 RTX 4090 的公开价格").
func missingMode(res plan.Result, mode string, l i18n.Lang) (string, bool) {
	if mode == "" || mode == "hourly" || mode == "spot" {
		return "", false
	}
	for _, o := range res.Options {
		if o.Mode == mode {
			return "", false
		}
	}
	return l.T("plan.opt.missing_mode", render.ModeName(mode, l.English()), res.Profile.GPU), true
}

// hiddenMode is the line for a plan the question mentions ("租一个月")
// whose cheapest price is on record but below the short table: its total
// against the winner's, and the hours a term it needs to pay off.
func hiddenMode(rd *render.Renderer, res plan.Result, mode string, l i18n.Lang) (string, bool) {
	if mode == "" || mode == "hourly" || mode == "spot" {
		return "", false
	}
	at := slices.IndexFunc(res.Options, func(o plan.Option) bool { return o.Mode == mode })
	if at < shortRows {
		return "", false
	}
	o, best := res.Options[at], res.Options[0]
	s := l.T("plan.opt.hidden_mode", rd.PlatformName(o.Platform, l.English()), render.ModeName(mode, l.English()), cost(o), mark(o.Price), o.Mid()-best.Mid())
	for _, b := range res.BreakEvens {
		if b.Platform == o.Platform && b.Mode == mode && b.HoursPerTerm < 0.95*termHours(mode) {
			s += l.T("plan.opt.hidden_break_even", b.HoursPerTerm, termWord(mode, l))
			break
		}
	}
	return s + l.T("estimate.stop"), true
}

// termHours is a plan's term in hours (a month as 30 days); 0 for an
// unknown mode.
func termHours(mode string) float64 {
	switch mode {
	case "daily":
		return 24
	case "weekly":
		return 168
	case "monthly":
		return 720
	case "yearly":
		return 8760
	}
	return 0
}

// relevant: a break-even worth a sentence for this profile — the plan's
// term fits in the work's span (no "包月 pays off above …" for a five-day
// job) and it can pay off at all (below 95% of the term's hours).
func relevant(b plan.BreakEven, p plan.Profile) bool {
	t := termHours(b.Mode)
	return t > 0 && t <= p.SpanHours()+1e-9 && b.HoursPerTerm < 0.95*t
}

// breakEven is the break-even of the winner's platform (else of any), the
// weekly plan first, among the plans the short table shows: a sentence
// never names a plan the reader cannot find in the table.
func breakEven(res plan.Result, platform string) (plan.BreakEven, bool) {
	shown := map[[2]string]bool{}
	for _, o := range res.Options[:min(shortRows, len(res.Options))] {
		shown[[2]string{o.Platform, o.Mode}] = true
	}
	var found plan.BreakEven
	ok := false
	for _, b := range res.BreakEvens {
		if !relevant(b, res.Profile) || !shown[[2]string{b.Platform, b.Mode}] {
			continue
		}
		better := !ok || b.Platform == platform && found.Platform != platform || b.Platform == found.Platform && b.Mode == "weekly"
		if better {
			found, ok = b, true
		}
	}
	return found, ok
}

// termWord names a plan's term ("周", "month").
func termWord(mode string, l i18n.Lang) string { return estimateview.PeriodWord(mode, l) }

// spanText is a span in days (under two weeks, or any whole number of
// days that is not whole weeks: "30 天", not "4.3 周") or weeks.
func spanText(weeks float64, l i18n.Lang) string {
	days := weeks * 7
	wholeDays := math.Abs(days-math.Round(days)) < 0.05
	if wholeDays && days < 14 || wholeDays && math.Abs(weeks-math.Round(weeks)) >= 0.05 {
		return l.T("plan.opt.span.days", days)
	}
	if math.Abs(weeks-math.Round(weeks)) < 0.05 {
		return l.T("plan.opt.span.weeks", weeks)
	}
	if days < 14 {
		return l.T("plan.opt.span.about_days", math.Max(1, math.Round(days)))
	}
	return l.T("plan.opt.span.part_weeks", weeks)
}

// perCard is one card's share of a cost over n cards: "29-65".
func perCard(o plan.Option, n int) string {
	o.CostCNY = [2]float64{o.CostCNY[0] / float64(n), o.CostCNY[1] / float64(n)}
	return cost(o)
}

func cost(o plan.Option) string {
	if o.CostCNY[1]-o.CostCNY[0] >= 0.5 {
		return fmt.Sprintf("%.0f-%.0f", o.CostCNY[0], o.CostCNY[1])
	}
	return fmt.Sprintf("%.0f", o.Mid())
}

// mark is * for an unverified (seed-only) price, † for the lab's own.
func mark(p plan.Price) string {
	switch {
	case p.Lab:
		return "†"
	case !p.CNY.Verified:
		return "*"
	}
	return ""
}

// table is the first n plans: platform, mode, total, what it includes, the
// price's source and date.
func (p Plans) table(rd *render.Renderer, n int) *chat.Table {
	l, en := p.Lang, p.Lang.English()
	t := &chat.Table{Header: l.L("plan.opt.table")}
	for i, o := range p.Result.Options[:min(n, len(p.Result.Options))] {
		t.Rows = append(t.Rows, []string{rd.PlatformName(o.Platform, en), render.ModeName(o.Mode, en), cost(o) + mark(o.Price), parts(o, l), p.source(i)})
	}
	return t
}

// parts says what the total holds beyond the card time.
func parts(o plan.Option, l i18n.Lang) string {
	var s []string
	if o.Terms > 0 {
		s = append(s, l.T("plan.opt.part.terms", o.Terms))
	}
	add := func(v float64, key string) {
		if v >= 0.5 {
			s = append(s, fmt.Sprintf("%s %.0f", l.T(key), v))
		}
	}
	if o.NoCard {
		add(o.SetupCNY, "plan.opt.part.no_card")
	} else {
		add(o.SetupCNY, "plan.opt.part.setup")
	}
	add(o.DiskCNY, "plan.opt.part.disk")
	add(o.MinimumCNY, "plan.opt.part.minimum")
	add(o.QueueCNY, "plan.opt.part.queue")
	if o.DiskUnknown {
		s = append(s, l.T("plan.opt.part.disk_unknown"))
	}
	if len(s) == 0 {
		return "-"
	}
	return strings.Join(s, l.T("list.sep"))
}

// source names the price of the i-th option: the lab's record with who
// saw it, or the source the answer named.
func (p Plans) source(i int) string {
	pr := p.Result.Options[i].Price
	if pr.Lab {
		return p.Lang.T("plan.opt.lab_source", pr.SeenBy, pr.CNY.AsOf)
	}
	if i < len(p.Sources) {
		return p.Sources[i]
	}
	return ""
}

// noCardLine answers "无卡模式能省多少" for a stated setup time: the
// cheapest shown option's setup in no-card mode against the same hours
// with the card on (its own hourly price × hours × cards).
func noCardLine(rd *render.Renderer, res plan.Result, l i18n.Lang) string {
	p := res.Profile
	for _, o := range res.Options[:min(shortRows, len(res.Options))] {
		if !o.NoCard {
			continue
		}
		withCard := p.SetupHours * float64(max(p.Count, 1)) * o.Price.CNY.Mid()
		return l.T("plan.opt.no_card.saving", rd.PlatformName(o.Platform, l.English()), p.SetupHours, o.SetupCNY, withCard, withCard-o.SetupCNY)
	}
	return l.T("plan.opt.no_card.none", p.SetupHours)
}

// notes are the assumptions, the queue line and the marks' legend.
func notes(rd *render.Renderer, res plan.Result, as Assumed, l i18n.Lang) []string {
	p := res.Profile
	var out []string
	var a []string
	if as.GPU {
		a = append(a, l.T("plan.opt.assumed.card", p.GPU))
	}
	if as.Variant != "" {
		a = append(a, l.T("plan.opt.assumed.variant", p.GPU, as.Variant))
	}
	switch {
	case as.RunThrough:
		a = append(a, l.T("plan.opt.assumed.run_through", runThroughText(p.Hours(), l)))
	case as.Span:
		a = append(a, l.T("plan.opt.assumed.span", spanText(p.Weeks, l)))
	}
	if as.Deadline != "" {
		a = append(a, l.T("plan.opt.assumed.deadline", as.Deadline, as.DeadlineDate.Format(l.T("plan.opt.assumed.date_layout")), spanText(p.Weeks, l)))
	}
	if as.Hours {
		a = append(a, l.T("plan.opt.assumed.around_the_clock"))
	}
	if as.ScheduleHours > 0 {
		a = append(a, l.T("plan.opt.assumed.schedule", as.ScheduleHours, as.ScheduleDays))
	}
	if as.Disk || p.DiskGB > 0 {
		a = append(a, l.T("plan.opt.assumed.disk", p.DiskGB))
	}
	if !as.SetupStated {
		a = append(a, l.T("plan.opt.assumed.setup", p.SetupHours))
	}
	if as.SetupStated {
		out = append(out, noCardLine(rd, res, l))
	}
	joined := strings.Join(a, l.T("list.sep"))
	if !l.English() && joined != "" && joined[len(joined)-1] < 0x80 {
		joined += " " // "数据盘 50 GB 估算"
	}
	out = append(out, l.T("plan.opt.assumed.line", joined))
	out = append(out, queueNote(rd, res, l)...)
	var unverified, lab bool
	for _, o := range res.Options[:min(shortRows, len(res.Options))] {
		unverified = unverified || !o.Price.Lab && !o.Price.CNY.Verified
		lab = lab || o.Price.Lab
	}
	if be, ok := breakEven(res, res.Options[0].Platform); ok {
		unverified = unverified || !be.Verified
	}
	if unverified {
		out = append(out, l.T("plan.opt.unverified"))
	}
	if lab {
		out = append(out, l.T("plan.opt.lab"))
	}
	return out
}

// queueNote is the queue risk of the plans shown, each named by its
// platform, the winner's first ("AutoDL 这个时段约 56% 的时候没卡，已按…计
// 入"), or for evening work without history the seeds' anecdote,
// labelled, with no number invented.
func queueNote(rd *render.Renderer, res plan.Result, l i18n.Lang) []string {
	var parts []string
	days := 0.0
	for _, o := range res.Options[:min(shortRows, len(res.Options))] {
		if o.Risk == nil {
			continue
		}
		days = math.Max(days, o.Risk.Days)
		name := rd.PlatformName(o.Platform, l.English())
		switch {
		case o.QueueCNY >= 0.5:
			parts = append(parts, l.T("plan.opt.queue.priced", name, o.Risk.P*100, o.QueueCNY))
		case o.Risk.P >= 0.005:
			parts = append(parts, l.T("plan.opt.queue.waits", name, o.Risk.P*100))
		}
	}
	if len(parts) > 0 {
		return []string{l.T("plan.opt.queue.line", days, strings.Join(parts, l.T("estimate.sep")))}
	}
	if res.QueueAnecdote {
		return []string{l.T("plan.opt.queue.anecdote")}
	}
	return nil
}

// rules are the winner's billing-mode rules with their source.
func (p Plans) rules(cat *catalog.Catalog, o plan.Option) []string {
	l := p.Lang
	pl, ok := cat.Platform(o.Platform)
	if !ok {
		return nil
	}
	r, ok := pl.RuleFor(o.Mode)
	if !ok {
		return nil
	}
	var s []string
	for _, t := range []catalog.Text{r.Note, r.AtExpiry, r.Refund} {
		if txt := t.Pick(l.English()); txt != "" {
			s = append(s, txt)
		}
	}
	if len(s) == 0 {
		return nil
	}
	return []string{l.T("plan.opt.rules", pl.DisplayName(l.English()), render.ModeName(o.Mode, l.English()), strings.Join(s, " "), p.RulesSource)}
}

// conditionLines are the lines for the budget and the currency the
// question stated: whether the cheapest plan fits the budget, and its
// cost in US dollars.
func (p Plans) conditionLines(rd *render.Renderer) []string {
	best := p.Result.Options[0]
	var out []string
	if p.Verdict != nil && p.Verdict.BudgetCNY > 0 {
		// The verdict line already says whether the budget is enough.
	} else if line := estimateview.BudgetLine(p.Lang, p.BudgetCNY, best.CostCNY); line != "" {
		out = append(out, line)
	}
	if p.USD {
		if line := estimateview.USDLine(rd, p.Lang, best.CostCNY); line != "" {
			out = append(out, line)
		}
	}
	return out
}
