package redis_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/labgpu/bot/internal/stock"
	redisstore "github.com/labgpu/bot/internal/store/redis"
	"github.com/labgpu/bot/internal/store/storetest"
)

// Compile-time check: the Redis store implements every store interface.
var _ storetest.Store = (*redisstore.Store)(nil)

func redisURL() string {
	if u := os.Getenv("REDIS_URL"); u != "" {
		return u
	}
	return redisstore.DefaultURL
}

// redacted is the URL without its password, for messages.
func redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable REDIS_URL)"
	}
	return u.Redacted()
}

// testPrefix is a key prefix no other test run uses.
func testPrefix(t testing.TB) string {
	t.Helper()
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return "labgpu-test:" + hex.EncodeToString(b[:]) + ":"
}

// open connects to REDIS_URL with prefix. Without a server it skips the
// test, or fails it when CI is set. The store is closed at the end of the
// test.
func open(t testing.TB, prefix string) *redisstore.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	raw := redisURL()
	s, err := redisstore.Open(ctx, raw, prefix)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no Redis at %s (CI is set, so this fails): %v", redacted(raw), err)
		}
		t.Skipf("no Redis at %s (set REDIS_URL to test against another server): %v", redacted(raw), err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newStore opens a store under a fresh prefix whose keys are deleted at the
// end of the test.
func newStore(t testing.TB) *redisstore.Store {
	t.Helper()
	s := open(t, testPrefix(t))
	// Registered after open's Close, so it runs before it.
	t.Cleanup(func() { deleteKeys(t, s.Client(), s.Prefix()) })
	return s
}

func keys(t testing.TB, c goredis.UniversalClient, prefix string) []string {
	t.Helper()
	var out []string
	iter := c.Scan(context.Background(), 0, prefix+"*", 100).Iterator()
	for iter.Next(context.Background()) {
		out = append(out, iter.Val())
	}
	if err := iter.Err(); err != nil {
		t.Errorf("scan %s*: %v", prefix, err)
	}
	return out
}

func deleteKeys(t testing.TB, c goredis.UniversalClient, prefix string) {
	t.Helper()
	ks := keys(t, c, prefix)
	if len(ks) == 0 {
		return
	}
	if err := c.Del(context.Background(), ks...).Err(); err != nil {
		t.Errorf("delete test keys under %s: %v", prefix, err)
	}
}

func TestConformance(t *testing.T) {
	storetest.All(t, newStore(t))
}

// TestReplicas: two stores on their own connections (two replicas) share
// the lock and the alert claims.
func TestReplicas(t *testing.T) {
	prefix := testPrefix(t)
	a := open(t, prefix)
	b := open(t, prefix)
	t.Cleanup(func() { deleteKeys(t, a.Client(), prefix) })
	ctx := context.Background()

	if ok, err := a.TryLock(ctx, "poller", "replica-a", time.Minute); err != nil || !ok {
		t.Fatalf("replica a: TryLock = %v, %v; want true", ok, err)
	}
	if ok, err := b.TryLock(ctx, "poller", "replica-b", time.Minute); err != nil || ok {
		t.Fatalf("replica b: TryLock = %v, %v; want false", ok, err)
	}
	if ok, err := a.TryLock(ctx, "poller", "replica-a", time.Minute); err != nil || !ok {
		t.Fatalf("replica a renews: TryLock = %v, %v; want true", ok, err)
	}
	if err := b.Unlock(ctx, "poller", "replica-b"); err != nil {
		t.Fatal(err)
	}
	if ok, err := b.TryLock(ctx, "poller", "replica-b", time.Minute); err != nil || ok {
		t.Fatalf("replica b after its own Unlock: TryLock = %v, %v; want false", ok, err)
	}
	if err := a.Unlock(ctx, "poller", "replica-a"); err != nil {
		t.Fatal(err)
	}
	if ok, err := b.TryLock(ctx, "poller", "replica-b", time.Minute); err != nil || !ok {
		t.Fatalf("replica b after a's Unlock: TryLock = %v, %v; want true", ok, err)
	}

	// Both replicas claim the same alerts at the same time: each goes out
	// once.
	for round := range 5 {
		key := "s-1/" + string(rune('0'+round))
		won := storetest.Race(t, 20, "claim", func(i int) (bool, error) {
			return []*redisstore.Store{a, b}[i%2].ClaimAlert(ctx, key, time.Minute)
		})
		if won != 1 {
			t.Errorf("claim %s: %d of 20 won across two replicas, want 1", key, won)
		}
	}

	// A subscription added on one replica is seen by the other.
	if err := a.AddSubscription(ctx, stock.Subscription{ID: "s-1", GPUs: []string{"RTX 4090"}}); err != nil {
		t.Fatal(err)
	}
	subs, err := b.Subscriptions(ctx)
	if err != nil || len(subs) != 1 || subs[0].ID != "s-1" {
		t.Errorf("replica b lists %+v, %v; want s-1", subs, err)
	}

	// Disks registered on both replicas at once get distinct numbers;
	// conditional appends from both are decided one at a time.
	t.Run("ConcurrentRegistrations", func(t *testing.T) { storetest.ConcurrentRegistrations(t, a, b) })
	t.Run("ConditionalAppend", func(t *testing.T) { storetest.ConditionalAppend(t, a, b) })
	t.Run("SubscribeOnce", func(t *testing.T) { storetest.SubscribeOnce(t, a, b) })
	t.Run("UpdateBlobs", func(t *testing.T) { storetest.UpdateBlobs(t, a, b) })
	t.Run("HistoryHandover", func(t *testing.T) { storetest.HistoryHandover(t, a, b) })
}

// TestKeyLayout pins the documented key names and their expiry.
func TestKeyLayout(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	p := s.Prefix()
	c := s.Client()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.SaveProviderSnapshot(ctx, stock.ProviderSnapshot{Provider: "autodl"}))
	must(s.AddSubscription(ctx, stock.Subscription{ID: "s-1"}))
	must(s.PutNotifyRecords(ctx, []stock.NotifyRecord{{SubscriptionID: "s-1"}}))
	if _, err := s.ClaimAlert(ctx, "s-1/1", time.Hour); err != nil {
		t.Fatal(err)
	}
	until := time.Now().Add(time.Hour)
	must(s.SetMute(ctx, "feishu/oc", until))
	if _, err := s.TryLock(ctx, "poller", "a", time.Hour); err != nil {
		t.Fatal(err)
	}
	for k, typ := range map[string]string{"snapshots": "hash", "subscriptions": "hash", "notify": "hash",
		"claim:s-1/1": "string", "mute:feishu/oc": "string", "lock:poller": "string"} {
		got, err := c.Type(ctx, p+k).Result()
		if err != nil || got != typ {
			t.Errorf("TYPE %s = %q, %v; want %s", p+k, got, err, typ)
		}
	}
	for _, k := range []string{"snapshots", "subscriptions", "notify"} {
		if ttl := c.PTTL(ctx, p+k).Val(); ttl != -1 {
			t.Errorf("PTTL %s = %v, want no expiry", k, ttl)
		}
	}
	for _, k := range []string{"claim:s-1/1", "mute:feishu/oc", "lock:poller"} {
		if ttl := c.PTTL(ctx, p+k).Val(); ttl <= 59*time.Minute || ttl > time.Hour+10*time.Millisecond {
			t.Errorf("PTTL %s = %v, want about an hour", k, ttl)
		}
	}
	if owner := c.Get(ctx, p+"lock:poller").Val(); owner != "a" {
		t.Errorf("lock value = %q, want the owner", owner)
	}
	if n := len(keys(t, c, p)); n != 6 {
		t.Errorf("%d keys under %s, want 6", n, p)
	}
}

func TestDefaultPrefix(t *testing.T) {
	c := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1"})
	s := redisstore.New(c, "")
	defer s.Close()
	if s.Prefix() != redisstore.DefaultPrefix || redisstore.DefaultPrefix != "labgpu:" {
		t.Errorf("prefix = %q, want %q", s.Prefix(), "labgpu:")
	}
}

// TestOpenErrors: failures name the host and never the password.
func TestOpenErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, tc := range []struct{ url, host string }{
		{"redis://user:s3cret@127.0.0.1:1/0", "127.0.0.1:1"},
		{"http://user:s3cret@example.com:6379/0", "example.com:6379"},
		{"redis://user:s3cret@127.0.0.1:6379/notadb", "127.0.0.1:6379"},
		{"redis://user:s3cret@[::1/0", ""},
	} {
		s, err := redisstore.Open(ctx, tc.url, "")
		if err == nil {
			s.Close()
			t.Errorf("Open(%s) succeeded, want an error", tc.url)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open error reveals the password: %v", err)
		}
		if !strings.Contains(err.Error(), tc.host) {
			t.Errorf("Open error %q does not name the host %s", err, tc.host)
		}
	}
}

// TestCanceledContext: a canceled context fails every kind of call.
func TestCanceledContext(t *testing.T) {
	s := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Subscriptions(ctx); err == nil {
		t.Error("Subscriptions: no error")
	}
	if _, err := s.TryLock(ctx, "poller", "a", time.Minute); err == nil {
		t.Error("TryLock: no error")
	}
	if err := s.SetMute(ctx, "feishu/oc", time.Now().Add(time.Hour)); err == nil {
		t.Error("SetMute: no error")
	}
}
