package app_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// script is a provider whose answer each poll sets: a 4090 offer with a
// free count and price, or an error.
type script struct {
	mu    sync.Mutex
	free  int
	price float64
	err   error
}

func (s *script) Name() string { return "autodl" }
func (s *script) Fetch(context.Context) ([]stock.Offer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil, s.err
	}
	return []stock.Offer{{Platform: "autodl", GPU: "RTX 4090", GPUsPerInstance: 1, Free: stock.IntPtr(s.free), CNYPerGPUHour: s.price,
		Source: stock.SourceLive, Region: "西北B区", ObservedAt: time.Now()}}, nil
}
func (s *script) set(free int, price float64, err error) {
	s.mu.Lock()
	s.free, s.price, s.err = free, price, err
	s.mu.Unlock()
}

// sink records alerts.
type sink struct {
	mu     sync.Mutex
	alerts []stock.Alert
}

func (k *sink) Notify(_ context.Context, a stock.Alert) error {
	k.mu.Lock()
	k.alerts = append(k.alerts, a)
	k.mu.Unlock()
	return nil
}
func (k *sink) count() int { k.mu.Lock(); defer k.mu.Unlock(); return len(k.alerts) }

type clock struct{ t time.Time }

func (c *clock) now() time.Time       { return c.t }
func (c *clock) step(d time.Duration) { c.t = c.t.Add(d) }
func quiet() *slog.Logger             { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
func sub(id string) stock.Subscription {
	return stock.Subscription{ID: id, Channel: "console", ChatID: "lab", OwnerID: "alice", GPUs: []string{"RTX 4090"}, MaxPriceCNY: 2.5, CreatedAt: time.Unix(1, 0)}
}

type rig struct {
	prov   *script
	sink   *sink
	clk    *clock
	poller *jobs.Poller
}

func newRig(t *testing.T, st app.Store, policy stock.Policy, prov *script, clk *clock, owner string) *rig {
	t.Helper()
	k := &sink{}
	board := stock.NewBoard([]stock.Provider{prov}, stock.BoardOptions{Now: clk.now, Log: quiet(), Timeout: time.Second})
	al := &stock.Alerter{Subs: st, Log: st, Notifier: k, Policy: policy, Logger: quiet()}
	return &rig{prov: prov, sink: k, clk: clk, poller: &jobs.Poller{Board: board, Alerter: al, Locker: st, Owner: owner, Now: clk.now, Log: quiet()}}
}

func (r *rig) poll(t *testing.T) bool {
	t.Helper()
	ran, _, _, err := r.poller.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ran
}

// inStock is a clock on the stories' evening and a provider showing two
// 4090s at 2.2 yuan an hour.
func inStock() (*clock, *script) {
	prov := &script{}
	prov.set(2, 2.2, nil)
	return &clock{t: time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)}, prov
}

func embeddedStore(t *testing.T, dir string) *embedded.Store {
	t.Helper()
	st, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestScenarios runs the alert stories of the issue with a fake clock.
func TestScenarios(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	ctx := context.Background()
	type step struct {
		free  int
		price float64
		err   error
		after time.Duration
		want  int // alerts so far
	}
	fail := fmt.Errorf("autodl: HTTP 502: %w", stock.ErrServer)
	cases := []struct {
		name   string
		policy func(*stock.Policy)
		steps  []step
	}{
		{"sold out → available fires once", nil, []step{
			{free: 0, price: 2.2, want: 0}, {free: 2, price: 2.2, after: 2 * time.Minute, want: 1},
			{free: 2, price: 2.2, after: 2 * time.Minute, want: 1}, {free: 3, price: 2.2, after: 2 * time.Minute, want: 1}}},
		{"a flap inside the debounce window fires nothing", func(p *stock.Policy) { p.Debounce = 3 }, []step{
			{free: 0, price: 2.2, want: 0}, {free: 2, price: 2.2, after: 2 * time.Minute, want: 0},
			{free: 2, price: 2.2, after: 2 * time.Minute, want: 0}, {free: 0, price: 2.2, after: 2 * time.Minute, want: 0},
			{free: 0, price: 2.2, after: 2 * time.Minute, want: 0}}},
		{"error → unknown → no alert, then recovery without a duplicate", nil, []step{
			{free: 2, price: 2.2, want: 1}, {err: fail, after: 2 * time.Minute, want: 1},
			{err: fail, after: 40 * time.Minute, want: 1}, {free: 2, price: 2.2, after: 2 * time.Minute, want: 1}}},
		{"error never counts as sold out", nil, []step{
			{free: 0, price: 2.2, want: 0}, {err: fail, after: 2 * time.Minute, want: 0}, {free: 0, price: 2.2, after: 2 * time.Minute, want: 0}}},
		{"a further price drop inside the cooldown does not spam", nil, []step{
			{free: 2, price: 2.4, want: 1}, {free: 2, price: 2.0, after: 5 * time.Minute, want: 1},
			{free: 2, price: 1.8, after: 5 * time.Minute, want: 1}, {free: 2, price: 1.8, after: 30 * time.Minute, want: 2},
			{free: 2, price: 1.79, after: 40 * time.Minute, want: 2}}},
		{"over the price ceiling is not available", nil, []step{
			{free: 5, price: 3.0, want: 0}, {free: 5, price: 2.4, after: 2 * time.Minute, want: 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := embeddedStore(t, t.TempDir())
			defer st.Close()
			if err := st.AddSubscription(ctx, sub("s1")); err != nil {
				t.Fatal(err)
			}
			pol := stock.DefaultPolicy()
			if c.policy != nil {
				c.policy(&pol)
			}
			clk := &clock{t: t0}
			r := newRig(t, st, pol, &script{}, clk, "a")
			for i, s := range c.steps {
				clk.step(s.after)
				r.prov.set(s.free, s.price, s.err)
				r.poll(t)
				if got := r.sink.count(); got != s.want {
					t.Fatalf("step %d (%+v): %d alerts, want %d", i, s, got, s.want)
				}
			}
		})
	}
}

// TestRestartDoesNotResend: the notification log survives a restart.
func TestRestartDoesNotResend(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	clk, prov := inStock()
	st := embeddedStore(t, dir)
	st.AddSubscription(ctx, sub("s1"))
	r := newRig(t, st, stock.DefaultPolicy(), prov, clk, "a")
	r.poll(t)
	if r.sink.count() != 1 {
		t.Fatalf("%d alerts before restart", r.sink.count())
	}
	st.Close()
	st = embeddedStore(t, dir)
	defer st.Close()
	clk.step(time.Hour)
	r2 := newRig(t, st, stock.DefaultPolicy(), prov, clk, "b")
	r2.poll(t)
	if r2.sink.count() != 0 {
		t.Fatalf("restart re-sent %d alerts", r2.sink.count())
	}
}

// TestTwoReplicasOneAlert: two replicas on one real Redis send one alert.
func TestTwoReplicasOneAlert(t *testing.T) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	ctx := context.Background()
	prefix := fmt.Sprintf("labgpu-scenario-%d:", time.Now().UnixNano())
	a, err := redisstore.Open(ctx, url, prefix)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no Redis at %s under CI: %v", url, err)
		}
		t.Skipf("no Redis at %s: %v", url, err)
	}
	defer a.Close()
	b, err := redisstore.Open(ctx, url, prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	defer func() {
		keys, _ := a.Client().Keys(ctx, prefix+"*").Result()
		if len(keys) > 0 {
			a.Client().Del(ctx, keys...)
		}
	}()
	if err := a.AddSubscription(ctx, sub("s1")); err != nil {
		t.Fatal(err)
	}
	clk, prov := inStock()
	ra := newRig(t, a, stock.DefaultPolicy(), prov, clk, "replica-a")
	rb := newRig(t, b, stock.DefaultPolicy(), prov, clk, "replica-b")
	// Both try to poll at the same tick, concurrently.
	var wg sync.WaitGroup
	ran := make([]bool, 2)
	perr := make([]error, 2)
	for i, r := range []*rig{ra, rb} {
		wg.Add(1)
		go func() { defer wg.Done(); ran[i], _, _, perr[i] = r.poller.RunOnce(ctx) }()
	}
	wg.Wait()
	if perr[0] != nil || perr[1] != nil {
		t.Fatal(perr)
	}
	if ran[0] == ran[1] {
		t.Fatalf("both or neither replica polled: %v", ran)
	}
	// Even when both decide (the lock expired between them), SET NX on
	// the alert key lets one send.
	rb.poller.Locker = nil
	ra.poller.Locker = nil
	// A new subscription, decided by both replicas at once: SET NX on its
	// alert key lets exactly one of them send it.
	if err := a.AddSubscription(ctx, sub("s2")); err != nil {
		t.Fatal(err)
	}
	clk.step(time.Minute)
	before := ra.sink.count() + rb.sink.count()
	errs := make([]error, 2)
	for i, r := range []*rig{ra, rb} {
		wg.Add(1)
		go func() { defer wg.Done(); _, _, _, errs[i] = r.poller.RunOnce(ctx) }()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	total := ra.sink.count() + rb.sink.count()
	if before != 1 || total != 2 {
		t.Fatalf("alerts sent: %d after the first tick, %d after the second; want 1 and 2 (one replica each time)", before, total)
	}
}

// failingLog wraps a store: the notification log cannot be written.
type failingLog struct{ app.Store }

func (f failingLog) PutNotifyRecords(context.Context, []stock.NotifyRecord) error {
	return fmt.Errorf("disk full")
}

// flakySink fails its first n sends.
type flakySink struct {
	sink
	fail int
}

func (f *flakySink) Notify(ctx context.Context, a stock.Alert) error {
	if f.fail > 0 {
		f.fail--
		return fmt.Errorf("feishu: HTTP 502")
	}
	return f.sink.Notify(ctx, a)
}

// TestFailedLogWriteDoesNotResend: an alert that went out but could not be
// recorded is not sent again at every poll (its claim stops it).
func TestFailedLogWriteDoesNotResend(t *testing.T) {
	ctx := context.Background()
	st := embeddedStore(t, t.TempDir())
	defer st.Close()
	st.AddSubscription(ctx, sub("s1"))
	clk, prov := inStock()
	r := newRig(t, failingLog{st}, stock.DefaultPolicy(), prov, clk, "a")
	for i := 0; i < 5; i++ {
		r.poll(t)
		clk.step(2 * time.Minute)
	}
	if r.sink.count() != 1 {
		t.Fatalf("%d alerts over 5 polls with a failing log, want 1", r.sink.count())
	}
}

// TestFailedSendIsRetried: a send that fails is released and goes out at
// the next poll, once.
func TestFailedSendIsRetried(t *testing.T) {
	ctx := context.Background()
	st := embeddedStore(t, t.TempDir())
	defer st.Close()
	st.AddSubscription(ctx, sub("s1"))
	clk, prov := inStock()
	r := newRig(t, st, stock.DefaultPolicy(), prov, clk, "a")
	flaky := &flakySink{fail: 1}
	r.poller.Alerter.(*stock.Alerter).Notifier = flaky
	for i := 0; i < 3; i++ {
		r.poll(t)
		clk.step(2 * time.Minute)
	}
	if flaky.count() != 1 {
		t.Fatalf("%d alerts delivered, want 1 (after one failed try)", flaky.count())
	}
}

// unrecorded is a store whose next notification-log write fails, as when
// a replica dies (or the store stalls) between sending an alert and
// recording it.
type unrecorded struct {
	*embedded.Store
	failNext bool
}

func (u *unrecorded) PutNotifyRecords(ctx context.Context, rs []stock.NotifyRecord) error {
	if u.failNext {
		u.failNext = false
		return errors.New("store stalled")
	}
	return u.Store.PutNotifyRecords(ctx, rs)
}

// TestSentButNotRecorded: an alert sent but not recorded is not sent
// again at the next poll, and the subscription keeps alerting on later
// transitions (it used to be held until the claim expired, a day later).
func TestSentButNotRecorded(t *testing.T) {
	ctx := context.Background()
	clk, prov := inStock()
	st := &unrecorded{Store: embeddedStore(t, t.TempDir()), failNext: true}
	defer st.Close()
	st.AddSubscription(ctx, sub("s1"))
	r := newRig(t, st, stock.DefaultPolicy(), prov, clk, "a")
	r.poll(t)
	if r.sink.count() != 1 {
		t.Fatalf("%d alerts at the first poll", r.sink.count())
	}
	clk.step(10 * time.Minute)
	r.poll(t)
	if r.sink.count() != 1 {
		t.Fatalf("the unrecorded alert was sent again (%d)", r.sink.count())
	}
	// Sold out, then back in stock an hour later: a new alert.
	for _, free := range []int{0, 0, 2, 2} {
		clk.step(30 * time.Minute)
		prov.set(free, 2.2, nil)
		r.poll(t)
	}
	if r.sink.count() != 2 {
		t.Fatalf("after sold out and back: %d alerts, want 2", r.sink.count())
	}
}
