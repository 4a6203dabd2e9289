package offers

import (
	"context"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/offerview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
)

func init() { answer.Register(answer.Intent{Name: understand.IntentStock, Answer: stockAnswer}) }

// stockAnswer answers "哪家有4090": the offers for the cards and platforms
// asked about, and the state of the stock sources.
func stockAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	return New(a.Env).stock(ctx, a.Query)
}

// stock is the stock answer to q. A question for other platforms than
// the one named ("autodl 上全是灰的，哪里还能租到", "哪家还有4090 autodl一直
// 抢不到") is answered for every platform, and its Query says so; when
// nothing is under a price ceiling, the cheapest known are shown.
func (r *Answers) stock(ctx context.Context, q understand.Query) answer.Out {
	if q.Elsewhere {
		q.Platforms, q.Platform = nil, ""
	}
	if q.YesNo != nil && q.YesNo.Kind == understand.YesNoCan && q.MaxPriceCNY == 0 && q.PriceCNY > 0 {
		// "两张A100 一小时12块能搞定吗": the money asked is the hour's budget
		// for all the cards.
		q.MaxPriceCNY = q.PriceCNY / float64(max(q.GPUCount, 1))
	}
	now := r.Now()
	snap := r.Offers.Snapshot(ctx)
	uses, rq := r.offerUses(&q, snap)
	if len(q.NamedGPUs) == 0 {
		// The verdict names the cards by the VRAM asked.
		uses.Add(answer.Said(understand.CondVRAMMin, understand.CondVRAMMax)...)
	}
	rows, noPrice := r.RowsFor(snap, rq, now)
	above := false
	if len(rows) == 0 && q.MaxPriceCNY > 0 {
		// Nothing under the ceiling: show the cheapest there is instead.
		all := rq
		all.MaxPriceCNY = 0
		if allRows, _ := r.RowsFor(snap, all, now); len(allRows) > 0 {
			rows, above = allRows, true
		}
	}
	if q.CheapAsked {
		// "有没有48G以上的卡 便宜点的": the cheapest first.
		cheapestFirst(rows)
	}
	if len(q.NamedGPUs) == 0 && (q.VRAMMinGB > 0 || q.VRAMMaxGB > 0) {
		// "16G显存够用了 找个最便宜的" asks which card: its best offer each.
		rows = bestPerCard(rows)
	}
	verdict := stockVerdict(q, rows, above)
	if q.Region != "" && rq.Region == "" && verdict != nil && verdict.Answer == render.VerdictYes && verdict.Row != nil && r.hasRegions(snap, q) {
		// "重庆区有没有" where the offers' regions are known and none is in
		// 重庆: not a yes. (Offers without regions say so in a line.)
		verdict.Answer, verdict.OtherRegion, verdict.Cheapest = render.VerdictUnsure, q.Region, nil
	}
	if q.CheapAsked && verdict != nil && verdict.Row != nil && len(rows) > 0 && verdict.Row != &rows[0] &&
		priceOf(rows[0]) < priceOf(*verdict.Row) && (rows[0].Available == nil || *rows[0].Available) {
		// The verdict rests on an offer in stock; a cheaper one whose stock
		// is unknown is named beside it.
		verdict.Cheapest = &rows[0]
	}
	p := offerview.Stock{Lang: i18n.Of(q.English), Ask: stockAsk(q), Offers: rows, Providers: offerview.ProviderRows(snap, r.Rd.Clock),
		NoPrice: noPrice, AboveCap: above, Now: now, USD: q.Currency == understand.CurrencyUSD, Verdict: verdict}
	uses.Add(answer.Said(understand.CondCurrency)...)
	uses.Add(answer.Applied(understand.CondPriceTotal, understand.CondPricePerCard)...)
	uses.Add(answer.NotUsed(understand.CondPeriod, answer.WhyHourly), answer.NotUsed(understand.CondBudget, answer.WhyHourly),
		answer.NotUsed(understand.CondSchedule, answer.WhyNow))
	return answer.Out{Payload: p, Query: q, Uses: uses.List()}
}

// offerUses applies the conditions the offers answers share to q: the
// VRAM (the cards within it) and the platform group (RowsFor keeps its
// platforms); and returns the query to collect rows with: q, without its
// region when no offer of the cards asked is in it (the Use then says
// which regions there are).
func (r *Answers) offerUses(q *understand.Query, snap stock.Snapshot) (*answer.Uses, understand.Query) {
	uses := answer.UsesOf(q)
	uses.Add(answer.NarrowByVRAM(r.Cat, q)...)
	uses.Add(answer.Applied(understand.CondPlatformGroup)...)
	rq := *q
	if q.Region == "" {
		return uses, rq
	}
	regions, in := r.regionsOffered(snap, *q)
	switch {
	case in:
		uses.Add(answer.Applied(understand.CondRegion)...)
		return uses, rq
	case len(regions) == 0:
		uses.Add(answer.NotUsed(understand.CondRegion, answer.WhyNoRegions))
	default:
		uses.Add(answer.NotUsed(understand.CondRegion, answer.WhyRegionNone, regions))
	}
	rq.Region = ""
	return uses, rq
}

// hasRegions reports whether any offer of q's cards and platforms names
// its region.
func (r *Answers) hasRegions(snap stock.Snapshot, q understand.Query) bool {
	regions, _ := r.regionsOffered(snap, q)
	return len(regions) > 0
}

// maxRegionsNamed is how many regions a reply names when none is the one
// asked.
const maxRegionsNamed = 5

// regionsOffered are the regions the snapshot's offers of q's cards and
// platforms name (at most maxRegionsNamed, as people know them), and
// whether one of them is in q's region.
func (r *Answers) regionsOffered(snap stock.Snapshot, q understand.Query) ([]string, bool) {
	var regions []string
	in := false
	for _, ps := range snap.Providers {
		for _, o := range ps.Offers {
			if o.Region == "" || !r.wanted(o, q) {
				continue
			}
			name := stock.RegionName(o.Platform, o.Region)
			in = in || understand.InRegion(q.Region, name)
			if len(regions) < maxRegionsNamed && !slices.Contains(regions, name) {
				regions = append(regions, name)
			}
		}
	}
	return regions, in
}

// wanted reports whether an offer is of the cards, platforms and group
// q asks about (its price and region aside).
func (r *Answers) wanted(o stock.Offer, q understand.Query) bool {
	if len(q.GPUs) > 0 && !slices.Contains(q.GPUs, o.GPU) && !r.familyOf(o.GPU, q.GPUs) {
		return false
	}
	return r.platformAsked(o.Platform, q)
}

// platformAsked reports whether q asks about a platform: not ruled out,
// and one named or in the group asked ("国内平台跟vast.ai比": both), or
// any when q names none.
func (r *Answers) platformAsked(platform string, q understand.Query) bool {
	if slices.Contains(q.ExcludePlatforms, platform) {
		return false
	}
	inGroup := q.PlatformGroup != "" && answer.InGroup(r.Cat, platform, q.PlatformGroup)
	switch {
	case len(q.Platforms) > 0:
		return slices.Contains(q.Platforms, platform) || inGroup
	case q.PlatformGroup != "":
		return inGroup
	}
	return true
}

// familyOf reports whether an offer's card is the family of one of ids
// (a platform that names only "H100").
func (r *Answers) familyOf(gpu string, ids []string) bool {
	for _, id := range ids {
		if g, ok := r.Cat.GPU(id); ok && g.Family == gpu {
			return true
		}
	}
	return false
}

// stockAsk is what a stock answer says the question asked.
func stockAsk(q understand.Query) offerview.StockAsk {
	a := offerview.StockAsk{GPU: q.GPU, GPUs: q.GPUs, NamedGPUs: q.NamedGPUs, UnknownGPU: q.UnknownGPU, Platforms: q.Platforms,
		ExcludePlatforms: q.ExcludePlatforms, MaxPriceCNY: q.MaxPriceCNY, GPUCount: q.GPUCount, Problems: answer.ProblemLines(q, q.English)}
	if len(q.NamedGPUs) == 0 {
		a.VRAMMinGB, a.VRAMMaxGB = q.VRAMMinGB, q.VRAMMaxGB
	}
	return a
}

// RowsFor collects the offers for the query's GPUs and platforms from the
// snapshot: offers known to be in stock first, then unknown stock (list
// prices), then sold out, cheapest first within each group. A catalog list
// price is dropped when a live or replay offer covers the same platform and
// GPU (under a price limit, only one with a price).
func (r *Answers) RowsFor(snap stock.Snapshot, q understand.Query, now time.Time) (rows []OfferRow, skippedNoPrice int) {
	want := map[string]bool{}
	for _, g := range q.GPUs {
		want[g] = true
		// A platform that names only the family ("H100") could not be
		// narrowed to a variant; it still answers for the family.
		if gg, ok := r.Cat.GPU(g); ok && gg.Family != "" {
			want[gg.Family] = true
		}
	}
	type key struct{ p, g string }
	observed, pricedSeen := map[key]bool{}, map[key]bool{}
	if q.MaxPriceCNY > 0 {
		// Observed offers with a price of their own for a platform and
		// card decide it under a ceiling: a count without a price there is
		// not judged by the list price's low end.
		for _, ps := range snap.Providers {
			for _, o := range ps.Offers {
				if o.Source != stock.SourceCatalog && o.HasPrice() {
					pricedSeen[key{o.Platform, o.GPU}] = true
				}
			}
		}
	}
	var offers []stock.Offer
	for _, ps := range snap.Providers {
		for _, o := range ps.Offers {
			if len(want) > 0 && !want[o.GPU] {
				continue
			}
			if !r.platformAsked(o.Platform, q) || q.Region != "" && !understand.InRegion(q.Region, stock.RegionName(o.Platform, o.Region)) {
				continue
			}
			if o.Source != stock.SourceCatalog {
				// An observed offer replaces the list price: one without a
				// price of its own shows the list price beside its count.
				observed[key{o.Platform, o.GPU}] = true
			}
			if q.MaxPriceCNY > 0 {
				// Under the ceiling before merging, so a merged row counts
				// only machines at that price. A count without a price is
				// judged by the list price shown beside it; a list-price
				// range whose low end is under it is kept, marked
				// (PartlyUnder).
				low := o.CNYPerGPUHour
				if !o.HasPrice() {
					if o.Source != stock.SourceCatalog && pricedSeen[key{o.Platform, o.GPU}] {
						continue
					}
					low = r.listLow(o)
				}
				if low <= 0 {
					skippedNoPrice++
					continue
				}
				if low > q.MaxPriceCNY+1e-9 {
					continue
				}
			}
			offers = append(offers, o)
		}
	}
	// One row per offer a person could rent: endpoints and machines that
	// describe the same platform, GPU and region are folded together.
	for _, o := range stock.Merge(offers) {
		if o.Source == stock.SourceCatalog && observed[key{o.Platform, o.GPU}] {
			continue
		}
		rows = append(rows, r.stockRow(o, q, now))
	}
	sortRows(rows)
	return rows, skippedNoPrice
}

// listLow is the low end of the catalog list price of an offer's platform
// and GPU (0 when there is none).
func (r *Answers) listLow(o stock.Offer) float64 {
	if p, ok := r.Cat.Platform(o.Platform); ok {
		if pr, ok := p.PriceFor(o.GPU); ok {
			return pr.CNYPerHour.Low
		}
	}
	return 0
}

// stockRow is an offer as a stock answer's row: a count without a price
// (AutoDL's stock API) shows the catalog list price beside it, labelled.
func (r *Answers) stockRow(o stock.Offer, q understand.Query, now time.Time) OfferRow {
	row := r.Rd.RowAt(o, now)
	row.PartlyUnder = q.MaxPriceCNY > 0 && o.PriceHigh > q.MaxPriceCNY+1e-9
	if !o.HasPrice() {
		if p, ok := r.Cat.Platform(o.Platform); ok {
			if pr, ok := p.PriceFor(o.GPU); ok {
				row.ListPriceCNY, row.ListPriceHighCNY, row.ListAsOf = pr.CNYPerHour.Low, pr.CNYPerHour.High, pr.CNYPerHour.AsOf
				row.PartlyUnder = q.MaxPriceCNY > 0 && pr.CNYPerHour.High > q.MaxPriceCNY+1e-9
			}
		}
	}
	return row
}

// sortRows ranks rows: in stock, then unknown stock, then sold out; within
// each, verified current prices, then unverified, then stale (trust); then
// whole ranges before part-under ones; then cheapest first.
func sortRows(rows []OfferRow) {
	rank := func(x OfferRow) int {
		switch {
		case x.Available == nil:
			return 1
		case *x.Available:
			return 0
		}
		return 2
	}
	price := func(x OfferRow) float64 {
		if x.PriceCNY == nil {
			return math.Inf(1)
		}
		return *x.PriceCNY
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if rank(a) != rank(b) {
			return rank(a) < rank(b)
		}
		// The verdict names a cheaper doubtful one (cheaperDoubt).
		if render.Trust(a) != render.Trust(b) {
			return render.Trust(a) < render.Trust(b)
		}
		if a.PartlyUnder != b.PartlyUnder {
			return b.PartlyUnder
		}
		return price(a) < price(b)
	})
}

// cheapestFirst ranks rows by price (a list price beside a count by its
// low end; none last), sold out after the rest.
func cheapestFirst(rows []OfferRow) {
	soldOut := func(x OfferRow) bool { return x.Available != nil && !*x.Available }
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if soldOut(a) != soldOut(b) {
			return soldOut(b)
		}
		return priceOf(a) < priceOf(b)
	})
}

// priceOf is a row's price per GPU-hour, its list price's low end beside
// a count without one, +Inf with neither.
func priceOf(row OfferRow) float64 {
	switch {
	case row.PriceCNY != nil:
		return *row.PriceCNY
	case row.ListPriceCNY > 0:
		return row.ListPriceCNY
	}
	return math.Inf(1)
}

// bestPerCard keeps the first (best ranked) row of each card.
func bestPerCard(rows []OfferRow) []OfferRow {
	seen := map[string]bool{}
	out := rows[:0:0]
	for _, row := range rows {
		if !seen[row.GPU] {
			seen[row.GPU] = true
			out = append(out, row)
		}
	}
	return out
}
