package stock_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/vastai"
)

// platform is a vast.ai API on loopback that answers one RTX 4090 offer,
// fails with a 502, or accepts the request and never answers (until the
// client gives up or release is called), counting requests and the most
// it had in flight at once.
type platform struct {
	srv      *httptest.Server
	mode     atomic.Value // "ok", "fail" or "hang"
	requests atomic.Int64
	inFlight atomic.Int64
	maxIn    atomic.Int64
	mu       sync.Mutex
	release  chan struct{}
}

func newPlatform(t *testing.T) *platform {
	p := &platform{release: make(chan struct{})}
	p.mode.Store("ok")
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		// Read the query: only then does the server notice a client
		// that gave up (r.Context ends).
		_, _ = io.Copy(io.Discard, r.Body)
		n := p.inFlight.Add(1)
		defer p.inFlight.Add(-1)
		for m := p.maxIn.Load(); n > m && !p.maxIn.CompareAndSwap(m, n); m = p.maxIn.Load() {
		}
		switch p.mode.Load().(string) {
		case "fail":
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		case "hang":
			p.mu.Lock()
			release := p.release
			p.mu.Unlock()
			select {
			case <-release:
			case <-r.Context().Done():
				return
			case <-time.After(30 * time.Second):
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"offers":[{"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.3}]}`)
	}))
	t.Cleanup(func() {
		p.answer()
		p.srv.Close()
	})
	return p
}

// answer ends every hanging request with the offer.
func (p *platform) answer() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.release:
	default:
		close(p.release)
	}
}

func (p *platform) provider() stock.Provider {
	return vastai.New(nil, vastai.Options{Options: httpx.Options{BaseURL: p.srv.URL, Timeout: time.Minute}, FXUSDCNY: 7.2})
}

// clock is a settable clock for the board's decisions (ages, MaxAge).
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// noHang bounds a wait that must not be the platform's hang (30 s): a
// generous bound that proves "did not wait for it", not a timing.
const noHang = 10 * time.Second

func quietLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

// TestOneFetchSharedWhilePlatformHangs: with vast.ai accepting requests
// and never answering, N questions and the poller at once share one fetch
// (the platform sees one request, never two at a time); every question
// is answered from the last snapshot within the budget, the platform
// named late and its offers marked stale with their age; once the
// platform answers, each question's Pending ends and the next snapshot is
// fresh.
func TestOneFetchSharedWhilePlatformHangs(t *testing.T) {
	for _, questions := range []int{1, 6, 20} {
		t.Run(fmt.Sprintf("%d questions and the poller", questions), func(t *testing.T) {
			plat := newPlatform(t)
			c := &clock{t: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
			b := stock.NewBoard([]stock.Provider{plat.provider()}, stock.BoardOptions{Now: c.now, MaxAge: time.Minute,
				Timeout: time.Minute, Budget: 200 * time.Millisecond, Log: quietLog()})
			t.Cleanup(b.Close)
			if ps := status(b.Refresh(context.Background()), "vastai"); ps.Status != stock.StatusOK {
				t.Fatalf("first fetch: %+v", ps)
			}
			fetched := c.now()
			c.add(8 * time.Minute)
			plat.mode.Store("hang")
			before := plat.requests.Load()

			polled := make(chan stock.Snapshot, 1)
			go func() { polled <- b.Refresh(context.Background()) }()
			var wg sync.WaitGroup
			pends := make([]*stock.Pending, questions)
			snaps := make([]stock.Snapshot, questions)
			start := time.Now()
			for i := range questions {
				wg.Go(func() {
					ctx, p := stock.WithPending(context.Background())
					pends[i], snaps[i] = p, b.Snapshot(ctx)
				})
			}
			wg.Wait()
			if took := time.Since(start); took > noHang {
				t.Fatalf("questions took %v: they waited for the hung platform", took)
			}
			for i, s := range snaps {
				ps := status(s, "vastai")
				if !ps.Late || len(ps.Offers) != 1 || !ps.Offers[0].Stale || !ps.FetchedAt.Equal(fetched) {
					t.Fatalf("question %d: %+v; want the last offers, stale, from %v, marked late", i, ps, fetched)
				}
				if got := pends[i].Providers(); len(got) != 1 || got[0].Provider != "vastai" || !pends[i].Late() {
					t.Fatalf("question %d pending %+v", i, got)
				}
			}
			if n := plat.requests.Load() - before; n != 1 {
				t.Errorf("the platform saw %d requests for %d questions and a poll, want 1", n, questions)
			}
			plat.answer()
			select {
			case s := <-polled:
				if ps := status(s, "vastai"); ps.Status != stock.StatusOK || ps.Late || !ps.FetchedAt.Equal(c.now()) {
					t.Errorf("the poll after the platform answered: %+v", ps)
				}
			case <-time.After(noHang):
				t.Fatal("the poll did not end when the platform answered")
			}
			for i, p := range pends {
				ctx, cancel := context.WithTimeout(context.Background(), noHang)
				if err := p.Wait(ctx); err != nil {
					t.Errorf("question %d: the late fetch never ended: %v", i, err)
				}
				cancel()
			}
			if ps := status(b.Snapshot(context.Background()), "vastai"); ps.Late || ps.Status != stock.StatusOK {
				t.Errorf("after the answer: %+v", ps)
			}
			if n := plat.requests.Load() - before; n != 1 {
				t.Errorf("the platform saw %d requests, want 1", n)
			}
			if m := plat.maxIn.Load(); m != 1 {
				t.Errorf("%d requests at once, want 1", m)
			}
		})
	}
}

// TestLateWithoutEarlierData: a platform never fetched and hanging is
// named late with nothing to show, not left out.
func TestLateWithoutEarlierData(t *testing.T) {
	plat := newPlatform(t)
	plat.mode.Store("hang")
	good := &scripted{name: "autodl"}
	good.set(offers(2))
	b := stock.NewBoard([]stock.Provider{good, plat.provider()}, stock.BoardOptions{Timeout: time.Minute, Budget: 100 * time.Millisecond, Log: quietLog()})
	t.Cleanup(b.Close)
	ctx, pend := stock.WithPending(context.Background())
	s := b.Snapshot(ctx)
	if ps := status(s, "vastai"); !ps.Late || ps.Status != stock.StatusError || len(ps.Offers) != 0 {
		t.Errorf("vastai %+v, want late without offers", ps)
	}
	if ps := status(s, "autodl"); ps.Status != stock.StatusOK || ps.Late {
		t.Errorf("autodl %+v, want answered", ps)
	}
	if !pend.Late() {
		t.Error("pending does not know of the late fetch")
	}
}

// TestBreaker: consecutive failed fetches open a platform's breaker;
// while open, neither the poller nor a question makes a request and the
// answer names the breaker; after OpenFor one trial fetch goes out
// (half-open): an answer closes the breaker, a failure opens it again.
// gobreaker keeps its own time, so OpenFor is short and the test waits
// for the state (generously bounded), never asserting a duration.
func TestBreaker(t *testing.T) {
	cases := []struct {
		name  string
		trial string
		want  stock.BreakerState
	}{
		{"the trial fetch is answered: closed", "ok", ""},
		{"the trial fetch fails: open again", "fail", stock.BreakerOpen},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plat := newPlatform(t)
			c := &clock{t: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
			const openFor = 100 * time.Millisecond
			b := stock.NewBoard([]stock.Provider{plat.provider()}, stock.BoardOptions{Now: c.now, MaxAge: time.Minute, Timeout: 5 * time.Second,
				Budget: time.Second, Breaker: stock.BreakerOptions{Failures: 3, OpenFor: openFor}, Log: quietLog()})
			t.Cleanup(b.Close)
			b.Refresh(context.Background())
			plat.mode.Store("fail")
			for i := 1; i <= 3; i++ {
				ps := status(b.Refresh(context.Background()), "vastai")
				want := stock.BreakerState("")
				if i == 3 {
					want = stock.BreakerOpen
				}
				if ps.Breaker != want || ps.Status != stock.StatusStale {
					t.Fatalf("after failure %d: breaker %q status %s, want %q stale", i, ps.Breaker, ps.Status, want)
				}
			}
			n := plat.requests.Load()
			c.add(5 * time.Minute)
			b.Refresh(context.Background())
			ctx, pend := stock.WithPending(context.Background())
			ps := status(b.Snapshot(ctx), "vastai")
			if got := plat.requests.Load(); got != n {
				t.Errorf("%d requests while the breaker was open", got-n)
			}
			if ps.Breaker != stock.BreakerOpen || len(ps.Offers) != 1 || !ps.Offers[0].Stale || pend.Late() {
				t.Errorf("answer while open: %+v, late %v; want the last offers, stale, breaker open, nothing pending", ps, pend.Late())
			}
			if got := pend.Providers(); len(got) != 1 || got[0].Breaker != stock.BreakerOpen {
				t.Errorf("pending %+v, want vastai open", got)
			}
			deadline := time.Now().Add(noHang)
			for status(b.Health(), "vastai").Breaker != stock.BreakerHalfOpen {
				if time.Now().After(deadline) {
					t.Fatal("the breaker never half-opened")
				}
				time.Sleep(openFor / 4)
			}
			plat.mode.Store(tc.trial)
			ps = status(b.Refresh(context.Background()), "vastai")
			if got := plat.requests.Load() - n; got != 1 {
				t.Errorf("the trial made %d requests, want 1", got)
			}
			if ps.Breaker != tc.want {
				t.Errorf("after the trial: breaker %q, want %q", ps.Breaker, tc.want)
			}
			if tc.trial == "ok" && (ps.Status != stock.StatusOK || ps.Offers[0].Stale) {
				t.Errorf("after a good trial: %+v", ps)
			}
		})
	}
}

// TestBreakerIgnoresAnswers: rejected credentials and empty answers are
// the platform answering; they never open the breaker.
func TestBreakerIgnoresAnswers(t *testing.T) {
	for _, err := range []error{stock.ErrUnauthorized, stock.ErrEmpty, stock.ErrBadResponse} {
		p := &scripted{name: "p", fn: func(context.Context) ([]stock.Offer, error) { return nil, fmt.Errorf("p: %w", err) }}
		b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Breaker: stock.BreakerOptions{Failures: 2}, Log: quietLog()})
		for range 4 {
			b.Refresh(context.Background())
		}
		if ps := status(b.Health(), "p"); ps.Breaker != "" {
			t.Errorf("%v: breaker %q after 4 answers", err, ps.Breaker)
		}
		b.Close()
	}
}
