package offers

import (
	"math"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/render"
)

// CardOf is a card at its cheapest known quote (no platform when none).
func CardOf(g *catalog.GPU, quotes estimator.Quotes) CardRow {
	c := CardRow{GPU: g.ID, MemoryGB: math.Round(estimator.CapacityGB(g)*10) / 10}
	// The cheapest trusted price (verified, unit documented) when there is
	// one: a doubtful price is never "the lowest" unmarked.
	var best *estimator.PriceQuote
	doubt := func(pq *estimator.PriceQuote) bool { return !pq.Verified || pq.UnitUnverified }
	for _, pq := range quotes(g.ID) {
		if best == nil || doubt(best) && !doubt(&pq) || doubt(best) == doubt(&pq) && pq.CNYPerGPUHour < best.CNYPerGPUHour {
			best = &pq
		}
	}
	if best == nil {
		return c
	}
	c.Platform, c.PriceCNY, c.Source, c.AsOf, c.Verified = best.Platform, render.Round2(best.CNYPerGPUHour), best.Source, best.AsOf, best.Verified
	c.UnitUnverified = best.UnitUnverified
	if best.High > best.Low && best.Low > 0 {
		c.PriceLowCNY, c.PriceHighCNY = render.Round2(best.Low), render.Round2(best.High)
	}
	return c
}
