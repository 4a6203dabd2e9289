package feishu_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat/claim"
	"github.com/labgpu/bot/internal/chat/feishu"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// BenchmarkCallbackRedisStore is BenchmarkCallback with the dedup claims
// in Redis (REDIS_URL, default redis://127.0.0.1:6379/0): claims=store is
// the store itself as Options.Dedup (ClaimAlert, SET NX "1"), as before
// owner tokens; claims=deduper is a StoreDeduper over it (SET NX with the
// owner token, the fallback window), as `bot serve` wires it. Event ids
// never repeat (eventMaker's restart at 0 for every b.N makes most events
// of a later run duplicates, and a duplicate costs the deduper a GET).
// Skipped without a Redis server.
func BenchmarkCallbackRedisStore(b *testing.B) {
	f := newFake(b)
	gen := uniqueEvents(b)
	raw := os.Getenv("REDIS_URL")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	st, err := redisstore.Open(ctx, raw, fmt.Sprintf("labgpu-bench:%d:", time.Now().UnixNano()))
	if err != nil {
		b.Skipf("no Redis: %v", err)
	}
	defer st.Close()
	for _, claims := range []string{"store", "deduper"} {
		for _, conc := range benchConcurrency {
			b.Run(fmt.Sprintf("claims=%s/conc=%d", claims, conc), func(b *testing.B) {
				opts := baseOptions(f, noopHandler{}, nil)
				opts.QueueSize = 1 << 16
				opts.Dedup = st
				if claims == "deduper" {
					d := claim.NewStoreDeduper(st, claim.StoreDeduperOptions{})
					defer d.Close()
					opts.Dedup = d
				}
				bot, err := feishu.New(context.Background(), opts)
				if err != nil {
					b.Fatal(err)
				}
				defer bot.Close()
				srv := httptest.NewServer(bot.HTTPHandler())
				defer srv.Close()
				benchHTTP(b, srv.URL+"/feishu/events", conc, gen)
			})
		}
	}
	// The claims expire after feishu.DedupTTL; delete them now.
	iter := st.Client().Scan(context.Background(), 0, st.Prefix()+"*", 1000).Iterator()
	for iter.Next(context.Background()) {
		st.Client().Del(context.Background(), iter.Val())
	}
}

// uniqueEvents is eventMaker whose ids never repeat within the benchmark.
func uniqueEvents(tb testing.TB) func(int) delivery {
	gen := eventMaker(tb)
	var next atomic.Int64
	return func(int) delivery { return gen(int(next.Add(1))) }
}

// BenchmarkCallbackStoreDeduperEmbedded is BenchmarkCallbackEmbeddedStore
// through a StoreDeduper, as `bot serve` wires the embedded store.
func BenchmarkCallbackStoreDeduperEmbedded(b *testing.B) {
	f := newFake(b)
	gen := eventMaker(b)
	for _, conc := range benchConcurrency {
		b.Run(fmt.Sprintf("conc=%d", conc), func(b *testing.B) {
			st, err := embedded.Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			d := claim.NewStoreDeduper(st, claim.StoreDeduperOptions{})
			defer d.Close()
			opts := baseOptions(f, noopHandler{}, nil)
			opts.QueueSize = 1 << 16
			opts.Dedup = d
			bot, err := feishu.New(context.Background(), opts)
			if err != nil {
				b.Fatal(err)
			}
			defer bot.Close()
			srv := httptest.NewServer(bot.HTTPHandler())
			defer srv.Close()
			benchHTTP(b, srv.URL+"/feishu/events", conc, gen)
		})
	}
}
