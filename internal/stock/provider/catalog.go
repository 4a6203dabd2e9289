package provider

import (
	"context"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
)

type catalogProvider struct {
	c *catalog.Catalog
	o CatalogOptions
}

// CatalogOptions configures the catalog provider.
type CatalogOptions struct {
	// MaxAgeMonths is how many months after its date a list price is
	// marked stale (stock.CaveatStalePrice); 0 means
	// catalog.DefaultListPriceMaxAgeMonths, negative never.
	MaxAgeMonths int
	// Now defaults to time.Now.
	Now func() time.Time
}

// NewCatalog returns a provider that turns every list price in the
// catalog into an offer: stock.Source catalog, stock unknown (Free nil), the price
// (low end of a range, PriceHigh the top) in CNY per GPU-hour, ObservedAt
// the figure's date as far as it can be parsed (zero otherwise), AsOfText
// the date as written and stock.CaveatStalePrice when the date is older than
// o.MaxAgeMonths (see catalog.ListPriceStale).
func NewCatalog(c *catalog.Catalog, o CatalogOptions) stock.Provider {
	if o.Now == nil {
		o.Now = time.Now
	}
	return catalogProvider{c: c, o: o}
}

func (catalogProvider) Name() string { return string(stock.SourceCatalog) }

func (p catalogProvider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.c == nil {
		return nil, nil
	}
	now := p.o.Now()
	var out []stock.Offer
	for _, pl := range p.c.Platforms {
		for _, pr := range pl.Prices {
			f := pr.CNYPerHour
			o := stock.Offer{
				Platform:        pl.ID,
				GPU:             pr.GPU,
				GPUsPerInstance: 1,
				CNYPerGPUHour:   f.Low,
				OriginalPrice:   f.Low,
				Currency:        "CNY",
				Source:          stock.SourceCatalog,
				ObservedAt:      catalog.ParseAsOf(f.AsOf),
				AsOfText:        f.AsOf,
				Verified:        f.Verified,
				Note:            f.Note,
			}
			if f.IsRange() {
				o.PriceHigh = f.High
			}
			if catalog.ListPriceStale(f.AsOf, now, p.o.MaxAgeMonths) {
				o.Caveats = []stock.Caveat{stock.CaveatStalePrice}
			}
			if m := strings.TrimSpace(pr.Mode); m != "" && m != "hourly" {
				if o.Note == "" {
					o.Note = "billing mode " + m
				} else {
					o.Note = "billing mode " + m + "; " + o.Note
				}
			}
			out = append(out, o)
		}
	}
	return out, nil
}
