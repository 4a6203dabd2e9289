package storetest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/stock"
)

// HistoryStore is history.Store: availability history chunks.
type HistoryStore interface {
	PutHistory(ctx context.Context, chunks map[string][]byte) error
	LoadHistory(ctx context.Context) (map[string][]byte, error)
	// GetHistory is history.ChunkReader.
	GetHistory(ctx context.Context, keys []string) (map[string][]byte, error)
}

// History checks a HistoryStore: chunks put in one write load back, a put
// replaces, a nil value deletes, GetHistory reads the chunks asked for
// that are stored; and a Recorder over the store records a
// poll that a second Recorder loads back.
func History(t *testing.T, s HistoryStore) {
	t.Helper()
	ctx := context.Background()
	a, b := "f|"+unique(t, "p")+"|RTX 4090|1", "h|"+unique(t, "p")+"|RTX 4090|2"
	if err := s.PutHistory(ctx, map[string][]byte{a: {1, 2, 3}, b: {4}}); err != nil {
		t.Fatalf("put: %v", err)
	}
	if err := s.PutHistory(ctx, map[string][]byte{a: {9}, b: nil}); err != nil {
		t.Fatalf("put again: %v", err)
	}
	got, err := s.LoadHistory(ctx)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if !bytes.Equal(got[a], []byte{9}) {
		t.Errorf("chunk a = %v, want [9]", got[a])
	}
	if _, ok := got[b]; ok {
		t.Errorf("chunk b still there after a nil put")
	}
	some, err := s.GetHistory(ctx, []string{a, b, "f|" + unique(t, "never") + "|RTX 4090|1"})
	if err != nil || len(some) != 1 || !bytes.Equal(some[a], []byte{9}) {
		t.Errorf("get a, b (deleted) and one never put = %v, %v; want only a = [9]", some, err)
	}
	if err := s.PutHistory(ctx, map[string][]byte{a: nil}); err != nil {
		t.Fatalf("delete: %v", err)
	}

	now := time.Now().UTC()
	platform := unique(t, "plat")
	free := 2
	rec := &history.Recorder{Store: s, Now: func() time.Time { return now }}
	snap := stock.Snapshot{TakenAt: now, Providers: []stock.ProviderSnapshot{{Provider: platform, Status: stock.StatusOK, FetchedAt: now,
		Offers: []stock.Offer{{Platform: platform, GPU: "RTX 4090", Free: &free, CNYPerGPUHour: 2.18, Source: stock.SourceLive}}}}}
	if err := rec.Record(ctx, snap); err != nil {
		t.Fatalf("record: %v", err)
	}
	back := &history.Recorder{Store: s, Now: func() time.Time { return now }}
	if err := back.Load(ctx); err != nil {
		t.Fatalf("load recorder: %v", err)
	}
	pf := back.Profile("RTX 4090", []string{platform}, now.Add(time.Minute), time.UTC)
	h := history.HourOfWeek(now, time.UTC)
	if x := pf.Hours[h/24][h%24]; x.Weight != 1 || x.Share != 1 || x.Price != 2.18 {
		t.Errorf("loaded hour = %+v, want one in-stock slot at 2.18", x)
	}
	// Clean up the series so a shared store does not grow run after run.
	all, _ := s.LoadHistory(ctx)
	del := map[string][]byte{}
	for k := range all {
		if bytes.Contains([]byte(k), []byte(platform)) {
			del[k] = nil
		}
	}
	_ = s.PutHistory(ctx, del)
}

// HistoryHandover: the poll moves from one replica to another (a
// Recorder each, both loaded at start, over stores sharing one server, or
// one store): the first records a poll, the second one ten minutes later
// in the same chunks; a replica started afterwards loads both polls. The
// second must not write back its older copy of the chunks over the
// first's poll.
func HistoryHandover(t *testing.T, stores ...HistoryStore) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(24 * time.Hour).Add(-12 * time.Hour) // noon yesterday
	clock := func() time.Time { return now }
	platform := unique(t, "plat")
	var recs []*history.Recorder
	for _, s := range []HistoryStore{stores[0], stores[len(stores)-1]} {
		r := &history.Recorder{Store: s, Now: clock}
		if err := r.Load(ctx); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	poll := func(at time.Time, price float64) stock.Snapshot {
		free := 2
		return stock.Snapshot{TakenAt: at, Providers: []stock.ProviderSnapshot{{Provider: platform, Status: stock.StatusOK, FetchedAt: at,
			Offers: []stock.Offer{{Platform: platform, GPU: "RTX 4090", Free: &free, CNYPerGPUHour: price, Source: stock.SourceLive}}}}}
	}
	first, second := now.Add(-20*time.Minute), now
	if err := recs[0].Record(ctx, poll(first, 2.18)); err != nil {
		t.Fatal(err)
	}
	if err := recs[1].Record(ctx, poll(second, 1.98)); err != nil {
		t.Fatal(err)
	}
	back := &history.Recorder{Store: stores[0], Now: clock}
	if err := back.Load(ctx); err != nil {
		t.Fatal(err)
	}
	pf := back.Profile("RTX 4090", []string{platform}, now.Add(time.Minute), time.UTC)
	for _, c := range []struct {
		at    time.Time
		price float64
	}{{first, 2.18}, {second, 1.98}} {
		h := history.HourOfWeek(c.at, time.UTC)
		if x := pf.Hours[h/24][h%24]; x.Weight != 1 || x.Price != c.price {
			t.Errorf("the poll at %s loads back as %+v, want one in-stock slot at %.2f", c.at.Format("15:04"), x, c.price)
		}
	}
	all, _ := stores[0].LoadHistory(ctx)
	del := map[string][]byte{}
	for k := range all {
		if bytes.Contains([]byte(k), []byte(platform)) {
			del[k] = nil
		}
	}
	_ = stores[0].PutHistory(ctx, del)
}
