package stock

import (
	"context"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
)

type catalogProvider struct {
	c *catalog.Catalog
}

// NewCatalogProvider returns a provider that turns every list price in the
// catalog into an offer: Source catalog, stock unknown (Free nil), the price
// (low end of a range, PriceHigh the top) in CNY per GPU-hour, ObservedAt
// the figure's date as far as it can be parsed (zero otherwise) and
// AsOfText the date as written.
func NewCatalogProvider(c *catalog.Catalog) Provider { return catalogProvider{c: c} }

func (catalogProvider) Name() string { return string(SourceCatalog) }

func (p catalogProvider) Fetch(ctx context.Context) ([]Offer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.c == nil {
		return nil, nil
	}
	var out []Offer
	for _, pl := range p.c.Platforms {
		for _, pr := range pl.Prices {
			f := pr.CNYPerHour
			o := Offer{
				Platform:        pl.ID,
				GPU:             pr.GPU,
				GPUsPerInstance: 1,
				CNYPerGPUHour:   f.Low,
				OriginalPrice:   f.Low,
				Currency:        "CNY",
				Source:          SourceCatalog,
				ObservedAt:      ParseAsOf(f.AsOf),
				AsOfText:        f.AsOf,
				Verified:        f.Verified,
				Note:            f.Note,
			}
			if f.IsRange() {
				o.PriceHigh = f.High
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

// ParseAsOf reads the date a catalog figure carries: "2006-01-02",
// "2006-01" or "2006", alone or at the start of a longer text
// ("2026-08 survey"). The result is the first instant of that day, month or
// year in UTC, or the zero time when no such date leads the text.
func ParseAsOf(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02", "2006-01", "2006"} {
		if len(s) < len(layout) {
			continue
		}
		if len(s) > len(layout) {
			if ch := s[len(layout)]; ch >= '0' && ch <= '9' {
				continue
			}
		}
		if t, err := time.Parse(layout, s[:len(layout)]); err == nil {
			return t
		}
	}
	return time.Time{}
}
