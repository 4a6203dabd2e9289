package offerview

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// Prices is the prices answer: one platform's billing rules and list
// prices ("AutoDL 怎么收费"), several platforms one section each, the
// asked cards' list prices on every platform ("4090 价格表", cheapest
// first), every platform at a glance ("价格"), or the no-GPU mode
// ("无卡模式多少钱"). The rules are the catalog's (render reads them
// there); Offers are the list prices shown, each with its source (Cite).
type Prices struct {
	Lang   i18n.Lang         `json:"-"`
	Ask    PricesAsk         `json:"-"`
	Offers []render.OfferRow `json:"offers,omitempty"`
	// NoCard is each main platform's no-GPU mode (Ask.NoCardMode).
	NoCard []NoCardRow `json:"-"`
	// Seen are live or recorded offers of the cards asked on the
	// platforms asked (the cheapest of each), said beside the list
	// prices: what was seen beats what is listed.
	Seen []render.OfferRow `json:"seen,omitempty"`
}

// PricesAsk is what a prices question asked: the no-GPU mode, how long
// data is kept, the platforms answered for (catalog ids; Named as the
// question named them), the cards (GPU the first id, NamedGPUs as named)
// and the platforms ruled out.
type PricesAsk struct {
	NoCardMode, Retention bool
	// DiskFirst: the question asked about the data disk ("AutoDL 数据盘
	// 多少钱", "数据盘呢"): its line opens a platform's answer;
	// DiskPerMonth: asked per month ("is that per month?"), that line
	// says a GB's month too.
	DiskFirst, DiskPerMonth bool
	// LiveAsked: the question asked whether the prices are live (list
	// prices never are: 不是 first).
	LiveAsked                bool
	Platforms, Named         []string
	GPU                      string
	GPUs, NamedGPUs, Exclude []string
	// USD: asked in US dollars (a line gives the prices in them);
	// VRAMMinGB and VRAMMaxGB the VRAM the cards were chosen by when none
	// was named (0: none).
	USD                  bool
	VRAMMinGB, VRAMMaxGB float64
	// Count is how many cards were asked for ("3张A100 一小时多少": 3);
	// above one a line gives the cheapest row's price for all of them.
	Count int
	// DiskGB is a data disk's size the question named ("AutoDL 数据盘
	// 200G 每月多少钱"): the answer says first what it costs a month on
	// the platform (0: none named).
	DiskGB float64
	// DiskExtra: DiskGB is more on top of a disk one has: no free GB off
	// it.
	DiskExtra bool
	// DiskOnly: the question asks only what a data disk of DiskGB costs
	// (on the platforms answered for, several or one over a period), per
	// day, per month and over PeriodDays (0: none said).
	DiskOnly   bool
	PeriodDays float64
}

// NoCardRow is a platform's no-GPU mode: whether it has one and its
// price per hour with its source (nil and "" when none is on record).
type NoCardRow struct {
	Platform  string
	Available bool
	Price     *catalog.Figure
	Cite      string
}

// noCardNotePlatform is the platform whose no-GPU mode note the no-GPU
// answer quotes (the only one the catalog explains).
const noCardNotePlatform = "autodl"

// pricesView is a Prices being said by a renderer.
type pricesView struct {
	Prices
	rd *render.Renderer
	l  i18n.Lang
	en bool
}

// Reply answers what was asked: the no-GPU mode, the named platforms,
// the named cards, or the overview.
func (p Prices) Reply(rd *render.Renderer) chat.Reply {
	v := pricesView{Prices: p, rd: rd, l: p.Lang, en: p.Lang.English()}
	rep := v.reply()
	for i := len(p.Seen) - 1; i >= 0; i-- {
		// "vast上4090多少钱" with a recorded offer: it first.
		row := p.Seen[i]
		rep.Lines = append([]string{rep.Title}, rep.Lines...)
		rep.Title = v.l.T("prices.seen", rd.PlatformName(row.Platform, v.en)+" "+row.GPU, render.PriceWithUnit(row, v.en),
			render.FreePhrase(row, v.en), render.SourceCell(row, v.en))
	}
	if p.Ask.LiveAsked && !p.Ask.NoCardMode {
		// "价格是实时的吗": list prices are not; said first.
		rep.Lines = append([]string{rep.Title}, rep.Lines...)
		rep.Title = v.l.T("prices.live_no")
	}
	return rep
}

// reply is the answer to what was asked, before the verdict on whether
// the prices are live.
func (v pricesView) reply() chat.Reply {
	p := v.Prices
	switch {
	case p.Ask.NoCardMode:
		return v.noCard()
	case p.Ask.DiskOnly && p.Ask.DiskGB > 0 && len(p.Ask.Platforms) > 0:
		return v.diskCosts()
	case len(p.Ask.Platforms) > 0:
		return v.withCount(v.withUSD(v.platforms()))
	case len(p.Ask.GPUs) > 0:
		return v.withCount(v.withUSD(v.gpus()))
	case p.Ask.Retention:
		return v.retentionOverview()
	}
	return v.overview()
}

// retentionOverview answers "关机多久会被释放" naming no platform: each
// platform's first data-loss rule, those without one named after.
func (v pricesView) retentionOverview() chat.Reply {
	rep := chat.Reply{Title: v.l.T("prices.retention.overview")}
	var none []string
	for i := range v.rd.Cat.Platforms {
		p := &v.rd.Cat.Platforms[i]
		if len(p.Retention) == 0 {
			none = append(none, p.DisplayName(v.en))
			continue
		}
		rep.Lines = append(rep.Lines, v.l.T("offers.named", p.DisplayName(v.en), p.Retention[0].Text.Pick(v.en)))
	}
	if len(none) > 0 {
		rep.Notes = append(rep.Notes, v.l.T("prices.retention.unknown", strings.Join(none, v.l.T("list.sep"))))
	}
	rep.Notes = append(rep.Notes, v.l.T("prices.retention.advice"))
	return rep
}

// withUSD adds the prices in US dollars first to a reply asked in them.
func (v pricesView) withUSD(rep chat.Reply) chat.Reply {
	if !v.Ask.USD {
		return rep
	}
	if line := v.rd.USDLine(v.Offers, v.en); line != "" {
		rep.Lines = append([]string{line}, rep.Lines...)
	}
	return rep
}

// withCount adds, for several cards asked, the cheapest row's price for
// all of them and for one, first.
func (v pricesView) withCount(rep chat.Reply) chat.Reply {
	if v.Ask.Count < 2 {
		return rep
	}
	var best *render.OfferRow
	for i := range v.Offers {
		r := &v.Offers[i]
		if r.PriceCNY != nil && *r.PriceCNY > 0 && (best == nil || *r.PriceCNY < *best.PriceCNY) {
			best = r
		}
	}
	if best == nil {
		return rep
	}
	n := float64(v.Ask.Count)
	low, high := *best.PriceCNY, max(best.PriceHighCNY, *best.PriceCNY)
	line := v.l.T("stock.cards_total", v.Ask.Count, v.rd.PlatformName(best.Platform, v.en), priceRange(low*n, high*n), priceRange(low, high),
		render.SourceCell(*best, v.en))
	rep.Lines = append([]string{line}, rep.Lines...)
	return rep
}

// rowsOf are the list prices shown for one platform.
func (v pricesView) rowsOf(platform string) []render.OfferRow {
	var out []render.OfferRow
	for _, row := range v.Offers {
		if row.Platform == platform {
			out = append(out, row)
		}
	}
	return out
}

// platforms answers for the named platforms: one platform's short form
// with its whole card behind 详情, or, for several ("autodl vs 矩池云"),
// one section each with its table inside.
func (v pricesView) platforms() chat.Reply {
	var rep chat.Reply
	for i, id := range v.Ask.Platforms {
		p, ok := v.rd.Cat.Platform(id)
		if !ok {
			continue
		}
		rows := v.rowsOf(id)
		rp := v.platformCard(p, rows)
		switch {
		case len(v.Ask.Platforms) == 1:
			rep = v.platformShort(p, rows)
			if line := v.diskMonth(p); line != "" {
				rep.Lines = append([]string{rep.Title}, rep.Lines...)
				rep.Title = line
				rp.Lines = append([]string{rp.Title}, rp.Lines...)
				rp.Title = line
			}
			rep.Full = &rp
		case i == 0:
			rep = chat.Reply{Title: v.l.T("prices.several", v.rd.PlatformNames(v.Ask.Named, v.en))}
			fallthrough
		default:
			rep.Lines = append(rep.Lines, "", v.l.T("prices.section", p.DisplayName(v.en)), strings.TrimRight(chat.PlainText(rp), "\n"))
		}
	}
	return rep
}

// gpus lists the named cards' list prices on every platform, trusted and
// cheapest first.
func (v pricesView) gpus() chat.Reply {
	cards := strings.Join(v.Ask.GPUs, " / ")
	if v.Ask.VRAMMinGB > 0 || v.Ask.VRAMMaxGB > 0 {
		cards = v.l.T("stock.vram_cards", vramText(v.l, v.Ask.VRAMMinGB, v.Ask.VRAMMaxGB))
	}
	rep := chat.Reply{Title: v.l.T("prices.gpu.title", cards)}
	if len(v.Ask.Exclude) > 0 {
		rep.Title += v.l.T("prices.gpu.not", v.rd.PlatformNames(v.Ask.Exclude, v.en))
	}
	t := &chat.Table{Header: slices.Clone(v.l.L("prices.gpu.header"))}
	for _, row := range v.Offers {
		t.Rows = append(t.Rows, []string{v.rd.PlatformName(row.Platform, v.en), row.GPU, render.PriceCell(row, v.en), row.AsOf + render.StaleTag(row, v.en), row.Cite})
	}
	if len(t.Rows) == 0 {
		rep.Lines = append(rep.Lines, v.l.T("prices.gpu.none"))
	} else {
		rep.Table = t
	}
	if unverified(v.Offers) {
		rep.Notes = append(rep.Notes, render.UnverifiedFigureNote(v.en))
	}
	if st := v.rd.StaleLine(v.Offers, v.en); st != "" {
		rep.Notes = append(rep.Notes, v.l.T("offers.end", st))
	}
	rep.Notes = append(rep.Notes, v.l.T("prices.gpu.ask_stock", v.Ask.GPU))
	if rep.Table == nil {
		return rep
	}
	// On a phone: platform, the card when several, price and date; the
	// sources behind 详情.
	full := rep
	rep.Table = v.phoneTable(t)
	rep.Full = &full
	return rep
}

// phoneTable is a list-price table narrow enough for a phone: the
// platform, the card (when the rows hold several), the price and its
// date (the columns of prices.gpu.header but the source).
func (v pricesView) phoneTable(t *chat.Table) *chat.Table {
	gpus := map[string]bool{}
	for _, r := range t.Rows {
		gpus[r[1]] = true
	}
	cols := []int{0, 1, 2, 3}
	if len(gpus) == 1 {
		cols = []int{0, 2, 3}
	}
	out := &chat.Table{}
	for _, c := range cols {
		out.Header = append(out.Header, t.Header[c])
	}
	for i, r := range t.Rows {
		var row []string
		for _, c := range cols {
			row = append(row, r[c])
		}
		if i < len(v.Offers) {
			row[0] = v.rd.ShortName(v.Offers[i].Platform, v.en)
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// overview is every platform's billing granularity, data-disk price and
// number of list prices.
func (v pricesView) overview() chat.Reply {
	rep := chat.Reply{Title: v.l.T("prices.overview.title")}
	t := &chat.Table{Header: slices.Clone(v.l.L("prices.overview.header"))}
	for i := range v.rd.Cat.Platforms {
		p := &v.rd.Cat.Platforms[i]
		disk := v.l.T("offers.unknown")
		if f := p.Storage.DataDiskCNYPerGBDay; f != nil {
			disk = render.FigureText(*f)
		}
		t.Rows = append(t.Rows, []string{p.DisplayName(v.en), granularityText(p.Billing.Granularity, v.en), disk, fmt.Sprint(len(p.Prices))})
	}
	rep.Table = t
	rep.Notes = append(rep.Notes, v.l.T("prices.overview.hint"))
	return rep
}

// platformShort is a platform's rules on one screen: granularity and the
// cheapest list prices first, then its data disk, no-GPU mode and the
// first data-loss rule, and five list prices.
func (v pricesView) platformShort(p *catalog.Platform, rows []render.OfferRow) chat.Reply {
	var prices []string
	t := &chat.Table{Header: slices.Clone(v.l.L("prices.short.header"))}
	for _, row := range rows {
		if len(prices) < 2 {
			prices = append(prices, row.GPU+" "+render.PriceCell(row, v.en)+render.StaleTag(row, v.en))
		}
		if len(t.Rows) < render.ShortRows {
			t.Rows = append(t.Rows, []string{row.GPU, render.PriceCell(row, v.en), row.AsOf + render.StaleTag(row, v.en)})
		}
	}
	rep := chat.Reply{Title: v.shortTitle(p, prices)}
	rep.Lines = v.shortLines(p)
	if v.Ask.DiskFirst && len(rep.Lines) > 0 && p.Storage.DataDiskCNYPerGBDay != nil {
		// "数据盘呢": the disk's line first, named for the platform.
		disk := v.l.T("offers.named", p.DisplayName(v.en), rep.Lines[0])
		if f := p.Storage.DataDiskCNYPerGBDay; v.Ask.DiskPerMonth {
			// "is that per month?": per GB-day; a GB's month first.
			disk = v.l.T("prices.short.disk_per_month", p.DisplayName(v.en), costRange(f.Low*30, f.High*30, 1000), render.TrimF(p.Storage.DataDiskFreeGB),
				render.FigureText(*f))
		}
		rep.Lines = append([]string{rep.Title}, rep.Lines[1:]...)
		rep.Title = disk
	}
	v.retention(&rep, p)
	if len(t.Rows) > 0 {
		rep.Table = t
	}
	if st := v.rd.StaleLine(rows, v.en); st != "" {
		rep.Notes = append(rep.Notes, v.l.T("offers.end", st))
	}
	rep.Notes = append(rep.Notes, v.l.T("prices.short.not_stock", p.DisplayName(v.en)))
	return rep
}

// shortTitle is a platform's granularity and first list prices, after
// "no list price for the card asked" when the card has none there.
func (v pricesView) shortTitle(p *catalog.Platform, prices []string) string {
	var parts []string
	if g := p.Billing.Granularity; g != "" {
		parts = append(parts, v.l.T("prices.short.granularity", granularityText(g, v.en)))
	}
	if len(prices) > 0 {
		parts = append(parts, v.l.T("prices.short.list_prices", strings.Join(prices, v.l.T("list.sep"))))
	}
	title := v.l.T("offers.named", p.DisplayName(v.en), strings.Join(parts, v.l.T("offers.sep.semi")))
	if len(parts) == 0 {
		title = v.l.T("prices.short.rules", p.DisplayName(v.en))
	}
	if len(prices) == 0 && len(v.Ask.GPUs) > 0 {
		// The card asked about has no list price here: say so first.
		title = v.noListPrice(p) + " " + title
	}
	return title
}

// diskMonth is what the data disk of the size asked costs a month on p
// (its size beyond the free GB × the price per GB-day × 30, a range
// where the catalog has one); "" when no size was asked or p has no
// data disk price.
func (v pricesView) diskMonth(p *catalog.Platform) string {
	st := p.Storage
	f := st.DataDiskCNYPerGBDay
	if v.Ask.DiskGB <= 0 || f == nil {
		return ""
	}
	free := st.DataDiskFreeGB
	if v.Ask.DiskExtra {
		free = 0
	}
	billed := max(v.Ask.DiskGB-free, 0)
	low, high := billed*f.Low*30, billed*f.High*30
	cost := render.TrimF(math.Round(low*10) / 10)
	if f.IsRange() && math.Round(high*10) != math.Round(low*10) {
		cost += "-" + render.TrimF(math.Round(high*10)/10)
	}
	line := v.l.T("prices.short.disk_month", p.DisplayName(v.en), render.TrimF(v.Ask.DiskGB), cost, render.TrimF(free),
		render.TrimF(billed), render.FigureText(*f))
	if st.BilledWhileStopped {
		line += v.l.T("prices.short.billed_stopped")
	}
	return v.l.T("offers.end", line)
}

// diskCosts is what a data disk of the size asked costs on each platform
// answered for: per day, per month (30 days) and over the period asked,
// its size beyond the free GB (none off it when it is more on top of a
// disk one has) × the price per GB-day.
func (v pricesView) diskCosts() chat.Reply {
	var lines []string
	for _, id := range v.Ask.Platforms {
		p, ok := v.rd.Cat.Platform(id)
		if !ok || p.Storage.DataDiskCNYPerGBDay == nil {
			continue
		}
		f := *p.Storage.DataDiskCNYPerGBDay
		free := p.Storage.DataDiskFreeGB
		if v.Ask.DiskExtra {
			free = 0
		}
		billed := max(v.Ask.DiskGB-free, 0)
		line := v.l.T("prices.disk.row", p.DisplayName(v.en), costRange(billed*f.Low, billed*f.High, 100), costRange(billed*f.Low*30, billed*f.High*30, 10),
			render.FigureText(f), render.TrimF(free))
		if d := v.Ask.PeriodDays; d > 0 && d != 30 {
			line = v.l.T("prices.disk.period", render.TrimF(d), costRange(billed*f.Low*d, billed*f.High*d, 10)) + line
		}
		if p.Storage.BilledWhileStopped {
			line += v.l.T("prices.short.billed_stopped")
		}
		lines = append(lines, v.l.T("offers.end", line))
	}
	key := "prices.disk.title"
	if v.Ask.DiskExtra {
		key = "prices.disk.title_extra"
	}
	if len(lines) == 0 {
		return chat.Reply{Title: v.l.T("prices.disk.none", render.TrimF(v.Ask.DiskGB))}
	}
	if len(lines) == 1 {
		return chat.Reply{Title: v.l.T(key, render.TrimF(v.Ask.DiskGB)) + lines[0], Notes: []string{v.l.T("prices.disk.note")}}
	}
	return chat.Reply{Title: v.l.T(key, render.TrimF(v.Ask.DiskGB)), Lines: lines, Notes: []string{v.l.T("prices.disk.note")}}
}

// costRange is low to high rounded to 1/per (one figure when they round
// alike).
func costRange(low, high, per float64) string {
	lo, hi := math.Round(low*per)/per, math.Round(high*per)/per
	if hi != lo {
		return render.TrimF(lo) + "-" + render.TrimF(hi)
	}
	return render.TrimF(lo)
}

// shortLines are a platform's data disk and no-GPU mode in a line each.
func (v pricesView) shortLines(p *catalog.Platform) []string {
	var lines []string
	st := p.Storage
	if f := st.DataDiskCNYPerGBDay; f != nil {
		line := v.l.T("prices.short.disk", st.DataDiskFreeGB, render.FigureText(*f))
		if st.BilledWhileStopped {
			line += v.l.T("prices.short.billed_stopped")
		}
		lines = append(lines, v.l.T("offers.end", line))
	}
	if st.NoCard.Available {
		lines = append(lines, v.l.T("offers.end", v.noCardLine(st.NoCard)))
	}
	return lines
}

// noCardLine says a platform has a no-GPU mode, and its price.
func (v pricesView) noCardLine(nc catalog.NoCard) string {
	line := v.l.T("prices.no_card.yes")
	if f := nc.CNYPerHour; f != nil {
		line += v.l.T("prices.no_card.price", render.FigureText(*f))
	}
	return line
}

// retention puts a platform's data-loss rules in a short form: all of
// them first when asked how long data is kept (or that none is on
// record), else the first one.
func (v pricesView) retention(rep *chat.Reply, p *catalog.Platform) {
	switch {
	case v.Ask.Retention && len(p.Retention) == 0:
		rep.Title = v.l.T("prices.retention.none", p.DisplayName(v.en))
		rep.Lines = append(rep.Lines, v.l.T("prices.retention.advice"))
	case v.Ask.Retention:
		rep.Title = v.l.T("offers.named", p.DisplayName(v.en), p.Retention[0].Text.Pick(v.en))
		for _, rt := range p.Retention[1:] {
			rep.Lines = append(rep.Lines, "⚠ "+rt.Text.Pick(v.en))
		}
	case len(p.Retention) > 0:
		rep.Lines = append(rep.Lines, "⚠ "+p.Retention[0].Text.Pick(v.en))
	}
}

// noCard answers "无卡模式多少钱": which platforms have a no-GPU mode and
// at what price, with its limits.
func (v pricesView) noCard() chat.Reply {
	t := &chat.Table{Header: slices.Clone(v.l.L("prices.no_card.header"))}
	var priced []string
	for _, nc := range v.NoCard {
		name := v.rd.PlatformName(nc.Platform, v.en)
		has, price, src := v.l.T("prices.no_card.no"), "-", "-"
		if nc.Available {
			has, price = v.l.T("prices.no_card.has"), v.l.T("prices.no_card.price_unknown")
		}
		if nc.Price != nil && nc.Available {
			price, src = render.FigureText(*nc.Price), nc.Cite
			priced = append(priced, fmt.Sprintf("%s %s", name, render.FigureText(*nc.Price)))
		}
		t.Rows = append(t.Rows, []string{name, has, price, src})
	}
	title := v.l.T("prices.no_card.title")
	if len(priced) > 0 {
		title += v.l.T("prices.no_card.priced", strings.Join(priced, v.l.T("list.sep")))
	}
	title += v.l.T("prices.no_card.others")
	rep := chat.Reply{Title: title, Table: t}
	if p, ok := v.rd.Cat.Platform(noCardNotePlatform); ok && p.Storage.NoCard.Note.Pick(v.en) != "" {
		rep.Lines = append(rep.Lines, v.l.T("offers.named", p.DisplayName(v.en), p.Storage.NoCard.Note.Pick(v.en)))
	}
	rep.Notes = append(rep.Notes, v.l.T("prices.no_card.disk"))
	return rep
}

// platformCard is a platform's whole card: billing modes and rules, data
// disk, no-GPU mode, data-loss rules and caveats, every list price.
func (v pricesView) platformCard(p *catalog.Platform, rows []render.OfferRow) chat.Reply {
	rep := chat.Reply{Title: v.l.T("prices.full.title", p.DisplayName(v.en))}
	if line, ok := v.billingLine(p.Billing); ok {
		rep.Lines = append(rep.Lines, line)
	}
	if t := p.Billing.Note.Pick(v.en); t != "" {
		rep.Lines = append(rep.Lines, t)
	}
	st := p.Storage
	rep.Lines = append(rep.Lines, v.diskLine(st))
	if st.NoCard.Available {
		nc := v.noCardLine(st.NoCard)
		if t := st.NoCard.Note.Pick(v.en); t != "" {
			nc += v.l.T("prices.full.then", t)
		}
		rep.Lines = append(rep.Lines, nc)
	}
	if t := st.Note.Pick(v.en); t != "" {
		rep.Lines = append(rep.Lines, t)
	}
	for _, rt := range p.Retention {
		rep.Lines = append(rep.Lines, "⚠ "+rt.Text.Pick(v.en))
	}
	for _, c := range p.Caveats {
		rep.Lines = append(rep.Lines, "• "+c.Pick(v.en))
	}
	t, notes := v.priceTable(p, rows)
	if len(t.Rows) > 0 {
		rep.Table = t
	}
	rep.Notes = append(rep.Notes, notes...)
	for _, row := range t.Rows {
		if strings.HasSuffix(row[1], render.MarkUnverified) {
			rep.Notes = append(rep.Notes, render.UnverifiedFigureNote(v.en))
			break
		}
	}
	rep.Notes = append(rep.Notes, v.l.T("prices.full.not_stock", p.DisplayName(v.en)))
	return rep
}

// billingLine is a platform's billing modes, granularity and minimum
// (false when the catalog has neither modes nor granularity).
func (v pricesView) billingLine(b catalog.Billing) (string, bool) {
	if len(b.Modes) == 0 && b.Granularity == "" {
		return "", false
	}
	var modes []string
	for _, m := range b.Modes {
		modes = append(modes, v.modeText(m))
	}
	line := v.l.T("prices.full.billing", strings.Join(modes, "/"))
	if b.Granularity != "" {
		line += v.l.T("prices.full.granularity", granularityText(b.Granularity, v.en))
	}
	if b.MinimumMinutes > 0 {
		line += v.l.T("prices.full.minimum", b.MinimumMinutes)
	}
	return line, true
}

// diskLine is a platform's data disk: what it is, the free part, the
// price beyond it with its date, whether it bills while stopped.
func (v pricesView) diskLine(st catalog.Storage) string {
	disk := v.l.T("prices.full.disk")
	if label := st.DataDiskLabel.Pick(v.en); label != "" {
		disk = v.l.T("prices.full.disk_labelled", label)
	}
	if st.DataDiskFreeGB > 0 {
		disk += v.l.T("prices.full.disk_free", st.DataDiskFreeGB)
	}
	if f := st.DataDiskCNYPerGBDay; f != nil {
		disk += v.l.T("prices.full.disk_price", render.FigureText(*f), f.AsOf)
		if !f.Verified {
			disk += render.MarkUnverified
		}
	} else {
		disk += v.l.T("offers.price.unknown")
	}
	if st.BilledWhileStopped {
		disk += v.l.T("prices.full.billed_stopped")
	}
	return disk
}

// priceTable is a platform's list prices (the asked GPUs, or all) with
// their dates and sources, and the notes they need.
func (v pricesView) priceTable(p *catalog.Platform, rows []render.OfferRow) (*chat.Table, []string) {
	t := &chat.Table{Header: slices.Clone(v.l.L("prices.full.header"))}
	var notes []string
	for _, row := range rows {
		t.Rows = append(t.Rows, []string{row.GPU, render.PriceCell(row, v.en), row.AsOf + render.StaleTag(row, v.en), row.Cite})
	}
	if st := v.rd.StaleLine(rows, v.en); st != "" {
		notes = append(notes, v.l.T("offers.end", st))
	}
	if len(t.Rows) == 0 {
		notes = append(notes, v.noListPrice(p))
	}
	return t, notes
}

// noListPrice says that the catalog has no list price for the asked GPUs
// on p (or none at all), and which GPUs it does have there.
func (v pricesView) noListPrice(p *catalog.Platform) string {
	var have []string
	for _, pr := range p.Prices {
		if !slices.Contains(have, pr.GPU) {
			have = append(have, pr.GPU)
		}
	}
	if len(v.Ask.GPUs) == 0 || len(have) == 0 {
		return v.l.T("prices.no_list.none")
	}
	return v.l.T("prices.no_list.gpus", p.DisplayName(v.en), render.JoinIDs(v.Ask.NamedGPUs, v.en), strings.Join(have, v.l.T("list.sep")))
}

// modeKeys name the billing modes (message keys).
var modeKeys = map[string]string{
	"hourly": "prices.mode.hourly", "daily": "prices.mode.daily", "weekly": "prices.mode.weekly", "monthly": "prices.mode.monthly",
	"spot": "prices.mode.spot", "yearly": "prices.mode.yearly", "prepaid": "prices.mode.prepaid", "package": "prices.mode.package",
	"free": "prices.mode.free",
}

// modeText names a billing mode in the reader's language (its id when
// unknown).
func (v pricesView) modeText(m string) string {
	if k, ok := modeKeys[m]; ok {
		return v.l.T(k)
	}
	return m
}

// granularityKeys name the billing granularities (message keys).
var granularityKeys = map[string]string{"second": "offers.granularity.second", "minute": "offers.granularity.minute", "hour": "offers.granularity.hour"}

// granularityText names a billing granularity ("秒", "per minute");
// "未知"/"unknown" when the catalog has none, the id itself when it is
// not one of second, minute and hour.
func granularityText(g string, en bool) string {
	l := i18n.Of(en)
	if g == "" {
		return l.T("offers.unknown")
	}
	if k, ok := granularityKeys[g]; ok {
		return l.T(k)
	}
	if en {
		return l.T("offers.granularity.other", g)
	}
	return g
}
