package stock_test

import (
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

func obs(state stock.Available, price float64) stock.Observation {
	o := stock.Observation{State: state}
	if state == stock.InStock {
		o.Offers = []stock.Offer{{Platform: "autodl", GPU: "RTX 4090", CNYPerGPUHour: price, Free: stock.IntPtr(2)}}
	}
	return o
}

// TestDecide is the alert decision table: (last record, observation, now)
// → (notify?, reason, record).
func TestDecide(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	p := stock.DefaultPolicy()
	p3 := p
	p3.Debounce = 3
	pSold := p
	pSold.SoldOutAgain = true
	active := stock.NotifyRecord{SubscriptionID: "s", Observed: stock.InStock, Streak: 5, Active: true, NotifiedAt: t0, NotifiedPrice: 2.0, Seq: 1}
	cases := []struct {
		name       string
		rec        stock.NotifyRecord
		obs        stock.Observation
		now        time.Time
		pol        stock.Policy
		notify     bool
		reason     stock.Reason
		wantActive bool
		held       string
	}{
		{"first availability fires", stock.NotifyRecord{}, obs(stock.InStock, 2.2), t0, p, true, stock.ReasonAvailable, true, ""},
		{"still available: nothing", active, obs(stock.InStock, 2.0), t0.Add(time.Hour), p, false, "", true, ""},
		{"unknown never fires", stock.NotifyRecord{}, obs(stock.Unknown, 0), t0, p, false, "", false, ""},
		{"unknown never clears", active, obs(stock.Unknown, 0), t0.Add(time.Hour), p, false, "", true, ""},
		{"sold out clears silently", active, obs(stock.SoldOut, 0), t0.Add(time.Hour), p, false, "", false, ""},
		{"sold out message when asked", active, obs(stock.SoldOut, 0), t0.Add(time.Hour), pSold, true, stock.ReasonSoldOut, false, ""},
		{"back after sold out fires", stock.NotifyRecord{Observed: stock.SoldOut, Streak: 3, NotifiedAt: t0, NotifiedPrice: 2, Seq: 1}, obs(stock.InStock, 2.1), t0.Add(31 * time.Minute), p, true, stock.ReasonAvailable, true, ""},
		{"back inside the cooldown is held", stock.NotifyRecord{Observed: stock.SoldOut, Streak: 1, NotifiedAt: t0, Seq: 1}, obs(stock.InStock, 2.1), t0.Add(10 * time.Minute), p, false, "", false, "cooldown"},
		{"debounce: first poll held", stock.NotifyRecord{}, obs(stock.InStock, 2.1), t0, p3, false, "", false, "debounce"},
		{"debounce: third poll fires", stock.NotifyRecord{Observed: stock.InStock, Streak: 2}, obs(stock.InStock, 2.1), t0, p3, true, stock.ReasonAvailable, true, ""},
		{"price drop after cooldown fires", active, obs(stock.InStock, 1.5), t0.Add(40 * time.Minute), p, true, stock.ReasonPriceDrop, true, ""},
		{"price drop inside cooldown is held", active, obs(stock.InStock, 1.5), t0.Add(5 * time.Minute), p, false, "", true, "cooldown"},
		{"a 1% wobble is not a drop", active, obs(stock.InStock, 1.98), t0.Add(2 * time.Hour), p, false, "", true, ""},
		{"price rise is not news", active, obs(stock.InStock, 2.5), t0.Add(2 * time.Hour), p, false, "", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, next := stock.Decide(c.rec, c.obs, c.now, c.pol)
			if d.Notify != c.notify || d.Reason != c.reason || next.Active != c.wantActive || d.Held != c.held {
				t.Errorf("got notify=%v reason=%q active=%v held=%q, want %v %q %v %q", d.Notify, d.Reason, next.Active, d.Held, c.notify, c.reason, c.wantActive, c.held)
			}
			if d.Notify && (next.Seq != c.rec.Seq+1) {
				t.Errorf("seq %d after an alert, want %d", next.Seq, c.rec.Seq+1)
			}
			if c.obs.State == stock.Unknown && next != c.rec {
				t.Errorf("unknown changed the record: %+v → %+v", c.rec, next)
			}
			if d.Notify && c.reason != stock.ReasonSoldOut && (!next.NotifiedAt.Equal(c.now) || next.NotifiedPrice != c.obs.BestPrice()) {
				t.Errorf("record not updated: %+v", next)
			}
		})
	}
}

func TestObserve(t *testing.T) {
	free := func(n int) *int { return stock.IntPtr(n) }
	snap := stock.Snapshot{Providers: []stock.ProviderSnapshot{
		{Provider: "catalog", Status: stock.StatusOK, Offers: []stock.Offer{{Platform: "hengyuan", GPU: "RTX 4090", CNYPerGPUHour: 1.3, Source: stock.SourceCatalog}}},
		{Provider: "autodl", Status: stock.StatusOK, Offers: []stock.Offer{
			{Platform: "autodl", GPU: "RTX 4090", CNYPerGPUHour: 2.18, Free: free(2), Region: "西北B区", Source: stock.SourceLive},
			{Platform: "autodl", GPU: "RTX 4090", CNYPerGPUHour: 1.98, Free: free(0), Region: "西北企业区", Source: stock.SourceLive},
			{Platform: "autodl", GPU: "RTX 3090", CNYPerGPUHour: 1.32, Free: free(0), Source: stock.SourceLive},
		}},
		{Provider: "vastai", Status: stock.StatusError},
	}}
	ix := stock.NewIndex(snap)
	cases := []struct {
		name  string
		sub   stock.Subscription
		state stock.Available
		best  float64
	}{
		{"any 4090", stock.Subscription{GPUs: []string{"RTX 4090"}}, stock.InStock, 2.18},
		{"4090 under 2", stock.Subscription{GPUs: []string{"RTX 4090"}, MaxPriceCNY: 2}, stock.Unknown, 0}, // vast failed: could be there
		{"4090 under 2 on AutoDL", stock.Subscription{GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}, MaxPriceCNY: 2}, stock.SoldOut, 0},
		{"3090 on AutoDL", stock.Subscription{GPUs: []string{"RTX 3090"}, Platforms: []string{"autodl"}}, stock.SoldOut, 0},
		{"4090 on vast (failed)", stock.Subscription{GPUs: []string{"RTX 4090"}, Platforms: []string{"vastai"}}, stock.Unknown, 0},
		{"4090 on hengyuan (catalog only)", stock.Subscription{GPUs: []string{"RTX 4090"}, Platforms: []string{"hengyuan"}}, stock.Unknown, 0},
		{"4090 in 西北 with 2 free", stock.Subscription{GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}, Region: "西北", MinFree: 2}, stock.InStock, 2.18},
		{"4090 needing 3 free", stock.Subscription{GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}, MinFree: 3}, stock.SoldOut, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := ix.Observe(c.sub)
			if o.State != c.state || o.BestPrice() != c.best {
				t.Errorf("state %v best %.2f, want %v %.2f", o.State, o.BestPrice(), c.state, c.best)
			}
		})
	}
}

// TestObserveUndecided: what a source does not say never reads as sold
// out.
func TestObserveUndecided(t *testing.T) {
	free := stock.IntPtr
	snap := stock.Snapshot{Providers: []stock.ProviderSnapshot{
		{Provider: "autodl", Status: stock.StatusOK, Offers: []stock.Offer{
			{Platform: "autodl", GPU: "RTX 3090", Free: free(3), Source: stock.SourceLive},                // stock API: no price, no region
			{Platform: "autodl", GPU: "H800", Free: free(3), CNYPerGPUHour: 9, Source: stock.SourceLive}}, // no region
		},
		{Provider: "runpod", Status: stock.StatusOK, Offers: []stock.Offer{
			{Platform: "runpod", GPU: "RTX 4090", Free: free(1), FreeIsLevel: true, CNYPerGPUHour: 2.5, Source: stock.SourceLive}}},
		{Provider: "replay", Status: stock.StatusOK, FailedPlatforms: []string{"hengyuan"}, Offers: []stock.Offer{
			{Platform: "matpool", GPU: "A100 80GB", Free: free(0), CNYPerGPUHour: 5, Source: stock.SourceReplay, ObservedAt: time.Unix(1_800_000_000, 0)},
			// A recording of unknown time: not news.
			{Platform: "lambda", GPU: "H100 SXM", Free: free(2), CNYPerGPUHour: 20, Source: stock.SourceReplay},
			// A recording two days old: not news either.
			{Platform: "vastai", GPU: "L40S", Free: free(1), CNYPerGPUHour: 5, Source: stock.SourceReplay, ObservedAt: time.Unix(1_800_000_000, 0).Add(-48 * time.Hour)}}},
	}, TakenAt: time.Unix(1_800_000_000, 0)}
	ix := stock.NewIndex(snap)
	cases := []struct {
		name string
		sub  stock.Subscription
		want stock.Available
	}{
		{"price limit, source without prices", stock.Subscription{GPUs: []string{"RTX 3090"}, Platforms: []string{"autodl"}, MaxPriceCNY: 1.5}, stock.Unknown},
		{"no limit: available", stock.Subscription{GPUs: []string{"RTX 3090"}, Platforms: []string{"autodl"}}, stock.InStock},
		{"region filter, source without regions", stock.Subscription{GPUs: []string{"H800"}, Platforms: []string{"autodl"}, Region: "西北"}, stock.Unknown},
		{"a level is not a count", stock.Subscription{GPUs: []string{"RTX 4090"}, Platforms: []string{"runpod"}, MinFree: 2}, stock.Unknown},
		{"a level says some", stock.Subscription{GPUs: []string{"RTX 4090"}, Platforms: []string{"runpod"}}, stock.InStock},
		{"the only platform with it is ruled out", stock.Subscription{GPUs: []string{"RTX 4090"}, ExcludePlatforms: []string{"runpod"}}, stock.Unknown},
		{"platform whose recording failed", stock.Subscription{GPUs: []string{"A100 80GB"}, Platforms: []string{"hengyuan"}}, stock.Unknown},
		{"no filter while a platform failed", stock.Subscription{GPUs: []string{"A100 80GB"}}, stock.Unknown},
		{"answered platform: sold out", stock.Subscription{GPUs: []string{"A100 80GB"}, Platforms: []string{"matpool"}}, stock.SoldOut},
		{"recording of unknown time fires nothing", stock.Subscription{GPUs: []string{"H100 SXM"}, Platforms: []string{"lambda"}}, stock.Unknown},
		{"a two-day-old recording fires nothing", stock.Subscription{GPUs: []string{"L40S"}, Platforms: []string{"vastai"}}, stock.Unknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ix.Observe(c.sub).State; got != c.want {
				t.Errorf("state %v, want %v", got, c.want)
			}
		})
	}
}

// TestSteadyStateWritesNothing: a state that holds leaves the record as
// it was, so a poll does not rewrite every subscription.
func TestSteadyStateWritesNothing(t *testing.T) {
	p := stock.DefaultPolicy()
	p.Debounce = 2
	rec := stock.NotifyRecord{Observed: stock.SoldOut, Streak: 2}
	_, next := stock.Decide(rec, obs(stock.SoldOut, 0), time.Now(), p)
	if next != rec {
		t.Errorf("record changed in a steady state: %+v → %+v", rec, next)
	}
}
