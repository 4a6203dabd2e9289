package feishu_test

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat/claim"
	redisstore "github.com/labgpu/bot/internal/store/redis"
	"github.com/labgpu/bot/internal/store/storetest"
)

// redisBot is a webhook bot whose dedup claims go to a redis-server of
// the test's own through a StoreDeduper.
type redisBot struct {
	t     *testing.T
	srv   *storetest.RedisServer
	st    *redisstore.Store
	d     *claim.StoreDeduper
	f     *fake
	h     *recHandler
	hh    http.Handler
	dlogs *syncBuffer // the deduper's log
}

func newRedisBot(t *testing.T, opts claim.StoreDeduperOptions) *redisBot {
	t.Helper()
	rb := &redisBot{t: t, srv: storetest.StartRedis(t), f: newFake(t), h: &recHandler{}, dlogs: &syncBuffer{}}
	st, err := redisstore.Open(context.Background(), rb.srv.URL(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rb.st = st
	opts.Log = slog.New(slog.NewTextHandler(rb.dlogs, nil))
	rb.d = newDeduper(t, st, opts)
	bo := baseOptions(rb.f, rb.h, nil)
	bo.Dedup = rb.d
	rb.hh = newBot(t, bo).HTTPHandler()
	// A first event through the store, so that the client has a
	// connection open when the server is paused.
	rb.deliver("ev-warm", http.StatusOK)
	rb.waitAnswers(1)
	return rb
}

// deliver posts a fresh delivery of the group event id (message "om-"+id)
// and checks the status.
func (rb *redisBot) deliver(id string, want int) time.Duration {
	rb.t.Helper()
	start := time.Now()
	rec := deliver(rb.hh, sealed(groupEvent(rb.t, id, "om-"+id, "", nil), time.Now()))
	if rec.Code != want {
		rb.t.Fatalf("delivery of %s: HTTP %d %s, want %d", id, rec.Code, rec.Body, want)
	}
	return time.Since(start)
}

// waitAnswers waits until n replies were posted, then checks that no
// more follow.
func (rb *redisBot) waitAnswers(n int) {
	rb.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(rb.f.messages()) < n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	if got := rb.f.messages(); len(got) != n {
		rb.t.Fatalf("%d replies posted, want %d (handled %q)", len(got), n, rb.h.texts())
	}
}

// owner is the store's claim on key.
func (rb *redisBot) owner(key string) (string, bool) {
	rb.t.Helper()
	o, held, err := rb.st.ClaimOwner(context.Background(), key)
	if err != nil {
		rb.t.Fatalf("claim owner %s: %v", key, err)
	}
	return o, held
}

// waitFree waits until the store holds no claim on key, twice in a row.
func (rb *redisBot) waitFree(key string) {
	rb.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for free := 0; free < 2; time.Sleep(100 * time.Millisecond) {
		if _, held := rb.owner(key); held {
			free = 0
		} else {
			free++
		}
		if time.Now().After(deadline) {
			rb.t.Fatalf("the store still holds %s", key)
		}
	}
}

// setCalls is how many SET commands the server has run.
func (rb *redisBot) setCalls() int {
	rb.t.Helper()
	info, err := rb.st.Client().Info(context.Background(), "commandstats").Result()
	if err != nil {
		rb.t.Fatal(err)
	}
	for line := range strings.SplitSeq(info, "\n") {
		if rest, ok := strings.CutPrefix(line, "cmdstat_set:calls="); ok {
			n, _ := strconv.Atoi(rest[:strings.IndexByte(rest, ',')])
			return n
		}
	}
	return 0
}

// TestRedisPausedDuringClaim: Redis is paused (SIGSTOP) while an event is
// claimed, so the claim times out in the bot while Redis applies it once
// it runs again (SIGCONT). Without a fallback window the bot answers 503,
// releases its own late claim, and Feishu's redelivery (same event_id) is
// answered exactly once.
func TestRedisPausedDuringClaim(t *testing.T) {
	rb := newRedisBot(t, claim.StoreDeduperOptions{Window: -1, ClaimTimeout: 300 * time.Millisecond, Replica: "a"})
	before := rb.setCalls()

	rb.srv.Pause()
	took := rb.deliver("ev-paused", http.StatusServiceUnavailable)
	rb.srv.Resume()
	if took > 3*time.Second {
		t.Errorf("the callback took %v with Redis paused; Feishu waits 3 s", took)
	}
	// The SET sent before the pause has run (the bug: it used to stay and
	// swallow the redelivery); the bot, not knowing it as its own, freed
	// it.
	rb.waitFree("feishu:msg:om-ev-paused")
	if after := rb.setCalls(); after <= before {
		t.Errorf("SET calls %d → %d: the timed-out claim never reached Redis", before, after)
	}
	rb.waitAnswers(1) // the warm-up only

	rb.deliver("ev-paused", http.StatusOK)
	rb.waitAnswers(2)
	if o, held := rb.owner("feishu:msg:om-ev-paused"); !held || !strings.HasPrefix(o, "a/") {
		t.Errorf("claim after the redelivery: %q, %v; want replica a's token", o, held)
	}
	rb.deliver("ev-paused", http.StatusOK)
	rb.waitAnswers(2)
	if got := rb.h.texts(); len(got) != 2 {
		t.Errorf("handled %q, want 2 messages (warm-up, the redelivered event once)", got)
	}
}

// TestRedisPausedFallback: the same pause with the fallback window (the
// production setting): the event is answered at once, claimed in the
// process; its redelivery after SIGCONT is not answered again; once
// Redis answers, claims go to it again. One line for the outage, one for
// the recovery.
func TestRedisPausedFallback(t *testing.T) {
	rb := newRedisBot(t, claim.StoreDeduperOptions{ClaimTimeout: 300 * time.Millisecond, ProbeEvery: 50 * time.Millisecond, Replica: "b"})

	rb.srv.Pause()
	took := rb.deliver("ev-paused", http.StatusOK)
	if took > 3*time.Second {
		t.Errorf("the callback took %v with Redis paused; Feishu waits 3 s", took)
	}
	rb.waitAnswers(2)
	if !rb.d.Degraded() || rb.d.Fallbacks() == 0 {
		t.Errorf("degraded %v, fallbacks %d; want the window in use", rb.d.Degraded(), rb.d.Fallbacks())
	}
	rb.srv.Resume()

	rb.deliver("ev-paused", http.StatusOK)
	rb.waitAnswers(2)
	// Its late claim in Redis is released; the window still knows it.
	rb.waitFree("feishu:msg:om-ev-paused")
	rb.deliver("ev-paused", http.StatusOK)
	rb.waitAnswers(2)

	time.Sleep(60 * time.Millisecond) // a probe is due
	rb.deliver("ev-next", http.StatusOK)
	rb.waitAnswers(3)
	if o, held := rb.owner("feishu:msg:om-ev-next"); !held || !strings.HasPrefix(o, "b/") {
		t.Errorf("claim of a new event with Redis back: %q, %v; want it in Redis", o, held)
	}
	if rb.d.Degraded() {
		t.Error("still degraded with Redis back")
	}
	logs := rb.dlogs.String()
	if strings.Count(logs, "store unavailable") != 1 || strings.Count(logs, "store is back") != 1 {
		t.Errorf("want one outage and one recovery line:\n%s", logs)
	}
}

// TestRedisDownFallback: with Redis killed every event is still answered,
// deduplicated in the process (a redelivery is not answered twice),
// counted and logged once; with Redis back claims are in Redis again and
// a redelivery of an event of the outage is still a duplicate.
func TestRedisDownFallback(t *testing.T) {
	rb := newRedisBot(t, claim.StoreDeduperOptions{ClaimTimeout: 300 * time.Millisecond, ProbeEvery: 50 * time.Millisecond, Replica: "c"})

	rb.srv.Kill()
	rb.deliver("ev-down", http.StatusOK)
	rb.waitAnswers(2)
	rb.deliver("ev-down", http.StatusOK)
	rb.waitAnswers(2)
	for i, id := range []string{"ev-down-2", "ev-down-3"} {
		time.Sleep(60 * time.Millisecond) // each probes the store
		rb.deliver(id, http.StatusOK)
		rb.waitAnswers(3 + i)
	}
	if !rb.d.Degraded() || rb.d.Fallbacks() < 3 {
		t.Errorf("degraded %v, fallbacks %d; want degraded and at least 3", rb.d.Degraded(), rb.d.Fallbacks())
	}
	if n := strings.Count(rb.dlogs.String(), "store unavailable"); n != 1 {
		t.Errorf("%d outage lines for several events, want 1:\n%s", n, rb.dlogs)
	}

	rb.srv.Restart()
	time.Sleep(60 * time.Millisecond)
	rb.deliver("ev-up", http.StatusOK)
	rb.waitAnswers(5)
	if o, held := rb.owner("feishu:msg:om-ev-up"); !held || !strings.HasPrefix(o, "c/") {
		t.Errorf("message claim with Redis back: %q, %v; want it in Redis", o, held)
	}
	rb.deliver("ev-down", http.StatusOK)
	rb.waitAnswers(5)
	if rb.d.Degraded() {
		t.Error("still degraded")
	}
	if n := strings.Count(rb.dlogs.String(), "store is back"); n != 1 {
		t.Errorf("%d recovery lines, want 1:\n%s", n, rb.dlogs)
	}
}
