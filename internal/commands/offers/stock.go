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
	rows, noPrice := r.RowsFor(snap, q, now)
	above := false
	if len(rows) == 0 && q.MaxPriceCNY > 0 {
		// Nothing under the ceiling: show the cheapest there is instead.
		all := q
		all.MaxPriceCNY = 0
		if allRows, _ := r.RowsFor(snap, all, now); len(allRows) > 0 {
			rows, above = allRows, true
		}
	}
	p := offerview.Stock{Lang: i18n.Of(q.English), Ask: stockAsk(q), Offers: rows, Providers: offerview.ProviderRows(snap, r.Rd.Clock),
		NoPrice: noPrice, AboveCap: above, Now: now, Verdict: stockVerdict(q, rows, above)}
	return answer.Out{Payload: p, Query: q}
}

// stockAsk is what a stock answer says the question asked.
func stockAsk(q understand.Query) offerview.StockAsk {
	return offerview.StockAsk{GPU: q.GPU, GPUs: q.GPUs, NamedGPUs: q.NamedGPUs, UnknownGPU: q.UnknownGPU, Platforms: q.Platforms,
		ExcludePlatforms: q.ExcludePlatforms, MaxPriceCNY: q.MaxPriceCNY, GPUCount: q.GPUCount, Problems: answer.ProblemLines(q, q.English)}
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
	observed := map[key]bool{}
	var offers []stock.Offer
	for _, ps := range snap.Providers {
		for _, o := range ps.Offers {
			if len(want) > 0 && !want[o.GPU] {
				continue
			}
			if len(q.Platforms) > 0 && !slices.Contains(q.Platforms, o.Platform) || slices.Contains(q.ExcludePlatforms, o.Platform) {
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
