package offers

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
	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand"
)

// Prices answers "AutoDL 怎么收费" (one platform's rules and list
// prices), "4090 价格表" (one GPU's list prices across platforms) or
// "价格" (an overview of every platform).
func (r *Answers) Prices(_ context.Context, res *Result) {
	q := res.Query
	if reNoCardAsk.MatchString(catalog.Fold(q.Asked)) {
		r.noCardAnswer(res)
		return
	}
	var plats []*catalog.Platform
	for _, id := range q.Platforms {
		if p, ok := r.Cat.Platform(id); ok {
			plats = append(plats, p)
		}
	}
	switch {
	case len(plats) > 0:
		r.platformsPrices(res, plats)
	case len(q.GPUs) > 0:
		r.gpuPrices(res)
	default:
		r.pricesOverview(res)
	}
}

// platformsPrices answers for named platforms: one platform's short form
// with its whole card behind 详情, or, for several ("autodl vs 矩池云"),
// one section each with its table inside.
func (r *Answers) platformsPrices(res *Result, plats []*catalog.Platform) {
	q := res.Query
	en := q.English
	for i, p := range plats {
		rp := r.platformPrices(p, q, en)
		switch {
		case len(plats) == 1:
			short := r.platformShort(p, q, en)
			short.Full = &rp
			res.Reply = short
		case i == 0:
			res.Reply = chat.Reply{Title: r.Rd.PlatformNames(q.Platforms, en) + answer.Pick(en, "：计费规则和目录标价", ": billing rules and list prices")}
			fallthrough
		default:
			res.Reply.Lines = append(res.Reply.Lines, "", "【"+p.DisplayName(en)+"】", strings.TrimRight(chat.PlainText(rp), "\n"))
		}
		for _, pr := range p.Prices {
			if len(q.GPUs) > 0 && !slices.Contains(q.GPUs, pr.GPU) {
				continue
			}
			res.Offers = append(res.Offers, r.listRow(p, pr))
		}
	}
}

// gpuPrices lists the named cards' list prices on every platform,
// cheapest first.
func (r *Answers) gpuPrices(res *Result) {
	q := res.Query
	en := q.English
	rep := chat.Reply{Title: strings.Join(q.GPUs, " / ") + answer.Pick(en, " 目录标价（非实时库存）", " list prices (catalog, not live stock)")}
	if len(q.ExcludePlatforms) > 0 {
		rep.Title += fmt.Sprintf(answer.Pick(en, "，不含 %s", ", not %s"), r.Rd.PlatformNames(q.ExcludePlatforms, en))
	}
	t := &chat.Table{Header: answer.Picks(en, []string{"平台", "GPU", "元/卡时", "日期", "来源"}, []string{"platform", "GPU", "CNY/GPU-h", "as of", "source"})}
	for i := range r.Cat.Platforms {
		p := &r.Cat.Platforms[i]
		if slices.Contains(q.ExcludePlatforms, p.ID) {
			continue
		}
		for _, pr := range p.Prices {
			if slices.Contains(q.GPUs, pr.GPU) {
				res.Offers = append(res.Offers, r.listRow(p, pr))
			}
		}
	}
	sort.SliceStable(res.Offers, func(i, j int) bool {
		a, b := res.Offers[i], res.Offers[j]
		if render.Trust(a) != render.Trust(b) {
			return render.Trust(a) < render.Trust(b)
		}
		return *a.PriceCNY < *b.PriceCNY
	})
	for _, row := range res.Offers {
		p, _ := r.Cat.Platform(row.Platform)
		pr, _ := p.PriceFor(row.GPU)
		t.Rows = append(t.Rows, []string{p.DisplayName(en), row.GPU, render.PriceCell(row, en), row.AsOf + render.StaleTag(row, en), answer.Cite(r.Cat, p.ID, pr.CNYPerHour, en)})
	}
	if len(t.Rows) == 0 {
		rep.Lines = append(rep.Lines, answer.Pick(en, "目录里没有这张卡的标价。", "The catalog has no list price for this GPU."))
	} else {
		rep.Table = t
	}
	if unverified(res.Offers) {
		rep.Notes = append(rep.Notes, render.UnverifiedFigureNote(en))
	}
	if l := r.Rd.StaleLine(res.Offers, en); l != "" {
		rep.Notes = append(rep.Notes, l+answer.Pick(en, "。", "."))
	}
	rep.Notes = append(rep.Notes, answer.Pick(en, "实时库存请问“哪家有"+q.GPU+"”。", "For live stock ask “which platform has a "+q.GPU+"”."))
	res.Reply = rep
}

// pricesOverview is every platform's billing granularity, data-disk price
// and number of list prices.
func (r *Answers) pricesOverview(res *Result) {
	en := res.Query.English
	rep := chat.Reply{Title: answer.Pick(en, "各平台计费概览（目录数据）", "Platforms at a glance (catalog data)")}
	t := &chat.Table{Header: answer.Picks(en, []string{"平台", "计费粒度", "数据盘 元/GB·天", "标价条数"}, []string{"platform", "granularity", "data disk CNY/GB-day", "list prices"})}
	for i := range r.Cat.Platforms {
		p := &r.Cat.Platforms[i]
		disk := answer.Pick(en, "未知", "unknown")
		if f := p.Storage.DataDiskCNYPerGBDay; f != nil {
			disk = render.FigureText(*f)
		}
		t.Rows = append(t.Rows, []string{p.DisplayName(en), answer.GranularityText(p.Billing.Granularity, en), disk, fmt.Sprint(len(p.Prices))})
	}
	rep.Table = t
	rep.Notes = append(rep.Notes, answer.Pick(en, "问“AutoDL 怎么收费”看单个平台的详细规则。", "Ask “AutoDL pricing” for one platform's rules."))
	res.Reply = rep
}

// reRetentionAsk asks how long a platform keeps data.
var reRetentionAsk = textgate.MustCompile(`保留|多久.{0,6}删|会删|清空|被清|释放|回收|retention|how long.{0,30}keep|wipe|deleted`)

// reNoCardAsk asks about the no-GPU mode (无卡模式) rather than GPUs.
var reNoCardAsk = textgate.MustCompile(`无卡|不带卡|不带gpu|no[- ]gpu mode|without a gpu`)

// platformShort is a platform's rules on one screen: granularity and the
// cheapest list prices first, then its data disk, no-GPU mode and the
// first data-loss rule, and five list prices.
func (r *Answers) platformShort(p *catalog.Platform, q understand.Query, en bool) chat.Reply {
	var prices []string
	var rows []OfferRow
	t := &chat.Table{Header: answer.Picks(en, []string{"GPU", "元/卡时", "来源"}, []string{"GPU", "CNY/GPU-h", "source"})}
	for _, pr := range p.Prices {
		if len(q.GPUs) > 0 && !slices.Contains(q.GPUs, pr.GPU) {
			continue
		}
		row := r.listRow(p, pr)
		rows = append(rows, row)
		if len(prices) < 2 {
			prices = append(prices, pr.GPU+" "+render.PriceCell(row, en)+render.StaleTag(row, en))
		}
		if len(t.Rows) < answer.MaxShortRows {
			t.Rows = append(t.Rows, []string{pr.GPU, render.PriceCell(row, en), answer.Cite(r.Cat, p.ID, pr.CNYPerHour, en) + render.StaleTag(row, en)})
		}
	}
	var parts []string
	if g := p.Billing.Granularity; g != "" {
		parts = append(parts, fmt.Sprintf(answer.Pick(en, "按量按%s计费", "pay-as-you-go %s"), answer.GranularityText(g, en)))
	}
	if len(prices) > 0 {
		parts = append(parts, strings.Join(prices, answer.Pick(en, "、", ", "))+answer.Pick(en, " 元/卡时（目录标价）", " CNY/GPU-h (list price)"))
	}
	title := p.DisplayName(en) + answer.Pick(en, "：", ": ") + strings.Join(parts, answer.Pick(en, "；", "; "))
	if len(parts) == 0 {
		title = p.DisplayName(en) + answer.Pick(en, " 计费规则", ": billing rules")
	}
	if len(prices) == 0 && len(q.GPUs) > 0 {
		// The card asked about has no list price here: say so first.
		title = r.noListPrice(p, q, en) + " " + title
	}
	rep := chat.Reply{Title: title}
	st := p.Storage
	if f := st.DataDiskCNYPerGBDay; f != nil {
		line := fmt.Sprintf(answer.Pick(en, "数据盘：免费 %g GB，超出 %s 元/GB·天", "Data disk: %g GB free, then %s CNY/GB-day"), st.DataDiskFreeGB, render.FigureText(*f))
		if st.BilledWhileStopped {
			line += answer.Pick(en, "，关机也收", ", billed while stopped")
		}
		rep.Lines = append(rep.Lines, line+answer.Pick(en, "。", "."))
	}
	if st.NoCard.Available {
		nc := answer.Pick(en, "无卡模式：有", "No-GPU mode: yes")
		if f := st.NoCard.CNYPerHour; f != nil {
			nc += fmt.Sprintf(answer.Pick(en, "，%s 元/小时", ", %s CNY/h"), render.FigureText(*f))
		}
		rep.Lines = append(rep.Lines, nc+answer.Pick(en, "。", "."))
	}
	switch {
	case reRetentionAsk.MatchString(catalog.Fold(q.Asked)) && len(p.Retention) == 0:
		rep.Title = fmt.Sprintf(answer.Pick(en, "%s：没有查到它关机后保留数据多久的规则（目录里没有有出处的说法）。", "%s: no sourced rule on how long it keeps a stopped instance's data."), p.DisplayName(en))
		rep.Lines = append(rep.Lines, answer.Pick(en, "稳妥起见，关机前把要留的数据下载到本地或对象存储。", "To be safe, download what you need before shutting down."))
	case reRetentionAsk.MatchString(catalog.Fold(q.Asked)):
		rep.Title = p.DisplayName(en) + answer.Pick(en, "：", ": ") + p.Retention[0].Text.Pick(en)
		for _, rt := range p.Retention[1:] {
			rep.Lines = append(rep.Lines, "⚠ "+rt.Text.Pick(en))
		}
	case len(p.Retention) > 0:
		rep.Lines = append(rep.Lines, "⚠ "+p.Retention[0].Text.Pick(en))
	}
	if len(t.Rows) > 0 {
		rep.Table = t
	}
	if l := r.Rd.StaleLine(rows, en); l != "" {
		rep.Notes = append(rep.Notes, l+answer.Pick(en, "。", "."))
	}
	rep.Notes = append(rep.Notes, answer.Pick(en, "以上是目录标价，不是实时库存；问“"+p.DisplayName(en)+" 的 4090 还有吗”查库存。", "List prices, not live stock; ask “any 4090 on "+p.DisplayName(en)+"?” for stock."))
	return rep
}

// noCardAnswer answers "无卡模式多少钱": which platforms have a no-GPU mode
// and at what price, with its limits.
func (r *Answers) noCardAnswer(res *Result) {
	en := res.English
	t := &chat.Table{Header: answer.Picks(en, []string{"平台", "无卡模式", "元/小时", "来源"}, []string{"platform", "no-GPU mode", "CNY/h", "source"})}
	var priced []string
	for _, p := range r.MainPlatforms(res.Query) {
		nc := p.Storage.NoCard
		has, price, src := answer.Pick(en, "没有", "no"), "-", "-"
		if nc.Available {
			has, price = answer.Pick(en, "有", "yes"), answer.Pick(en, "价格未查到", "price not found")
		}
		if f := nc.CNYPerHour; f != nil && nc.Available {
			price, src = render.FigureText(*f), answer.Cite(r.Cat, p.ID, *f, en)
			priced = append(priced, fmt.Sprintf("%s %s", p.DisplayName(en), render.FigureText(*f)))
		}
		t.Rows = append(t.Rows, []string{p.DisplayName(en), has, price, src})
	}
	title := answer.Pick(en, "无卡模式（不带 GPU 开机，配环境、传数据用）：", "No-GPU mode (power on without a GPU, to set up and move data): ")
	if len(priced) > 0 {
		title += strings.Join(priced, answer.Pick(en, "、", ", ")) + answer.Pick(en, " 元/小时；", " CNY/h; ")
	}
	title += answer.Pick(en, "其他平台见下表。", "the others below.")
	rep := chat.Reply{Title: title, Table: t}
	if p, ok := r.Cat.Platform("autodl"); ok && p.Storage.NoCard.Note.Pick(en) != "" {
		rep.Lines = append(rep.Lines, p.DisplayName(en)+answer.Pick(en, "：", ": ")+p.Storage.NoCard.Note.Pick(en))
	}
	rep.Notes = append(rep.Notes, answer.Pick(en, "数据盘在无卡模式下照常计费。", "Data disks keep billing in no-GPU mode."))
	res.Reply = rep
}

func (r *Answers) platformPrices(p *catalog.Platform, q understand.Query, en bool) chat.Reply {
	rep := chat.Reply{}
	if en {
		rep.Title = p.DisplayName(en) + ": billing rules and list prices"
	} else {
		rep.Title = p.DisplayName(en) + " 计费规则和目录标价"
	}
	b := p.Billing
	if len(b.Modes) > 0 || b.Granularity != "" {
		var modes []string
		for _, m := range b.Modes {
			modes = append(modes, modeText(m, en))
		}
		line := answer.Pick(en, "计费：", "Billing: ") + strings.Join(modes, "/")
		if b.Granularity != "" {
			line += answer.Pick(en, "，按量计费按"+answer.GranularityText(b.Granularity, en)+"计", ", pay-as-you-go "+answer.GranularityText(b.Granularity, en))
		}
		if b.MinimumMinutes > 0 {
			line += fmt.Sprintf(answer.Pick(en, "，最少计 %g 分钟", ", minimum %g min"), b.MinimumMinutes)
		}
		rep.Lines = append(rep.Lines, line)
	}
	if t := b.Note.Pick(en); t != "" {
		rep.Lines = append(rep.Lines, t)
	}
	st := p.Storage
	disk := answer.Pick(en, "数据盘：", "Data disk: ")
	if l := st.DataDiskLabel.Pick(en); l != "" {
		disk = answer.Pick(en, "数据盘（"+l+"）：", "Data disk ("+l+"): ")
	}
	if st.DataDiskFreeGB > 0 {
		disk += fmt.Sprintf(answer.Pick(en, "免费 %g GB，", "%g GB free, "), st.DataDiskFreeGB)
	}
	if f := st.DataDiskCNYPerGBDay; f != nil {
		disk += fmt.Sprintf(answer.Pick(en, "超出部分 %s 元/GB·天（%s）", "beyond that %s CNY/GB-day (%s)"), render.FigureText(*f), f.AsOf)
		if !f.Verified {
			disk += "*"
		}
	} else {
		disk += answer.Pick(en, "价格未知", "price unknown")
	}
	if st.BilledWhileStopped {
		disk += answer.Pick(en, "；关机后仍计费", "; keeps billing while shut down")
	}
	rep.Lines = append(rep.Lines, disk)
	if st.NoCard.Available {
		nc := answer.Pick(en, "无卡模式：有", "No-GPU mode: yes")
		if f := st.NoCard.CNYPerHour; f != nil {
			nc += fmt.Sprintf(answer.Pick(en, "，%s 元/小时", ", %s CNY/h"), render.FigureText(*f))
		}
		if t := st.NoCard.Note.Pick(en); t != "" {
			nc += answer.Pick(en, "。", ". ") + t
		}
		rep.Lines = append(rep.Lines, nc)
	}
	if t := st.Note.Pick(en); t != "" {
		rep.Lines = append(rep.Lines, t)
	}
	for _, rt := range p.Retention {
		rep.Lines = append(rep.Lines, answer.Pick(en, "⚠ ", "⚠ ")+rt.Text.Pick(en))
	}
	for _, c := range p.Caveats {
		rep.Lines = append(rep.Lines, "• "+c.Pick(en))
	}
	t, notes := r.platformPriceTable(p, q, en)
	if len(t.Rows) > 0 {
		rep.Table = t
	}
	rep.Notes = append(rep.Notes, notes...)
	for _, row := range t.Rows {
		if strings.HasSuffix(row[1], "*") {
			rep.Notes = append(rep.Notes, render.UnverifiedFigureNote(en))
			break
		}
	}
	rep.Notes = append(rep.Notes, answer.Pick(en, "以上是目录标价，不是实时库存；问“"+p.DisplayName(en)+" 的 4090 还有吗”查库存。", "These are catalog list prices, not live stock."))
	return rep
}

// platformPriceTable is a platform's list prices (the asked GPUs, or all)
// with their dates and sources, and the notes they need.
func (r *Answers) platformPriceTable(p *catalog.Platform, q understand.Query, en bool) (*chat.Table, []string) {
	t := &chat.Table{Header: answer.Picks(en, []string{"GPU", "元/卡时", "日期", "来源"}, []string{"GPU", "CNY/GPU-h", "as of", "source"})}
	var rows []OfferRow
	var notes []string
	for _, pr := range p.Prices {
		if len(q.GPUs) > 0 && !slices.Contains(q.GPUs, pr.GPU) {
			continue
		}
		row := r.listRow(p, pr)
		rows = append(rows, row)
		t.Rows = append(t.Rows, []string{pr.GPU, render.PriceCell(row, en), pr.CNYPerHour.AsOf + render.StaleTag(row, en), answer.Cite(r.Cat, p.ID, pr.CNYPerHour, en)})
	}
	if l := r.Rd.StaleLine(rows, en); l != "" {
		notes = append(notes, l+answer.Pick(en, "。", "."))
	}
	if len(t.Rows) == 0 {
		notes = append(notes, r.noListPrice(p, q, en))
	}
	return t, notes
}

// noListPrice says that the catalog has no list price for the asked GPUs on
// p (or none at all), and which GPUs it does have there.
func (r *Answers) noListPrice(p *catalog.Platform, q understand.Query, en bool) string {
	var have []string
	for _, pr := range p.Prices {
		if !slices.Contains(have, pr.GPU) {
			have = append(have, pr.GPU)
		}
	}
	if len(q.GPUs) == 0 || len(have) == 0 {
		return answer.Pick(en, "目录里没有这个平台的 GPU 标价。", "The catalog has no GPU list prices for this platform.")
	}
	return fmt.Sprintf(answer.Pick(en, "目录里没有 %s 的 %s 标价（有的是：%s）。", "The catalog has no %s list price on %s (it has: %s)."),
		answer.Pick(en, p.DisplayName(en), render.JoinIDs(q.NamedGPUs, en)), answer.Pick(en, render.JoinIDs(q.NamedGPUs, en), p.DisplayName(en)), strings.Join(have, answer.Pick(en, "、", ", ")))
}

func (r *Answers) listRow(p *catalog.Platform, pr catalog.Price) OfferRow {
	low := pr.CNYPerHour.Low
	row := OfferRow{Platform: p.ID, GPU: pr.GPU, PriceCNY: &low, Source: string(stock.SourceCatalog),
		AsOf: pr.CNYPerHour.AsOf, AgeSeconds: -1, Verified: pr.CNYPerHour.Verified, PriceNote: pr.CNYPerHour.Note}
	if pr.CNYPerHour.High > pr.CNYPerHour.Low {
		row.PriceHighCNY = pr.CNYPerHour.High
	}
	if catalog.ListPriceStale(pr.CNYPerHour.AsOf, r.Now(), r.ListPriceMaxAge) {
		row.Caveats = []stock.Caveat{stock.CaveatStalePrice}
	}
	return row
}

// modeText names a billing mode in the reader's language.
func modeText(m string, en bool) string {
	zh := map[string]string{"hourly": "按量计费", "daily": "包日", "weekly": "包周", "monthly": "包月", "spot": "竞价", "yearly": "包年", "prepaid": "预充值", "package": "时长包", "free": "免费额度"}
	if t, ok := zh[m]; ok && !en {
		return t
	}
	return m
}
