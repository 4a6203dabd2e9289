// Package planview renders the plan optimizer's answer (plan.Result) as a
// chat.Reply: the cheapest way to rent first, a table of at most five
// plans (total CNY for the whole span, source and date of each price), the
// break-even point, the queue risk or, without history, the seeds'
// evening-queue anecdote labelled as such; every plan and the winner's
// billing rules behind "详情".
package planview

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/render"
)

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
}

// shortRows is the most plans the short form shows.
const shortRows = 5

func pick(en bool, zh, e string) string {
	if en {
		return e
	}
	return zh
}

// cite names a catalog price's source and date for a reader.
type Cite func(platform string, f catalog.Figure) string

// Reply is the optimizer's answer; cite names the sources.
func Reply(rd *render.Renderer, cat *catalog.Catalog, cite Cite, res plan.Result, as Assumed, en bool) chat.Reply {
	if len(res.Options) == 0 {
		return chat.Reply{English: en, Title: fmt.Sprintf(pick(en, "%s：目录里没有能算的价格（按量或包期），没法比较。", "%s: no price on record (hourly or plan) to compare."), res.Profile.GPU)}
	}
	rep := chat.Reply{English: en, Title: verdict(rd, res, as, en), Table: table(rd, cite, res.Options, shortRows, en)}
	if line, ok := missingMode(res, as.Asked, en); ok {
		rep.Lines = append(rep.Lines, line)
	} else if line, ok := hiddenMode(rd, res, as.Mentioned, en); ok {
		rep.Lines = append(rep.Lines, line)
	}
	rep.Notes = notes(rd, res, as, en)
	full := rep
	full.Table = table(rd, cite, res.Options, len(res.Options), en)
	full.Notes = append(append([]string(nil), rep.Notes...), rules(cat, cite, res.Options[0], en)...)
	if len(res.Options) > shortRows || len(full.Notes) > len(rep.Notes) {
		rep.Full = &full
	}
	return rep
}

// verdict is the first line: the cheapest plan, its total, and where a
// plan shown in the table starts to pay off.
func verdict(rd *render.Renderer, res plan.Result, as Assumed, en bool) string {
	p, best := res.Profile, res.Options[0]
	span := spanText(p.Weeks, en)
	if as.RunThrough {
		span = runThroughText(p.Hours(), en)
	}
	use := fmt.Sprintf(pick(en, "共 %.0f 小时、%s", "%.0f h over %s"), p.Hours(), span)
	if as.RunThrough {
		use = fmt.Sprintf(pick(en, "共 %.0f 小时（%s）", "%.0f h (%s)"), p.Hours(), span)
	}
	if p.HoursPerWeek > 0 {
		use = fmt.Sprintf(pick(en, "每周 %.0f 小时、%s", "%.0f h a week for %s"), p.HoursPerWeek, span)
		if math.Abs(p.Weeks-math.Round(p.Weeks)) > 0.05 {
			// Not whole weeks: the hours in all say more than a fraction of a week.
			use = fmt.Sprintf(pick(en, "每周 %.0f 小时、%s 共 %.0f 小时", "%.0f h a week for %s, %.0f h in all"), p.HoursPerWeek, span, p.Hours())
		}
	}
	cards := p.GPU
	if p.Count > 1 {
		cards = fmt.Sprintf("%s×%d", p.GPU, p.Count)
	}
	s := fmt.Sprintf(pick(en, "%s %s：最省是 %s %s，约 %s 元%s。", "%s, %s: cheapest is %s %s, about %s CNY%s."),
		cards, use, rd.PlatformName(best.Platform, en), render.ModeName(best.Mode, en), cost(best), mark(best.Price))
	if be, ok := breakEven(res, best.Platform); ok {
		m := ""
		if !be.Verified {
			m = "*"
		}
		if en {
			s += fmt.Sprintf(" On %s, %s%s pays off above ~%.0f h a %s.", rd.PlatformName(be.Platform, en), render.ModeName(be.Mode, en), m, be.HoursPerTerm, termWord(be.Mode, en))
		} else {
			s += fmt.Sprintf("%s %s%s要每%s约 %.0f 小时以上才比按量划算。", rd.PlatformName(be.Platform, en), render.ModeName(be.Mode, en), m, termWord(be.Mode, en), be.HoursPerTerm)
		}
	}
	return s
}

// runThroughText is the span of hours run back to back: "连续跑约 2 天",
// or "连续跑约 10 小时" under a day.
func runThroughText(hours float64, en bool) string {
	if hours < 24 {
		return fmt.Sprintf(pick(en, "连续跑约 %.0f 小时", "run back to back, about %.0f h"), hours)
	}
	return fmt.Sprintf(pick(en, "连续跑约 %.0f 天", "run back to back, about %.0f days"), math.Max(1, math.Round(hours/24)))
}

// missingMode is the line for a billing mode the question asked about
// that no option has a price for ("包周：没有查到 RTX 4090 的公开价格").
func missingMode(res plan.Result, mode string, en bool) (string, bool) {
	if mode == "" || mode == "hourly" || mode == "spot" {
		return "", false
	}
	for _, o := range res.Options {
		if o.Mode == mode {
			return "", false
		}
	}
	return fmt.Sprintf(pick(en, "%s：没有查到 %s 的公开价格，没法算进来；组里看到了可以记在配置的 plans: 里（标“本组记录”）。",
		"%s: no public %s price on record, so it is not compared; record one the lab sees under plans: in the config."),
		render.ModeName(mode, en), res.Profile.GPU), true
}

// hiddenMode is the line for a plan the question mentions ("租一个月")
// whose cheapest price is on record but below the short table: its total
// against the winner's, and the hours a term it needs to pay off.
func hiddenMode(rd *render.Renderer, res plan.Result, mode string, en bool) (string, bool) {
	if mode == "" || mode == "hourly" || mode == "spot" {
		return "", false
	}
	at := slices.IndexFunc(res.Options, func(o plan.Option) bool { return o.Mode == mode })
	if at < shortRows {
		return "", false
	}
	o, best := res.Options[at], res.Options[0]
	s := fmt.Sprintf(pick(en, "%s %s：这个用量约 %s%s 元，比最省的多约 %.0f 元",
		"%s %s: about %s%s CNY for this use, about %.0f CNY more than the cheapest"),
		rd.PlatformName(o.Platform, en), render.ModeName(mode, en), cost(o), mark(o.Price), o.Mid()-best.Mid())
	for _, b := range res.BreakEvens {
		if b.Platform == o.Platform && b.Mode == mode && b.HoursPerTerm < 0.95*termHours(mode) {
			s += fmt.Sprintf(pick(en, "；每%[2]s跑到约 %.0[1]f 小时以上才比按量省", "; it beats pay-as-you-go above about %.0[1]f h a %[2]s"),
				b.HoursPerTerm, termWord(mode, en))
			break
		}
	}
	return s + pick(en, "。", "."), true
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
func termWord(mode string, en bool) string {
	w := map[string][2]string{"daily": {"天", "day"}, "weekly": {"周", "week"}, "monthly": {"月", "month"}, "yearly": {"年", "year"}}[mode]
	return pick(en, w[0], w[1])
}

// spanText is a span in days (under two weeks, or any whole number of
// days that is not whole weeks: "30 天", not "4.3 周") or weeks.
func spanText(weeks float64, en bool) string {
	days := weeks * 7
	wholeDays := math.Abs(days-math.Round(days)) < 0.05
	if wholeDays && days < 14 || wholeDays && math.Abs(weeks-math.Round(weeks)) >= 0.05 {
		return fmt.Sprintf(pick(en, "%.0f 天", "%.0f days"), days)
	}
	if math.Abs(weeks-math.Round(weeks)) < 0.05 {
		return fmt.Sprintf(pick(en, "%.0f 周", "%.0f weeks"), weeks)
	}
	if days < 14 {
		return fmt.Sprintf(pick(en, "约 %.0f 天", "about %.0f days"), math.Max(1, math.Round(days)))
	}
	return fmt.Sprintf(pick(en, "%.1f 周", "%.1f weeks"), weeks)
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
func table(rd *render.Renderer, cite Cite, opts []plan.Option, n int, en bool) *chat.Table {
	t := &chat.Table{Header: strings.Fields(pick(en, "平台 方式 合计(元) 含 来源·日期", "platform mode total(CNY) includes source·date"))}
	for _, o := range opts[:min(n, len(opts))] {
		t.Rows = append(t.Rows, []string{rd.PlatformName(o.Platform, en), render.ModeName(o.Mode, en), cost(o) + mark(o.Price), parts(o, en), source(cite, o.Price, en)})
	}
	return t
}

// parts says what the total holds beyond the card time.
func parts(o plan.Option, en bool) string {
	var s []string
	if o.Terms > 0 {
		s = append(s, fmt.Sprintf(pick(en, "%d 期", "%d terms"), o.Terms))
	}
	add := func(v float64, zh, e string) {
		if v >= 0.5 {
			s = append(s, fmt.Sprintf("%s %.0f", pick(en, zh, e), v))
		}
	}
	add(o.SetupCNY, map[bool]string{true: "无卡", false: "配环境"}[o.NoCard], "setup")
	add(o.DiskCNY, "数据盘", "disk")
	add(o.MinimumCNY, "起步/取整", "minimum")
	add(o.QueueCNY, "排队", "queue")
	if o.DiskUnknown {
		s = append(s, pick(en, "数据盘价未知", "disk price unknown"))
	}
	if len(s) == 0 {
		return "-"
	}
	return strings.Join(s, pick(en, "、", ", "))
}

func source(cite Cite, p plan.Price, en bool) string {
	if p.Lab {
		return fmt.Sprintf(pick(en, "本组记录（%s）%s", "lab record (%s) %s"), p.SeenBy, p.CNY.AsOf)
	}
	return cite(p.Platform, p.CNY)
}

// noCardLine answers "无卡模式能省多少" for a stated setup time: the
// cheapest shown option's setup in no-card mode against the same hours
// with the card on (its own hourly price × hours × cards).
func noCardLine(rd *render.Renderer, res plan.Result, en bool) string {
	p := res.Profile
	for _, o := range res.Options[:min(shortRows, len(res.Options))] {
		if !o.NoCard {
			continue
		}
		withCard := p.SetupHours * float64(max(p.Count, 1)) * o.Price.CNY.Mid()
		return fmt.Sprintf(pick(en, "无卡模式：%s 配环境 %.0f 小时约 %.0f 元，开着卡要约 %.0f 元，省约 %.0f 元（已按无卡计入）。",
			"No-card mode: %s's %.0f h of setup cost about %.0f CNY, against about %.0f CNY with the card on: about %.0f CNY saved (priced in)."),
			rd.PlatformName(o.Platform, en), p.SetupHours, o.SetupCNY, withCard, withCard-o.SetupCNY)
	}
	return fmt.Sprintf(pick(en, "配环境 %.0f 小时：表里的平台都没有查到无卡模式，按开着卡计价（已计入）。",
		"%.0f h of setup: none of these platforms has a no-card mode on record, so it is priced with the card on (included)."), p.SetupHours)
}

// notes are the assumptions, the queue line and the marks' legend.
func notes(rd *render.Renderer, res plan.Result, as Assumed, en bool) []string {
	p := res.Profile
	var out []string
	var a []string
	if as.GPU {
		a = append(a, fmt.Sprintf(pick(en, "卡 %s", "card %s"), p.GPU))
	}
	if as.Variant != "" {
		a = append(a, fmt.Sprintf(pick(en, "卡 %s（没说哪款 %s，取有价格里最便宜的一款）", "card %s (%s without a size: its cheapest variant with a price)"), p.GPU, as.Variant))
	}
	switch {
	case as.RunThrough:
		a = append(a, fmt.Sprintf(pick(en, "%s（没说多久跑完）", "%s (no span given)"), runThroughText(p.Hours(), en)))
	case as.Span:
		a = append(a, fmt.Sprintf(pick(en, "时长 %s", "span %s"), spanText(p.Weeks, en)))
	}
	if as.Deadline != "" {
		a = append(a, fmt.Sprintf(pick(en, "时长从现在到截止（%s，%s）%s", "span from now to the deadline (%s, %s), %s"),
			as.Deadline, as.DeadlineDate.Format(pick(en, "1月2日", "Jan 2")), spanText(p.Weeks, en)))
	}
	if as.Hours {
		a = append(a, pick(en, "全天连续跑", "running around the clock"))
	}
	if as.Disk {
		a = append(a, fmt.Sprintf(pick(en, "数据盘 %.0f GB", "%.0f GB data disk"), p.DiskGB))
	}
	if !as.SetupStated {
		a = append(a, fmt.Sprintf(pick(en, "配环境/传数据 %.0f 小时（有无卡模式就用无卡）", "%.0f h of setup (in no-card mode where there is one)"), p.SetupHours))
	}
	if as.SetupStated {
		out = append(out, noCardLine(rd, res, en))
	}
	joined := strings.Join(a, pick(en, "、", ", "))
	if !en && joined != "" && joined[len(joined)-1] < 0x80 {
		joined += " " // "数据盘 50 GB 估算"
	}
	out = append(out, pick(en, "按", "Assumed: ")+joined+pick(en, "估算；包期按自然日连续计时，关机也算。", "; plan terms run on the wall clock, shut down or not."))
	out = append(out, queueNote(rd, res, en)...)
	var unverified, lab bool
	for _, o := range res.Options[:min(shortRows, len(res.Options))] {
		unverified = unverified || !o.Price.Lab && !o.Price.CNY.Verified
		lab = lab || o.Price.Lab
	}
	if be, ok := breakEven(res, res.Options[0].Platform); ok {
		unverified = unverified || !be.Verified
	}
	if unverified {
		out = append(out, pick(en, "* 只有测评文章这么写的价格，未核实。", "* seed-only figure, unverified."))
	}
	if lab {
		out = append(out, pick(en, "† 本组记录：组里自己看到的价格，优先于目录。", "† the lab's own record, used instead of the catalog."))
	}
	return out
}

// queueNote is the queue risk of the plans shown, each named by its
// platform, the winner's first ("AutoDL 这个时段约 56% 的时候没卡，已按…计
// 入"), or for evening work without history the seeds' anecdote,
// labelled, with no number invented.
func queueNote(rd *render.Renderer, res plan.Result, en bool) []string {
	var parts []string
	days := 0.0
	for _, o := range res.Options[:min(shortRows, len(res.Options))] {
		if o.Risk == nil {
			continue
		}
		days = math.Max(days, o.Risk.Days)
		name := rd.PlatformName(o.Platform, en)
		switch {
		case o.QueueCNY >= 0.5:
			parts = append(parts, fmt.Sprintf(pick(en, "%s 这个时段约 %.0f%% 的时候没卡，已按下一家按量价计入（排队 %.0f 元）", "%s had no card %.0f%% of the time at these hours, priced in at the next platform's rate (queue %.0f CNY)"),
				name, o.Risk.P*100, o.QueueCNY))
		case o.Risk.P >= 0.005:
			parts = append(parts, fmt.Sprintf(pick(en, "%s 这个时段约 %.0f%% 的时候没卡（换别家不会更贵，未加钱，但要等或换平台）", "%s had no card %.0f%% of the time at these hours (moving elsewhere costs no more, so nothing added, but expect waits or a move)"),
				name, o.Risk.P*100))
		}
	}
	if len(parts) > 0 {
		return []string{fmt.Sprintf(pick(en, "按量的排队风险（过去 %.0f 天）：%s。", "Queue risk on pay-as-you-go (last %.0f days): %s."), days, strings.Join(parts, pick(en, "；", "; ")))}
	}
	if res.QueueAnecdote {
		return []string{pick(en, "排队：还没有库存历史，算不出没卡的概率。传闻（测评文章作者的经历，未核实）：晚高峰 19:00-23:00 秘塔智算开机常排 1-3 小时，AutoDL 通常 10-30 分钟；包期关机也保留卡。",
			"Queue: no stock history yet, so no probability. Anecdote (one reviewer, unverified): at the 19:00-23:00 peak a start on Mita often waited 1-3 h, AutoDL usually 10-30 min; plans keep the card while shut down.")}
	}
	return nil
}

// rules are the winner's billing-mode rules with their source.
func rules(cat *catalog.Catalog, cite Cite, o plan.Option, en bool) []string {
	p, ok := cat.Platform(o.Platform)
	if !ok {
		return nil
	}
	r, ok := p.RuleFor(o.Mode)
	if !ok {
		return nil
	}
	var s []string
	for _, t := range []catalog.Text{r.Note, r.AtExpiry, r.Refund} {
		if txt := t.Pick(en); txt != "" {
			s = append(s, txt)
		}
	}
	if len(s) == 0 {
		return nil
	}
	src := cite(o.Platform, catalog.Figure{AsOf: r.AsOf, Source: r.Source, Verified: r.Verified})
	return []string{fmt.Sprintf(pick(en, "%s %s规则：%s（%s）", "%s %s rules: %s (%s)"), p.DisplayName(en), render.ModeName(o.Mode, en), strings.Join(s, " "), src)}
}
