package offers

import (
	"fmt"
	"math"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/render"
)

// CardRow is a card that fits a workload, at its cheapest known price.
type CardRow struct {
	GPU      string  `json:"gpu"`
	MemoryGB float64 `json:"memory_gb"`
	// Comfortable is true when the card holds the workload's high figure.
	Comfortable bool    `json:"comfortable"`
	Platform    string  `json:"platform,omitempty"`
	PriceCNY    float64 `json:"price_cny_per_hour,omitempty"`
	// PriceLowCNY and PriceHighCNY bound a list-price range (PriceCNY is
	// its midpoint).
	PriceLowCNY  float64 `json:"price_low_cny_per_hour,omitempty"`
	PriceHighCNY float64 `json:"price_high_cny_per_hour,omitempty"`
	Source       string  `json:"source,omitempty"`
	AsOf         string  `json:"as_of,omitempty"`
	Verified     bool    `json:"verified"`
	// UnitUnverified: the platform does not document the price's unit.
	UnitUnverified bool `json:"unit_unverified,omitempty"`
}

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

// PriceText is the price cell: the figure, or "~mid (low-high)".
func (c CardRow) PriceText() string {
	mark := ""
	if c.UnitUnverified {
		mark = render.MarkUnit
	}
	if c.PriceHighCNY > c.PriceLowCNY {
		return fmt.Sprintf("~%.2f (%.2f-%.2f)", c.PriceCNY, c.PriceLowCNY, c.PriceHighCNY) + mark
	}
	return fmt.Sprintf("%.2f", c.PriceCNY) + mark
}
