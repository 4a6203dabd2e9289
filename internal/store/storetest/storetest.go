// Package storetest is the conformance suite every store implementation
// (embedded, Redis) must pass.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

// Snapshots checks stock.SnapshotStore: a saved snapshot loads back with
// its offers and times; saving again replaces it; providers are separate.
func Snapshots(t *testing.T, s stock.SnapshotStore) {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	free := 3
	a := stock.ProviderSnapshot{Provider: "autodl", Status: stock.StatusOK, FetchedAt: at,
		Offers: []stock.Offer{{Platform: "autodl", GPU: "RTX 4090", GPUsPerInstance: 1, Free: &free, CNYPerGPUHour: 2.18,
			OriginalPrice: 2.18, Currency: "CNY", Region: "西北B区", Source: stock.SourceLive, ObservedAt: at}}}
	b := stock.ProviderSnapshot{Provider: "vastai", Status: stock.StatusOK, FetchedAt: at}
	if err := s.SaveProviderSnapshot(ctx, a); err != nil {
		t.Fatalf("save: %v", err)
	}
	if err := s.SaveProviderSnapshot(ctx, b); err != nil {
		t.Fatalf("save: %v", err)
	}
	a2 := a
	a2.FetchedAt = at.Add(time.Minute)
	a2.Offers = append([]stock.Offer(nil), a.Offers...)
	a2.Offers[0].CNYPerGPUHour = 1.98
	if err := s.SaveProviderSnapshot(ctx, a2); err != nil {
		t.Fatalf("save again: %v", err)
	}
	got, err := s.LoadProviderSnapshots(ctx)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	byName := map[string]stock.ProviderSnapshot{}
	for _, g := range got {
		byName[g.Provider] = g
	}
	ga, ok := byName["autodl"]
	if !ok || len(byName) != 2 {
		t.Fatalf("loaded %d snapshots (%v), want autodl and vastai", len(got), byName)
	}
	if !ga.FetchedAt.Equal(a2.FetchedAt) || len(ga.Offers) != 1 || ga.Offers[0].CNYPerGPUHour != 1.98 ||
		ga.Offers[0].Free == nil || *ga.Offers[0].Free != 3 || ga.Offers[0].Region != "西北B区" || !ga.Offers[0].ObservedAt.Equal(at) {
		t.Errorf("autodl snapshot = %+v, want the second save", ga)
	}
}
