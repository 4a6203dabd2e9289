// Package storetest is the conformance suite every store implementation
// (embedded, Redis) must pass.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/stock"
)

// Store is a full store implementation: every interface the suite checks.
type Store interface {
	stock.SnapshotStore
	stock.SubscriptionStore
	stock.AlertStore
	stock.Locker
	BlobStore
	LedgerStore
	OwnedClaimStore
	HistoryStore
	SendStore
	SubscriptionAdder
	BlobUpdater
	FrameStore
}

// All runs every check of the suite on s, each as a subtest.
func All(t *testing.T, s Store) {
	t.Helper()
	t.Run("Snapshots", func(t *testing.T) { Snapshots(t, s) })
	t.Run("Subscriptions", func(t *testing.T) { Subscriptions(t, s) })
	t.Run("SubscribeOnce", func(t *testing.T) { SubscribeOnce(t, s) })
	t.Run("Alerts", func(t *testing.T) { Alerts(t, s) })
	t.Run("OwnedClaims", func(t *testing.T) { OwnedClaims(t, s) })
	t.Run("Lock", func(t *testing.T) { Lock(t, s) })
	t.Run("Blobs", func(t *testing.T) { Blobs(t, s) })
	t.Run("UpdateBlobs", func(t *testing.T) { UpdateBlobs(t, s) })
	t.Run("Ledger", func(t *testing.T) { Ledger(t, s) })
	t.Run("DiskNumbers", func(t *testing.T) { DiskNumbers(t, s) })
	t.Run("ConcurrentRegistrations", func(t *testing.T) { ConcurrentRegistrations(t, s) })
	t.Run("ConditionalAppend", func(t *testing.T) { ConditionalAppend(t, s, s) })
	t.Run("DigestChats", func(t *testing.T) { DigestChats(t, s) })
	t.Run("History", func(t *testing.T) { History(t, s) })
	t.Run("Sends", func(t *testing.T) { Sends(t, s) })
	t.Run("HistoryHandover", func(t *testing.T) { HistoryHandover(t, s) })
	t.Run("Frames", func(t *testing.T) { Frames(t, s) })
}

// Race calls try(i) for i from 0 to n-1, each in its own goroutine and all
// released at once, and returns how many calls won (true without an
// error). Each error fails the test, after what ("claim: …").
func Race(t *testing.T, n int, what string, try func(i int) (bool, error)) int {
	t.Helper()
	won, errs := race(n, try)
	for _, err := range errs {
		t.Errorf("%s: %v", what, err)
	}
	return won
}

func race(n int, try func(i int) (bool, error)) (won int, errs []error) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			ok, err := try(i)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			} else if ok {
				won++
			}
		}()
	}
	close(start)
	wg.Wait()
	return won, errs
}

// Snapshots checks stock.SnapshotStore: a saved snapshot loads back with
// its offers and times; saving again replaces it; providers are separate.
func Snapshots(t *testing.T, s stock.SnapshotStore) {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	free := 3
	a := stock.ProviderSnapshot{Provider: "autodl", Status: stock.StatusOK, FetchedAt: at,
		Offers: []stock.Offer{{Platform: "autodl", GPU: "RTX 4090", GPUsPerInstance: 1, Free: &free, CNYPerGPUHour: 2.18,
			OriginalPrice: 2.18, Currency: "CNY", Region: text("region"), Source: stock.SourceLive, ObservedAt: at}}}
	b := stock.ProviderSnapshot{Provider: "vastai", Status: stock.StatusOK, FetchedAt: at}
	if err := s.SaveProviderSnapshot(ctx, a); err != nil {
		t.Fatalf("save: %v", err)
	}
	if err := s.SaveProviderSnapshot(ctx, b); err != nil {
		t.Fatalf("save: %v", err)
	}
	a2 := a
	a2.FetchedAt = at.Add(time.Minute)
	a2.Offers = append([]stock.Offer(nil), a.Offers...)
	a2.Offers[0].CNYPerGPUHour = 1.98
	if err := s.SaveProviderSnapshot(ctx, a2); err != nil {
		t.Fatalf("save again: %v", err)
	}
	got, err := s.LoadProviderSnapshots(ctx)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	byName := map[string]stock.ProviderSnapshot{}
	for _, g := range got {
		byName[g.Provider] = g
	}
	ga, ok := byName["autodl"]
	if !ok || len(byName) != 2 {
		t.Fatalf("loaded %d snapshots (%v), want autodl and vastai", len(got), byName)
	}
	if !ga.FetchedAt.Equal(a2.FetchedAt) || len(ga.Offers) != 1 || ga.Offers[0].CNYPerGPUHour != 1.98 ||
		ga.Offers[0].Free == nil || *ga.Offers[0].Free != 3 || ga.Offers[0].Region != text("region") || !ga.Offers[0].ObservedAt.Equal(at) {
		t.Errorf("autodl snapshot = %+v, want the second save", ga)
	}
}

// unique returns a name no earlier run on the same store used, so the suite
// also passes on a store that is not empty.
func unique(t *testing.T, what string) string {
	t.Helper()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return what + "-" + hex.EncodeToString(b[:])
}

// Subscriptions checks stock.SubscriptionStore: added subscriptions list
// back with every field, adding the same ID replaces, removing deletes and
// removing a missing id is no error.
func Subscriptions(t *testing.T, s stock.SubscriptionStore) {
	t.Helper()
	ctx := context.Background()
	before, err := s.Subscriptions(ctx)
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	a := stock.Subscription{ID: unique(t, "s"), Channel: "feishu", ChatID: "oc_1", OwnerID: "ou_1", OwnerName: text("name"),
		GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}, MaxPriceCNY: 2.5, MinFree: 2, Region: text("area"),
		English: true, CreatedAt: at}
	b := stock.Subscription{ID: unique(t, "s"), Channel: "console", ChatID: "c", OwnerID: "ou_2",
		GPUs: []string{"A100 40GB", "A100 80GB"}, CreatedAt: at.Add(time.Second)}
	for _, sub := range []stock.Subscription{a, b} {
		if err := s.AddSubscription(ctx, sub); err != nil {
			t.Fatalf("add %s: %v", sub.ID, err)
		}
	}
	mine := func() map[string]stock.Subscription {
		t.Helper()
		got, err := s.Subscriptions(ctx)
		if err != nil {
			t.Fatalf("list: %v", err)
		}
		m := map[string]stock.Subscription{}
		for _, g := range got {
			if g.ID == a.ID || g.ID == b.ID {
				m[g.ID] = g
			}
		}
		if len(got)-len(m) != len(before) {
			t.Fatalf("list has %d subscriptions, %d of them ours; want %d others", len(got), len(m), len(before))
		}
		return m
	}
	m := mine()
	if len(m) != 2 {
		t.Fatalf("listed %v, want %s and %s", m, a.ID, b.ID)
	}
	if !reflect.DeepEqual(normSub(m[a.ID]), normSub(a)) {
		t.Errorf("listed %+v, want %+v", m[a.ID], a)
	}
	if !reflect.DeepEqual(normSub(m[b.ID]), normSub(b)) {
		t.Errorf("listed %+v, want %+v", m[b.ID], b)
	}

	a2 := a
	a2.MaxPriceCNY = 1.9
	if err := s.AddSubscription(ctx, a2); err != nil {
		t.Fatalf("add again: %v", err)
	}
	if m := mine(); len(m) != 2 || m[a.ID].MaxPriceCNY != 1.9 {
		t.Errorf("after adding %s again: %+v, want it replaced", a.ID, m)
	}

	if err := s.RemoveSubscription(ctx, a.ID); err != nil {
		t.Fatalf("remove: %v", err)
	}
	if m := mine(); len(m) != 1 || m[b.ID].ID != b.ID {
		t.Errorf("after removing %s: %+v, want only %s", a.ID, m, b.ID)
	}
	if err := s.RemoveSubscription(ctx, a.ID); err != nil {
		t.Errorf("remove again: %v, want no error", err)
	}
	if err := s.RemoveSubscription(ctx, unique(t, "never")); err != nil {
		t.Errorf("remove missing: %v, want no error", err)
	}
	if err := s.RemoveSubscription(ctx, b.ID); err != nil {
		t.Fatalf("remove: %v", err)
	}
	if m := mine(); len(m) != 0 {
		t.Errorf("after removing both: %+v", m)
	}
}

// normSub makes a subscription comparable after a round trip (times by
// instant, nil and empty slices alike).
func normSub(s stock.Subscription) stock.Subscription {
	s.CreatedAt = s.CreatedAt.UTC()
	if len(s.GPUs) == 0 {
		s.GPUs = nil
	}
	if len(s.Platforms) == 0 {
		s.Platforms = nil
	}
	return s
}

// Alerts checks stock.AlertStore: notify records, claims and mutes.
func Alerts(t *testing.T, s stock.AlertStore) {
	t.Helper()
	t.Run("NotifyRecords", func(t *testing.T) { notifyRecords(t, s) })
	t.Run("Claim", func(t *testing.T) { claim(t, s) })
	t.Run("Release", func(t *testing.T) { release(t, s) })
	t.Run("ClaimConcurrent", func(t *testing.T) { claimConcurrent(t, s) })
	t.Run("Mutes", func(t *testing.T) { mutes(t, s) })
}

func notifyRecords(t *testing.T, s stock.AlertStore) {
	ctx := context.Background()
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	a := stock.NotifyRecord{SubscriptionID: unique(t, "s"), Observed: stock.InStock, Streak: 3, Active: true,
		NotifiedAt: at, NotifiedPrice: 2.18, Seq: 4}
	b := stock.NotifyRecord{SubscriptionID: unique(t, "s"), Observed: stock.SoldOut, Streak: 1}
	missing := unique(t, "missing")

	got, err := s.NotifyRecords(ctx, []string{a.SubscriptionID, missing})
	if err != nil || len(got) != 0 {
		t.Fatalf("records before any put = %v, %v; want empty", got, err)
	}
	if err := s.PutNotifyRecords(ctx, []stock.NotifyRecord{a, b}); err != nil {
		t.Fatalf("put: %v", err)
	}
	got, err = s.NotifyRecords(ctx, []string{a.SubscriptionID, missing, b.SubscriptionID})
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d records %v, want 2 (the missing id absent)", len(got), got)
	}
	if _, ok := got[missing]; ok {
		t.Errorf("missing id %s present in %v", missing, got)
	}
	if g := got[a.SubscriptionID]; !g.NotifiedAt.Equal(at) || g.Observed != a.Observed || g.Streak != 3 || !g.Active ||
		g.NotifiedPrice != 2.18 || g.Seq != 4 || g.SubscriptionID != a.SubscriptionID {
		t.Errorf("record = %+v, want %+v", g, a)
	}
	if g := got[b.SubscriptionID]; g.Observed != b.Observed || g.Streak != 1 || g.Active {
		t.Errorf("record = %+v, want %+v", g, b)
	}
	got, err = s.NotifyRecords(ctx, nil)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("records of no ids = %#v, %v; want an empty map", got, err)
	}

	a2 := a
	a2.Seq, a2.Active = 5, false
	if err := s.PutNotifyRecords(ctx, []stock.NotifyRecord{a2}); err != nil {
		t.Fatalf("put again: %v", err)
	}
	got, err = s.NotifyRecords(ctx, []string{a.SubscriptionID, b.SubscriptionID})
	if err != nil || got[a.SubscriptionID].Seq != 5 || got[a.SubscriptionID].Active || got[b.SubscriptionID].Streak != 1 {
		t.Errorf("after replacing a: %+v, %v", got, err)
	}

	if err := s.DeleteNotifyRecord(ctx, a.SubscriptionID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if err := s.DeleteNotifyRecord(ctx, missing); err != nil {
		t.Errorf("delete missing: %v, want no error", err)
	}
	got, err = s.NotifyRecords(ctx, []string{a.SubscriptionID, b.SubscriptionID})
	if _, ok := got[a.SubscriptionID]; err != nil || ok || len(got) != 1 {
		t.Errorf("after delete: %+v, %v; want only %s", got, err, b.SubscriptionID)
	}
	if err := s.DeleteNotifyRecord(ctx, b.SubscriptionID); err != nil {
		t.Fatalf("delete: %v", err)
	}
}

func claim(t *testing.T, s stock.AlertStore) {
	ctx := context.Background()
	key, other := unique(t, "alert"), unique(t, "alert")
	// Long enough that the second claim comes before expiry on a slow,
	// loaded machine (-race, two cores, fsync).
	const ttl = 500 * time.Millisecond
	if ok, err := s.ClaimAlert(ctx, key, ttl); err != nil || !ok {
		t.Fatalf("first claim = %v, %v; want true", ok, err)
	}
	if ok, err := s.ClaimAlert(ctx, key, ttl); err != nil || ok {
		t.Fatalf("second claim = %v, %v; want false", ok, err)
	}
	if ok, err := s.ClaimAlert(ctx, other, ttl); err != nil || !ok {
		t.Errorf("claim of another key = %v, %v; want true", ok, err)
	}
	time.Sleep(ttl + 60*time.Millisecond)
	if ok, err := s.ClaimAlert(ctx, key, time.Minute); err != nil || !ok {
		t.Fatalf("claim after expiry = %v, %v; want true", ok, err)
	}
	if ok, err := s.ClaimAlert(ctx, key, time.Minute); err != nil || ok {
		t.Errorf("claim again = %v, %v; want false", ok, err)
	}
	if _, err := s.ClaimAlert(ctx, unique(t, "alert"), 0); err == nil {
		t.Errorf("claim with zero ttl: no error")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if ok, err := s.ClaimAlert(cctx, unique(t, "alert"), time.Minute); err == nil || ok {
		t.Errorf("claim with a canceled context = %v, %v; want an error", ok, err)
	}
}

func claimConcurrent(t *testing.T, s stock.AlertStore) {
	ctx := context.Background()
	key := unique(t, "alert")
	const n = 20
	won := Race(t, n, "claim", func(int) (bool, error) { return s.ClaimAlert(ctx, key, time.Minute) })
	if won != 1 {
		t.Errorf("%d of %d concurrent claims won, want exactly 1", won, n)
	}
}

func mutes(t *testing.T, s stock.AlertStore) {
	ctx := context.Background()
	chat, other := "feishu/"+unique(t, "oc"), "feishu/"+unique(t, "oc")
	if u, err := s.MutedUntil(ctx, chat); err != nil || !u.IsZero() {
		t.Fatalf("never muted: %v, %v; want the zero time", u, err)
	}
	until := time.Now().Add(time.Hour).UTC()
	if err := s.SetMute(ctx, chat, until); err != nil {
		t.Fatalf("mute: %v", err)
	}
	if u, err := s.MutedUntil(ctx, chat); err != nil || !u.Equal(until) {
		t.Errorf("muted until %v, %v; want %v", u, err, until)
	}
	if u, err := s.MutedUntil(ctx, other); err != nil || !u.IsZero() {
		t.Errorf("other chat muted until %v, %v; want the zero time", u, err)
	}
	if err := s.SetMute(ctx, chat, time.Time{}); err != nil {
		t.Fatalf("unmute: %v", err)
	}
	if u, err := s.MutedUntil(ctx, chat); err != nil || !u.IsZero() {
		t.Errorf("after unmute: %v, %v; want the zero time", u, err)
	}
	if err := s.SetMute(ctx, chat, time.Time{}); err != nil {
		t.Errorf("unmute an unmuted chat: %v", err)
	}
	if err := s.SetMute(ctx, chat, time.Now().Add(-time.Minute)); err != nil {
		t.Fatalf("mute in the past: %v", err)
	}
	if u, err := s.MutedUntil(ctx, chat); err != nil || !u.IsZero() {
		t.Errorf("muted until a past time: %v, %v; want the zero time", u, err)
	}
	short := time.Now().Add(500 * time.Millisecond)
	if err := s.SetMute(ctx, other, short); err != nil {
		t.Fatalf("mute: %v", err)
	}
	if u, err := s.MutedUntil(ctx, other); err != nil || !u.Equal(short) {
		t.Errorf("muted until %v, %v; want %v", u, err, short)
	}
	time.Sleep(time.Until(short) + 60*time.Millisecond)
	if u, err := s.MutedUntil(ctx, other); err != nil || !u.IsZero() {
		t.Errorf("after the mute expired: %v, %v; want the zero time", u, err)
	}
}

// Lock checks stock.Locker: one holder at a time, renewal by the holder,
// expiry and Unlock only by the holder.
func Lock(t *testing.T, l stock.Locker) {
	t.Helper()
	ctx := context.Background()
	name := unique(t, "poller")
	const ttl = 200 * time.Millisecond
	try := func(owner string, ttl time.Duration, want bool, what string) {
		t.Helper()
		if ok, err := l.TryLock(ctx, name, owner, ttl); err != nil || ok != want {
			t.Fatalf("%s: TryLock(%s) = %v, %v; want %v", what, owner, ok, err, want)
		}
	}
	start := time.Now()
	try("a", ttl, true, "free lock")
	try("b", ttl, false, "held by a")
	if ok, err := l.TryLock(ctx, unique(t, "digest"), "b", ttl); err != nil || !ok {
		t.Fatalf("another lock name: %v, %v; want true", ok, err)
	}

	// Renew at 120 ms for 1 s: still a's at 270 ms, past the first
	// expiry. The renewal is long so that a slow machine (-race, two
	// cores, fsync) still checks the next steps well before it ends.
	time.Sleep(120*time.Millisecond - time.Since(start))
	try("a", time.Second, true, "renew by the holder")
	time.Sleep(270*time.Millisecond - time.Since(start))
	try("b", ttl, false, "after the first ttl, renewed")

	// Unlock by another owner does nothing.
	if err := l.Unlock(ctx, name, "b"); err != nil {
		t.Fatalf("unlock by non-owner: %v", err)
	}
	try("b", ttl, false, "after unlock by non-owner")

	// Expiry frees it: wait past the renewed expiry (about 1120 ms).
	time.Sleep(1250*time.Millisecond - time.Since(start))
	try("b", time.Minute, true, "after expiry")
	try("a", ttl, false, "held by b")

	// Unlock by the holder frees it at once; unlocking again is harmless.
	if err := l.Unlock(ctx, name, "b"); err != nil {
		t.Fatalf("unlock: %v", err)
	}
	if err := l.Unlock(ctx, name, "b"); err != nil {
		t.Fatalf("unlock again: %v", err)
	}
	if err := l.Unlock(ctx, unique(t, "never"), "b"); err != nil {
		t.Fatalf("unlock of a lock never taken: %v", err)
	}
	try("a", time.Minute, true, "after unlock")
	if err := l.Unlock(ctx, name, "a"); err != nil {
		t.Fatalf("unlock: %v", err)
	}
	if _, err := l.TryLock(ctx, name, "a", 0); err == nil {
		t.Errorf("TryLock with zero ttl: no error")
	}
	lockContention(t, l)
}

// lockContention: of 20 owners trying one free lock at once, exactly one
// gets it.
func lockContention(t *testing.T, l stock.Locker) {
	t.Helper()
	ctx := context.Background()
	name := unique(t, "poller")
	const n = 20
	held := Race(t, n, "TryLock", func(i int) (bool, error) {
		return l.TryLock(ctx, name, fmt.Sprintf("owner-%d", i), time.Minute)
	})
	if held != 1 {
		t.Errorf("%d of %d concurrent owners got the lock, want exactly 1", held, n)
	}
}

// release: a released claim can be claimed again; releasing a missing key
// is no error.
func release(t *testing.T, s stock.AlertStore) {
	ctx := context.Background()
	key := unique(t, "release")
	if ok, err := s.ClaimAlert(ctx, key, time.Hour); err != nil || !ok {
		t.Fatalf("first claim = %v, %v", ok, err)
	}
	if err := s.ReleaseAlert(ctx, key); err != nil {
		t.Fatalf("release: %v", err)
	}
	if ok, err := s.ClaimAlert(ctx, key, time.Hour); err != nil || !ok {
		t.Fatalf("claim after release = %v, %v; want true", ok, err)
	}
	if err := s.ReleaseAlert(ctx, unique(t, "never-claimed")); err != nil {
		t.Errorf("releasing a missing key: %v", err)
	}
}

// BlobStore is a store of opaque named bytes (the WeChat hot-login state).
type BlobStore interface {
	GetBlob(ctx context.Context, name string) ([]byte, error)
	PutBlob(ctx context.Context, name string, data []byte) error
}

// Blobs checks a BlobStore: missing is nil without error, put replaces,
// names are separate, empty data deletes.
func Blobs(t *testing.T, s BlobStore) {
	t.Helper()
	ctx := context.Background()
	name, other := unique(t, "blob"), unique(t, "blob")
	if b, err := s.GetBlob(ctx, name); err != nil || b != nil {
		t.Fatalf("missing blob: %q, %v; want nil, nil", b, err)
	}
	for _, v := range []string{`{"cookies":1}`, text("binary_state")} {
		if err := s.PutBlob(ctx, name, []byte(v)); err != nil {
			t.Fatalf("put: %v", err)
		}
		if b, err := s.GetBlob(ctx, name); err != nil || string(b) != v {
			t.Errorf("get after put: %q, %v; want %q", b, err, v)
		}
	}
	if b, err := s.GetBlob(ctx, other); err != nil || b != nil {
		t.Errorf("other name: %q, %v; want nil", b, err)
	}
	if err := s.PutBlob(ctx, name, nil); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if b, err := s.GetBlob(ctx, name); err != nil || b != nil {
		t.Errorf("after delete: %q, %v; want nil", b, err)
	}
}

// LedgerStore keeps the labs' storage ledgers.
type LedgerStore interface {
	AppendStorageEvents(ctx context.Context, events []ledger.StorageEvent) error
	StorageEvents(ctx context.Context, lab string) ([]ledger.StorageEvent, error)
	SetDigestChat(ctx context.Context, chatKey string, on bool) error
	DigestChats(ctx context.Context) ([]string, error)
	// AddStorageDisk appends the add of a new disk with its id allocated
	// in the same write (ledger.NextDiskID) and returns the id.
	AddStorageDisk(ctx context.Context, e ledger.StorageEvent) (string, error)
	// AppendStorageEventsIf appends events to lab's ledger only when it
	// still holds have events; else ledger.ErrLedgerChanged.
	AppendStorageEventsIf(ctx context.Context, lab string, have int, events []ledger.StorageEvent) error
}

// Ledger checks a LedgerStore: events come back per lab in write order
// with every field, labs are separate, "" lists every lab, and an event
// without a lab is refused with nothing written.
func Ledger(t *testing.T, s LedgerStore) {
	t.Helper()
	ctx := context.Background()
	lab, other := "feishu/"+unique(t, "oc"), "wechat/"+unique(t, text("group"))
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.FixedZone("CST", 8*3600))
	a := ledger.StorageEvent{Time: at, Lab: lab, Owner: "ou_alice", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 80, Note: text("note")}
	b := ledger.StorageEvent{Time: at.Add(-time.Hour), Lab: lab, Owner: "ou_alice", Platform: "autodl", Disk: "1", Action: ledger.ActionResize, SizeGB: 120}
	c := ledger.StorageEvent{Time: at, Lab: other, Owner: "Bob", Platform: "matpool", Disk: "1", Action: ledger.ActionAdd, SizeGB: 200}
	if err := s.AppendStorageEvents(ctx, []ledger.StorageEvent{a, b}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendStorageEvents(ctx, []ledger.StorageEvent{c}); err != nil {
		t.Fatal(err)
	}
	got, err := s.StorageEvents(ctx, lab)
	if err != nil || len(got) != 2 || !got[0].Time.Equal(a.Time) || got[0].Note != a.Note || got[0].SizeGB != 80 ||
		got[1].Action != ledger.ActionResize || got[1].SizeGB != 120 || got[0].Owner != "ou_alice" || got[0].Platform != "autodl" {
		t.Fatalf("lab ledger: %+v, %v", got, err)
	}
	if got, err := s.StorageEvents(ctx, other); err != nil || len(got) != 1 || got[0].Owner != "Bob" {
		t.Errorf("other lab: %+v, %v", got, err)
	}
	all, err := s.StorageEvents(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range all {
		if e.Lab == lab || e.Lab == other {
			n++
		}
	}
	if n != 3 {
		t.Errorf("all labs: %d of our 3 events", n)
	}
	bad := a
	bad.Lab = ""
	if err := s.AppendStorageEvents(ctx, []ledger.StorageEvent{c, bad}); err == nil {
		t.Error("an event without a lab was accepted")
	}
	if got, _ := s.StorageEvents(ctx, other); len(got) != 1 {
		t.Errorf("a refused batch wrote %d events", len(got)-1)
	}
	if got, err := s.StorageEvents(ctx, "feishu/"+unique(t, "none")); err != nil || len(got) != 0 {
		t.Errorf("an unknown lab: %+v, %v", got, err)
	}
}

// DigestChats checks the weekly-digest chat list: on, idempotent, off.
func DigestChats(t *testing.T, s LedgerStore) {
	t.Helper()
	ctx := context.Background()
	a, b := "feishu/"+unique(t, "oc"), "wechat/"+unique(t, text("group"))
	has := func(k string) bool {
		all, err := s.DigestChats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range all {
			if c == k {
				return true
			}
		}
		return false
	}
	for _, k := range []string{a, a, b} {
		if err := s.SetDigestChat(ctx, k, true); err != nil {
			t.Fatal(err)
		}
	}
	if !has(a) || !has(b) {
		t.Error("chats turned on are not listed")
	}
	if err := s.SetDigestChat(ctx, a, false); err != nil {
		t.Fatal(err)
	}
	if has(a) || !has(b) {
		t.Error("off did not remove just that chat")
	}
	if err := s.SetDigestChat(ctx, a, false); err != nil {
		t.Errorf("off twice: %v", err)
	}
}
