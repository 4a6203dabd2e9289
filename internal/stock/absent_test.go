package stock_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/autodl"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
)

// AutoDL's global ESD stock answers of issue 26's partial-list story: an
// otherwise normal answer that lists the RTX 3090 but not the RTX 4090.
const (
	esdBoth      = `{"code":"Success","msg":"","data":[{"RTX 4090":{"idle_gpu_num":5,"total_gpu_num":9}},{"RTX 3090":{"idle_gpu_num":2,"total_gpu_num":4}}]}`
	esdNo4090    = `{"code":"Success","msg":"","data":[{"RTX 3090":{"idle_gpu_num":2,"total_gpu_num":4}}]}`
	esdZero4090  = `{"code":"Success","msg":"","data":[{"RTX 4090":{"idle_gpu_num":0,"total_gpu_num":9}},{"RTX 3090":{"idle_gpu_num":2,"total_gpu_num":4}}]}`
	esdOnly4090  = `{"code":"Success","msg":"","data":[{"RTX 4090":{"idle_gpu_num":5,"total_gpu_num":9}}]}`
	absentPeriod = 31 * time.Minute // between polls: past the cooldown, so only the state decides
)

// TestAbsentRowAlerts: a GPU type missing from an otherwise normal answer
// is unknown for that poll, like an empty list (the Board carries its last
// figures forward, stale, and names it in Absent), so its return is no
// transition and sends no second "有货了"; an explicit zero is a known sold
// out, which clears the subscription, so stock coming back fires again.
// Missing from two answers in a row it is sold out too (delisted, or sold
// out and no longer listed): a transition that sends nothing, after which
// its return alerts once.
func TestAbsentRowAlerts(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	subs := []stock.Subscription{
		{ID: "any", Channel: "console", ChatID: "lab-any", GPUs: []string{"RTX 4090"}, CreatedAt: t0},
		{ID: "autodl", Channel: "console", ChatID: "lab-autodl", GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}, CreatedAt: t0},
	}
	// What the 4090 is in an answer: listed (or never listed), absent for
	// the first time (unknown), or absent again (sold out).
	const (
		listed = iota
		absent
		gone
	)
	type step struct {
		body string
		want int // alerts so far, per chat
		row  int // listed, absent or gone
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"in stock → row absent → in stock: one alert", []step{{esdBoth, 1, listed}, {esdNo4090, 1, absent}, {esdBoth, 1, listed}}},
		{"in stock → absent twice → in stock: two alerts", []step{{esdBoth, 1, listed}, {esdNo4090, 1, absent}, {esdNo4090, 1, gone}, {esdOnly4090, 2, listed}}},
		{"in stock → absent three times → in stock: two alerts", []step{{esdBoth, 1, listed}, {esdNo4090, 1, absent}, {esdNo4090, 1, gone}, {esdNo4090, 1, gone}, {esdBoth, 2, listed}}},
		{"absences not in a row: one alert", []step{{esdBoth, 1, listed}, {esdNo4090, 1, absent}, {esdBoth, 1, listed}, {esdNo4090, 1, absent}, {esdBoth, 1, listed}}},
		{"in stock → explicit 0 → in stock: two alerts", []step{{esdBoth, 1, listed}, {esdZero4090, 1, listed}, {esdBoth, 2, listed}}},
		{"explicit 0 → absent → in stock: one alert", []step{{esdZero4090, 0, listed}, {esdNo4090, 0, absent}, {esdBoth, 1, listed}}},
		{"never listed → in stock: one alert", []step{{esdNo4090, 0, listed}, {esdBoth, 1, listed}}},
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
			al := &stock.Alerter{Subs: st, Log: st, Policy: stock.DefaultPolicy(), SendConcurrency: 1, Logger: slog.New(slog.DiscardHandler),
				Notifier: stock.NotifierFunc(func(_ context.Context, a stock.Alert) error { sent[a.ChatID]++; return nil })}
			var last4090 time.Time // when an answer last listed the 4090
			for i, s := range c.steps {
				if i > 0 {
					now = now.Add(absentPeriod)
				}
				mu.Lock()
				body = s.body
				mu.Unlock()
				snap := board.Refresh(context.Background())
				ps := status(snap, "autodl")
				if ps.Status != stock.StatusOK || ps.Err != "" {
					t.Fatalf("step %d: a partial list is a good answer: %+v", i, ps)
				}
				switch s.row {
				case absent:
					checkAbsent(t, snap, last4090)
				case gone:
					checkGone(t, snap)
				default:
					if slices.ContainsFunc(ps.Absent, func(a stock.Absent) bool { return a.GPU == "RTX 4090" }) {
						t.Fatalf("step %d: absent %+v, but the answer lists the 4090", i, ps.Absent)
					}
				}
				if s.row == listed && s.body != esdNo4090 {
					last4090 = now
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
						t.Fatalf("step %d: %s has %d alerts, want %d", i, chat, sent[chat], s.want)
					}
				}
				if s.row == absent {
					for k, v := range st.recs {
						if before[k] != v {
							t.Errorf("step %d: an absent row changed %s's record: %+v → %+v", i, k, before[k], v)
						}
					}
				}
			}
		})
	}
}

// checkAbsent: the 4090's last figures are kept, stale, with the time an
// answer last listed it; the 3090 is fresh; every 4090 subscription
// observes unknown (never sold out).
func checkAbsent(t *testing.T, snap stock.Snapshot, lastSeen time.Time) {
	t.Helper()
	ps := status(snap, "autodl")
	if len(ps.Absent) != 1 || ps.Absent[0].GPU != "RTX 4090" || ps.Absent[0].Platform != "autodl" || !ps.Absent[0].LastSeen.Equal(lastSeen) {
		t.Fatalf("absent %+v; want the RTX 4090 on autodl, last seen %v", ps.Absent, lastSeen)
	}
	var fresh, stale int
	for _, o := range ps.Offers {
		switch {
		case o.GPU == "RTX 4090" && o.Stale && o.ObservedAt.Equal(lastSeen):
			stale++
		case o.GPU == "RTX 3090" && !o.Stale:
			fresh++
		default:
			t.Errorf("offer %s stale=%v observed %v", o.GPU, o.Stale, o.ObservedAt)
		}
	}
	if fresh != 1 || stale != 1 {
		t.Fatalf("offers %+v; want the fresh 3090 and the 4090 carried forward, stale", ps.Offers)
	}
	ix := stock.NewIndex(snap)
	for _, s := range []stock.Subscription{{GPUs: []string{"RTX 4090"}}, {GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}}} {
		if got := ix.Observe(s).State; got != stock.Unknown {
			t.Errorf("%v %v on a partial answer: %v, want unknown", s.GPUs, s.Platforms, got)
		}
	}
	if got := ix.Observe(stock.Subscription{GPUs: []string{"RTX 3090"}}).State; got != stock.InStock {
		t.Errorf("RTX 3090 on a partial answer: %v, want in stock", got)
	}
}

// checkGone: left out of a second answer in a row, the 4090 is no longer
// carried nor named absent, and every 4090 subscription observes sold out.
func checkGone(t *testing.T, snap stock.Snapshot) {
	t.Helper()
	ps := status(snap, "autodl")
	if len(ps.Absent) != 0 {
		t.Fatalf("absent %+v after two answers without the 4090; want none (sold out)", ps.Absent)
	}
	for _, o := range ps.Offers {
		if o.GPU == "RTX 4090" {
			t.Fatalf("the 4090 is still carried after two answers without it: %+v", o)
		}
	}
	ix := stock.NewIndex(snap)
	for _, s := range []stock.Subscription{{GPUs: []string{"RTX 4090"}}, {GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}}} {
		if got := ix.Observe(s).State; got != stock.SoldOut {
			t.Errorf("%v %v after two answers without it: %v, want sold out", s.GPUs, s.Platforms, got)
		}
	}
}

// TestAbsenceOf: what a type left out of the latest answer is, by how
// many whole answers in a row left it out and when it was last seen.
func TestAbsenceOf(t *testing.T) {
	seen := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	day := stock.MaxAlertAge
	cases := []struct {
		name      string
		misses    int
		after     time.Duration
		absentFor time.Duration
		want      stock.Available
	}{
		{"one miss: unknown", 1, 10 * time.Minute, day, stock.Unknown},
		{"only partial answers: unknown", 0, time.Hour, day, stock.Unknown},
		{"two misses in a row: sold out", 2, 20 * time.Minute, day, stock.SoldOut},
		{"more misses: sold out", 5, time.Hour, day, stock.SoldOut},
		{"one miss, at the carrying limit: unknown", 1, day, day, stock.Unknown},
		{"one miss, past the carrying limit: sold out", 1, day + time.Second, day, stock.SoldOut},
		{"no miss yet, past the limit: sold out", 0, 3 * time.Hour, 2 * time.Hour, stock.SoldOut},
		{"never carried: sold out", 1, time.Minute, -1, stock.SoldOut},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := stock.AbsenceOf(c.misses, seen, seen.Add(c.after), c.absentFor); got != c.want {
				t.Errorf("AbsenceOf(%d, +%v, %v) = %v, want %v", c.misses, c.after, c.absentFor, got, c.want)
			}
		})
	}
	if got := stock.AbsenceOf(1, time.Time{}, seen, day); got != stock.SoldOut {
		t.Errorf("unknown last sighting: %v, want sold out (not carried)", got)
	}
}

// TestAbsentRowExpires: a type missing for longer than AbsentFor is gone
// even when no second whole answer has said so (the answers since were
// cut off): its carried figures are dropped, and a platform that answers
// without it then says nothing of it (a subscription to it sees sold out
// only where every platform answered).
func TestAbsentRowExpires(t *testing.T) {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var mu sync.Mutex
	rows := []stock.Offer{{Platform: "autodl", GPU: "RTX 4090", Free: stock.IntPtr(3), Source: stock.SourceLive}, {Platform: "autodl", GPU: "RTX 3090", Free: stock.IntPtr(1), Source: stock.SourceLive}}
	var partial error
	p := &scripted{name: "autodl", fn: func(context.Context) ([]stock.Offer, error) {
		mu.Lock()
		defer mu.Unlock()
		out := append([]stock.Offer(nil), rows...)
		for i := range out {
			out[i].ObservedAt = now
		}
		return out, partial
	}}
	b := stock.NewBoard([]stock.Provider{p}, stock.BoardOptions{Now: clock, AbsentFor: 2 * time.Hour, Log: slog.New(slog.DiscardHandler)})
	b.Refresh(context.Background())
	seen := now
	mu.Lock()
	rows = rows[1:]
	mu.Unlock()
	for i, step := range []struct {
		after  time.Duration
		absent bool
	}{{time.Hour, true}, {time.Hour, true}, {time.Minute, false}} {
		if i == 1 {
			mu.Lock()
			partial = fmt.Errorf("one region failed: %w", stock.ErrPartial)
			mu.Unlock()
		}
		now = now.Add(step.after)
		ps := status(b.Refresh(context.Background()), "autodl")
		if got := len(ps.Absent) == 1; got != step.absent {
			t.Fatalf("%v after the last sighting: absent %+v, want carried %v", now.Sub(seen), ps.Absent, step.absent)
		}
		if want := map[bool]int{true: 2, false: 1}[step.absent]; len(ps.Offers) != want {
			t.Fatalf("%v after the last sighting: %d offers, want %d", now.Sub(seen), len(ps.Offers), want)
		}
	}
}

// TestAbsentSurvivesFailureAndRestart: a failed fetch keeps the absent
// list with the carried figures, and a board restored from the store goes
// on carrying them from the same last sighting, counting the same misses:
// a cut-off answer after the restart carries it still, the next whole
// answer without it is the second miss (sold out, dropped).
func TestAbsentSurvivesFailureAndRestart(t *testing.T) {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var mu sync.Mutex
	var next func() ([]stock.Offer, error)
	p := &scripted{name: "autodl", fn: func(context.Context) ([]stock.Offer, error) {
		mu.Lock()
		defer mu.Unlock()
		return next()
	}}
	set := func(f func() ([]stock.Offer, error)) { mu.Lock(); next = f; mu.Unlock() }
	both := func() ([]stock.Offer, error) {
		return []stock.Offer{{Platform: "autodl", GPU: "RTX 4090", Free: stock.IntPtr(3), Source: stock.SourceLive, ObservedAt: now},
			{Platform: "autodl", GPU: "RTX 3090", Free: stock.IntPtr(1), Source: stock.SourceLive, ObservedAt: now}}, nil
	}
	only3090 := func() ([]stock.Offer, error) {
		return []stock.Offer{{Platform: "autodl", GPU: "RTX 3090", Free: stock.IntPtr(1), Source: stock.SourceLive, ObservedAt: now}}, nil
	}
	cut := func() ([]stock.Offer, error) {
		o, _ := only3090()
		return o, fmt.Errorf("a region failed: %w", stock.ErrPartial)
	}
	store := &jsonSnapshots{m: map[string][]byte{}}
	opt := stock.BoardOptions{Now: clock, Store: store, Log: slog.New(slog.DiscardHandler)}
	b := stock.NewBoard([]stock.Provider{p}, opt)
	set(both)
	b.Refresh(context.Background())
	seen := now
	now = now.Add(10 * time.Minute)
	set(only3090)
	b.Refresh(context.Background())
	now = now.Add(10 * time.Minute)
	set(func() ([]stock.Offer, error) { return nil, fmt.Errorf("boom: %w", stock.ErrServer) })
	ps := status(b.Refresh(context.Background()), "autodl")
	if ps.Status != stock.StatusStale || len(ps.Absent) != 1 || !ps.Absent[0].LastSeen.Equal(seen) || len(ps.Offers) != 2 {
		t.Fatalf("failed fetch after an absent row: %+v", ps)
	}
	b2 := stock.NewBoard([]stock.Provider{p}, opt)
	if err := b2.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	now = now.Add(10 * time.Minute)
	set(cut)
	ps = status(b2.Refresh(context.Background()), "autodl")
	if ps.Status != stock.StatusOK || len(ps.Absent) != 1 || !ps.Absent[0].LastSeen.Equal(seen) || ps.Absent[0].Misses != 1 || len(ps.Offers) != 2 {
		t.Fatalf("restored board, cut-off answer, 4090 still absent: %+v", ps)
	}
	now = now.Add(10 * time.Minute)
	set(only3090)
	ps = status(b2.Refresh(context.Background()), "autodl")
	if ps.Status != stock.StatusOK || len(ps.Absent) != 0 || len(ps.Offers) != 1 {
		t.Fatalf("restored board, second whole answer without the 4090: %+v; want it sold out (dropped)", ps)
	}
}

// jsonSnapshots keeps snapshots as JSON, as both stores do.
type jsonSnapshots struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (j *jsonSnapshots) SaveProviderSnapshot(_ context.Context, ps stock.ProviderSnapshot) error {
	b, err := json.Marshal(ps)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.m[ps.Provider] = b
	return nil
}

func (j *jsonSnapshots) LoadProviderSnapshots(context.Context) ([]stock.ProviderSnapshot, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []stock.ProviderSnapshot
	for _, b := range j.m {
		var ps stock.ProviderSnapshot
		if err := json.Unmarshal(b, &ps); err != nil {
			return nil, err
		}
		out = append(out, ps)
	}
	return out, nil
}

// TestDecideSequences: Decide over a poll sequence, with the time passed
// in: a state the index reads as unknown (a row absent for a poll) between
// two in-stock polls is no transition; an explicit sold out is.
func TestDecideSequences(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		states []stock.Available
		want   int
	}{
		{"in stock → unknown → in stock", []stock.Available{stock.InStock, stock.Unknown, stock.InStock}, 1},
		{"in stock → unknown ×3 → in stock", []stock.Available{stock.InStock, stock.Unknown, stock.Unknown, stock.Unknown, stock.InStock}, 1},
		{"in stock → sold out → in stock", []stock.Available{stock.InStock, stock.SoldOut, stock.InStock}, 2},
		{"sold out → unknown → in stock", []stock.Available{stock.SoldOut, stock.Unknown, stock.InStock}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rec stock.NotifyRecord
			n := 0
			for i, st := range c.states {
				d, next := stock.Decide(rec, obs(st, 2), t0.Add(time.Duration(i)*absentPeriod), stock.DefaultPolicy())
				if d.Notify {
					n++
				}
				rec = next
			}
			if n != c.want {
				t.Errorf("%d alerts, want %d", n, c.want)
			}
		})
	}
}
