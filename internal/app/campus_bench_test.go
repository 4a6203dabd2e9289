package app_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/stock"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// BenchmarkCampusPoll runs docs/scale.md's campus deployment scaled down
// (BOT_CAMPUS_SCALE, default 0.1: 20 labs, 500 members, 5,000
// subscriptions, 2,000 offers) on one real Redis: two replicas fire the
// poll at each tick, one takes the lock and does the poll — ten providers
// (in memory here; BenchmarkBoardPoll times them over HTTP), the
// availability history, the alert pass over every subscription with the
// alert records. About 2% of the offers change each poll, so alerts are
// decided and sent (to a counter) every time.
//
//	go test -run '^$' -bench CampusPoll -benchtime 30x ./internal/app
//
// Per poll it reports the wall time, the Redis commands both replicas
// sent and the alerts; at the end the Redis memory of the deployment's
// keys (MiB) and per subscription (bytes).
func BenchmarkCampusPoll(b *testing.B) {
	scale := 0.1
	if s := os.Getenv("BOT_CAMPUS_SCALE"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v <= 0 || v > 1 {
			b.Fatalf("BOT_CAMPUS_SCALE=%q: want a number in (0, 1]", s)
		}
		scale = v
	}
	ctx := context.Background()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	prefix := fmt.Sprintf("labgpu-campus-%d:", time.Now().UnixNano())
	var stores [2]*redisstore.Store
	for i := range stores {
		st, err := redisstore.Open(ctx, url, prefix)
		if err != nil {
			b.Skipf("no Redis at %s: %v", url, err)
		}
		defer st.Close()
		stores[i] = st
	}
	defer dropKeys(ctx, stores[0], prefix)
	nSubs, nOffers := int(50000*scale), int(20000*scale)
	seedCampus(ctx, b, stores[0], nSubs, int(200*scale), int(5000*scale))
	provs := campusProviders(nOffers)
	clk := &clock{t: time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)}
	k := &sink{}
	var pollers [2]*jobs.Poller
	for i, st := range stores {
		board := stock.NewBoard(provs, stock.BoardOptions{Now: clk.now, Log: quiet(), Timeout: 10 * time.Second})
		hist := &history.Recorder{Store: st, Now: clk.now}
		al := &stock.Alerter{Subs: st, Log: st, Notifier: k, Policy: stock.DefaultPolicy(), Logger: quiet()}
		pollers[i] = &jobs.Poller{Board: board, History: hist, Alerter: al, Locker: st, Owner: fmt.Sprint("replica-", i), Now: clk.now, Log: quiet()}
	}
	cmds0 := commandsProcessed(ctx, b, stores[0])
	b.ResetTimer()
	for b.Loop() {
		for _, p := range provs {
			p.(*campusProvider).step()
		}
		var wg sync.WaitGroup
		for _, p := range pollers {
			wg.Go(func() {
				if _, _, _, err := p.RunOnce(ctx); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
		// The lock outlives the poll (its TTL); the next tick is a minute on.
		for _, p := range pollers {
			p.Release(ctx)
		}
		clk.step(time.Minute)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(commandsProcessed(ctx, b, stores[0])-cmds0)/n, "redis-cmds/poll")
	b.ReportMetric(float64(k.count())/n, "alerts/poll")
	mem := keysMemory(ctx, b, stores[0], prefix)
	b.ReportMetric(float64(mem)/(1<<20), "redis-MiB")
	b.ReportMetric(float64(mem)/float64(nSubs), "redis-B/sub")
}

// seedCampus adds n subscriptions from members of labs group chats, each
// for one or two GPUs, half of them with a price ceiling, some with a
// platform.
func seedCampus(ctx context.Context, b *testing.B, st *redisstore.Store, n, labs, members int) {
	b.Helper()
	rng := rand.New(rand.NewSource(19))
	for i := 0; i < n; i++ {
		s := stock.Subscription{ID: fmt.Sprintf("s-%06d", i), Channel: "feishu", ChatID: fmt.Sprintf("oc_lab%03d", rng.Intn(labs)),
			OwnerID: fmt.Sprintf("ou_member%04d", rng.Intn(members)), GPUs: []string{benchGPUs[rng.Intn(len(benchGPUs))]},
			CreatedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
		if rng.Intn(3) == 0 {
			s.GPUs = append(s.GPUs, benchGPUs[rng.Intn(len(benchGPUs))])
		}
		if rng.Intn(2) == 0 {
			s.MaxPriceCNY = 1 + rng.Float64()*4
		}
		if rng.Intn(4) == 0 {
			s.Platforms = []string{benchPlatforms[rng.Intn(len(benchPlatforms))]}
		}
		if err := st.AddSubscription(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
}

var (
	benchGPUs      = []string{"RTX 3090", "RTX 4090", "RTX 4090D", "RTX 5090", "A100 80GB", "A100 40GB", "H100 SXM", "H800", "L40S", "A10", "V100 32GB", "RTX A6000"}
	benchPlatforms = []string{"autodl", "hengyuan", "matpool", "vastai", "runpod", "lambda", "lanrui", "mita", "featurize", "tencent"}
)

// campusProvider is one platform's offers; step flips about 2% of them
// between in stock and sold out.
type campusProvider struct {
	name   string
	mu     sync.Mutex
	rng    *rand.Rand
	offers []stock.Offer
}

// campusProviders makes the ten platforms' n offers.
func campusProviders(n int) []stock.Provider {
	var out []stock.Provider
	for i, name := range benchPlatforms {
		p := &campusProvider{name: name, rng: rand.New(rand.NewSource(int64(i)))}
		for j := 0; j < n/len(benchPlatforms); j++ {
			p.offers = append(p.offers, stock.Offer{Platform: name, GPU: benchGPUs[p.rng.Intn(len(benchGPUs))], GPUsPerInstance: 1,
				Free: stock.IntPtr(p.rng.Intn(3)), CNYPerGPUHour: 1 + p.rng.Float64()*9, Region: fmt.Sprintf("region-%d", j),
				Currency: "CNY", Source: stock.SourceLive})
		}
		out = append(out, p)
	}
	return out
}

func (p *campusProvider) Name() string { return p.name }

func (p *campusProvider) Fetch(context.Context) ([]stock.Offer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]stock.Offer, len(p.offers))
	copy(out, p.offers)
	for i := range out {
		out[i].ObservedAt = time.Now()
	}
	return out, nil
}

func (p *campusProvider) step() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.offers {
		if p.rng.Intn(50) == 0 {
			free := 0
			if *p.offers[i].Free == 0 {
				free = 1 + p.rng.Intn(3)
			}
			p.offers[i].Free = stock.IntPtr(free)
		}
	}
}

// commandsProcessed is Redis's total_commands_processed (INFO stats).
func commandsProcessed(ctx context.Context, b *testing.B, st *redisstore.Store) int64 {
	b.Helper()
	info, err := st.Client().Info(ctx, "stats").Result()
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "total_commands_processed:"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
	}
	b.Fatal("INFO stats has no total_commands_processed")
	return 0
}

// keysMemory sums MEMORY USAGE over the keys under prefix, bytes.
func keysMemory(ctx context.Context, b *testing.B, st *redisstore.Store, prefix string) int64 {
	b.Helper()
	var total int64
	iter := st.Client().Scan(ctx, 0, prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		n, err := st.Client().MemoryUsage(ctx, iter.Val()).Result()
		if err != nil {
			b.Fatal(err)
		}
		total += n
	}
	if err := iter.Err(); err != nil {
		b.Fatal(err)
	}
	return total
}

func dropKeys(ctx context.Context, st *redisstore.Store, prefix string) {
	iter := st.Client().Scan(ctx, 0, prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		st.Client().Del(ctx, iter.Val())
	}
}
