package stock_test

import (
	"context"
	"fmt"
	"math/rand"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

var benchGPUs = []string{"RTX 3090", "RTX 4090", "RTX 4090D", "RTX 5090", "A100 80GB", "A100 40GB", "H100 SXM", "H800", "L40S", "A10", "V100 32GB", "RTX A6000"}
var benchPlatforms = []string{"autodl", "hengyuan", "matpool", "vastai", "runpod", "lambda", "lanrui", "mita", "featurize", "tencent"}

func benchSnapshot(n int) stock.Snapshot {
	rng := rand.New(rand.NewSource(1))
	byProv := map[string][]stock.Offer{}
	for i := 0; i < n; i++ {
		p := benchPlatforms[rng.Intn(len(benchPlatforms))]
		byProv[p] = append(byProv[p], stock.Offer{Platform: p, GPU: benchGPUs[rng.Intn(len(benchGPUs))], Free: stock.IntPtr(rng.Intn(4)),
			CNYPerGPUHour: 1 + rng.Float64()*9, Region: fmt.Sprintf("region-%d", rng.Intn(20)), Source: stock.SourceLive})
	}
	var snap stock.Snapshot
	for p, os := range byProv {
		snap.Providers = append(snap.Providers, stock.ProviderSnapshot{Provider: p, Status: stock.StatusOK, Offers: os})
	}
	return snap
}

func benchSubs(n int) []stock.Subscription {
	rng := rand.New(rand.NewSource(2))
	subs := make([]stock.Subscription, n)
	for i := range subs {
		s := stock.Subscription{ID: fmt.Sprint(i), GPUs: []string{benchGPUs[rng.Intn(len(benchGPUs))]}}
		if rng.Intn(2) == 0 {
			s.Platforms = []string{benchPlatforms[rng.Intn(len(benchPlatforms))]}
		}
		if rng.Intn(2) == 0 {
			s.MaxPriceCNY = 1 + rng.Float64()*4
		}
		if rng.Intn(4) == 0 {
			s.MinFree = 2
		}
		subs[i] = s
	}
	return subs
}

// BenchmarkMatch100kSubs20kOffers: index a 20,000-offer snapshot and
// decide 100,000 subscriptions against it (target: under 50 ms, 200 MB).
func BenchmarkMatch100kSubs20kOffers(b *testing.B) {
	snap := benchSnapshot(20000)
	subs := benchSubs(100000)
	now := time.Now()
	pol := stock.DefaultPolicy()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ix := stock.NewIndex(snap)
		fired := 0
		for _, s := range subs {
			d, _ := stock.Decide(stock.NotifyRecord{}, ix.Observe(s), now, pol)
			if d.Notify {
				fired++
			}
		}
		if fired == 0 {
			b.Fatal("nothing fired")
		}
	}
}

type sleeper struct {
	name string
	d    time.Duration
}

func (s sleeper) Name() string { return s.name }
func (s sleeper) Fetch(ctx context.Context) ([]stock.Offer, error) {
	select {
	case <-time.After(s.d):
		return []stock.Offer{{Platform: s.name, GPU: "RTX 4090", Free: stock.IntPtr(1), CNYPerGPUHour: 2}}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// BenchmarkPollTenSlowProviders: 10 providers that each take 200 ms are
// polled in parallel (target: under 300 ms per poll).
func BenchmarkPollTenSlowProviders(b *testing.B) {
	var ps []stock.Provider
	for i := 0; i < 10; i++ {
		ps = append(ps, sleeper{name: fmt.Sprint("p", i), d: 200 * time.Millisecond})
	}
	board := stock.NewBoard(ps, stock.BoardOptions{Timeout: 2 * time.Second})
	b.ResetTimer()
	for b.Loop() {
		s := board.Refresh(context.Background())
		if len(s.Offers()) != 10 {
			b.Fatal("missing offers")
		}
	}
}

// memAlerts is an in-memory SubscriptionStore and AlertStore for the
// benchmark (the stores' own cost is measured by their tests).
type memAlerts struct {
	mu   sync.Mutex // the Alerter sends to several chats at once
	subs []stock.Subscription
	recs map[string]stock.NotifyRecord
}

func (m *memAlerts) AddSubscription(_ context.Context, s stock.Subscription) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.subs = append(m.subs, s)
	return nil
}
func (m *memAlerts) RemoveSubscription(context.Context, string) error { return nil }
func (m *memAlerts) Subscriptions(context.Context) ([]stock.Subscription, error) {
	return m.subs, nil
}
func (m *memAlerts) NotifyRecords(_ context.Context, ids []string) (map[string]stock.NotifyRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]stock.NotifyRecord, len(m.recs))
	for _, id := range ids {
		if r, ok := m.recs[id]; ok {
			out[id] = r
		}
	}
	return out, nil
}

// ReadNotifyRecords fills recs, as a store that reuses the Alerter's
// slice.
func (m *memAlerts) ReadNotifyRecords(_ context.Context, ids []string, recs []stock.NotifyRecord) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, id := range ids {
		recs[i] = m.recs[id]
	}
	return true, nil
}

func (m *memAlerts) PutNotifyRecords(_ context.Context, rs []stock.NotifyRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range rs {
		m.recs[r.SubscriptionID] = r
	}
	return nil
}
func (m *memAlerts) DeleteNotifyRecord(context.Context, string) error { return nil }
func (m *memAlerts) ClaimAlert(context.Context, string, time.Duration) (bool, error) {
	return true, nil
}
func (m *memAlerts) ReleaseAlert(context.Context, string) error            { return nil }
func (m *memAlerts) SetMute(context.Context, string, time.Time) error      { return nil }
func (m *memAlerts) MutedUntil(context.Context, string) (time.Time, error) { return time.Time{}, nil }

// BenchmarkProcess100kSubs20kOffers is a whole steady-state poll's alert
// work: 100,000 subscriptions in 1,000 chats against 20,000 offers, records
// read and (only where changed) written, alerts merged per chat. Targets
// (issue 19): under 100 ms a pass and under 150 MiB peak RSS for the whole
// benchmark process (/usr/bin/time -v on the test binary).
func BenchmarkProcess100kSubs20kOffers(b *testing.B) {
	snap := benchSnapshot(20000)
	subs := benchSubs(100000)
	for i := range subs {
		subs[i].Channel, subs[i].ChatID = "feishu", fmt.Sprint("chat-", i%1000)
	}
	st := &memAlerts{subs: subs, recs: map[string]stock.NotifyRecord{}}
	al := &stock.Alerter{Subs: st, Log: st, Notifier: stock.NotifierFunc(func(context.Context, stock.Alert) error { return nil }), Policy: stock.DefaultPolicy()}
	now := time.Now()
	if _, err := al.Process(context.Background(), snap, now); err != nil { // first poll: everything new
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		now = now.Add(2 * time.Minute)
		if _, err := al.Process(context.Background(), snap, now); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	// sys-MiB is all the memory the Go runtime took from the OS in the
	// process so far (setup included): an upper bound of its peak heap.
	b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MiB")
}
