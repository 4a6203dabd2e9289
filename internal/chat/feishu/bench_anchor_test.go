package feishu_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	larkcore "github.com/larksuite/oapi-sdk-go/v3/core"
	"github.com/larksuite/oapi-sdk-go/v3/core/httpserverext"
	larkevent "github.com/larksuite/oapi-sdk-go/v3/event"
	"github.com/larksuite/oapi-sdk-go/v3/event/dispatcher"
	larkim "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"

	"github.com/labgpu/bot/internal/chat/feishu"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// anchorConc is the number of connections of BenchmarkCallbackVsSDK
// (issue 19: every event new, 32 connections).
const anchorConc = 32

// BenchmarkCallbackVsSDK measures, in turn and in one run, the anchor and
// the bot's callback with every event new over anchorConc connections:
// sdk is oapi-sdk-go's own dispatcher.NewEventDispatcher(token, key)
// with OnP2MessageReceiveV1 behind httpserverext.NewEventHandlerFunc, its
// handler only enqueueing (a goroutine drains the queue); embedded and
// redis are the bot's HTTPHandler with a StoreDeduper over the embedded
// store or Redis (REDIS_URL; skipped without a server), as `bot serve`
// wires them. Each bot sub-benchmark reports x-sdk: its events/s over
// those of the sdk sub-benchmark run just before it. Run it with a fixed
// count, e.g. -benchtime=20000x.
func BenchmarkCallbackVsSDK(b *testing.B) {
	f := newFake(b)
	gen := uniqueEvents(b)
	var sdkRate float64
	b.Run("sdk", func(b *testing.B) {
		q := make(chan *larkim.P2MessageReceiveV1, 1<<16)
		done := make(chan struct{})
		go func() {
			for range q {
			}
			close(done)
		}()
		d := dispatcher.NewEventDispatcher(verifyToken, encryptKey).OnP2MessageReceiveV1(
			func(_ context.Context, ev *larkim.P2MessageReceiveV1) error {
				q <- ev
				return nil
			})
		srv := httptest.NewServer(http.HandlerFunc(httpserverext.NewEventHandlerFunc(d, larkevent.WithLogLevel(larkcore.LogLevelWarn))))
		defer srv.Close()
		sdkRate = benchHTTP(b, srv.URL, anchorConc, gen)
		close(q)
		<-done
	})
	bot := func(b *testing.B, st feishu.Deduper) {
		d := feishu.NewStoreDeduper(st, feishu.StoreDeduperOptions{})
		defer d.Close()
		opts := baseOptions(f, noopHandler{}, nil)
		opts.QueueSize = 1 << 16
		opts.Dedup = d
		bt, err := feishu.New(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		defer bt.Close()
		srv := httptest.NewServer(bt.HTTPHandler())
		defer srv.Close()
		rate := benchHTTP(b, srv.URL+"/feishu/events", anchorConc, gen)
		if sdkRate > 0 {
			b.ReportMetric(rate/sdkRate, "x-sdk")
		}
	}
	b.Run("embedded", func(b *testing.B) {
		st, err := embedded.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		bot(b, st)
	})
	b.Run("redis", func(b *testing.B) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		st, err := redisstore.Open(ctx, os.Getenv("REDIS_URL"), fmt.Sprintf("labgpu-bench:%d:", time.Now().UnixNano()))
		if err != nil {
			b.Skipf("no Redis: %v", err)
		}
		defer st.Close()
		defer func() {
			iter := st.Client().Scan(context.Background(), 0, st.Prefix()+"*", 1000).Iterator()
			for iter.Next(context.Background()) {
				st.Client().Del(context.Background(), iter.Val())
			}
		}()
		bot(b, st)
	})
}
