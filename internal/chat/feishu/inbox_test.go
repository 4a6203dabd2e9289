package feishu_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat/claim"
	"github.com/labgpu/bot/internal/chat/feishu"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
	"github.com/labgpu/bot/internal/store/storetest"
)

// parkStore is what a Feishu bot keeps in the bot's store.
type parkStore interface {
	feishu.Deduper
	feishu.Inbox
	Delivered(ctx context.Context, key string) (bool, error)
	MarkDelivered(ctx context.Context, key string, ttl time.Duration) error
	Close() error
}

// parkStores open a real store and reopen it as a restart does: the
// embedded file, and Redis at REDIS_URL under a prefix of the test's own
// (skipped without a server unless CI is set).
var parkStores = []struct {
	name string
	open func(t *testing.T) (parkStore, func() parkStore)
}{
	{"embedded", func(t *testing.T) (parkStore, func() parkStore) {
		dir := t.TempDir()
		open := func() parkStore {
			st, err := embedded.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		cur := open()
		t.Cleanup(func() { cur.Close() })
		return cur, func() parkStore { cur.Close(); cur = open(); return cur }
	}},
	{"redis", func(t *testing.T) (parkStore, func() parkStore) {
		url := os.Getenv("REDIS_URL")
		if url == "" {
			url = redisstore.DefaultURL
		}
		prefix := fmt.Sprintf("labgpu-park-%d:", time.Now().UnixNano())
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
		cur := open()
		t.Cleanup(func() {
			ctx := context.Background()
			if keys, _ := cur.Client().Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
				cur.Client().Del(ctx, keys...)
			}
			cur.Close()
		})
		return cur, func() parkStore { cur.Close(); cur = open(); return cur }
	}},
}

// TestShutdownKeepsQueuedAnswers: twelve questions answered 200 to
// Feishu, a slow open platform (600 ms a message), SIGTERM and a one
// second grace: what the grace cut off is kept in the store, and the
// next start sends it; every question is answered exactly once across
// the restart, whether Feishu was slow to take a message (the cut one
// never arrived) or slow to answer after taking it (the cut one arrived
// and is sent again under its uuid, which Feishu drops).
func TestShutdownKeepsQueuedAnswers(t *testing.T) {
	const n, grace = 12, time.Second
	for _, kind := range parkStores {
		for _, slowAfter := range []bool{false, true} {
			name := kind.name + "/slow to take"
			if slowAfter {
				name = kind.name + "/slow to answer"
			}
			t.Run(name, func(t *testing.T) {
				f := newFake(t)
				f.slow, f.slowAfter, f.uuids = 600*time.Millisecond, slowAfter, map[string]bool{}
				st, reopen := kind.open(t)
				var logs syncBuffer
				start := func(ctx context.Context, st parkStore) (*feishu.Bot, *claim.StoreDeduper) {
					t.Helper()
					opts := baseOptions(f, &recHandler{}, &logs)
					d := newDeduper(t, st, claim.StoreDeduperOptions{})
					opts.Dedup, opts.Inbox, opts.Delivered, opts.DrainTimeout = d, st, st, grace
					b, err := feishu.New(ctx, opts)
					if err != nil {
						t.Fatal(err)
					}
					return b, d
				}
				ctx, sigterm := context.WithCancel(context.Background())
				b, d := start(ctx, st)
				hh := b.HTTPHandler()
				now := time.Now()
				for i := range n {
					ev := p2pEvent(t, fmt.Sprintf("ev-park-%d", i), fmt.Sprintf("om-park-%d", i), fmt.Sprintf("q%d", i))
					sub(sub(ev, "event"), "message")["chat_id"] = fmt.Sprintf("oc_park_%d", i)
					if rec := deliver(hh, sealed(ev, now)); rec.Code != http.StatusOK {
						t.Fatalf("event %d: HTTP %d", i, rec.Code)
					}
				}
				sigterm()
				began := time.Now()
				_ = b.Close()
				if took := time.Since(began); took > grace+3*time.Second {
					t.Errorf("Close took %v with a %v grace", took, grace)
				}
				before := answers(t, f, n)
				if before == n {
					t.Fatalf("all %d answered within the grace: the test cut nothing off", n)
				}
				if !strings.Contains(logs.String(), "parked=") {
					t.Errorf("no parked answers logged:\n%s", logs.String())
				}
				// Restart over the same store; Feishu is still slow.
				_ = d.Close()
				st = reopen()
				b2, _ := start(context.Background(), st)
				t.Cleanup(func() { _ = b2.Close() })
				deadline := time.Now().Add(20 * time.Second)
				for answers(t, f, n) < n && time.Now().Before(deadline) {
					time.Sleep(50 * time.Millisecond)
				}
				time.Sleep(700 * time.Millisecond) // a late duplicate would land by now
				if got := answers(t, f, n); got != n || len(f.messages()) != n {
					t.Errorf("%d of %d answered (%d before the restart), %d messages in all; want each once", got, n, before, len(f.messages()))
				}
			})
		}
	}
}

// answers counts the questions answered, failing the test for one
// answered twice.
func answers(t *testing.T, f *fake, n int) int {
	t.Helper()
	count := map[string]int{}
	for _, m := range f.messages() {
		count[m.text(t)]++
	}
	got := 0
	for i := range n {
		switch c := count[fmt.Sprintf("echo: q%d", i)]; {
		case c == 1:
			got++
		case c > 1:
			t.Fatalf("q%d answered %d times", i, c)
		}
	}
	return got
}

// TestParkedAnswerSaysWhenItWasMade: an answer made before the shutdown
// and sent well after the next start says when it was made (its figures
// are as of then); one sent soon after does not.
func TestParkedAnswerSaysWhenItWasMade(t *testing.T) {
	for _, c := range []struct {
		later time.Duration
		note  bool
	}{{0, false}, {2 * time.Hour, true}} {
		t.Run(c.later.String(), func(t *testing.T) {
			f := newFake(t)
			f.slow, f.uuids = 2*time.Second, map[string]bool{}
			st, reopen := parkStores[0].open(t)
			h := &recHandler{got: make(chan struct{}, 1)}
			opts := baseOptions(f, h, nil)
			opts.Inbox, opts.Delivered, opts.DrainTimeout = st, st, 300*time.Millisecond
			ctx, sigterm := context.WithCancel(context.Background())
			b, err := feishu.New(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			if rec := deliver(b.HTTPHandler(), sealed(p2pEvent(t, "ev-note", "om-note", "q"), time.Now())); rec.Code != http.StatusOK {
				t.Fatal(rec.Code)
			}
			<-h.got // answered (the grace ends 300 ms after Close), its post under way
			sigterm()
			_ = b.Close()
			if len(f.messages()) != 0 {
				t.Fatal("the answer went out before the cut")
			}
			f.mu.Lock()
			f.slow = 0
			f.mu.Unlock()
			st = reopen()
			opts = baseOptions(f, &recHandler{}, nil)
			opts.Inbox, opts.Delivered = st, st
			opts.Now = func() time.Time { return time.Now().Add(c.later) }
			newBot(t, opts)
			deadline := time.Now().Add(10 * time.Second)
			for len(f.messages()) == 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			msgs := f.messages()
			if len(msgs) != 1 {
				t.Fatalf("%d messages after the restart, want the answer once", len(msgs))
			}
			text := msgs[0].text(t)
			if !strings.HasPrefix(text, "echo: q") || strings.Contains(text, "重启前") != c.note {
				t.Errorf("sent %q; a note of when it was made: %v", text, c.note)
			}
		})
	}
}

// TestKilledReplicaAnswerTakenOver: replica A acknowledges a question
// (HTTP 200) and dies while answering it (its lease is no longer
// renewed, its answer never made); replica B, on the same store, takes
// the inbox entry over once A's lease ended and answers it. When A's
// answer comes late after all (a replica that was only stalled), it is
// not sent a second time: the idempotency key's parts are delivered.
func TestKilledReplicaAnswerTakenOver(t *testing.T) {
	const lease = 300 * time.Millisecond
	for _, kind := range parkStores {
		t.Run(kind.name, func(t *testing.T) {
			f := newFake(t)
			f.uuids = map[string]bool{}
			st, _ := kind.open(t)
			dedup := newDeduper(t, st, claim.StoreDeduperOptions{})
			hA := &recHandler{gate: make(chan struct{}), got: make(chan struct{}, 1)}
			optsA := baseOptions(f, hA, nil)
			optsA.Dedup, optsA.Inbox, optsA.Delivered, optsA.LeaseTTL, optsA.Replica = dedup, st, st, lease, "replica-a"
			ctxA, killA := context.WithCancel(context.Background())
			a, err := feishu.New(ctxA, optsA)
			if err != nil {
				t.Fatal(err)
			}
			if rec := deliver(a.HTTPHandler(), sealed(p2pEvent(t, "ev-kill", "om-kill", "q"), time.Now())); rec.Code != http.StatusOK {
				t.Fatalf("HTTP %d", rec.Code)
			}
			<-hA.got
			killA()
			feishu.StopLease(a) // A stops renewing its lease, as when killed; its answer hangs
			killed := time.Now()

			optsB := baseOptions(f, &recHandler{}, nil)
			optsB.Dedup, optsB.Inbox, optsB.Delivered, optsB.LeaseTTL, optsB.Replica = dedup, st, st, lease, "replica-b"
			newBot(t, optsB)
			deadline := time.Now().Add(10 * time.Second)
			for len(f.messages()) == 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			took := time.Since(killed)
			if msgs := f.messages(); len(msgs) != 1 || msgs[0].text(t) != "echo: q" {
				t.Fatalf("%d messages after A died; want B's answer once", len(msgs))
			}
			// A renews its lease every third of it, so its last renewal
			// was up to lease/3 before it died: the lease ends between
			// 2/3 and all of the lease after the kill.
			if earliest := lease * 2 / 3; took < earliest {
				t.Errorf("taken over %v after A died, before its %v lease (last renewed at most %v earlier) ended", took, lease, lease/3)
			}
			close(hA.gate) // A was only stalled: its answer comes now
			_ = a.Close()
			time.Sleep(300 * time.Millisecond)
			if n := len(f.messages()); n != 1 {
				t.Errorf("%d messages once A answered late; want 1 (the key's part was delivered)", n)
			}
		})
	}
}

// TestInboxDownRefusesEvent: when the event cannot be kept in the inbox
// the callback does not answer 200 (Feishu delivers it again).
func TestInboxDownRefusesEvent(t *testing.T) {
	f := newFake(t)
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st.Close() // every write fails
	opts := baseOptions(f, &recHandler{}, nil)
	opts.Inbox = st
	b := newBot(t, opts)
	if rec := deliver(b.HTTPHandler(), sealed(p2pEvent(t, "ev-down", "om-down", "q"), time.Now())); rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("HTTP %d with the inbox down; want 503", rec.Code)
	}
	// The claim was released: the redelivery is not taken for a duplicate.
	opts2 := baseOptions(f, &recHandler{}, nil)
	opts2.Dedup = opts.Dedup
	b2 := newBot(t, opts2)
	if rec := deliver(b2.HTTPHandler(), sealed(p2pEvent(t, "ev-down", "om-down", "q"), time.Now())); rec.Code != http.StatusOK {
		t.Fatalf("redelivery: HTTP %d", rec.Code)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(f.messages()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(f.messages()) != 1 {
		t.Errorf("%d answers to the redelivery; want 1", len(f.messages()))
	}
}

// TestAnsweredWhileStoreDownCleared: an answer sent while Redis is down
// cannot clear its inbox entry then; it is cleared once Redis is back,
// so that the entry is not taken over (and answered again) when this
// replica is gone later.
func TestAnsweredWhileStoreDownCleared(t *testing.T) {
	srv := storetest.StartRedis(t)
	prefix := fmt.Sprintf("labgpu-drop-%d:", time.Now().UnixNano())
	st, err := redisstore.Open(context.Background(), srv.URL(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := newFake(t)
	h := &recHandler{gate: make(chan struct{}), got: make(chan struct{}, 1)}
	opts := baseOptions(f, h, nil)
	opts.Inbox, opts.LeaseTTL = st, 300*time.Millisecond
	b := newBot(t, opts)
	if rec := deliver(b.HTTPHandler(), sealed(p2pEvent(t, "ev-drop", "om-drop", "q"), time.Now())); rec.Code != http.StatusOK {
		t.Fatalf("HTTP %d", rec.Code)
	}
	<-h.got
	entry := func() bool {
		n, _ := st.Client().HExists(context.Background(), prefix+"inbox", "e:feishu/"+appID+"/om-drop").Result()
		return n
	}
	if !entry() {
		t.Fatal("no inbox entry for the acknowledged message")
	}
	// Paused, not killed: the entry stays in the server as it would in a
	// deployment's append-only file, and nothing races to put it back.
	srv.Pause()
	close(h.gate) // answered with Redis not answering
	deadline := time.Now().Add(5 * time.Second)
	for len(f.messages()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(f.messages()) != 1 {
		t.Fatalf("%d messages; want the answer", len(f.messages()))
	}
	// The clear failed (Redis down) and waits for the store: only then is
	// the entry put back, so the test does not race the clear's own try.
	deadline = time.Now().Add(30 * time.Second)
	for feishu.DropsPending(b) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if feishu.DropsPending(b) != 1 {
		t.Fatalf("%d clears pending; want the answered message's", feishu.DropsPending(b))
	}
	srv.Resume()
	deadline = time.Now().Add(5 * time.Second)
	for entry() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if entry() {
		t.Error("the answered message's inbox entry is still there 5 s after Redis came back")
	}
}
