// Package stock is the stock domain: GPU offers on rental platforms with
// their caveats (Offer), merging what several endpoints say (Merge), the
// board of every provider's latest snapshot (Board), subscriptions and the
// alert decision (Decide, Alerter), and the errors providers return. The
// providers themselves (the platforms' HTTP APIs, recordings, the
// catalog's list prices) are in stock/provider.
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
	// gives no price (AutoDL's stock API), and then left out of JSON: a
	// missing price is never shown as zero.
	CNYPerGPUHour float64 `json:"price_cny_per_hour,omitempty"`
	// PriceHigh is the top of a list-price range (catalog offers only).
	PriceHigh float64 `json:"price_high_cny_per_hour,omitempty"`
	// OriginalPrice and Currency are the price as the platform gave it, per
	// rental unit per hour, before conversion ("USD" 0.3369 for a vast
	// bundle, "CNY" 2.18 for AutoDL).
	OriginalPrice float64 `json:"original_price,omitempty"`
	Currency      string  `json:"currency"`
	Region        string  `json:"region,omitempty"`
	Source        Source  `json:"source"`
	// ObservedAt is when the figure was observed: fetch time for live; for
	// replay the recording time (a stamp in the file name or the directory's
	// RECORDED_AT file; zero when unknown); the price date for catalog.
	ObservedAt time.Time `json:"as_of,omitzero"`
	// AsOfText is the catalog price's own date text ("2026-08") when
	// ObservedAt is only approximate.
	AsOfText string `json:"as_of_text,omitempty"`
	// DateOnly is set when ObservedAt is a recording's date without a
	// time (answers say the date, not an age in hours).
	DateOnly bool `json:"date_only,omitempty"`
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
	// Caveats are the known limits of the offer's figures (an unverified
	// price unit, an unreliable count, …); answers show each as a mark
	// next to the figure with a one-line legend.
	Caveats []Caveat `json:"caveats,omitempty"`
	// Level is the stock level when the source gives a level instead of a
	// count: LevelHigh, LevelMedium, LevelLow, LevelNone (RunPod's
	// stockStatus) or LevelSome (Lambda: the region has capacity).
	Level string `json:"level,omitempty"`
	// Scope is what the stock figure covers: one machine or bundle, one
	// region, or the whole platform. Empty for list prices.
	Scope Scope `json:"scope,omitempty"`
	// Endpoint names the API the figure came from when a platform has
	// several (EndpointESDGlobal, …); empty when it has one.
	Endpoint string `json:"endpoint,omitempty"`
	// Machines is how many machine rows Merge folded into this offer;
	// PriceFrom is set when their prices differ, so the price is the
	// lowest ("2.05 起"), not every machine's.
	Machines  int  `json:"machines,omitempty"`
	PriceFrom bool `json:"price_from,omitempty"`
	// Others are the figures other endpoints gave for the same platform
	// and GPU that Merge folded into this offer (see Merge).
	Others []Figure `json:"others,omitempty"`
}

// Caveat is a known limit of an offer's figure.
type Caveat string

const (
	// CaveatUnitUnverified: the platform does not document the price's
	// unit; it is read as CNY per GPU-hour (恒源云's skuList price).
	CaveatUnitUnverified Caveat = "unit_unverified"
	// CaveatCountUnreliable: the free count is known to disagree with the
	// platform's web page (矩池云's gpu.available, often 0 while the page
	// shows free machines; stock-apis.md §3).
	CaveatCountUnreliable Caveat = "count_unreliable"
	// CaveatMayNotCreate: the idle count may not be what can actually be
	// created (AutoDL's developer stock endpoint counts schedulable
	// 1-card units, "advisory" per a public AutoDL client, 2026-08).
	CaveatMayNotCreate Caveat = "may_not_create"
	// CaveatStalePrice: a list price older than the configured age
	// (default 12 months).
	CaveatStalePrice Caveat = "stale_price"
)

// HasCaveat reports whether the offer carries c.
func (o Offer) HasCaveat(c Caveat) bool {
	for _, x := range o.Caveats {
		if x == c {
			return true
		}
	}
	return false
}

// withCaveat returns caveats with c added once.
func withCaveat(caveats []Caveat, c Caveat) []Caveat {
	for _, x := range caveats {
		if x == c {
			return caveats
		}
	}
	return append(caveats, c)
}

// Stock levels (Offer.Level).
const (
	LevelHigh   = "high"
	LevelMedium = "medium"
	LevelLow    = "low"
	LevelNone   = "none"
	// LevelSome: there is capacity, of unknown size (Lambda regions).
	LevelSome = "some"
)

// Scope is what a stock figure covers.
type Scope string

const (
	// ScopeMachine: one machine or one rentable bundle.
	ScopeMachine Scope = "machine"
	// ScopeRegion: every machine of one region (a region may be unknown
	// when a recording does not say which was asked for).
	ScopeRegion Scope = "region"
	// ScopePlatform: every region of the platform.
	ScopePlatform Scope = "platform"
)

// AutoDL endpoints (Offer.Endpoint), most trusted last.
const (
	// EndpointESDGlobal: GET /api/v1/dev/machine/gpu_stock (developer
	// token, every region).
	EndpointESDGlobal = "autodl_esd_global"
	// EndpointESDRegion: POST /api/v1/dev/machine/region/gpu_stock.
	EndpointESDRegion = "autodl_esd_region"
	// EndpointWebRegion: the console's POST /api/v1/machine/region/gpu_type.
	EndpointWebRegion = "autodl_web_region"
	// EndpointWebMachines: the console's machine list, per machine with
	// price and orderable count.
	EndpointWebMachines = "autodl_web_machines"
)

// Figure is what one endpoint said about a platform × GPU, kept beside the
// figure Merge chose.
type Figure struct {
	Endpoint string `json:"endpoint,omitempty"`
	Scope    Scope  `json:"scope,omitempty"`
	Region   string `json:"region,omitempty"`
	// Free is the free count (nil unknown); Level a stock level.
	Free  *int   `json:"free,omitempty"`
	Level string `json:"level,omitempty"`
	// CNYPerGPUHour is 0 without a price.
	CNYPerGPUHour float64  `json:"price_cny_per_hour,omitempty"`
	Caveats       []Caveat `json:"caveats,omitempty"`
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
