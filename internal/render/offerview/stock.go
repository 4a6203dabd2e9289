package offerview

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// Stock is the stock answer ("哪家有4090"): the offers for the cards and
// platforms asked about, available first, then unknown stock (list
// prices), then sold out, trusted prices first and cheapest first within
// each; and the state of every stock source.
type Stock struct {
	Lang i18n.Lang `json:"-"`
	// Ask is what the question asked.
	Ask StockAsk `json:"-"`
	// Offers are the rows; Providers the stock sources.
	Offers    []render.OfferRow `json:"offers,omitempty"`
	Providers []ProviderRow     `json:"providers,omitempty"`
	// NoPrice counts the offers without a price a price ceiling left out;
	// AboveCap: none was under the ceiling, so Offers are the cheapest
	// known above it.
	NoPrice  int  `json:"-"`
	AboveCap bool `json:"-"`
	// Now is when the answer read the offers (the ages are at it).
	Now time.Time `json:"-"`
	// USD: the question asked in US dollars; a line gives the first
	// offers' prices in them.
	USD bool `json:"-"`
	// Verdict answers the yes/no question asked ("恒源云有3090吗", "5块钱能
	// 跑一小时4090吗"; nil when none was asked): the first line.
	Verdict *StockVerdict `json:"verdict,omitempty"`
}

// StockAsk is what a stock question asked, as the Query read it: the
// cards (GPU the first catalog id, GPUs every id covered, NamedGPUs as
// named, UnknownGPU a card the catalog does not know), the platforms
// named and ruled out, the price ceiling (CNY per GPU-hour, 0 none), the
// cards wanted on one machine, and the problems with the question as
// lines (answer.ProblemLines).
type StockAsk struct {
	GPU                         string
	GPUs, NamedGPUs             []string
	UnknownGPU                  string
	Platforms, ExcludePlatforms []string
	MaxPriceCNY                 float64
	GPUCount                    int
	Problems                    []string
	// VRAMMinGB and VRAMMaxGB are the VRAM asked when no card was named:
	// GPUs are the cards within it, named by it (0: none).
	VRAMMinGB, VRAMMaxGB float64
}

// stockView is a Stock being said by a renderer.
type stockView struct {
	Stock
	rd  *render.Renderer
	l   i18n.Lang
	en  bool
	src *sources
}

// Reply is the verdict and the five best rows, the whole table behind
// "详情".
func (s Stock) Reply(rd *render.Renderer) chat.Reply {
	v := &stockView{Stock: s, rd: rd, l: s.Lang, en: s.Lang.English(), src: &sources{rd: rd, l: s.Lang, now: s.Now, providers: s.Providers}}
	if s.Ask.GPU == "" && s.Ask.UnknownGPU != "" {
		rep := chat.Reply{Title: v.l.T("stock.unknown_gpu.title", s.Ask.UnknownGPU)}
		rep.Lines = append(rep.Lines, v.l.T("stock.unknown_gpu.known", knownGPUs(rd)))
		return rep
	}
	rows := s.Offers
	full := v.full()
	short := chat.Reply{Title: v.verdict()}
	if s.Verdict != nil {
		short.Title = v.verdictLine()
	}
	short.Lines = append(append(append([]string(nil), s.Ask.Problems...), v.src.failureLines()...), v.src.absentLines(rows)...)
	total := ""
	if s.Ask.GPUCount > 1 {
		total = v.cardsTotal()
	}
	switch {
	case s.AboveCap && s.Verdict == nil:
		// Nothing under the price asked: that first, then the cheapest.
		short.Lines = append([]string{short.Title}, short.Lines...)
		short.Title = v.l.T("stock.above_cap", render.TrimF(s.Ask.MaxPriceCNY))
	case s.AboveCap:
		short.Lines = append(short.Lines, v.l.T("stock.above_cap", render.TrimF(s.Ask.MaxPriceCNY)))
	case total != "" && s.Verdict == nil:
		// "两张4090一小时多少": the total for the cards asked first.
		short.Lines = append([]string{short.Title}, short.Lines...)
		short.Title, total = total, ""
	}
	if s.USD {
		if line := rd.USDLine(rows, v.en); line != "" {
			// Asked in dollars: right under the verdict, never cut.
			short.Lines = append([]string{line}, short.Lines...)
			short.Keep++
		}
	}
	if s.Ask.GPUCount > 1 {
		if total != "" {
			short.Lines = append(short.Lines, total)
		}
		// The counts are per region or platform, not per machine.
		short.Lines = append(short.Lines, v.l.T("stock.one_machine", s.Ask.GPUCount))
	}
	n := render.ShownRows(len(rows), phoneRows)
	short.Table = v.phoneTable(n)
	shown := rows[:n]
	if len(rows) > n {
		short.Notes = append(short.Notes, v.l.T("stock.more", len(rows)-n))
	}
	if !v.hasLive() && len(rows) > 0 {
		short.Notes = append(short.Notes, v.l.T("offers.end", v.src.noLiveReason()))
	}
	short.Notes = append(short.Notes, v.shortNotes(shown)...)
	if len(rows) > 0 || len(full.Notes) > len(short.Notes) {
		short.Full = &full
	}
	return short
}

// phoneRows are the offers the short form shows.
const phoneRows = 4

// hasLive reports whether a row is live and current.
func (v *stockView) hasLive() bool {
	for _, row := range v.Offers {
		if row.Source == string(stock.SourceLive) && !row.Stale {
			return true
		}
	}
	return false
}

// full is the whole stock answer behind "详情".
func (v *stockView) full() chat.Reply {
	rows := v.Offers
	rep := chat.Reply{Title: v.l.T("stock.full.title", v.gpuLabel())}
	rep.Lines = append(append(append([]string(nil), v.Ask.Problems...), v.src.failureLines()...), v.src.absentLines(rows)...)
	if v.Verdict != nil {
		rep.Title = v.verdictLine()
	}
	if v.Ask.GPUCount > 1 {
		rep.Lines = append(rep.Lines, v.l.T("stock.one_machine", v.Ask.GPUCount))
	}
	if len(rows) > 0 && !v.hasLive() {
		rep.Lines = append(rep.Lines, v.src.noLiveLine())
	}
	rep.Table = v.table(maxOfferRows)
	if len(rows) > maxOfferRows {
		rep.Notes = append(rep.Notes, v.l.T("stock.full.more", len(rows)-maxOfferRows))
	}
	if v.NoPrice > 0 {
		rep.Notes = append(rep.Notes, v.l.T("stock.full.no_price", v.NoPrice))
	}
	rep.Notes = append(rep.Notes, v.notes(rows[:min(len(rows), maxOfferRows)])...)
	return rep
}

// table is the first n rows as a table (nil without rows).
func (v *stockView) table(n int) *chat.Table {
	if len(v.Offers) == 0 {
		return nil
	}
	t := &chat.Table{Header: v.l.L("stock.table.header")}
	for i, row := range v.Offers {
		if i >= n {
			break
		}
		t.Rows = append(t.Rows, []string{v.rd.PlatformName(row.Platform, v.en), row.GPU, render.PriceCell(row, v.en), render.FreeCell(row, v.en),
			render.RegionText(row.Region, v.en), render.SourceCell(row, v.en)})
	}
	return t
}

// notes are the notes under the rows shown: the legend of their marks,
// endpoints that disagree, the USD conversion.
func (v *stockView) notes(rows []render.OfferRow) []string {
	var notes []string
	for _, row := range rows {
		if row.PartlyUnder {
			notes = append(notes, v.l.T("stock.partly_under"))
			break
		}
	}
	notes = append(notes, v.rd.Legend(withOthers(rows), v.en)...)
	notes = append(notes, disagreeLines(v.rd, rows, v.en)...)
	for _, row := range rows {
		if row.Currency == "USD" {
			notes = append(notes, v.l.T("stock.fx", v.rd.Cat.FXUSDCNY))
			break
		}
	}
	return notes
}

// shortNotes are notes under the rows a phone shows: the marks in a few
// words and the USD conversion (the endpoints that disagree are in 详情).
func (v *stockView) shortNotes(rows []render.OfferRow) []string {
	var notes []string
	for _, row := range rows {
		if row.PartlyUnder {
			notes = append(notes, v.l.T("stock.partly_under"))
			break
		}
	}
	notes = append(notes, v.rd.ShortLegend(withOthers(rows), v.en)...)
	for _, row := range rows {
		if row.Currency == "USD" {
			notes = append(notes, v.l.T("stock.fx", v.rd.Cat.FXUSDCNY))
			break
		}
	}
	return notes
}

// gpuLabel names the GPUs asked about.
func (v *stockView) gpuLabel() string {
	if v.byVRAM() {
		return v.l.T("stock.vram_cards", vramText(v.l, v.Ask.VRAMMinGB, v.Ask.VRAMMaxGB))
	}
	if len(v.Ask.NamedGPUs) > 0 {
		return strings.Join(v.Ask.NamedGPUs, " / ")
	}
	if len(v.Ask.GPUs) > 0 {
		return strings.Join(v.Ask.GPUs, " / ")
	}
	return v.l.T("stock.any_gpu")
}

// subject is what the verdict is about: the platforms and cards named,
// the price ceiling and the platforms ruled out.
func (v *stockView) subject() string {
	name := v.gpuLabel()
	if len(v.Ask.Platforms) > 0 {
		name = v.rd.PlatformNames(v.Ask.Platforms, v.en) + " " + name
	}
	if v.Ask.MaxPriceCNY > 0 && !v.AboveCap {
		// Above the ceiling the rows are the cheapest there are, not
		// ones within it.
		name += v.l.T("stock.verdict.max_price", render.TrimF(v.Ask.MaxPriceCNY))
	}
	if len(v.Ask.ExcludePlatforms) > 0 {
		name += v.l.T("stock.verdict.not", v.rd.PlatformNames(v.Ask.ExcludePlatforms, v.en))
	}
	return name
}

// verdict is the first line: who has it, the cheapest and how fresh, or
// plainly that no live figure exists.
func (v *stockView) verdict() string {
	rows := v.Offers
	name := v.subject()
	if len(rows) == 0 {
		if v.Ask.MaxPriceCNY > 0 {
			return v.l.T("stock.verdict.none_under", name)
		}
		return v.l.T("stock.verdict.none", name)
	}
	live, platforms := availableFrom(rows, func(row render.OfferRow) bool { return row.Source == string(stock.SourceLive) && !row.Stale })
	replayed, _ := availableFrom(rows, func(row render.OfferRow) bool { return row.Source == string(stock.SourceReplay) })
	best := rows[0]
	switch {
	case len(live) == 0 && len(replayed) > 0:
		replayed = pricedFirst(replayed)
		return v.l.T("stock.verdict.replayed", name, v.cheapestPhrase(replayed[0]), render.FreePhrase(replayed[0], v.en),
			v.recordedWhen(replayed[0]), v.cheaperDoubt(replayed)+v.cheaperUnknown(rows, replayed[0]))
	case len(live) > 0:
		return v.l.T("stock.verdict.live", name, platforms, v.offerName(live[0]), render.PriceWithUnit(live[0], v.en), render.FreePhrase(live[0], v.en),
			render.SourceCell(live[0], v.en), v.cheaperDoubt(live)+v.cheaperUnknown(rows, live[0]))
	case best.Source == string(stock.SourceLive) && !best.Stale && best.Available != nil && !*best.Available:
		return v.l.T("stock.verdict.sold_out", name, render.SourceCell(best, v.en), v.Ask.GPU)
	case !best.Stale && best.Available != nil && !*best.Available:
		// An old figure (a failed fetch, a row missing from the latest
		// answer) is unknown stock now, never "sold out".
		if rowPrice(best) > 0 {
			// A price asked gets it though the card was sold out.
			return v.l.T("stock.verdict.replay_sold_out_priced", name, v.recordedWhen(best), v.rd.PlatformName(best.Platform, v.en), render.PriceWithUnit(best, v.en))
		}
		return v.l.T("stock.verdict.replay_sold_out", name, v.recordedWhen(best))
	}
	var same []render.OfferRow
	for _, row := range rows {
		if (row.Available == nil) == (best.Available == nil) {
			same = append(same, row)
		}
	}
	return v.l.T("stock.verdict.unknown", name, v.offerName(best), render.PriceWithUnit(best, v.en), render.SourceCell(best, v.en), v.cheaperDoubt(same))
}

// availableFrom are the rows available now that keep holds, and on how
// many platforms.
func availableFrom(rows []render.OfferRow, keep func(render.OfferRow) bool) ([]render.OfferRow, int) {
	var out []render.OfferRow
	var platforms []string
	for _, row := range rows {
		if keep(row) && row.Available != nil && *row.Available {
			out = append(out, row)
			if !slices.Contains(platforms, row.Platform) {
				platforms = append(platforms, row.Platform)
			}
		}
	}
	return out, len(platforms)
}

// pricedFirst is rows with the priced ones first (in their order): an
// offer without a price is never "the cheapest".
func pricedFirst(rows []render.OfferRow) []render.OfferRow {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b render.OfferRow) int {
		switch {
		case a.PriceCNY != nil && b.PriceCNY == nil:
			return -1
		case a.PriceCNY == nil && b.PriceCNY != nil:
			return 1
		}
		return 0
	})
	return out
}

// cheaperUnknown names the cheapest row lower than first whose stock is
// unknown ("" when none): the headline's "cheapest available" never hides
// a lower figure (a list price, an offer without a count).
func (v *stockView) cheaperUnknown(rows []render.OfferRow, first render.OfferRow) string {
	top := rowPrice(first) // 0: no price, not even a list price beside it
	low := lowestWhere(rows, rowPrice, func(row render.OfferRow) bool {
		return row.Available == nil && row.Verified && (top == 0 || rowPrice(row) < top)
	})
	switch {
	case low == nil:
		return ""
	case top == 0:
		// The one in stock has no price: the cheapest figure known.
		return v.l.T("stock.doubt.priced", v.rd.PlatformName(low.Platform, v.en)+" "+low.GPU, render.PriceWithUnit(*low, v.en), render.SourceCell(*low, v.en))
	}
	return v.l.T("stock.doubt.line", v.rd.PlatformName(low.Platform, v.en), render.PriceCell(*low, v.en), v.l.T("stock.doubt.stock_unknown", render.SourceCell(*low, v.en)))
}

// lowestWhere is the row of rows keep takes with the lowest positive
// price (price of a row: its offer's, or with its list price beside it),
// nil when none.
func lowestWhere(rows []render.OfferRow, price func(render.OfferRow) float64, keep func(render.OfferRow) bool) *render.OfferRow {
	var low *render.OfferRow
	for i := range rows {
		if p := price(rows[i]); p > 0 && keep(rows[i]) && (low == nil || p < price(*low)) {
			low = &rows[i]
		}
	}
	return low
}

// offerPrice is a row's own price per GPU-hour (0 when it has none).
func offerPrice(row render.OfferRow) float64 {
	if row.PriceCNY == nil {
		return 0
	}
	return *row.PriceCNY
}

// cheaperDoubt names a row cheaper than the first of rows that was ranked
// after it because its price is unverified or stale ("" when none): the
// ordering never hides a lower figure without saying so.
func (v *stockView) cheaperDoubt(rows []render.OfferRow) string {
	if len(rows) == 0 || rows[0].PriceCNY == nil {
		return ""
	}
	low := lowestWhere(rows, offerPrice, func(row render.OfferRow) bool {
		return render.Trust(row) > render.Trust(rows[0]) && offerPrice(row) < *rows[0].PriceCNY
	})
	if low == nil {
		return ""
	}
	why := v.l.T("stock.doubt.unverified")
	switch {
	case low.Has(stock.CaveatStalePrice):
		why = v.l.T("stock.doubt.stale")
	case low.Has(stock.CaveatUnitUnverified):
		why = v.l.T("stock.doubt.unit")
	}
	return v.l.T("stock.doubt.line", v.rd.PlatformName(low.Platform, v.en), render.PriceCell(*low, v.en), why)
}

// cheapestPhrase names the first available row in a verdict: "最便宜有货的是
// AutoDL 2.18 元/卡时", or without a price "有货的是 AutoDL（价格未知）".
func (v *stockView) cheapestPhrase(row render.OfferRow) string {
	name := v.offerName(row)
	if row.PriceCNY == nil && row.ListPriceCNY == 0 {
		return v.l.T("stock.cheapest.unknown_price", name)
	}
	return v.l.T("stock.cheapest.priced", name, render.PriceWithUnit(row, v.en))
}

// offerName names a row's platform in a verdict, and its GPU when the
// question named none ("便宜点的卡").
func (v *stockView) offerName(row render.OfferRow) string {
	if len(v.Ask.GPUs) == 0 || v.byVRAM() {
		return v.rd.PlatformName(row.Platform, v.en) + " " + row.GPU
	}
	return v.rd.PlatformName(row.Platform, v.en)
}

// byVRAM: the cards are the ones within the VRAM asked, none named.
func (v *stockView) byVRAM() bool { return v.Ask.VRAMMinGB > 0 || v.Ask.VRAMMaxGB > 0 }

// vramText is a VRAM floor and ceiling (" ≥40 GB", " ≥24 GB ≤48 GB").
func vramText(l i18n.Lang, lo, hi float64) string {
	s := ""
	if lo > 0 {
		s += l.T("stock.vram_min", render.TrimF(lo))
	}
	if hi > 0 {
		s += l.T("stock.vram_max", render.TrimF(hi))
	}
	return s
}

// cardsTotal is the hourly price of all the cards asked at the first
// row's price, with one card's, labelled ("2 张合计约 2.40-5.40 元/小时
// （每张 1.20-2.70）"); "" when the first row has no price.
func (v *stockView) cardsTotal() string {
	if len(v.Offers) == 0 {
		return ""
	}
	r := v.Offers[0]
	short := ""
	if v.Verdict != nil && v.Verdict.Row != nil && v.Verdict.Answer == render.VerdictYes {
		// The offer the verdict rests on (one with enough free).
		r = *v.Verdict.Row
	} else if e, ok := v.enoughFree(); ok && e.Platform != r.Platform {
		// "哪家能一次租到3张": the cheapest with that many free; the
		// cheaper one's count said after.
		if r.Free != nil {
			short = v.l.T("stock.too_few", v.rd.PlatformName(r.Platform, v.en), *r.Free, v.Ask.GPUCount)
		}
		r = e
	}
	low, high := r.ListPriceCNY, r.ListPriceHighCNY
	if r.PriceCNY != nil {
		low, high = *r.PriceCNY, r.PriceHighCNY
	}
	if low <= 0 {
		return ""
	}
	n := float64(v.Ask.GPUCount)
	return v.l.T("stock.cards_total", v.Ask.GPUCount, v.rd.PlatformName(r.Platform, v.en), priceRange(low*n, high*n), priceRange(low, high),
		render.SourceCell(r, v.en)) + short
}

// enoughFree is the first offer (cheapest first) whose free count, or a
// plentiful stock level, covers the cards asked; false when none says so.
func (v *stockView) enoughFree() (render.OfferRow, bool) {
	for _, r := range v.Offers {
		if r.Free != nil && *r.Free >= v.Ask.GPUCount || r.Level == stock.LevelHigh {
			return r, true
		}
	}
	return render.OfferRow{}, false
}

// priceRange is a price or a range to the fen: "2.40" or "2.40-5.40"
// (one number when the ends are equal).
func priceRange(low, high float64) string {
	if high-low < 0.005 {
		return fmt.Sprintf("%.2f", low)
	}
	return fmt.Sprintf("%.2f-%.2f", low, high)
}
