package feishu_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/claim"
	"github.com/labgpu/bot/internal/chat/feishu"
	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// anchorConc is the number of connections of BenchmarkCallbackVsSDK
// (issue 19: every event new, 32 connections).
const anchorConc = 32

// BenchmarkCallbackVsSDK measures the bot's callback against the anchor
// with every event new over anchorConc connections. The anchor is
// oapi-sdk-go's own dispatcher.NewEventDispatcher(token, key) with
// OnP2MessageReceiveV1 behind httpserverext.NewEventHandlerFunc, its
// handler only enqueueing (a goroutine drains the queue); the bot is its
// HTTPHandler with a StoreDeduper over the embedded store or Redis
// (REDIS_URL; skipped without a server), as `bot serve` wires them, and
// its workers gating each event and calling a Handler that answers
// nothing.
//
// sdk reports the anchor alone. embedded and redis run the two in turn,
// in rounds of turnRound events (the anchor first in even rounds, the bot
// first in odd ones, so that the machine's drift falls on both), each
// round waiting until the other side's queue is empty and turnPause more;
// they report the
// bot's events/s and p99, the anchor's events/s over the same rounds
// (sdk-events/s) and their ratio (x-sdk). Run it with a fixed count, e.g.
// -benchtime=20000x.
func BenchmarkCallbackVsSDK(b *testing.B) {
	f := newFake(b)
	gen := uniqueEvents(b)
	sdk := startAnchor(b)
	b.Run("sdk", func(b *testing.B) {
		benchHTTP(b, sdk.url, anchorConc, gen)
		sdk.drain(b)
	})
	bot := func(b *testing.B, st feishu.Deduper) {
		d := claim.NewStoreDeduper(st, claim.StoreDeduperOptions{})
		defer d.Close()
		h := &countingHandler{}
		opts := baseOptions(f, h, nil)
		opts.QueueSize = 1 << 16
		opts.Dedup = d
		bt, err := feishu.New(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		defer bt.Close()
		srv := httptest.NewServer(bt.HTTPHandler())
		defer srv.Close()
		inTurn(b, sdk, side{url: srv.URL + "/feishu/events", done: &h.n}, gen)
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

// countingHandler counts the messages it is asked about and answers
// nothing.
type countingHandler struct{ n atomic.Int64 }

func (h *countingHandler) Handle(context.Context, chat.Message) chat.Reply {
	h.n.Add(1)
	return chat.Reply{}
}

// side is one server of BenchmarkCallbackVsSDK: where events go, and the
// count of those its queue has handed on.
type side struct {
	url  string
	done *atomic.Int64
	sent int64
}

// drain waits until every event posted to s has left its queue.
func (s *side) drain(tb testing.TB) {
	deadline := time.Now().Add(30 * time.Second)
	for s.done.Load() < s.sent {
		if time.Now().After(deadline) {
			tb.Fatalf("queue of %s not drained: %d of %d", s.url, s.done.Load(), s.sent)
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// startAnchor serves the SDK-only dispatcher (feishutest.SDKAnchor) until
// the benchmark ends.
func startAnchor(b *testing.B) *side {
	s := &side{done: new(atomic.Int64)}
	srv := httptest.NewServer(feishutest.SDKAnchor(verifyToken, encryptKey, s.done))
	b.Cleanup(srv.Close)
	s.url = srv.URL + "/feishu/events"
	return s
}

// turnRound is the number of events each side takes in one round of
// inTurn; turnPause the rest after each round.
const (
	turnRound = 2000
	turnPause = 20 * time.Millisecond
)

// inTurn posts b.N events to bot and b.N to sdk, alternating rounds, and
// reports the bot's events/s and p99, the anchor's events/s and x-sdk.
// The timer runs only during the bot's rounds.
func inTurn(b *testing.B, sdk *side, bot side, gen func(int) delivery) {
	client := benchClient(anchorConc)
	defer client.CloseIdleConnections()
	sdk.sent = sdk.done.Load()
	var took [2]time.Duration // sdk, bot
	var lat []time.Duration
	b.ResetTimer()
	b.StopTimer()
	for r, posted := 0, 0; posted < b.N; r++ {
		n := min(turnRound, b.N-posted)
		for k := range 2 {
			who := (r + k) % 2 // 0: sdk first in even rounds
			s := []*side{sdk, &bot}[who]
			ds := makeDeliveries(n, gen)
			if who == 1 {
				b.StartTimer()
			}
			t, l, err := postAll(client, s.url, anchorConc, ds)
			if who == 1 {
				b.StopTimer()
				lat = append(lat, l...)
			}
			if err != nil {
				b.Fatalf("delivery failed: %v", err)
			}
			took[who] += t
			s.sent += int64(n)
			s.drain(b)
			// What the round left in the background (the embedded
			// store's write-behind commit, its sweep) finishes before the
			// other side's round.
			time.Sleep(turnPause)
		}
		posted += n
	}
	botRate := float64(b.N) / took[1].Seconds()
	sdkRate := float64(b.N) / took[0].Seconds()
	b.ReportMetric(botRate, "events/s")
	b.ReportMetric(p99ms(lat), "p99-ms")
	b.ReportMetric(sdkRate, "sdk-events/s")
	b.ReportMetric(botRate/sdkRate, "x-sdk")
}
