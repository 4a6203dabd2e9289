package embedded_test

import (
	"context"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/embedded"
	"github.com/labgpu/bot/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	s, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.Snapshots(t, s)
}

// TestSurvivesRestart: a snapshot saved before Close is there after Open.
func TestSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	s, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ps := stock.ProviderSnapshot{Provider: "replay", Status: stock.StatusOK, FetchedAt: time.Unix(1700000000, 0).UTC(),
		Offers: []stock.Offer{{Platform: "vastai", GPU: "RTX 4090", CNYPerGPUHour: 2.4, Source: stock.SourceReplay}}}
	if err := s.SaveProviderSnapshot(context.Background(), ps); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.LoadProviderSnapshots(context.Background())
	if err != nil || len(got) != 1 || got[0].Offers[0].CNYPerGPUHour != 2.4 {
		t.Fatalf("after reopen: %+v, %v", got, err)
	}
}

// TestLocked: a second Open of the same file fails with a clear error
// instead of hanging.
func TestLocked(t *testing.T) {
	dir := t.TempDir()
	s, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := embedded.Open(dir); err == nil {
		t.Fatal("second open succeeded, want a lock error")
	}
}
