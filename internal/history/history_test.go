package history

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

// memStore is a Store in memory that counts writes.
type memStore struct {
	mu     sync.Mutex
	m      map[string][]byte
	writes int
}

func (s *memStore) PutHistory(_ context.Context, chunks map[string][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.writes++
	for k, v := range chunks {
		if len(v) == 0 {
			delete(s.m, k)
		} else {
			s.m[k] = v
		}
	}
	return nil
}

func (s *memStore) LoadHistory(context.Context) (map[string][]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]byte{}
	for k, v := range s.m {
		out[k] = v
	}
	return out, nil
}

var shanghai = time.FixedZone("CST", 8*3600)

// pattern is the known weekly pattern: weekday mornings (06–12) free,
// 19–23 sold out every day, weekends mixed (half the time), otherwise
// free 70% of the time; the second argument draws the noise.
func pattern(t time.Time, rnd *rand.Rand) bool {
	lt := t.In(shanghai)
	h, wd := lt.Hour(), lt.Weekday()
	switch {
	case h >= 19 && h < 23:
		return false
	case wd == time.Saturday || wd == time.Sunday:
		return rnd.Float64() < 0.5
	case h >= 6 && h < 12:
		return rnd.Float64() < 0.97
	}
	return rnd.Float64() < 0.7
}

// generate records four weeks of polls every 10 minutes up to now on two
// platforms, with a six-hour gap (no answer) each week.
func generate(t testing.TB, r *Recorder, now time.Time) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(1, 2))
	start := now.Add(-28 * 24 * time.Hour).Truncate(FineSlot)
	for at := start; at.Before(now); at = at.Add(FineSlot) {
		if d := at.Sub(start); d%(7*24*time.Hour) < 6*time.Hour && d%(7*24*time.Hour) >= 0 && d > 24*time.Hour {
			continue // the weekly gap
		}
		var offers []stock.Offer
		for _, p := range []string{"autodl", "gpushare"} {
			free := 0
			if pattern(at, rnd) {
				free = 1 + rnd.IntN(5)
			}
			offers = append(offers, stock.Offer{Platform: p, GPU: "RTX 4090", Free: stock.IntPtr(free), CNYPerGPUHour: 1.98 + 0.2*float64(at.In(shanghai).Hour()%3), Source: stock.SourceLive})
		}
		if err := r.Record(context.Background(), stock.Snapshot{TakenAt: at, Providers: []stock.ProviderSnapshot{{Provider: "p", Status: stock.StatusOK, FetchedAt: at, Offers: offers}}}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPatternRecovered(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 5, 0, 0, shanghai) // a Wednesday
	st := &memStore{}
	r := &Recorder{Store: st, Now: func() time.Time { return now }}
	generate(t, r, now)
	// Load back from the store: the answer reads what was persisted.
	back := &Recorder{Store: st, Now: r.Now}
	if err := back.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	pf := back.Profile("RTX 4090", []string{"autodl"}, now, shanghai)
	if pf.Days < 27 || pf.Days > 29 {
		t.Errorf("days = %d, want 28", pf.Days)
	}
	for d := range 5 {
		if x := pf.Hours[d][8]; x.Share < 0.85 {
			t.Errorf("weekday %d 08:00 share %.2f, want ≥ 0.85", d, x.Share)
		}
	}
	for d := range 7 {
		if x := pf.Hours[d][21]; x.Weight == 0 || x.Share > 0.01 {
			t.Errorf("day %d 21:00 = %+v, want sold out", d, x)
		}
	}
	if x := pf.Hours[6][15]; x.Share < 0.25 || x.Share > 0.75 {
		t.Errorf("Sunday 15:00 share %.2f, want mixed", x.Share)
	}
	best, worst := pf.Windows()
	if best.Days != "weekday" || best.Start < 6 || best.End > 12 || best.Share < 0.9 {
		t.Errorf("best window %+v, want weekday mornings", best)
	}
	if worst.Days != "daily" || worst.Start != 19 || worst.End != 23 || worst.Share > 0.01 {
		t.Errorf("worst window %+v, want every day 19–23", worst)
	}
	// Sold out in the 20:00 hour on a weekday, stock is back at 23:00 (the
	// 70% hour after): from a time uniform in 20:00–21:00 the median wait
	// is 2.5 h. The fine tier has 10-minute slots, the coarse (older than
	// 14 days) hourly ones: the figure must match within an hour's bucket.
	w := pf.WaitAt(2*24 + 20)
	if w.Samples < 10 || w.Median < 90*time.Minute || w.Median > 3*time.Hour+30*time.Minute || w.P90 < w.Median || w.P90 > 4*time.Hour {
		t.Errorf("Wednesday 20:00 wait = %+v, want median 2.5 h ± 1 h (bucket), p90 ≤ 4 h", w)
	}
	// At 19:00 the wait is about 3.5 h.
	if w := pf.WaitAt(24 + 19); w.Median < 2*time.Hour+30*time.Minute || w.Median > 4*time.Hour+30*time.Minute {
		t.Errorf("Tuesday 19:00 wait = %+v, want median 3.5 h ± 1 h", w)
	}
	// Queue risk in the evening vs. the morning.
	if p, days, _ := back.Risk("autodl", "RTX 4090", []int{20, 21, 22}, now, shanghai); p < 0.99 || days < 27 {
		t.Errorf("evening risk = %.2f (%d days), want ≈ 1", p, days)
	}
	if p, _, _ := back.Risk("autodl", "RTX 4090", []int{7, 8, 9, 10}, now, shanghai); p > 0.1 {
		t.Errorf("morning risk = %.2f, want ≈ 0", p)
	}
}

func TestOneWritePerProviderPerPoll(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	st := &memStore{}
	r := &Recorder{Store: st, Now: func() time.Time { return now }}
	var a, b []stock.Offer
	for i, g := range []string{"RTX 4090", "RTX 3090", "A100 80GB", "H100 SXM"} {
		for _, region := range []string{"西北B区", "北京A区", "内蒙B区"} {
			a = append(a, stock.Offer{Platform: "autodl", GPU: g, Region: region, Free: stock.IntPtr(i), Source: stock.SourceLive})
		}
		b = append(b, stock.Offer{Platform: "vastai", GPU: g, Free: stock.IntPtr(1), Source: stock.SourceLive},
			stock.Offer{Platform: "runpod", GPU: g, Free: stock.IntPtr(1), FreeIsLevel: true, Level: stock.LevelLow, Source: stock.SourceLive})
	}
	snap := stock.Snapshot{TakenAt: now, Providers: []stock.ProviderSnapshot{
		{Provider: "autodl", Status: stock.StatusOK, FetchedAt: now, Offers: a},
		{Provider: "replay", Status: stock.StatusOK, FetchedAt: now, Offers: b},
		{Provider: "catalog", Status: stock.StatusOK, FetchedAt: now, Offers: []stock.Offer{{Platform: "autodl", GPU: "RTX 4090", Source: stock.SourceCatalog}}},
		{Provider: "lambda", Status: stock.StatusError},
	}}
	if err := r.Record(context.Background(), snap); err != nil {
		t.Fatal(err)
	}
	if st.writes != 2 {
		t.Errorf("writes = %d, want 2 (one per provider that observed something)", st.writes)
	}
	// The same fetch seen again (a provider the board did not refetch) is
	// not recorded twice.
	if err := r.Record(context.Background(), snap); err != nil {
		t.Fatal(err)
	}
	if st.writes != 2 {
		t.Errorf("writes after a repeated snapshot = %d, want 2", st.writes)
	}
	pf := r.Profile("RTX 4090", []string{"autodl"}, now.Add(time.Minute), time.UTC)
	if x := pf.Hours[2][14]; x.Weight != 1 || x.Share != 0 {
		t.Errorf("autodl 4090 = %+v, want one sold-out slot (three regions, one poll)", x)
	}
}

func TestBudgetPerSeries(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	st := &memStore{}
	r := &Recorder{Store: st, Now: func() time.Time { return now }}
	// Half a year of polls, one a slot: retention must cut it to the budget.
	for at := now.Add(-26 * 7 * 24 * time.Hour); at.Before(now); at = at.Add(FineSlot) {
		r.Now = func() time.Time { return at }
		if err := r.Add(context.Background(), at, map[Key]Slot{{"autodl", "RTX 4090"}: {Polls: 1, In: 1, Free: 3, Price: 198}}); err != nil {
			t.Fatal(err)
		}
	}
	k := Key{"autodl", "RTX 4090"}
	if got := r.SeriesBytes(k); got > BytesPerSeries {
		t.Errorf("memory: %d bytes, budget %d", got, BytesPerSeries)
	}
	stored := 0
	for key, v := range st.m {
		stored += len(key) + len(v)
	}
	if limit := BytesPerSeries + 28*32; stored > limit {
		t.Errorf("store: %d bytes with keys, budget %d", stored, limit)
	}
	t.Logf("one platform·GPU after 26 weeks: %d value bytes in memory, %d bytes stored with keys (budget %d)", r.SeriesBytes(k), stored, BytesPerSeries)
}
