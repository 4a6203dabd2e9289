package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/stock"
)

// twoProviders answers two providers' live offers, fetched now.
type twoProviders struct{ at time.Time }

func (b *twoProviders) Refresh(context.Context) stock.Snapshot {
	b.at = b.at.Add(10 * time.Minute)
	offers := func(p string) []stock.Offer {
		return []stock.Offer{{Platform: p, GPU: "RTX 4090", Free: stock.IntPtr(2), Source: stock.SourceLive},
			{Platform: p, GPU: "RTX 3090", Free: stock.IntPtr(0), Source: stock.SourceLive},
			{Platform: p, GPU: "A100 80GB", Region: "b", Free: stock.IntPtr(1), Source: stock.SourceLive}}
	}
	return stock.Snapshot{TakenAt: b.at, Providers: []stock.ProviderSnapshot{
		{Provider: "autodl", Status: stock.StatusOK, FetchedAt: b.at, Offers: offers("autodl")},
		{Provider: "vastai", Status: stock.StatusOK, FetchedAt: b.at, Offers: offers("vastai")}}}
}

// writeCounter is a history.Store that counts writes.
type writeCounter struct{ n int }

func (w *writeCounter) PutHistory(context.Context, map[string][]byte) error { w.n++; return nil }
func (w *writeCounter) LoadHistory(context.Context) (map[string][]byte, error) {
	return nil, nil
}

func TestPollRecordsHistoryOneWritePerProvider(t *testing.T) {
	start := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	board := &twoProviders{at: start}
	st := &writeCounter{}
	h := &history.Recorder{Store: st, Now: func() time.Time { return board.at }}
	p := &jobs.Poller{Board: board, History: h}
	for range 3 {
		p.Run(context.Background())
	}
	if st.n != 3*2 {
		t.Errorf("store writes = %d after 3 polls of 2 providers, want 6", st.n)
	}
	pf := h.Profile("RTX 4090", nil, board.at.Add(time.Minute), time.UTC)
	if x := pf.Hours[2][8]; x.Weight != 3 || x.Share != 1 {
		t.Errorf("Wednesday 08:00 = %+v, want 3 in-stock slots", x)
	}
}
