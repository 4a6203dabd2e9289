package offerview

import (
	"fmt"

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

// PriceText is the price cell: the figure, or "~mid (low-high)", with ‡
// when the unit is unverified.
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
