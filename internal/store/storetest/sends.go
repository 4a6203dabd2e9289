package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// SendStore keeps sends exact across restarts and replicas: the parts an
// outbox delivered (chat.DeliveryLog), where each chat's scheduled digest
// stands (jobs.DigestMarks) and the events acknowledged and not answered
// yet (feishu.Inbox).
type SendStore interface {
	Delivered(ctx context.Context, key string) (bool, error)
	MarkDelivered(ctx context.Context, key string, ttl time.Duration) error
	DigestMark(ctx context.Context, chatKey string) (string, error)
	SwapDigestMark(ctx context.Context, chatKey, old, new string) (bool, error)
	PutInbox(ctx context.Context, key, owner string, data []byte, ttl time.Duration) error
	DropInbox(ctx context.Context, key string) error
	RenewInboxLease(ctx context.Context, owner string, ttl time.Duration) error
	ClaimInbox(ctx context.Context, prefix, taker string, confirm time.Duration) (map[string][]byte, error)
}

// Sends checks a SendStore.
func Sends(t *testing.T, s SendStore) {
	t.Helper()
	t.Run("Delivered", func(t *testing.T) { delivered(t, s) })
	t.Run("DigestMarks", func(t *testing.T) { digestMarks(t, s) })
	t.Run("DigestMarksConcurrent", func(t *testing.T) { digestMarksConcurrent(t, s) })
	t.Run("Inbox", func(t *testing.T) { inbox(t, s) })
	t.Run("InboxLeaseExpiry", func(t *testing.T) { inboxLeaseExpiry(t, s) })
	t.Run("InboxConcurrent", func(t *testing.T) { inboxConcurrent(t, s) })
}

// delivered: a marked key is delivered until its ttl ends; keys are
// separate; bad arguments are errors.
func delivered(t *testing.T, s SendStore) {
	ctx := context.Background()
	key, other := "feishu/"+unique(t, "oc")+"\x00reply:om_1#0", "feishu/"+unique(t, "oc")+"\x00reply:om_1#0"
	if ok, err := s.Delivered(ctx, key); err != nil || ok {
		t.Fatalf("before any mark: %v, %v; want false", ok, err)
	}
	if err := s.MarkDelivered(ctx, key, time.Hour); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Delivered(ctx, key); err != nil || !ok {
		t.Errorf("after the mark: %v, %v; want true", ok, err)
	}
	if ok, err := s.Delivered(ctx, other); err != nil || ok {
		t.Errorf("another key: %v, %v; want false", ok, err)
	}
	short := unique(t, "short")
	if err := s.MarkDelivered(ctx, short, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(120 * time.Millisecond)
	if ok, err := s.Delivered(ctx, short); err != nil || ok {
		t.Errorf("past its ttl: %v, %v; want false", ok, err)
	}
	if err := s.MarkDelivered(ctx, "", time.Hour); err == nil {
		t.Error("an empty key was accepted")
	}
	if err := s.MarkDelivered(ctx, unique(t, "k"), 0); err == nil {
		t.Error("a zero ttl was accepted")
	}
}

// digestMarks: a missing mark reads ""; a swap applies only from the
// value it names ("" = missing); swapping to "" deletes.
func digestMarks(t *testing.T, s SendStore) {
	ctx := context.Background()
	ck := "feishu/" + unique(t, "oc")
	if v, err := s.DigestMark(ctx, ck); err != nil || v != "" {
		t.Fatalf("missing mark = %q, %v", v, err)
	}
	steps := []struct {
		old, new string
		ok       bool
		after    string
	}{
		{"x", "a", false, ""}, // not from a value it does not have
		{"", "a", true, "a"},  // created from missing
		{"", "b", false, "a"}, // no longer missing
		{"a", `{"end":"2026"}`, true, `{"end":"2026"}`},
		{"a", "c", false, `{"end":"2026"}`}, // a stale old value loses
		{`{"end":"2026"}`, "", true, ""},    // deleted
		{"", "d", true, "d"},
	}
	for i, c := range steps {
		ok, err := s.SwapDigestMark(ctx, ck, c.old, c.new)
		if err != nil || ok != c.ok {
			t.Errorf("step %d: swap %q→%q = %v, %v; want %v", i, c.old, c.new, ok, err, c.ok)
		}
		if v, err := s.DigestMark(ctx, ck); err != nil || v != c.after {
			t.Errorf("step %d: mark = %q, %v; want %q", i, v, err, c.after)
		}
	}
	if v, _ := s.DigestMark(ctx, "feishu/"+unique(t, "oc")); v != "" {
		t.Errorf("another chat's mark = %q", v)
	}
	if _, err := s.SwapDigestMark(ctx, "", "", "a"); err == nil {
		t.Error("an empty chat key was accepted")
	}
}

// digestMarksConcurrent: n replicas swapping from the same value: one wins.
func digestMarksConcurrent(t *testing.T, s SendStore) {
	ctx := context.Background()
	ck := "feishu/" + unique(t, "oc")
	if _, err := s.SwapDigestMark(ctx, ck, "", "start"); err != nil {
		t.Fatal(err)
	}
	won := Race(t, 16, "swap", func(i int) (bool, error) {
		return s.SwapDigestMark(ctx, ck, "start", fmt.Sprintf("replica-%d", i))
	})
	if won != 1 {
		t.Errorf("%d swaps from the same value won, want 1", won)
	}
	if v, _ := s.DigestMark(ctx, ck); !strings.HasPrefix(v, "replica-") {
		t.Errorf("mark = %q", v)
	}
}

// inbox: entries of no owner are taken at once, by prefix, with their
// bytes, once; a key put again replaces; dropped and expired entries are
// not returned; a live owner's entries stay with it; bad arguments are
// errors.
func inbox(t *testing.T, s SendStore) {
	ctx := context.Background()
	pre, other := unique(t, "feishu")+"/", unique(t, "wechat")+"/"
	alive, taker := unique(t, "replica-alive"), unique(t, "replica-taker")
	put := func(k, owner string, v []byte, ttl time.Duration) {
		t.Helper()
		if err := s.PutInbox(ctx, k, owner, v, ttl); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RenewInboxLease(ctx, alive, time.Hour); err != nil {
		t.Fatal(err)
	}
	put(pre+"om_1", alive, []byte("first"), time.Hour)
	put(pre+"om_1", "", []byte(text("binary_answer")), time.Hour)
	put(pre+"om_2", "", []byte{0xff, '|', 0x00, 0x01}, time.Hour)
	put(pre+"om_old", "", []byte("stale"), 50*time.Millisecond)
	put(pre+"om_done", "", []byte("answered"), time.Hour)
	put(pre+"om_alive", alive, []byte("being answered"), time.Hour)
	put(other+"om_1", "", []byte("theirs"), time.Hour)
	if err := s.DropInbox(ctx, pre+"om_done"); err != nil {
		t.Fatal(err)
	}
	if err := s.DropInbox(ctx, pre+"om_none"); err != nil {
		t.Errorf("dropping an absent entry: %v", err)
	}
	time.Sleep(120 * time.Millisecond)
	for range 2 { // a live owner's entry stays its own, whatever the wait
		got, err := s.ClaimInbox(ctx, pre, taker, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || string(got[pre+"om_1"]) != text("binary_answer") || string(got[pre+"om_2"]) != "\xff|\x00\x01" {
			t.Errorf("taken %q; want om_1 (the second put, of no owner) and om_2, not the expired, dropped or owned ones", got)
		}
		// What taker took is its own now: taken again by nobody while its
		// lease lasts.
		if err := s.RenewInboxLease(ctx, taker, time.Hour); err != nil {
			t.Fatal(err)
		}
		if again, err := s.ClaimInbox(ctx, pre, unique(t, "replica-third"), 0); err != nil || len(again) != 0 {
			t.Errorf("taken twice: %q, %v", again, err)
		}
		put(pre+"om_1", "", []byte(text("binary_answer")), time.Hour)
		put(pre+"om_2", "", []byte{0xff, '|', 0x00, 0x01}, time.Hour)
	}
	if theirs, err := s.ClaimInbox(ctx, other, taker, 0); err != nil || len(theirs) != 1 || string(theirs[other+"om_1"]) != "theirs" {
		t.Errorf("another prefix: %q, %v", theirs, err)
	}
	if err := s.PutInbox(ctx, "", "", []byte("x"), time.Hour); err == nil {
		t.Error("an empty key was accepted")
	}
	if err := s.PutInbox(ctx, pre+"x", "", []byte("x"), 0); err == nil {
		t.Error("a zero ttl was accepted")
	}
	if err := s.RenewInboxLease(ctx, "", time.Hour); err == nil {
		t.Error("a lease of no owner was accepted")
	}
}

// inboxLeaseExpiry: the entries of an owner whose lease ended are taken
// over, not at the first look (which notes the lease gone) but once it
// has been gone for confirm; an owner that renews its lease meanwhile
// keeps them.
func inboxLeaseExpiry(t *testing.T, s SendStore) {
	ctx := context.Background()
	pre := unique(t, "feishu") + "/"
	dead, paused, taker := unique(t, "replica-dead"), unique(t, "replica-paused"), unique(t, "replica-taker")
	for _, o := range []string{dead, paused} {
		if err := s.RenewInboxLease(ctx, o, 100*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if err := s.PutInbox(ctx, pre+o, o, []byte(o), time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	const confirm = 300 * time.Millisecond
	if got, err := s.ClaimInbox(ctx, pre, taker, confirm); err != nil || len(got) != 0 {
		t.Fatalf("while the leases last: taken %q, %v", got, err)
	}
	time.Sleep(200 * time.Millisecond) // both leases ended
	if got, err := s.ClaimInbox(ctx, pre, taker, confirm); err != nil || len(got) != 0 {
		t.Fatalf("at the first look after the leases ended: taken %q, %v; want none (noted only)", got, err)
	}
	if err := s.RenewInboxLease(ctx, paused, time.Hour); err != nil { // back after a pause
		t.Fatal(err)
	}
	time.Sleep(confirm + 50*time.Millisecond)
	got, err := s.ClaimInbox(ctx, pre, taker, confirm)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || string(got[pre+dead]) != dead {
		t.Errorf("taken %q; want only the dead owner's entry (the paused one renewed its lease)", got)
	}
	// The renewed owner's entry is not suspect any more: when its lease
	// ends again, the confirm wait starts over.
	if err := s.RenewInboxLease(ctx, paused, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if got, err := s.ClaimInbox(ctx, pre, taker, confirm); err != nil || len(got) != 0 {
		t.Errorf("first look after the renewed lease ended: taken %q, %v; want none", got, err)
	}
}

// inboxConcurrent: replicas taking over at once take every orphaned
// entry exactly once between them.
func inboxConcurrent(t *testing.T, s SendStore) {
	ctx := context.Background()
	pre := unique(t, "feishu") + "/"
	dead := unique(t, "replica-dead")
	const n = 40
	for i := range n {
		owner := ""
		if i%2 == 1 {
			owner = dead // never had a lease
		}
		if err := s.PutInbox(ctx, fmt.Sprintf("%som_%d", pre, i), owner, []byte{byte(i)}, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	// First look: the entries of no owner are taken, the dead owner's
	// noted.
	first, err := s.ClaimInbox(ctx, pre, unique(t, "replica-first"), time.Millisecond)
	if err != nil || len(first) != n/2 {
		t.Fatalf("first look: took %d, %v; want the %d of no owner", len(first), err, n/2)
	}
	time.Sleep(10 * time.Millisecond)
	seen := make(chan string, 4*n)
	Race(t, 4, "take", func(i int) (bool, error) {
		got, err := s.ClaimInbox(ctx, pre, fmt.Sprintf("%s-taker-%d", dead, i), time.Millisecond)
		for k := range got {
			seen <- k
		}
		return len(got) > 0, err
	})
	close(seen)
	count := map[string]int{}
	for k := range seen {
		count[k]++
	}
	for k := range first {
		count[k]++
	}
	if len(count) != n {
		t.Errorf("%d of %d orphaned entries taken", len(count), n)
	}
	for k, c := range count {
		if c != 1 {
			t.Errorf("%s taken %d times", k, c)
		}
	}
}
