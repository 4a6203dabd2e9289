package feishu_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/feishu"
	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
	"github.com/labgpu/bot/internal/store/embedded"
)

// noopHandler answers nothing, so the benchmark measures the callback and
// the workers' gating and dedup, not sending.
type noopHandler struct{}

func (noopHandler) Handle(context.Context, chat.Message) chat.Reply { return chat.Reply{} }

// eventMaker returns a generator of distinct signed, encrypted group
// events (@bot, from the fixture) with fresh timestamps.
func eventMaker(tb testing.TB) func(i int) delivery {
	ev := groupEvent(tb, "EVENTID", "MSGID", "", nil)
	tmpl := mustJSON(ev)
	run := time.Now().UnixNano()
	return func(i int) delivery {
		id := fmt.Sprintf("%x-%d", run, i)
		plain := strings.Replace(strings.Replace(tmpl, "EVENTID", "ev-"+id, 1), "MSGID", "om-"+id, 1)
		return signedDelivery(encrypt([]byte(plain), encryptKey), time.Now(), encryptKey)
	}
}

// benchHTTP posts b.N deliveries to url from conc goroutines over
// keep-alive connections and reports events/s and the p99 latency of the
// acknowledgement, and returns the events/s. Deliveries are made in chunks
// with the timer stopped.
func benchHTTP(b *testing.B, url string, conc int, gen func(i int) delivery) float64 {
	client := benchClient(conc)
	defer client.CloseIdleConnections()
	lat := make([]time.Duration, 0, b.N)
	const chunk = 2048
	b.ResetTimer()
	for start := 0; start < b.N; start += chunk {
		b.StopTimer()
		ds := makeDeliveries(min(chunk, b.N-start), gen)
		b.StartTimer()
		_, l, err := postAll(client, url, conc, ds)
		if err != nil {
			b.Fatalf("delivery failed: %v", err)
		}
		lat = append(lat, l...)
	}
	b.StopTimer()
	rate := float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(p99ms(lat), "p99-ms")
	return rate
}

// benchClient is an HTTP client with conc keep-alive connections to one
// host.
func benchClient(conc int) *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc}}
}

// makeDeliveries makes n deliveries with gen.
func makeDeliveries(n int, gen func(i int) delivery) []delivery {
	ds := make([]delivery, n)
	for i := range ds {
		ds[i] = gen(i)
	}
	return ds
}

// postAll posts ds with feishutest.PostAll.
func postAll(client *http.Client, url string, conc int, ds []delivery) (time.Duration, []time.Duration, error) {
	fd := make([]feishutest.Delivery, len(ds))
	for i, d := range ds {
		fd[i] = feishutest.Delivery{Body: d.body, Header: d.header}
	}
	return feishutest.PostAll(context.Background(), client, url, conc, fd)
}

// p99ms is the 99th percentile of lat in milliseconds.
func p99ms(lat []time.Duration) float64 {
	if len(lat) == 0 {
		return 0
	}
	slices.Sort(lat)
	return float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds()) / 1000
}

var benchConcurrency = []int{1, 8}

// BenchmarkCallback: signed, encrypted events through HTTPHandler on a
// loopback server (verify timestamp, decrypt, verify signature, check the
// token, claim event_id in a MemoryDeduper, enqueue), with the workers
// gating, claiming message_id and calling a no-op Handler alongside.
func BenchmarkCallback(b *testing.B) {
	f := newFake(b)
	gen := eventMaker(b)
	for _, conc := range benchConcurrency {
		b.Run(fmt.Sprintf("conc=%d", conc), func(b *testing.B) {
			opts := baseOptions(f, noopHandler{}, nil)
			opts.QueueSize = 1 << 16
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

// BenchmarkCallbackEmbeddedStore is BenchmarkCallback with the dedup
// claims in the embedded store, as `bot serve` runs by default.
func BenchmarkCallbackEmbeddedStore(b *testing.B) {
	f := newFake(b)
	gen := eventMaker(b)
	for _, conc := range benchConcurrency {
		b.Run(fmt.Sprintf("conc=%d", conc), func(b *testing.B) {
			st, err := embedded.Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			opts := baseOptions(f, noopHandler{}, nil)
			opts.QueueSize = 1 << 16
			opts.Dedup = st
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

// BenchmarkBareHandler: the same payloads to a net/http handler that only
// reads the body and answers 200, for comparison.
func BenchmarkBareHandler(b *testing.B) {
	gen := eventMaker(b)
	for _, conc := range benchConcurrency {
		b.Run(fmt.Sprintf("conc=%d", conc), func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"msg":"success"}`))
			}))
			defer srv.Close()
			benchHTTP(b, srv.URL, conc, gen)
		})
	}
}
