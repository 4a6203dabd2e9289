package claim_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat/claim"
)

// ownerStore is an in-memory claim.OwnerStore whose failures the test
// sets: down fails every call; failNext fails the next ClaimAs calls
// without applying them; applyThenFail applies the next ClaimAs and then
// fails it, as a timed-out call a server applies later.
type ownerStore struct {
	mu            sync.Mutex
	m             map[string]string
	down          bool
	failNext      int
	applyThenFail int
	retried       int // the next ClaimAs applies and answers false, as a client's retry of a SET that had landed
	claimCalls    int
	ownerCalls    int
	lastOwner     string
	released      []string // key=owner of each ReleaseAs that deleted
}

var errDown = errors.New("store down")

func newOwnerStore() *ownerStore { return &ownerStore{m: map[string]string{}} }

func (s *ownerStore) ClaimAs(_ context.Context, key, owner string, _ time.Duration) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.claimCalls++
	s.lastOwner = owner
	switch {
	case s.down:
		return false, errDown
	case s.failNext > 0:
		s.failNext--
		return false, errDown
	}
	_, taken := s.m[key]
	if !taken {
		s.m[key] = owner
	}
	if s.applyThenFail > 0 {
		s.applyThenFail--
		return false, context.DeadlineExceeded
	}
	if s.retried > 0 {
		s.retried--
		return false, nil
	}
	return !taken, nil
}

func (s *ownerStore) ClaimOwner(_ context.Context, key string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ownerCalls++
	if s.down {
		return "", false, errDown
	}
	o, ok := s.m[key]
	return o, ok, nil
}

func (s *ownerStore) ReleaseAs(_ context.Context, key, owner string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return false, errDown
	}
	if s.m[key] != owner {
		return false, nil
	}
	delete(s.m, key)
	s.released = append(s.released, key+"="+owner)
	return true, nil
}

func (s *ownerStore) ClaimAlert(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	return s.ClaimAs(ctx, key, "1", ttl)
}

func (s *ownerStore) ReleaseAlert(_ context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, key)
	return nil
}

func (s *ownerStore) set(f func(s *ownerStore)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

func (s *ownerStore) get(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.m[key]
	return o, ok
}

func newDeduper(t *testing.T, st claim.Deduper, opts claim.StoreDeduperOptions) *claim.StoreDeduper {
	t.Helper()
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Replica == "" {
		opts.Replica = "test"
	}
	d := claim.NewStoreDeduper(st, opts)
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// TestStoreDeduperHappyPath: a claim is one ClaimAs with a token of its
// own and nothing else; a duplicate is not held.
func TestStoreDeduperHappyPath(t *testing.T) {
	st := newOwnerStore()
	d := newDeduper(t, st, claim.StoreDeduperOptions{})
	ctx := context.Background()
	a, err := d.Claim(ctx, "k1", time.Hour)
	if err != nil || !a.Held || a.Local || !strings.HasPrefix(a.Owner, "test/") {
		t.Fatalf("claim = %+v, %v; want held in the store with a token of replica test", a, err)
	}
	if st.claimCalls != 1 || st.ownerCalls != 0 {
		t.Errorf("store calls: %d ClaimAs, %d ClaimOwner; want one SET NX and no GET", st.claimCalls, st.ownerCalls)
	}
	if o, _ := st.get("k1"); o != a.Owner {
		t.Errorf("store holds %q, want the claim's token %q", o, a.Owner)
	}
	b, err := d.Claim(ctx, "k2", time.Hour)
	if err != nil || !b.Held || b.Owner == a.Owner {
		t.Errorf("second key = %+v, %v; want held with another token", b, err)
	}
	if dup, err := d.Claim(ctx, "k1", time.Hour); err != nil || dup.Held {
		t.Errorf("duplicate = %+v, %v; want not held", dup, err)
	}
	if d.Fallbacks() != 0 || d.Degraded() {
		t.Errorf("fallbacks %d, degraded %v; want none", d.Fallbacks(), d.Degraded())
	}
}

// TestStoreDeduperResolves: a claim whose call failed is decided by the
// store's answer to "whose is it": applied despite the error → held; not
// applied → claimed again with the same token; someone else's → a
// duplicate. The process's window is not used.
func TestStoreDeduperResolves(t *testing.T) {
	ctx := context.Background()
	st := newOwnerStore()
	d := newDeduper(t, st, claim.StoreDeduperOptions{})

	st.set(func(s *ownerStore) { s.applyThenFail = 1 })
	c, err := d.Claim(ctx, "applied", time.Hour)
	if o, _ := st.get("applied"); err != nil || !c.Held || c.Local || o != c.Owner {
		t.Errorf("applied then failed: %+v, %v (store %q); want held, the store's token", c, err, o)
	}

	st.set(func(s *ownerStore) { s.failNext = 1 })
	c, err = d.Claim(ctx, "lost", time.Hour)
	if o, _ := st.get("lost"); err != nil || !c.Held || c.Local || o != c.Owner {
		t.Errorf("failed, not applied: %+v, %v (store %q); want held after a second SET with the same token", c, err, o)
	}

	st.set(func(s *ownerStore) { s.retried = 1 })
	c, err = d.Claim(ctx, "retried", time.Hour)
	if o, _ := st.get("retried"); err != nil || !c.Held || o != c.Owner {
		t.Errorf("lost to a retry of its own SET: %+v, %v (store %q); want held", c, err, o)
	}

	st.set(func(s *ownerStore) { s.m["theirs"] = "other/1"; s.failNext = 1 })
	if c, err = d.Claim(ctx, "theirs", time.Hour); err != nil || c.Held {
		t.Errorf("failed, someone else's: %+v, %v; want a duplicate", c, err)
	}

	if d.Fallbacks() != 0 || d.Degraded() {
		t.Errorf("fallbacks %d, degraded %v; want none", d.Fallbacks(), d.Degraded())
	}
}

// TestStoreDeduperReleasesOnlyItsOwn: Release deletes the caller's claim,
// not one another owner holds; a claim whose outcome is unknown (store
// down, no fallback) is an error, and when it lands later it is released
// in the background, another owner's claims untouched.
func TestStoreDeduperReleasesOnlyItsOwn(t *testing.T) {
	ctx := context.Background()
	st := newOwnerStore()
	d := newDeduper(t, st, claim.StoreDeduperOptions{Window: -1, ClaimTimeout: 40 * time.Millisecond})

	c, err := d.Claim(ctx, "mine", time.Hour)
	if err != nil || !c.Held {
		t.Fatal(c, err)
	}
	if err := d.Release(ctx, claim.Claim{Key: "mine", Held: true, Owner: "other/1"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.get("mine"); !ok {
		t.Fatal("a release with another token freed the claim")
	}
	if err := d.Release(ctx, c); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.get("mine"); ok {
		t.Fatal("the owner's release left the claim")
	}

	st.set(func(s *ownerStore) { s.down = true })
	c, err = d.Claim(ctx, "unknown", time.Hour)
	if err == nil || c.Held {
		t.Fatalf("claim with the store down and no window = %+v, %v; want an error", c, err)
	}
	// The SET lands when the store is back; so does another owner's claim
	// of another key.
	st.set(func(s *ownerStore) {
		s.m["unknown"], s.m["other"] = s.lastOwner, "other/1"
		s.down = false
	})
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := st.get("unknown"); !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the claim that landed late was never released")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, ok := st.get("other"); !ok {
		t.Error("another owner's claim was released")
	}
}

// TestStoreDeduperFallback: with the store down, claims are taken in the
// process (held once, then duplicates), counted, logged once; when the
// store answers again claims go to it, logged once, and a key claimed in
// the window stays a duplicate.
func TestStoreDeduperFallback(t *testing.T) {
	ctx := context.Background()
	st := newOwnerStore()
	logs := &syncBuffer{}
	d := newDeduper(t, st, claim.StoreDeduperOptions{ClaimTimeout: 40 * time.Millisecond, ProbeEvery: 20 * time.Millisecond,
		Log: slog.New(slog.NewTextHandler(logs, nil))})
	st.set(func(s *ownerStore) { s.down = true })
	c, err := d.Claim(ctx, "e1", time.Hour)
	if err != nil || !c.Held || !c.Local {
		t.Fatalf("claim with the store down = %+v, %v; want held in the process", c, err)
	}
	for i := range 5 {
		if c, err := d.Claim(ctx, "e1", time.Hour); err != nil || c.Held {
			t.Fatalf("repeat %d = %+v, %v; want a duplicate", i, c, err)
		}
	}
	c, err = d.Claim(ctx, "e2", time.Hour)
	if err != nil || !c.Held || !c.Local {
		t.Fatalf("another key = %+v, %v", c, err)
	}
	if !d.Degraded() || d.Fallbacks() < 2 {
		t.Errorf("degraded %v, fallbacks %d; want degraded, at least 2", d.Degraded(), d.Fallbacks())
	}
	// A local claim released (its reply failed) can be claimed again.
	if err := d.Release(ctx, c); err != nil {
		t.Fatal(err)
	}
	if c, _ := d.Claim(ctx, "e2", time.Hour); !c.Held {
		t.Errorf("claim after release = %+v, want held", c)
	}

	st.set(func(s *ownerStore) { s.down = false })
	time.Sleep(30 * time.Millisecond) // the next probe is due
	c, err = d.Claim(ctx, "e3", time.Hour)
	if err != nil || !c.Held || c.Local || c.Owner == "" {
		t.Fatalf("claim with the store back = %+v, %v; want held in the store", c, err)
	}
	if o, _ := st.get("e3"); o != c.Owner || d.Degraded() {
		t.Errorf("store holds %q (want %q), degraded %v", o, c.Owner, d.Degraded())
	}
	if c, _ := d.Claim(ctx, "e1", time.Hour); c.Held {
		t.Errorf("a key claimed in the window, with the store back = %+v; want a duplicate", c)
	}
	if n := strings.Count(logs.String(), "store unavailable"); n != 1 {
		t.Errorf("%d outage lines, want 1:\n%s", n, logs)
	}
	if n := strings.Count(logs.String(), "store is back"); n != 1 {
		t.Errorf("%d recovery lines, want 1:\n%s", n, logs)
	}
}

// TestStoreDeduperNilStore: without a store it is a process-local
// deduper, as New's default.
func TestStoreDeduperNilStore(t *testing.T) {
	d := newDeduper(t, nil, claim.StoreDeduperOptions{})
	ctx := context.Background()
	if ok, err := d.ClaimAlert(ctx, "k", time.Hour); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if ok, err := d.ClaimAlert(ctx, "k", time.Hour); err != nil || ok {
		t.Fatal(ok, err)
	}
	if d.Fallbacks() != 0 {
		t.Errorf("fallbacks %d", d.Fallbacks())
	}
}

// syncBuffer collects logs from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
