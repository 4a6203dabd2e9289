package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/retry"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// digestStore is what the digest job and its tests need of a store.
type digestStore interface {
	jobs.DigestChats
	jobs.Claimer
	jobs.DigestMarks
	chat.DeliveryLog
	SetDigestChat(ctx context.Context, chatKey string, on bool) error
	Close() error
}

// storeKind opens a real store; reopen closes it and opens it again, as
// a restart does (Redis: a new client over the same prefix).
type storeKind struct {
	name string
	open func(t *testing.T) (st digestStore, reopen func() digestStore)
}

// storeKinds are the embedded store and Redis at REDIS_URL (skipped
// without a server unless CI is set), under a prefix of the test's own.
func storeKinds() []storeKind {
	return []storeKind{
		{"embedded", func(t *testing.T) (digestStore, func() digestStore) {
			dir := t.TempDir()
			open := func() digestStore {
				st, err := embedded.Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				return st
			}
			st := open()
			cur := st
			t.Cleanup(func() { cur.Close() })
			return st, func() digestStore { cur.Close(); cur = open(); return cur }
		}},
		{"redis", func(t *testing.T) (digestStore, func() digestStore) {
			url := os.Getenv("REDIS_URL")
			if url == "" {
				url = redisstore.DefaultURL
			}
			prefix := fmt.Sprintf("labgpu-sends-%d:", time.Now().UnixNano())
			open := func() *redisstore.Store {
				st, err := redisstore.Open(context.Background(), url, prefix)
				if err != nil {
					if os.Getenv("CI") != "" {
						t.Fatalf("no Redis at %s under CI: %v", url, err)
					}
					t.Skipf("no Redis at %s: %v", url, err)
				}
				return st
			}
			st := open()
			cur := st
			t.Cleanup(func() {
				ctx := context.Background()
				if keys, _ := cur.Client().Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
					cur.Client().Del(ctx, keys...)
				}
				cur.Close()
			})
			return st, func() digestStore { cur.Close(); cur = open(); return cur }
		}},
	}
}

// platform is a chat platform on the far side of an outbox: it takes one
// post per reply line, records what it took per chat, and (dedup) drops a
// post whose idempotency key it took already, as Feishu does with a
// message's uuid. fault, when set, is asked about each post: whether the
// platform takes it, and the error the poster sees.
type platform struct {
	mu    sync.Mutex
	dedup bool
	seen  map[string]bool
	took  map[string][]string // chat → parts taken
	fault func(chatID, part string) (take bool, err error)
}

func newPlatform(dedup bool) *platform {
	return &platform{dedup: dedup, seen: map[string]bool{}, took: map[string][]string{}}
}

func (p *platform) Parts(_ context.Context, _ string, r chat.Reply, _ chat.SendOptions) ([]chat.Part, error) {
	var ps []chat.Part
	for _, l := range append([]string{r.Title}, r.Lines...) {
		ps = append(ps, chat.Part{Kind: "text", Payload: l})
	}
	return ps, nil
}

func (p *platform) Post(_ context.Context, chatID string, part chat.Part, o chat.PostOptions) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	text := part.Payload.(string)
	take, err := true, error(nil)
	if p.fault != nil {
		take, err = p.fault(chatID, text)
	}
	if take && (!p.dedup || !p.seen[chatID+"\x00"+o.Key]) {
		p.seen[chatID+"\x00"+o.Key] = true
		p.took[chatID] = append(p.took[chatID], text)
	}
	return err
}

func (p *platform) Retry(error) retry.Verdict { return retry.Verdict{} }

func (p *platform) taken(chatID string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.took[chatID]...)
}

// process is one run of the bot: an outbox over the platform keeping its
// delivered parts in the store, and the digest job.
func process(st digestStore, p *platform, now time.Time, loc *time.Location) *jobs.Digest {
	ob := chat.NewOutbox("feishu", p, chat.OutboxOptions{Retry: retry.Policy{Tries: 1}, Delivered: st})
	chans := chat.Channels{"feishu": ob}
	return &jobs.Digest{Chats: st, Claims: st, Marks: st, Send: chans.Send, Location: loc, Now: func() time.Time { return now },
		Lab: func(ck string) string { return "lab-of-" + ck },
		Render: func(_ context.Context, ck string, per jobs.Period, _ time.Time) (chat.Reply, error) {
			return chat.Reply{Title: per.From.Format("01-02") + "–" + per.To.Format("01-02"), Lines: []string{"members", "platforms"}}, nil
		}}
}

// failingMarks fails the swap that ends a send (the mark moving to "the
// last digest ended at …") once, as a crash right after the send would
// leave it.
type failingMarks struct {
	digestStore
	failed bool
}

func (f *failingMarks) SwapDigestMark(ctx context.Context, ck, old, new string) (bool, error) {
	if !f.failed && !strings.Contains(new, `"from"`) {
		f.failed = true
		return false, errors.New("store write lost")
	}
	return f.digestStore.SwapDigestMark(ctx, ck, old, new)
}

// TestDigestNotSentTwiceAcrossRestart: a scheduled digest cut off after
// the platform took (part of) it — its answer lost, the process stopped
// between parts, the store's last write lost — and sent again by the
// next run after a restart reaches the chat once: the same period under
// the same idempotency key, the parts already delivered skipped.
func TestDigestNotSentTwiceAcrossRestart(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	monday := time.Date(2026, 11, 30, 9, 0, 0, 0, loc)
	faults := []struct {
		name  string
		dedup bool // the platform drops a repeated key (Feishu's uuid)
		// fault makes the first process's cut; cancel stops its run.
		fault      func(cancel context.CancelFunc) func(chatID, part string) (bool, error)
		failMarks  bool
		firstError bool
	}{
		{"answer lost after the platform took it", true, func(context.CancelFunc) func(string, string) (bool, error) {
			return func(_, part string) (bool, error) { return true, errors.New("read: connection reset by peer") }
		}, false, true},
		{"stopped between parts", false, func(cancel context.CancelFunc) func(string, string) (bool, error) {
			return func(_, part string) (bool, error) {
				if part == "members" {
					cancel() // SIGTERM while the second part is on its way
					return false, context.Canceled
				}
				return true, nil
			}
		}, false, true},
		{"mark not written after the send", false, nil, true, true},
	}
	for _, kind := range storeKinds() {
		for _, f := range faults {
			t.Run(kind.name+"/"+f.name, func(t *testing.T) {
				st, reopen := kind.open(t)
				ctx := context.Background()
				if err := st.SetDigestChat(ctx, "feishu/oc_a", true); err != nil {
					t.Fatal(err)
				}
				p := newPlatform(f.dedup)
				runCtx, cancel := context.WithCancel(ctx)
				defer cancel()
				if f.fault != nil {
					p.fault = f.fault(cancel)
				}
				first := process(st, p, monday, loc)
				if f.failMarks {
					// As after a crash: the lease ends before the next run.
					first.Marks, first.Lease = &failingMarks{digestStore: st}, 50*time.Millisecond
				}
				if _, err := first.RunOnce(runCtx); (err != nil) != f.firstError {
					t.Fatalf("first run: %v", err)
				}
				// Restart; the schedule fires again (an hour later).
				time.Sleep(100 * time.Millisecond)
				p.fault = nil
				st = reopen()
				second := process(st, p, monday.Add(time.Hour), loc)
				if _, err := second.RunOnce(ctx); err != nil {
					t.Fatalf("run after the restart: %v", err)
				}
				want := "11-23–11-30 members platforms"
				if got := strings.Join(p.taken("oc_a"), " "); got != want {
					t.Errorf("the chat got %q, want each part once: %q", got, want)
				}
				// And the run after that has nothing left to send that day.
				if n, err := process(st, p, monday.Add(2*time.Hour), loc).RunOnce(ctx); n != 0 || err != nil {
					t.Errorf("a third run sent %d, %v", n, err)
				}
			})
		}
	}
}

// TestDigestPeriods: each scheduled run covers the period since the
// chat's last scheduled digest, ending at the start of the run's day; the
// first covers the previous ISO week; a run that fails leaves its period
// to the next; two replicas running at once send each period once.
func TestDigestPeriods(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	at := func(month time.Month, day, hour int) time.Time {
		return time.Date(2026, month, day, hour, 0, 0, 0, loc)
	}
	type run struct {
		at   time.Time
		fail bool   // the platform refuses everything
		want string // the period sent, "" for none
	}
	cases := []struct {
		name string
		runs []run
	}{
		{"weekly, Monday 09:00", []run{
			{at(11, 30, 9), false, "11-23–11-30"},
			{at(12, 7, 9), false, "11-30–12-07"},
			{at(12, 14, 9), false, "12-07–12-14"},
		}},
		{"daily, first run on a Wednesday", []run{
			{at(12, 2, 9), false, "11-23–11-30"},
			{at(12, 3, 9), false, "11-30–12-03"},
			{at(12, 4, 9), false, "12-03–12-04"},
			{at(12, 5, 9), false, "12-04–12-05"},
		}},
		{"twice the same day", []run{
			{at(11, 30, 9), false, "11-23–11-30"},
			{at(11, 30, 21), false, ""},
			{at(12, 1, 9), false, "11-30–12-01"},
			{at(12, 1, 9), false, ""},
		}},
		{"a failed run's period is the next run's", []run{
			{at(11, 30, 9), false, "11-23–11-30"},
			{at(12, 1, 9), true, ""},
			{at(12, 2, 9), false, "11-30–12-01"},
			{at(12, 3, 9), false, "12-01–12-03"},
		}},
		{"after a long gap, the previous week again", []run{
			{at(11, 2, 9), false, "10-26–11-02"},
			{at(12, 14, 9), false, "12-07–12-14"},
		}},
	}
	for _, kind := range storeKinds() {
		for _, c := range cases {
			t.Run(kind.name+"/"+c.name, func(t *testing.T) {
				st, _ := kind.open(t)
				ctx := context.Background()
				if err := st.SetDigestChat(ctx, "feishu/oc_a", true); err != nil {
					t.Fatal(err)
				}
				p := newPlatform(false)
				for i, r := range c.runs {
					before := len(p.taken("oc_a"))
					// A preview (Due) says what the run sends and changes
					// nothing: asked twice, the run still sends it.
					for range 2 {
						due, ok, err := process(st, p, r.at, loc).Due(ctx, "feishu/oc_a", r.at)
						if got := due.From.Format("01-02") + "–" + due.To.Format("01-02"); err != nil || !r.fail && (ok != (r.want != "") || ok && got != r.want) {
							t.Errorf("run %d: Due = %s, %v, %v; want %q", i, got, ok, err, r.want)
						}
					}
					if r.fail {
						p.fault = func(string, string) (bool, error) { return false, errors.New("HTTP 500") }
					}
					var wg sync.WaitGroup
					for range 2 { // two replicas
						wg.Add(1)
						go func() { defer wg.Done(); _, _ = process(st, p, r.at, loc).RunOnce(ctx) }()
					}
					wg.Wait()
					// A third replica whose run of the same schedule comes
					// after the others finished sends nothing more.
					_, _ = process(st, p, r.at.Add(time.Minute), loc).RunOnce(ctx)
					p.fault = nil
					got := p.taken("oc_a")[before:]
					want := []string(nil)
					if r.want != "" {
						want = []string{r.want, "members", "platforms"}
					}
					if strings.Join(got, " ") != strings.Join(want, " ") {
						t.Errorf("run %d at %s: sent %q, want %q", i, r.at.Format("01-02 15:04"), got, want)
					}
				}
			})
		}
	}
}

// TestNextPeriod: the period model, pure.
func TestNextPeriod(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	d := func(month time.Month, day, hour int) time.Time {
		return time.Date(2026, month, day, hour, 0, 0, 0, loc)
	}
	cases := []struct {
		last, now time.Time
		from, to  time.Time
		ok        bool
	}{
		{time.Time{}, d(11, 30, 9), d(11, 23, 0), d(11, 30, 0), true}, // first: the previous ISO week
		{time.Time{}, d(11, 29, 23), d(11, 16, 0), d(11, 23, 0), true},
		{d(11, 30, 0), d(11, 30, 9), time.Time{}, time.Time{}, false},
		{d(11, 30, 0), d(12, 1, 0), d(11, 30, 0), d(12, 1, 0), true},
		{d(11, 30, 0), d(12, 7, 9), d(11, 30, 0), d(12, 7, 0), true},
		{d(10, 1, 0), d(12, 7, 9), d(11, 30, 0), d(12, 7, 0), true}, // past MaxDigestGap
		// 00:30 UTC on Monday is 08:30 in Shanghai: Monday's period.
		{d(11, 23, 0), time.Date(2026, 11, 30, 0, 30, 0, 0, time.UTC), d(11, 23, 0), d(11, 30, 0), true},
	}
	for _, c := range cases {
		p, ok := jobs.NextPeriod(c.last, c.now, loc)
		if ok != c.ok || ok && (!p.From.Equal(c.from) || !p.To.Equal(c.to)) {
			t.Errorf("NextPeriod(%v, %v) = %v–%v, %v; want %v–%v, %v", c.last, c.now, p.From, p.To, ok, c.from, c.to, c.ok)
		}
	}
}

// ledgerStore is a digestStore with the ledger (the budget check reads
// it).
type ledgerStore interface {
	digestStore
	jobs.StorageEvents
	AppendStorageEvents(ctx context.Context, events []ledger.StorageEvent) error
}

// TestBudgetNoticeKeyedAcrossRestart: a budget notice one of the lab's
// chats missed (its platform refused) reaches that chat at the next run,
// after a restart, and not again the chat that had it: the notice's key
// is its claim, budget:<lab>:<month>:<percent>.
func TestBudgetNoticeKeyedAcrossRestart(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	for _, kind := range storeKinds() {
		t.Run(kind.name, func(t *testing.T) {
			st, reopen := kind.open(t)
			ctx := context.Background()
			// 1050 GB at 0.01 CNY/GB-day beyond 50 free: 10 CNY a day from 1 Nov.
			if err := st.(ledgerStore).AppendStorageEvents(ctx, []ledger.StorageEvent{{Time: time.Date(2026, 11, 1, 0, 0, 0, 0, loc), Lab: "nlp",
				Owner: "ou_a", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 1050}}); err != nil {
				t.Fatal(err)
			}
			p := newPlatform(false)
			var keys []string
			run := func(st digestStore, at time.Time) error {
				ob := chat.NewOutbox("feishu", p, chat.OutboxOptions{Retry: retry.Policy{Tries: 1}, Delivered: st})
				b := &jobs.Budget{Events: st.(ledgerStore), Claims: st, Budgets: map[string]float64{"nlp": 100}, Location: loc,
					Price: func(string, bool) (float64, float64, bool) { return 0.01, 50, true },
					Chats: func(string) []string { return []string{"feishu/oc_a", "feishu/oc_b"} },
					Send: func(ctx context.Context, ck string, r chat.Reply, o chat.SendOptions) error {
						keys = append(keys, o.IdempotencyKey)
						return chat.Channels{"feishu": ob}.Send(ctx, ck, r, o)
					},
					Now: func() time.Time { return at }}
				_, err := b.RunOnce(ctx)
				return err
			}
			refuse := true // oc_b's platform refuses the first notice
			p.fault = func(chatID, _ string) (bool, error) {
				if chatID == "oc_b" && refuse {
					return false, errors.New("HTTP 500")
				}
				return true, nil
			}
			if err := run(st, time.Date(2026, 11, 6, 1, 0, 0, 0, loc)); err == nil { // 50 CNY: 50%
				t.Error("the refused chat was not reported")
			}
			refuse = false
			st = reopen()
			if err := run(st, time.Date(2026, 11, 6, 2, 0, 0, 0, loc)); err != nil {
				t.Fatal(err)
			}
			if a, b := len(p.taken("oc_a")), len(p.taken("oc_b")); a != 3 || b != 3 {
				t.Errorf("oc_a got %d parts, oc_b %d; want the notice (3 parts) once each", a, b)
			}
			for _, k := range keys {
				if k != "budget:nlp:2026-11:50" {
					t.Errorf("sent under key %q", k)
				}
			}
		})
	}
}

// TestDigestAfterUpgrade: a chat whose previous week the bot sent before
// it kept marks (it claimed digest:<chat>:<ISO week>) does not get that
// week again: its first scheduled digest covers the days since.
func TestDigestAfterUpgrade(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	for _, kind := range storeKinds() {
		t.Run(kind.name, func(t *testing.T) {
			st, _ := kind.open(t)
			ctx := context.Background()
			if err := st.SetDigestChat(ctx, "feishu/oc_a", true); err != nil {
				t.Fatal(err)
			}
			if ok, err := st.ClaimAlert(ctx, "digest:feishu/oc_a:2026-W48", jobs.DigestClaimTTL); err != nil || !ok {
				t.Fatal(ok, err)
			}
			p := newPlatform(false)
			for _, c := range []struct {
				at   time.Time
				want string
			}{
				{time.Date(2026, 12, 2, 9, 0, 0, 0, loc), "11-30–12-02 members platforms"},
				{time.Date(2026, 12, 3, 9, 0, 0, 0, loc), "11-30–12-02 members platforms 12-02–12-03 members platforms"},
			} {
				if _, err := process(st, p, c.at, loc).RunOnce(ctx); err != nil {
					t.Fatal(err)
				}
				if got := strings.Join(p.taken("oc_a"), " "); got != c.want {
					t.Errorf("at %s sent %q, want %q", c.at.Format("01-02"), got, c.want)
				}
			}
		})
	}
}
