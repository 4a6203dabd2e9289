package stock_test

import (
	"context"
	"fmt"
	"math/rand"
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
