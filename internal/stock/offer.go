// Package stock models GPU offers on rental platforms and fetches them from
// providers: the catalog's list prices, the platforms' HTTP APIs and recorded
// responses replayed from a directory.
package stock

import (
	"context"
	"time"
)

// Source says where an offer's figures come from.
type Source string

const (
	// SourceLive is a platform API answer fetched by this process.
	SourceLive Source = "live"
	// SourceCatalog is a list price from configs/catalog.yaml; stock unknown.
	SourceCatalog Source = "catalog"
	// SourceReplay is a recorded API response read from a directory.
	SourceReplay Source = "replay"
)

// Offer is one rentable configuration seen on a platform.
type Offer struct {
	// Platform is the catalog platform id ("autodl", "vastai").
	Platform string `json:"platform"`
	// GPU is the catalog GPU id ("RTX 4090"); RawGPU is the platform's own
	// name for it ("NVIDIA GeForce RTX 4090").
	GPU    string `json:"gpu"`
	RawGPU string `json:"raw_gpu,omitempty"`
	// GPUsPerInstance is how many GPUs one rental unit carries (vast.ai
	// offers are whole bundles; AutoDL bills per GPU and reports 1).
	GPUsPerInstance int `json:"gpus_per_instance"`
	// Free is the number of GPUs free to rent now; nil when unknown.
	Free *int `json:"free,omitempty"`
	// Total is the number of GPUs of this kind, when the platform says.
	Total *int `json:"total,omitempty"`
	// CNYPerGPUHour is the price per GPU-hour in CNY; 0 when the source
	// gives no price (AutoDL's stock API).
	CNYPerGPUHour float64 `json:"price_cny_per_hour"`
	// PriceHigh is the top of a list-price range (catalog offers only).
	PriceHigh float64 `json:"price_high_cny_per_hour,omitempty"`
	// OriginalPrice and Currency are the price as the platform gave it, per
	// rental unit per hour, before conversion ("USD" 0.3369 for a vast
	// bundle, "CNY" 2.18 for AutoDL).
	OriginalPrice float64 `json:"original_price"`
	Currency      string  `json:"currency"`
	Region        string  `json:"region,omitempty"`
	Source        Source  `json:"source"`
	// ObservedAt is when the figure was observed: fetch time for live; for
	// replay the recording time (a stamp in the file name or the directory's
	// RECORDED_AT file; zero when unknown); the price date for catalog.
	ObservedAt time.Time `json:"as_of"`
	// AsOfText is the catalog price's own date text ("2026-08") when
	// ObservedAt is only approximate.
	AsOfText string `json:"as_of_text,omitempty"`
	// Verified is false for catalog figures only the seed articles support.
	Verified bool `json:"verified"`
	// Note carries a short caveat ("member price", "excerpt").
	Note string `json:"note,omitempty"`
	// FreeIsLevel is true when Free encodes a stock level or a region's
	// capacity (RunPod, Lambda), not a count: 1 means "some".
	FreeIsLevel bool `json:"free_is_level,omitempty"`
	// Stale is set by the Board when the provider's latest fetch failed
	// and this offer is from an earlier successful one.
	Stale bool `json:"stale"`
}

// Available is the three-valued stock state of an offer.
type Available int

const (
	// Unknown: the source does not say, or the fetch failed.
	Unknown Available = iota
	// SoldOut: the source says no GPU is free.
	SoldOut
	// InStock: at least one GPU is free.
	InStock
)

// String returns "unknown", "sold_out" or "available".
func (a Available) String() string {
	switch a {
	case SoldOut:
		return "sold_out"
	case InStock:
		return "available"
	}
	return "unknown"
}

// State returns the offer's stock state.
func (o Offer) State() Available {
	if o.Free == nil {
		return Unknown
	}
	if *o.Free > 0 {
		return InStock
	}
	return SoldOut
}

// HasPrice reports whether the offer carries a price.
func (o Offer) HasPrice() bool { return o.CNYPerGPUHour > 0 }

// Provider fetches offers from one platform or source.
type Provider interface {
	// Name is the provider's id ("autodl", "vastai", "catalog", "replay").
	Name() string
	// Fetch returns the offers the provider sees now. An error means the
	// provider could not say: callers treat its stock as unknown.
	Fetch(ctx context.Context) ([]Offer, error)
}

// IntPtr returns a pointer to n, for Offer.Free and Offer.Total.
func IntPtr(n int) *int { return &n }
