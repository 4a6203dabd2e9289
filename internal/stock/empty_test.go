package stock_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/autodl"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
)

// AutoDL's global ESD stock answers of issue 15's story.
const (
	esdFive  = `{"code":"Success","msg":"","data":[{"RTX 4090":{"idle_gpu_num":5,"total_gpu_num":9}}]}`
	esdEmpty = `{"code":"Success","msg":"","data":[]}`
	esdZero  = `{"code":"Success","msg":"","data":[{"RTX 4090":{"idle_gpu_num":0,"total_gpu_num":9}}]}`
)

// TestEmptyAnswerAlerts: an AutoDL answer `data: []` between two answers
// with 5 free cards is unknown (the Board keeps the 5, stale, with reason
// empty_answer), so the subscription fires once, on the first transition;
// an answer that says 0 explicitly is a known sold out, which clears it,
// so stock coming back fires again.
func TestEmptyAnswerAlerts(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	subs := []stock.Subscription{
		// "4090 有货了提醒我": any platform.
		{ID: "any", Channel: "console", ChatID: "lab-any", GPUs: []string{"RTX 4090"}, CreatedAt: t0},
		{ID: "autodl", Channel: "console", ChatID: "lab-autodl", GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}, CreatedAt: t0},
	}
	type step struct {
		body string
		want int // alerts so far, per chat
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"5 free → empty list → 5 free: one alert", []step{{esdFive, 1}, {esdEmpty, 1}, {esdFive, 1}}},
		{"5 free → empty lists → 5 free: still one", []step{{esdFive, 1}, {esdEmpty, 1}, {esdEmpty, 1}, {esdFive, 1}}},
		{"5 free → explicit zero → 5 free: two alerts", []step{{esdFive, 1}, {esdZero, 1}, {esdFive, 2}}},
		{"empty list first → 5 free: one alert", []step{{esdEmpty, 0}, {esdFive, 1}}},
		{"explicit zero → empty list → 5 free: one alert", []step{{esdZero, 0}, {esdEmpty, 0}, {esdFive, 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			now := t0
			clock := func() time.Time { return now }
			var mu sync.Mutex
			body := ""
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, body)
			}))
			defer srv.Close()
			p := autodl.New(providertest.LoadCatalog(t), autodl.Options{Options: httpx.Options{BaseURL: srv.URL, Now: clock}, Token: "t"})
			board := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Now: clock, Timeout: 5 * time.Second, Log: slog.New(slog.DiscardHandler)})
			st := &memAlerts{subs: subs, recs: map[string]stock.NotifyRecord{}}
			sent := map[string]int{}
			al := &stock.Alerter{Subs: st, Log: st, Policy: stock.DefaultPolicy(), Logger: slog.New(slog.DiscardHandler),
				Notifier: stock.NotifierFunc(func(_ context.Context, a stock.Alert) error { mu.Lock(); sent[a.ChatID]++; mu.Unlock(); return nil })}
			var lastGood time.Time
			for i, s := range c.steps {
				if i > 0 {
					// Past the cooldown: only the state decides.
					now = now.Add(31 * time.Minute)
				}
				mu.Lock()
				body = s.body
				mu.Unlock()
				snap := board.Refresh(context.Background())
				ps := status(snap, "autodl")
				if s.body == esdEmpty {
					checkEmptySnapshot(t, ps, lastGood)
				} else {
					if ps.Status != stock.StatusOK || len(ps.Offers) != 1 {
						t.Fatalf("step %d: %+v", i, ps)
					}
					lastGood = now
				}
				before := map[string]stock.NotifyRecord{}
				for k, v := range st.recs {
					before[k] = v
				}
				if _, err := al.Process(context.Background(), snap, now); err != nil {
					t.Fatal(err)
				}
				for _, chat := range []string{"lab-any", "lab-autodl"} {
					if sent[chat] != s.want {
						t.Fatalf("step %d (%s): %s has %d alerts, want %d", i, shortBody(s.body), chat, sent[chat], s.want)
					}
				}
				if s.body == esdEmpty {
					// Unknown never fires and never clears: the records
					// stay as they were.
					for k, v := range st.recs {
						if before[k] != v {
							t.Errorf("step %d: an empty answer changed %s's record: %+v → %+v", i, k, before[k], v)
						}
					}
				}
			}
		})
	}
}

// checkEmptySnapshot: an empty answer is a provider outcome like a failed
// fetch: the last good offers kept, stale, with reason empty_answer (or,
// with none earlier, an error with that reason), and every subscription
// to the GPU observes unknown.
func checkEmptySnapshot(t *testing.T, ps stock.ProviderSnapshot, lastGood time.Time) {
	t.Helper()
	if ps.Reason != stock.ReasonEmpty || ps.Err == "" {
		t.Fatalf("empty answer: reason %q, error %q; want %q", ps.Reason, ps.Err, stock.ReasonEmpty)
	}
	if lastGood.IsZero() {
		if ps.Status != stock.StatusError || len(ps.Offers) != 0 {
			t.Fatalf("empty answer with nothing earlier: %+v, want an error without offers", ps)
		}
	} else {
		if ps.Status != stock.StatusStale || len(ps.Offers) != 1 || !ps.FetchedAt.Equal(lastGood) || !ps.Offers[0].Stale {
			t.Fatalf("empty answer: %+v; want the last good offers, stale, fetched at %v", ps, lastGood)
		}
	}
	ix := stock.NewIndex(stock.Snapshot{Providers: []stock.ProviderSnapshot{ps}, TakenAt: lastGood})
	for _, s := range []stock.Subscription{{GPUs: []string{"RTX 4090"}}, {GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}}, {GPUs: []string{"H800"}}} {
		if got := ix.Observe(s).State; got != stock.Unknown {
			t.Errorf("%v on an empty answer: %v, want unknown", s.GPUs, got)
		}
	}
}

func shortBody(b string) string {
	switch b {
	case esdFive:
		return "5 free"
	case esdEmpty:
		return "data: []"
	case esdZero:
		return "0 free"
	}
	return b
}

// TestClassifyEmpty: an empty answer has its own reason, and the Board
// does not retry it within a poll (the next poll asks again).
func TestClassifyEmpty(t *testing.T) {
	err := fmt.Errorf("autodl: stock data answered an empty list (region westDC2): %w", stock.ErrEmpty)
	if got := stock.Classify(err); got != stock.ReasonEmpty {
		t.Errorf("Classify: %q, want %q", got, stock.ReasonEmpty)
	}
	calls := 0
	p := &scripted{name: "p", fn: func(context.Context) ([]stock.Offer, error) { calls++; return nil, err }}
	b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Retries: 2, Backoff: time.Millisecond, Log: slog.New(slog.DiscardHandler)})
	if ps := status(b.Refresh(context.Background()), "p"); calls != 1 || ps.Reason != stock.ReasonEmpty || ps.Status != stock.StatusError {
		t.Errorf("%d calls, %+v", calls, ps)
	}
}
