package stock_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

func TestMerge(t *testing.T) {
	free := stock.IntPtr
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	m := func(region string, n int, price float64) stock.Offer {
		return stock.Offer{Platform: "autodl", GPU: "RTX 4090", Region: region, Free: free(n), CNYPerGPUHour: price, Source: stock.SourceLive,
			Scope: stock.ScopeMachine, Endpoint: stock.EndpointWebMachines, ObservedAt: at}
	}
	agg := func(endpoint string, scope stock.Scope, region string, n int) stock.Offer {
		return stock.Offer{Platform: "autodl", GPU: "RTX 4090", Region: region, Free: free(n), Source: stock.SourceLive, Scope: scope,
			Endpoint: endpoint, ObservedAt: at, Caveats: []stock.Caveat{stock.CaveatMayNotCreate}}
	}
	cases := []struct {
		name   string
		in     []stock.Offer
		rows   int
		free   []int
		price  []float64
		region []string
		others []int
		differ []bool
	}{
		{"machines of one region are one row, cheapest free machine's price",
			[]stock.Offer{m("west-B", 2, 2.18), m("西北B区", 0, 1.50), m("west-B", 3, 2.05)},
			1, []int{5}, []float64{2.05}, []string{"西北B区"}, []int{0}, []bool{false}},
		{"bundles of different sizes stay apart",
			[]stock.Offer{{Platform: "vastai", GPU: "RTX 4090", Region: "Quebec, CA", Free: free(8), GPUsPerInstance: 8, CNYPerGPUHour: 2.0, Source: stock.SourceLive},
				{Platform: "vastai", GPU: "RTX 4090", Region: "Quebec, CA", Free: free(1), GPUsPerInstance: 1, CNYPerGPUHour: 2.6, Source: stock.SourceLive}},
			2, []int{8, 1}, []float64{2.0, 2.6}, []string{"Quebec, CA", "Quebec, CA"}, []int{0, 0}, []bool{false, false}},
		{"a region aggregate for the same region is kept beside the machine rows, and disagrees",
			[]stock.Offer{m("west-B", 2, 2.18), agg(stock.EndpointESDRegion, stock.ScopeRegion, "westDC3", 3)},
			1, []int{2}, []float64{2.18}, []string{"西北B区"}, []int{1}, []bool{true}},
		{"figures without a region go beside the first regional row; a platform-wide count does not disagree with a region's",
			[]stock.Offer{m("西北企业区", 0, 1.98), m("西北B区", 2, 2.18), agg(stock.EndpointESDGlobal, stock.ScopePlatform, "", 215)},
			2, []int{0, 2}, []float64{1.98, 2.18}, []string{"西北企业区", "西北B区"}, []int{0, 1}, []bool{false, false}},
		{"without regions the platform-wide figure is kept; a region-unknown 0 is not a disagreement",
			[]stock.Offer{agg(stock.EndpointWebRegion, stock.ScopeRegion, "", 0), agg(stock.EndpointESDGlobal, stock.ScopePlatform, "", 1)},
			1, []int{1}, []float64{0}, []string{""}, []int{1}, []bool{false}},
		{"rows without a scope are machines: summed",
			[]stock.Offer{{Platform: "vastai", GPU: "RTX 4090", Region: "Quebec, CA", Free: free(1), CNYPerGPUHour: 2.6, Source: stock.SourceLive},
				{Platform: "vastai", GPU: "RTX 4090", Region: "Quebec, CA", Free: free(2), CNYPerGPUHour: 2.4, Source: stock.SourceLive}},
			1, []int{3}, []float64{2.4}, []string{"Quebec, CA"}, []int{0}, []bool{false}},
		{"an older recording of the same endpoint is replaced by the newer",
			[]stock.Offer{{Platform: "vastai", GPU: "RTX 4090", Region: "Quebec, CA", Free: free(1), CNYPerGPUHour: 1.8, Source: stock.SourceReplay, ObservedAt: at.Add(-700 * 24 * time.Hour)},
				{Platform: "vastai", GPU: "RTX 4090", Region: "Quebec, CA", Free: free(1), CNYPerGPUHour: 2.4, Source: stock.SourceReplay, ObservedAt: at}},
			1, []int{1}, []float64{2.4}, []string{"Quebec, CA"}, []int{0}, []bool{false}},
		{"agreeing figures are not a disagreement",
			[]stock.Offer{agg(stock.EndpointWebRegion, stock.ScopeRegion, "", 3), agg(stock.EndpointESDRegion, stock.ScopeRegion, "", 3)},
			1, []int{3}, []float64{0}, []string{""}, []int{1}, []bool{false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := stock.Merge(c.in)
			if len(got) != c.rows {
				t.Fatalf("%d rows, want %d: %+v", len(got), c.rows, got)
			}
			for i, o := range got {
				if o.Free == nil || *o.Free != c.free[i] || o.CNYPerGPUHour != c.price[i] || o.Region != c.region[i] ||
					len(o.Others) != c.others[i] || o.Disagree() != c.differ[i] {
					t.Errorf("row %d: free %v price %.2f region %q others %d disagree %v; want %d %.2f %q %d %v",
						i, o.Free, o.CNYPerGPUHour, o.Region, len(o.Others), o.Disagree(), c.free[i], c.price[i], c.region[i], c.others[i], c.differ[i])
				}
			}
		})
	}
}

// TestMergeKeepsCatalogAndSources: list prices, other sources and stale
// offers are never folded into live ones.
func TestMergeKeepsCatalogAndSources(t *testing.T) {
	live := stock.Offer{Platform: "vastai", GPU: "RTX 4090", Region: "Quebec, CA", Free: stock.IntPtr(1), CNYPerGPUHour: 2.4, Source: stock.SourceLive, Scope: stock.ScopeMachine}
	stale := live
	stale.Stale = true
	rep := live
	rep.Source = stock.SourceReplay
	cat := stock.Offer{Platform: "vastai", GPU: "RTX 4090", CNYPerGPUHour: 3.2, Source: stock.SourceCatalog}
	in := []stock.Offer{live, stale, rep, cat}
	if got := stock.Merge(in); len(got) != 4 {
		t.Errorf("%d offers, want 4 (nothing folded): %+v", len(got), got)
	}
	if in[0].Region != "Quebec, CA" || in[0].Others != nil {
		t.Error("Merge changed its input")
	}
}

func TestPlaceholder(t *testing.T) {
	cases := []struct {
		raw  string
		want bool
	}{
		{"Example GPU (40 GB SXM4)", true},
		{"gpu_8x_example", true},
		{"string", true},
		{"Sample", true},
		{"NVIDIA GeForce RTX 4090", false},
		{"H100 (80 GB SXM5)", false},
		{"Examplar 9000", false},
	}
	for _, c := range cases {
		if got := stock.Placeholder(stock.Offer{RawGPU: c.raw, Source: stock.SourceLive}); got != c.want {
			t.Errorf("Placeholder(%q) = %v, want %v", c.raw, got, c.want)
		}
	}
	if stock.Placeholder(stock.Offer{RawGPU: "Example", Source: stock.SourceCatalog}) {
		t.Error("a catalog offer is never a placeholder")
	}
}

// TestBoardSkipsPlaceholders: an API example row never becomes an offer,
// and the snapshot counts it.
func TestBoardSkipsPlaceholders(t *testing.T) {
	p := &scripted{name: "lambda", fn: func(context.Context) ([]stock.Offer, error) {
		return []stock.Offer{
			{Platform: "lambda", GPU: "Example GPU (40 GB SXM4)", RawGPU: "Example GPU (40 GB SXM4)", Free: stock.IntPtr(8), Source: stock.SourceLive},
			{Platform: "lambda", GPU: "H100 SXM", RawGPU: "H100 (80 GB SXM5)", Free: stock.IntPtr(1), Source: stock.SourceLive},
		}, nil
	}}
	b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Log: slog.New(slog.DiscardHandler)})
	snap := b.Refresh(context.Background())
	if len(snap.Providers) != 1 || len(snap.Providers[0].Offers) != 1 || snap.Providers[0].Placeholders != 1 {
		t.Fatalf("want one offer and one skipped example row: %+v", snap.Providers)
	}
}
