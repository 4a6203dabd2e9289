package stock

import (
	"context"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
)

type catalogProvider struct {
	c *catalog.Catalog
	o CatalogOptions
}

// DefaultListPriceMaxAgeMonths is how old a list price may be before it is
// marked stale.
const DefaultListPriceMaxAgeMonths = 12

// CatalogOptions configures the catalog provider.
type CatalogOptions struct {
	// MaxAgeMonths is how many months after its date a list price is
	// marked stale (CaveatStalePrice); 0 means
	// DefaultListPriceMaxAgeMonths, negative never.
	MaxAgeMonths int
	// Now defaults to time.Now.
	Now func() time.Time
}

// NewCatalogProvider returns a provider that turns every list price in the
// catalog into an offer: Source catalog, stock unknown (Free nil), the price
// (low end of a range, PriceHigh the top) in CNY per GPU-hour, ObservedAt
// the figure's date as far as it can be parsed (zero otherwise), AsOfText
// the date as written and CaveatStalePrice when the date is older than
// o.MaxAgeMonths (see ListPriceStale).
func NewCatalogProvider(c *catalog.Catalog, o CatalogOptions) Provider {
	if o.Now == nil {
		o.Now = time.Now
	}
	return catalogProvider{c: c, o: o}
}

// ListPriceStale reports whether a list price dated asOf ("2021",
// "2026-08", "2026-08-21") is more than maxAgeMonths months old at now,
// counting from the end of the period the date names (a price dated
// "2025" is taken as of 2025-12-31). 0 months means
// DefaultListPriceMaxAgeMonths, negative never; an undated price is not
// stale (it is shown as undated).
func ListPriceStale(asOf string, now time.Time, maxAgeMonths int) bool {
	if maxAgeMonths < 0 {
		return false
	}
	if maxAgeMonths == 0 {
		maxAgeMonths = DefaultListPriceMaxAgeMonths
	}
	start := ParseAsOf(asOf)
	if start.IsZero() {
		return false
	}
	s := strings.TrimSpace(asOf)
	end := start.AddDate(0, 0, 1)
	switch {
	case len(s) == 4 || len(s) > 4 && (s[4] < '0' || s[4] > '9') && s[4] != '-':
		end = start.AddDate(1, 0, 0)
	case len(s) == 7 || len(s) > 7 && (s[7] < '0' || s[7] > '9') && s[7] != '-':
		end = start.AddDate(0, 1, 0)
	}
	return now.After(end.AddDate(0, maxAgeMonths, 0))
}

func (catalogProvider) Name() string { return string(SourceCatalog) }

func (p catalogProvider) Fetch(ctx context.Context) ([]Offer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.c == nil {
		return nil, nil
	}
	now := p.o.Now()
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
			if ListPriceStale(f.AsOf, now, p.o.MaxAgeMonths) {
				o.Caveats = []Caveat{CaveatStalePrice}
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
