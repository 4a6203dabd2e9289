package dump_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/dump"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// full is what both stores are read through here: every kind's own
// methods.
type full interface {
	dump.Target
	stock.SnapshotStore
	stock.SubscriptionStore
	stock.AlertStore
	stock.Locker
	AppendStorageEvents(ctx context.Context, events []ledger.StorageEvent) error
	AddStorageDisk(ctx context.Context, e ledger.StorageEvent) (string, error)
	StorageEvents(ctx context.Context, lab string) ([]ledger.StorageEvent, error)
	SetDigestChat(ctx context.Context, chatKey string, on bool) error
	DigestChats(ctx context.Context) ([]string, error)
	DigestMark(ctx context.Context, chatKey string) (string, error)
	SwapDigestMark(ctx context.Context, chatKey, old, new string) (bool, error)
	GetBlob(ctx context.Context, name string) ([]byte, error)
	PutBlob(ctx context.Context, name string, data []byte) error
	PutHistory(ctx context.Context, chunks map[string][]byte) error
	LoadHistory(ctx context.Context) (map[string][]byte, error)
	ClaimAs(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	ClaimOwner(ctx context.Context, key string) (string, bool, error)
	Delivered(ctx context.Context, key string) (bool, error)
	MarkDelivered(ctx context.Context, key string, ttl time.Duration) error
	PutInbox(ctx context.Context, key, owner string, data []byte, ttl time.Duration) error
	ClaimInbox(ctx context.Context, prefix, taker string, confirm time.Duration) (map[string][]byte, error)
}

var (
	_ full = (*embedded.Store)(nil)
	_ full = (*redisstore.Store)(nil)
)

// The lab state the tests move: every kind, written through the stores'
// own methods.
var (
	at       = time.Date(2026, 11, 23, 9, 30, 0, 0, time.FixedZone("CST", 8*3600))
	subIDs   = []string{"s-1", "s-2", "s-3"}
	chats    = []string{"feishu/oc_lab", "webhook/lab", "wechat/remark:alice"}
	labs     = []string{"feishu/oc_lab", "nlp"}
	blobs    = map[string][]byte{"wechat-hot-login": []byte(`{"Jar":{},"LoginInfo":{"Ret":0}}`), "wechat-admin-bindings": []byte(`[{"remark":"alice"}]`)}
	chunks   = map[string][]byte{"d/autodl/rtx4090/20261123": bytes.Repeat([]byte{1, 2, 3}, 480), "w/autodl/rtx4090/2026W48": {9, 8, 7}}
	claimsIn = map[string]string{"alert:s-1:1": "", "digest:nlp:2026-11-16/2026-11-23": "", "feishu:msg:om_1": "replica-a"}
)

// populate writes every kind of state into s.
func populate(t *testing.T, s full) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, id := range subIDs {
		must(s.AddSubscription(ctx, stock.Subscription{ID: id, Channel: "feishu", ChatID: "oc_lab", OwnerID: "ou_" + id, OwnerName: "成员" + id,
			GPUs: []string{"rtx4090"}, MaxPriceCNY: 2.5, CreatedAt: at.Add(time.Duration(i) * time.Minute)}))
	}
	must(s.PutNotifyRecords(ctx, []stock.NotifyRecord{{SubscriptionID: "s-1", Observed: stock.InStock, Streak: 2, Active: true, NotifiedAt: at, NotifiedPrice: 1.98, Seq: 3},
		{SubscriptionID: "s-2", Observed: stock.SoldOut, Streak: 1}}))
	for i, c := range chats[:2] {
		must(s.SetMute(ctx, c, time.Now().Add(time.Duration(i+1)*time.Hour).Round(time.Microsecond)))
		must(s.SetDigestChat(ctx, c, true))
	}
	if ok, err := s.SwapDigestMark(ctx, chats[0], "", "ended at 2026-11-23T00:00:00+08:00"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	for _, lab := range labs {
		must(s.AppendStorageEvents(ctx, []ledger.StorageEvent{{Time: at, Lab: lab, Owner: "ou_a", OwnerName: "张伟", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 80, Note: "实验数据"},
			{Time: at.Add(time.Hour), Lab: lab, Owner: "ou_a", Platform: "autodl", Disk: "1", Action: ledger.ActionStop}}))
		if _, err := s.AddStorageDisk(ctx, ledger.StorageEvent{Time: at.Add(2 * time.Hour), Lab: lab, Owner: "ou_b", Platform: "matpool", Action: ledger.ActionAdd, SizeGB: 200}); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range blobs {
		must(s.PutBlob(ctx, name, b))
	}
	must(s.PutHistory(ctx, chunks))
	for _, p := range []string{"autodl", "vastai"} {
		must(s.SaveProviderSnapshot(ctx, stock.ProviderSnapshot{Provider: p, Status: stock.StatusOK, FetchedAt: at,
			Offers: []stock.Offer{{Platform: p, GPU: "rtx4090", CNYPerGPUHour: 1.98, Free: stock.IntPtr(3), Source: stock.SourceLive, ObservedAt: at}}}))
	}
	for key, owner := range claimsIn {
		var ok bool
		var err error
		if owner == "" {
			ok, err = s.ClaimAlert(ctx, key, time.Hour)
		} else {
			ok, err = s.ClaimAs(ctx, key, owner, time.Hour)
		}
		if !ok || err != nil {
			t.Fatal(key, ok, err)
		}
	}
	must(s.MarkDelivered(ctx, "reply:om_1#0", time.Hour))
	must(s.MarkDelivered(ctx, "alert:s-1:1#0", time.Hour))
	// The inbox (events acknowledged, not answered yet) is transient: not
	// moved (sameState).
	must(s.PutInbox(ctx, "feishu/app/om_2", "", []byte(`{"chat":"oc_lab","text":"RTX 4090"}`), time.Hour))
	if ok, err := s.TryLock(ctx, "poll", "replica-a", time.Minute); !ok || err != nil {
		t.Fatal(ok, err)
	}
}

// wantCounts is what populate writes, per kind.
var wantCounts = dump.Counts{dump.Subscriptions: 3, dump.AlertRecords: 2, dump.Mutes: 2, dump.DigestChats: 2, dump.DigestMarks: 1,
	dump.Ledger: 6, dump.Blobs: 2, dump.History: 2, dump.Snapshots: 2, dump.Claims: 3, dump.Delivered: 2, dump.Locks: 1}

func openEmbedded(t *testing.T) *embedded.Store {
	t.Helper()
	s, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// openRedis is a Redis store under a fresh prefix on REDIS_URL, its keys
// deleted afterwards; without a server the test skips (fails under CI).
func openRedis(t *testing.T) *redisstore.Store {
	t.Helper()
	raw := os.Getenv("REDIS_URL")
	var b [8]byte
	rand.Read(b[:])
	prefix := "labgpu-test:" + hex.EncodeToString(b[:]) + ":"
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	s, err := redisstore.Open(ctx, raw, prefix)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no Redis (CI is set, so this fails): %v", err)
		}
		t.Skipf("no Redis: %v", err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		iter := s.Client().Scan(ctx, 0, prefix+"*", 500).Iterator()
		for iter.Next(ctx) {
			s.Client().Del(ctx, iter.Val())
		}
		s.Close()
	})
	return s
}

// TestMoveEmbeddedToRedis: a populated embedded store, every kind,
// moved into Redis under a key prefix: equal counts of every kind, the
// values read back equal through the Redis store's own methods, the lock
// left behind; a second move is refused, and with force replaces.
func TestMoveEmbeddedToRedis(t *testing.T) {
	src, dst := openEmbedded(t), openRedis(t)
	populate(t, src)
	ctx := context.Background()
	rep, err := dump.Move(ctx, src, dst, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("source %s", rep.Source)
	t.Logf("target %s", rep.After)
	for _, k := range dump.Kinds {
		want := wantCounts[k]
		if k == dump.Locks {
			if rep.Source[k] != want || rep.Moved[k] != 0 || rep.After[k] != 0 {
				t.Errorf("locks: source %d moved %d after %d; want %d, 0, 0", rep.Source[k], rep.Moved[k], rep.After[k], want)
			}
			continue
		}
		if rep.Source[k] != want || rep.Moved[k] != want || rep.After[k] != want {
			t.Errorf("%s: source %d moved %d after %d; want %d each", k, rep.Source[k], rep.Moved[k], rep.After[k], want)
		}
	}
	sameState(t, src, dst)
	for key, owner := range claimsIn {
		if o, held, err := dst.ClaimOwner(ctx, key); !held || err != nil || (owner != "" && o != owner) {
			t.Errorf("claim %s in Redis: owner %q held %v %v; want %q", key, o, held, err, owner)
		}
	}
	if ok, err := dst.TryLock(ctx, "poll", "replica-b", time.Minute); !ok || err != nil {
		t.Errorf("the poll lock was moved: %v %v", ok, err)
	}
	if _, err := dump.Move(ctx, src, dst, false); !errors.Is(err, dump.ErrNotEmpty) {
		t.Errorf("second move: %v, want ErrNotEmpty", err)
	}
	rep, err = dump.Move(ctx, src, dst, true)
	if err != nil || rep.Before[dump.Ledger] != 6 || rep.After[dump.Ledger] != 6 {
		t.Errorf("forced move: %v, before %s, after %s", err, rep.Before, rep.After)
	}
}

// TestMoveRedisToEmbedded: the way back (a backup of the Redis store is
// one) keeps every kind too.
func TestMoveRedisToEmbedded(t *testing.T) {
	src, dst := openRedis(t), openEmbedded(t)
	populate(t, src)
	rep, err := dump.Move(context.Background(), src, dst, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range dump.Kinds {
		if want := wantCounts[k]; k != dump.Locks && (rep.Source[k] != want || rep.After[k] != want) {
			t.Errorf("%s: source %d after %d; want %d", k, rep.Source[k], rep.After[k], want)
		}
	}
	sameState(t, src, dst)
}

// sameState reads every kind from both stores through their own methods
// and compares.
func sameState(t *testing.T, a, b full) {
	t.Helper()
	ctx := context.Background()
	same := func(what string, read func(s full) (any, error)) {
		t.Helper()
		x, errA := read(a)
		y, errB := read(b)
		if errA != nil || errB != nil {
			t.Errorf("%s: %v / %v", what, errA, errB)
			return
		}
		jx, _ := json.Marshal(x)
		jy, _ := json.Marshal(y)
		if !bytes.Equal(jx, jy) {
			t.Errorf("%s differ:\n%s\n%s", what, jx, jy)
		}
	}
	same("subscriptions", func(s full) (any, error) { return s.Subscriptions(ctx) })
	same("alert records", func(s full) (any, error) { return s.NotifyRecords(ctx, subIDs) })
	same("ledger", func(s full) (any, error) { return s.StorageEvents(ctx, "") })
	same("digest chats", func(s full) (any, error) { return s.DigestChats(ctx) })
	same("history", func(s full) (any, error) { return s.LoadHistory(ctx) })
	same("snapshots", func(s full) (any, error) { return s.LoadProviderSnapshots(ctx) })
	for _, c := range chats {
		same("mute "+c, func(s full) (any, error) {
			u, err := s.MutedUntil(ctx, c)
			return u.UnixNano(), err
		})
		same("digest mark "+c, func(s full) (any, error) { return s.DigestMark(ctx, c) })
	}
	for name := range blobs {
		same("blob "+name, func(s full) (any, error) { return s.GetBlob(ctx, name) })
	}
	for key, owner := range claimsIn {
		same("claim "+key, func(s full) (any, error) {
			o, held, err := s.ClaimOwner(ctx, key)
			if o == "1" { // Redis's value of a claim without an owner
				o = ""
			}
			return []any{o == owner, held}, err
		})
	}
	for _, key := range []string{"reply:om_1#0", "alert:s-1:1#0", "reply:om_9#0"} {
		same("delivered "+key, func(s full) (any, error) { return s.Delivered(ctx, key) })
	}
	// The inbox is not moved: the target has none of the source's.
	if got, err := b.ClaimInbox(ctx, "feishu/", "replica-check", 0); err != nil || len(got) != 0 {
		t.Errorf("inbox moved: %q, %v; want it left behind (transient)", got, err)
	}
}
