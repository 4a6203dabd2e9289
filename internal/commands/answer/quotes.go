package answer

import (
	"slices"
	"sort"
	"time"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
)

// usableForJob reports whether a platform's prices may be used to cost a
// job: not an AI-art cloud or a free tier for training, and not a catalog
// price older than estimator.StalePriceYears.
func (r *Env) usableForJob(o stock.Offer, method string, now time.Time, named bool) bool {
	p, ok := r.Cat.Platform(o.Platform)
	if !ok {
		return false
	}
	if method != estimator.MethodInference && (p.Kind == "ai-art cloud" || p.Kind == "free tier") {
		return false
	}
	if stalePrice(o, now) && !named {
		// An old list price is used only when its platform is named.
		return false
	}
	return true
}

// Quotes returns, for a GPU, the best known price per platform (of the
// platforms q names and its platform group): the cheapest live or replay
// offer with a price, else the catalog list price (a range is costed at
// its midpoint, with its ends kept for the range).
func (r *Env) Quotes(snap stock.Snapshot, q understand.Query, method string, now time.Time, en bool) estimator.Quotes {
	type key struct{ p, g string }
	best := map[key]estimator.PriceQuote{}
	for _, ps := range snap.Providers {
		for _, o := range ps.Offers {
			if !o.HasPrice() || o.State() == stock.SoldOut || !r.usableForJob(o, method, now, slices.Contains(q.Platforms, o.Platform)) {
				continue
			}
			if len(q.Platforms) > 0 && !slices.Contains(q.Platforms, o.Platform) || slices.Contains(q.ExcludePlatforms, o.Platform) {
				continue
			}
			if !InGroup(r.Cat, o.Platform, q.PlatformGroup) {
				continue
			}
			k := key{o.Platform, o.GPU}
			price, hi := o.CNYPerGPUHour, o.CNYPerGPUHour
			if o.PriceHigh > price {
				hi = o.PriceHigh
				price = (o.CNYPerGPUHour + o.PriceHigh) / 2
			}
			pq := estimator.PriceQuote{Platform: o.Platform, GPU: o.GPU, CNYPerGPUHour: price, Low: o.CNYPerGPUHour, High: hi,
				Source: string(o.Source), Verified: o.Verified || o.Source != stock.SourceCatalog, UnitUnverified: o.HasCaveat(stock.CaveatUnitUnverified)}
			switch {
			case o.Source == stock.SourceCatalog && stalePrice(o, now):
				pq.AsOf = i18n.Of(en).T("meta.old_price", o.AsOfText)
				pq.Verified = false
			case o.Source == stock.SourceCatalog:
				pq.AsOf = o.AsOfText
			case o.ObservedAt.IsZero():
				pq.AsOf = i18n.Of(en).T("meta.time_unknown")
			default:
				pq.AsOf = render.Age(now.Sub(o.ObservedAt), en)
			}
			prev, ok := best[k]
			better := !ok ||
				(prev.Source == string(stock.SourceCatalog) && pq.Source != string(stock.SourceCatalog)) ||
				((prev.Source == string(stock.SourceCatalog)) == (pq.Source == string(stock.SourceCatalog)) && pq.CNYPerGPUHour < prev.CNYPerGPUHour)
			if better {
				best[k] = pq
			}
		}
	}
	return func(gpu string) []estimator.PriceQuote {
		var out []estimator.PriceQuote
		for k, q := range best {
			if k.g == gpu {
				out = append(out, q)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Platform < out[j].Platform })
		return out
	}
}

// stalePrice reports a catalog price older than estimator.StalePriceYears.
func stalePrice(o stock.Offer, now time.Time) bool {
	return o.Source == stock.SourceCatalog && !o.ObservedAt.IsZero() && now.Sub(o.ObservedAt) > estimator.StalePriceYears*365*24*time.Hour
}
