package stock_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/vastai"
)

// scripted is a provider whose answers a test sets.
type scripted struct {
	name string
	mu   sync.Mutex
	fn   func(ctx context.Context) ([]stock.Offer, error)
}

func (s *scripted) Name() string { return s.name }
func (s *scripted) Fetch(ctx context.Context) ([]stock.Offer, error) {
	s.mu.Lock()
	fn := s.fn
	s.mu.Unlock()
	return fn(ctx)
}
func (s *scripted) set(fn func(ctx context.Context) ([]stock.Offer, error)) {
	s.mu.Lock()
	s.fn = fn
	s.mu.Unlock()
}

// memStore is an in-memory stock.SnapshotStore.
type memStore struct {
	mu sync.Mutex
	m  map[string]stock.ProviderSnapshot
}

func (m *memStore) SaveProviderSnapshot(_ context.Context, ps stock.ProviderSnapshot) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[ps.Provider] = ps
	return nil
}
func (m *memStore) LoadProviderSnapshots(context.Context) ([]stock.ProviderSnapshot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []stock.ProviderSnapshot
	for _, v := range m.m {
		out = append(out, v)
	}
	return out, nil
}

func offers(price float64) func(context.Context) ([]stock.Offer, error) {
	return func(context.Context) ([]stock.Offer, error) {
		return []stock.Offer{{Platform: "autodl", GPU: "RTX 4090", CNYPerGPUHour: price, Free: stock.IntPtr(2), Source: stock.SourceLive}}, nil
	}
}

func status(s stock.Snapshot, name string) stock.ProviderSnapshot {
	for _, p := range s.Providers {
		if p.Provider == name {
			return p
		}
	}
	return stock.ProviderSnapshot{}
}

func TestBoardStaleAndFailures(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	p := &scripted{name: "autodl"}
	p.set(offers(2.18))
	st := &memStore{m: map[string]stock.ProviderSnapshot{}}
	b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Now: clock, Store: st, Timeout: time.Second})

	s := b.Refresh(context.Background())
	if ps := status(s, "autodl"); ps.Status != stock.StatusOK || len(ps.Offers) != 1 || !ps.FetchedAt.Equal(now) {
		t.Fatalf("first fetch: %+v", ps)
	}
	fetched := now
	now = now.Add(5 * time.Minute)
	p.set(func(context.Context) ([]stock.Offer, error) { return nil, errors.New("autodl: HTTP 500") })
	for i := 1; i <= 3; i++ {
		s = b.Refresh(context.Background())
		ps := status(s, "autodl")
		if ps.Status != stock.StatusStale || len(ps.Offers) != 1 || !ps.FetchedAt.Equal(fetched) || ps.Failures != i || ps.Err == "" {
			t.Fatalf("failure %d: %+v; want stale offers from the last success and a failure count", i, ps)
		}
	}
	// The store keeps the failure with the last good offers, so the next
	// process knows the provider is failing and how old the offers are.
	saved, _ := st.LoadProviderSnapshots(context.Background())
	if len(saved) != 1 || saved[0].Status != stock.StatusStale || len(saved[0].Offers) != 1 || !saved[0].FetchedAt.Equal(fetched) {
		t.Errorf("stored %+v", saved)
	}
	for _, o := range s.Offers() {
		if !o.Stale {
			t.Errorf("offer of a stale provider not marked stale: %+v", o)
		}
	}
	p.set(offers(1.98))
	s = b.Refresh(context.Background())
	if ps := status(s, "autodl"); ps.Status != stock.StatusOK || ps.Failures != 0 || ps.Offers[0].CNYPerGPUHour != 1.98 {
		t.Errorf("after recovery: %+v", ps)
	}
}

func TestBoardNeverFetchedIsError(t *testing.T) {
	p := &scripted{name: "vastai"}
	p.set(func(context.Context) ([]stock.Offer, error) { return nil, errors.New("boom") })
	b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{})
	if ps := status(b.Refresh(context.Background()), "vastai"); ps.Status != stock.StatusError || len(ps.Offers) != 0 {
		t.Errorf("%+v", ps)
	}
}

func TestBoardNotConfigured(t *testing.T) {
	p := &scripted{name: "autodl"}
	p.set(func(context.Context) ([]stock.Offer, error) {
		return nil, fmt.Errorf("autodl: no token: %w", stock.ErrNotConfigured)
	})
	b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{})
	if ps := status(b.Refresh(context.Background()), "autodl"); ps.Status != stock.StatusNotConfigured {
		t.Errorf("%+v, want not_configured", ps)
	}
}

// TestBoardTimeoutAndPanic: a hanging provider is cut off by the timeout
// and a panicking one is recovered; the healthy one still answers.
func TestBoardTimeoutAndPanic(t *testing.T) {
	hang := &scripted{name: "hang"}
	hang.set(func(ctx context.Context) ([]stock.Offer, error) { <-ctx.Done(); return nil, ctx.Err() })
	bad := &scripted{name: "bad"}
	bad.set(func(context.Context) ([]stock.Offer, error) { panic("parser bug") })
	good := &scripted{name: "good"}
	good.set(offers(2))
	b := stock.NewBoard([]stock.Provider{hang, bad, good}, stock.BoardOptions{Timeout: 50 * time.Millisecond})
	start := time.Now()
	s := b.Refresh(context.Background())
	if time.Since(start) > 5*time.Second {
		t.Fatal("refresh did not respect the timeout")
	}
	if status(s, "hang").Status != stock.StatusError || status(s, "bad").Status != stock.StatusError || status(s, "good").Status != stock.StatusOK {
		t.Errorf("%+v", s.Providers)
	}
}

// TestBoardSnapshotRefreshesWhenOld: Snapshot serves cached data while it is
// younger than MaxAge and refreshes after.
func TestBoardSnapshotRefreshesWhenOld(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	calls := 0
	p := &scripted{name: "p"}
	p.set(func(context.Context) ([]stock.Offer, error) { calls++; return nil, nil })
	b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Now: func() time.Time { return now }, MaxAge: time.Minute})
	b.Snapshot(context.Background())
	b.Snapshot(context.Background())
	if calls != 1 {
		t.Fatalf("calls %d after two quick snapshots, want 1", calls)
	}
	now = now.Add(2 * time.Minute)
	b.Snapshot(context.Background())
	if calls != 2 {
		t.Fatalf("calls %d after MaxAge, want 2", calls)
	}
}

// TestBoardDropsImpossiblePrices: a price of 7.2e9 CNY/GPU-hour (a unit
// error or a corrupt recording) is dropped and reported, the rest kept.
func TestBoardDropsImpossiblePrices(t *testing.T) {
	p := &scripted{name: "p"}
	p.set(func(context.Context) ([]stock.Offer, error) {
		return []stock.Offer{{GPU: "RTX 4090", CNYPerGPUHour: 2}, {GPU: "RTX 4090", CNYPerGPUHour: 7.2e9}, {GPU: "RTX 3090", CNYPerGPUHour: -1}}, nil
	})
	b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{})
	ps := status(b.Refresh(context.Background()), "p")
	if ps.Status != stock.StatusOK || len(ps.Offers) != 1 || ps.Err == "" {
		t.Errorf("%+v", ps)
	}
}

// idProvider has an identity, like the replay provider's directory.
type idProvider struct {
	scripted
	id string
}

func (p *idProvider) Identity() string { return p.id }

// TestRestoreSkipsOtherIdentity: a snapshot stored for another replay
// directory is not restored.
func TestRestoreSkipsOtherIdentity(t *testing.T) {
	st := &memStore{m: map[string]stock.ProviderSnapshot{}}
	a := &idProvider{scripted: scripted{name: "replay"}, id: "replay:/a"}
	a.set(offers(2))
	stock.NewBoard([]stock.Provider{a}, stock.BoardOptions{Store: st}).Refresh(context.Background())
	b := &idProvider{scripted: scripted{name: "replay"}, id: "replay:/b"}
	board := stock.NewBoard([]stock.Provider{b}, stock.BoardOptions{Store: st, MaxAge: -1})
	if err := board.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := board.Snapshot(context.Background()); len(got.Providers) != 0 {
		t.Errorf("restored %+v from another directory", got.Providers)
	}
}

// TestBoardRetries: a transient failure is retried within the timeout; a
// rejected credential is not.
func TestBoardRetries(t *testing.T) {
	calls := 0
	p := &scripted{name: "p"}
	p.set(func(context.Context) ([]stock.Offer, error) {
		calls++
		if calls < 3 {
			return nil, fmt.Errorf("p: HTTP 502: %w", stock.ErrServer)
		}
		return []stock.Offer{{GPU: "RTX 4090", CNYPerGPUHour: 2, Free: stock.IntPtr(1)}}, nil
	})
	b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Retries: 2, Backoff: time.Millisecond})
	if ps := status(b.Refresh(context.Background()), "p"); ps.Status != stock.StatusOK || calls != 3 {
		t.Errorf("after %d calls: %+v", calls, ps)
	}
	calls = 0
	p.set(func(context.Context) ([]stock.Offer, error) {
		calls++
		return nil, fmt.Errorf("p: token rejected: %w", stock.ErrUnauthorized)
	})
	b = stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Retries: 2, Backoff: time.Millisecond})
	b.Refresh(context.Background())
	if calls != 1 {
		t.Errorf("rejected credentials tried %d times, want 1", calls)
	}
}

// TestBoardHonoursRetryAfter: a 429's Retry-After is waited out before the
// next try, and one longer than the fetch's timeout ends the retries at
// once instead of hammering the platform.
func TestBoardHonoursRetryAfter(t *testing.T) {
	cases := []struct {
		name       string
		retryAfter string
		timeout    time.Duration
		requests   int
		ok         bool
		minGap     time.Duration
	}{
		{"Retry-After 1 s, then served", "1", 5 * time.Second, 2, true, 900 * time.Millisecond},
		{"Retry-After 12 s outlasts a 2 s timeout", "12", 2 * time.Second, 1, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var times []time.Time
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				times = append(times, time.Now())
				n := len(times)
				mu.Unlock()
				if n == 1 {
					w.Header().Set("Retry-After", c.retryAfter)
					w.WriteHeader(http.StatusTooManyRequests)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				// One offer: an empty search of every GPU is unknown.
				fmt.Fprint(w, `{"offers":[{"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.3}]}`)
			}))
			defer srv.Close()
			p := vastai.New(nil, vastai.Options{Options: httpx.Options{BaseURL: srv.URL}, FXUSDCNY: 7.2})
			b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Timeout: c.timeout, Retries: 2, Backoff: 10 * time.Millisecond, Log: slog.New(slog.DiscardHandler)})
			snap := b.Refresh(context.Background())
			mu.Lock()
			defer mu.Unlock()
			if len(times) != c.requests || (snap.Providers[0].Status == stock.StatusOK) != c.ok {
				t.Fatalf("%d requests, status %s; want %d, ok %v", len(times), snap.Providers[0].Status, c.requests, c.ok)
			}
			if len(times) > 1 && times[1].Sub(times[0]) < c.minGap {
				t.Errorf("retried after %v, before the Retry-After", times[1].Sub(times[0]))
			}
			if !c.ok && snap.Providers[0].Reason != stock.ReasonRateLimited {
				t.Errorf("reason %q, want rate_limited", snap.Providers[0].Reason)
			}
		})
	}
}

// TestBoardTimeoutWhileRetrying: a fetch that fails with a server error
// and then runs out of time while waiting to retry is reported as the
// server error, not as a timeout.
func TestBoardTimeoutWhileRetrying(t *testing.T) {
	p := &scripted{name: "p", fn: func(context.Context) ([]stock.Offer, error) {
		return nil, fmt.Errorf("p: HTTP 502: %w", stock.ErrServer)
	}}
	b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Timeout: 150 * time.Millisecond, Retries: 3, Backoff: time.Second, Log: slog.New(slog.DiscardHandler)})
	ps := b.Refresh(context.Background()).Providers[0]
	if ps.Reason != stock.ReasonServer || !strings.Contains(ps.Err, "502") {
		t.Errorf("reason %q, error %q; want server_error naming the 502", ps.Reason, ps.Err)
	}
}

// TestBreakerRecorded: the snapshot saved after a fetch that opened the
// breaker says so (a standby's readiness reads it), and a board restored
// from it starts with its own breaker closed.
func TestBreakerRecorded(t *testing.T) {
	p := &scripted{name: "vastai", fn: func(context.Context) ([]stock.Offer, error) {
		return nil, fmt.Errorf("HTTP 502: %w", stock.ErrServer)
	}}
	store := &jsonSnapshots{m: map[string][]byte{}}
	opt := stock.BoardOptions{Store: store, Log: slog.New(slog.DiscardHandler), Breaker: stock.BreakerOptions{Failures: 1, OpenFor: time.Hour}}
	stock.NewBoard([]stock.Provider{p}, opt).Refresh(context.Background())
	saved, err := store.LoadProviderSnapshots(context.Background())
	if err != nil || len(saved) != 1 || saved[0].Breaker != stock.BreakerOpen {
		t.Fatalf("saved %+v, %v; want the open breaker recorded", saved, err)
	}
	b := stock.NewBoard([]stock.Provider{p}, opt)
	if err := b.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, ps := range b.Health().Providers {
		if ps.Breaker != "" {
			t.Errorf("restored board: %s breaker %q; want its own, closed", ps.Provider, ps.Breaker)
		}
	}
}
