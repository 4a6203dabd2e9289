package commands_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/vastai"
)

// vastFake is vast.ai's API on loopback: one RTX 4090 bundle at price
// USD per hour, a 502 (fail), or a request accepted and never answered
// until answer is called (hang).
type vastFake struct {
	srv      *httptest.Server
	mode     atomic.Value
	price    atomic.Value // string, USD per bundle-hour
	requests atomic.Int64
	mu       sync.Mutex
	release  chan struct{}
}

func newVastFake(t *testing.T) *vastFake {
	f := &vastFake{release: make(chan struct{})}
	f.mode.Store("ok")
	f.price.Store("0.30")
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		// Read the query: only then does the server notice a client
		// that gave up (r.Context ends).
		_, _ = io.Copy(io.Discard, r.Body)
		switch f.mode.Load().(string) {
		case "fail":
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		case "hang":
			f.mu.Lock()
			rel := f.release
			f.mu.Unlock()
			select {
			case <-rel:
			case <-r.Context().Done():
				return
			case <-time.After(30 * time.Second):
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"offers":[{"gpu_name":"RTX 4090","num_gpus":1,"dph_total":%s,"rentable":true}]}`, f.price.Load())
	}))
	t.Cleanup(func() { f.answer(); f.srv.Close() })
	return f
}

func (f *vastFake) answer() {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.release:
	default:
		close(f.release)
	}
}

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// lateRouter is a router over the catalog's list prices and vast.ai on
// f, fetched once at the clock's start; the clock then runs 8 minutes on,
// so the next question fetches vast.ai again.
func lateRouter(t *testing.T, f *vastFake, breaker stock.BreakerOptions) (*commands.Router, *stock.Board, *testClock) {
	t.Helper()
	cat := testCatalog(t)
	c := &testClock{t: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	vast := vastai.New(cat, vastai.Options{Options: httpx.Options{BaseURL: f.srv.URL, Timeout: time.Minute, Now: c.now}, FXUSDCNY: 7.2})
	b := stock.NewBoard([]stock.Provider{provider.NewCatalog(cat, provider.CatalogOptions{Now: c.now}), vast},
		stock.BoardOptions{Now: c.now, MaxAge: time.Minute, Timeout: time.Minute, Budget: 200 * time.Millisecond, Breaker: breaker, Log: log})
	t.Cleanup(b.Close)
	if ps := b.Refresh(context.Background()); len(ps.Offers()) == 0 {
		t.Fatal("no offers at the first fetch")
	}
	c.add(8 * time.Minute)
	return commands.NewRouter(cat, b, commands.WithClock(c.now)), b, c
}

// TestAnswerWhilePlatformLate: a question asked while vast.ai hangs is
// answered from its last snapshot within the budget, in the asker's
// language, naming vast.ai as late and the age of its figures; the
// answer it gives later, once vast.ai answered, has the fresh figure and
// no such line. A question answered with every platform on time has no
// later answer.
func TestAnswerWhilePlatformLate(t *testing.T) {
	cases := []struct {
		question string
		late     string
		intent   string
	}{
		{"哪家有4090", "⚠ vast.ai 还没回应，先用8 分钟前的数据。", commands.IntentStock},
		{"which platform has a 4090 right now", "⚠ vast.ai has not answered yet; showing its data from 8 min ago.", commands.IntentStock},
		{"7B LoRA 在4090上要多少钱", "⚠ vast.ai 还没回应，先用8 分钟前的数据。", commands.IntentEstimate},
	}
	for _, c := range cases {
		t.Run(c.question, func(t *testing.T) {
			f := newVastFake(t)
			r, _, _ := lateRouter(t, f, stock.BreakerOptions{})
			f.mode.Store("hang")
			f.price.Store("0.20")
			msg := chat.Message{Channel: "feishu", ChatID: "oc_1", SenderID: "ou_1", ChatType: chat.Group, Text: c.question}
			start := time.Now()
			rep, later := r.HandleUpdatable(context.Background(), msg)
			if time.Since(start) > 10*time.Second {
				t.Fatal("the answer waited for the hung platform")
			}
			text := chat.PlainText(rep)
			if !strings.Contains(text, c.late) {
				t.Fatalf("answer lacks %q:\n%s", c.late, text)
			}
			if strings.Contains(text, "获取失败") || strings.Contains(text, "failed just now") {
				t.Errorf("a late platform is not a failed one:\n%s", text)
			}
			if later == nil {
				t.Fatal("no later answer for a late platform")
			}
			f.answer()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			fresh, ok := later(ctx)
			if !ok {
				t.Fatal("the later answer did not come")
			}
			ft := chat.PlainText(fresh)
			if strings.Contains(ft, "还没回应") || strings.Contains(ft, "not answered yet") {
				t.Errorf("the later answer still calls vast.ai late:\n%s", ft)
			}
			if c.intent == commands.IntentStock && !strings.Contains(ft, "1.44") {
				t.Errorf("the later answer lacks vast.ai's fresh price (0.20 USD = 1.44 CNY):\n%s", ft)
			}
			if n := f.requests.Load(); n != 2 {
				t.Errorf("vast.ai saw %d requests, want 2 (the first fetch and one while late)", n)
			}
			// Every platform on time: nothing later.
			if _, later := r.HandleUpdatable(context.Background(), msg); later != nil {
				t.Error("a later answer with every platform on time")
			}
		})
	}
}

// TestAnswerWhileBreakerOpen: with vast.ai's breaker open the answer is
// immediate, from the last snapshot, says vast.ai cannot be reached and
// how old its figures are, and promises nothing later.
func TestAnswerWhileBreakerOpen(t *testing.T) {
	cases := []struct{ question, want string }{
		{"哪家有4090", "⚠ vast.ai 暂时连不上，用的是8 分钟前的数据。"},
		{"which platform has a 4090 right now", "⚠ vast.ai cannot be reached for now; showing its data from 8 min ago."},
	}
	for _, c := range cases {
		t.Run(c.question, func(t *testing.T) {
			f := newVastFake(t)
			r, b, _ := lateRouter(t, f, stock.BreakerOptions{Failures: 2, OpenFor: time.Hour})
			f.mode.Store("fail")
			b.Refresh(context.Background())
			b.Refresh(context.Background())
			n := f.requests.Load()
			rep, later := r.HandleUpdatable(context.Background(), chat.Message{Channel: "feishu", ChatID: "oc_1", SenderID: "ou_1", Text: c.question})
			text := chat.PlainText(rep)
			if !strings.Contains(text, c.want) {
				t.Fatalf("answer lacks %q:\n%s", c.want, text)
			}
			if strings.Count(text, "vast.ai") > 1+strings.Count(text, "vast.ai ") && strings.Contains(text, "获取失败") {
				t.Errorf("vast.ai named twice:\n%s", text)
			}
			if later != nil {
				t.Error("a later answer while nothing is being fetched")
			}
			if f.requests.Load() != n {
				t.Error("a request went to vast.ai while its breaker was open")
			}
		})
	}
}
