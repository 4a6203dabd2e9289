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
// stands (jobs.DigestMarks) and the answers a channel parked at shutdown
// for the next start (feishu.Parking).
type SendStore interface {
	Delivered(ctx context.Context, key string) (bool, error)
	MarkDelivered(ctx context.Context, key string, ttl time.Duration) error
	DigestMark(ctx context.Context, chatKey string) (string, error)
	SwapDigestMark(ctx context.Context, chatKey, old, new string) (bool, error)
	ParkReply(ctx context.Context, key string, data []byte, ttl time.Duration) error
	TakeParkedReplies(ctx context.Context, prefix string) (map[string][]byte, error)
}

// Sends checks a SendStore.
func Sends(t *testing.T, s SendStore) {
	t.Helper()
	t.Run("Delivered", func(t *testing.T) { delivered(t, s) })
	t.Run("DigestMarks", func(t *testing.T) { digestMarks(t, s) })
	t.Run("DigestMarksConcurrent", func(t *testing.T) { digestMarksConcurrent(t, s) })
	t.Run("Parked", func(t *testing.T) { parked(t, s) })
	t.Run("ParkedConcurrent", func(t *testing.T) { parkedConcurrent(t, s) })
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

// parked: parked answers are taken once, by prefix, with their bytes;
// a key parked again replaces; expired ones are not returned.
func parked(t *testing.T, s SendStore) {
	ctx := context.Background()
	pre, other := unique(t, "feishu")+"/", unique(t, "wechat")+"/"
	put := func(k string, v []byte, ttl time.Duration) {
		t.Helper()
		if err := s.ParkReply(ctx, k, v, ttl); err != nil {
			t.Fatal(err)
		}
	}
	put(pre+"om_1", []byte("first"), time.Hour)
	put(pre+"om_1", []byte(text("binary_answer")), time.Hour)
	put(pre+"om_2", []byte{0xff, 0x00, 0x01}, time.Hour)
	put(pre+"om_old", []byte("stale"), 50*time.Millisecond)
	put(other+"om_1", []byte("theirs"), time.Hour)
	time.Sleep(120 * time.Millisecond)
	got, err := s.TakeParkedReplies(ctx, pre)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || string(got[pre+"om_1"]) != text("binary_answer") || string(got[pre+"om_2"]) != "\xff\x00\x01" {
		t.Errorf("taken %q; want om_1 (the second park) and om_2, not the expired one", got)
	}
	if again, err := s.TakeParkedReplies(ctx, pre); err != nil || len(again) != 0 {
		t.Errorf("taken twice: %q, %v", again, err)
	}
	if theirs, err := s.TakeParkedReplies(ctx, other); err != nil || len(theirs) != 1 || string(theirs[other+"om_1"]) != "theirs" {
		t.Errorf("another prefix: %q, %v", theirs, err)
	}
	if err := s.ParkReply(ctx, "", []byte("x"), time.Hour); err == nil {
		t.Error("an empty key was accepted")
	}
	if err := s.ParkReply(ctx, pre+"x", []byte("x"), 0); err == nil {
		t.Error("a zero ttl was accepted")
	}
}

// parkedConcurrent: replicas starting at once take every parked answer
// exactly once between them.
func parkedConcurrent(t *testing.T, s SendStore) {
	ctx := context.Background()
	pre := unique(t, "feishu") + "/"
	const n = 40
	for i := range n {
		if err := s.ParkReply(ctx, fmt.Sprintf("%som_%d", pre, i), []byte{byte(i)}, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	seen := make(chan string, 4*n)
	Race(t, 4, "take", func(int) (bool, error) {
		got, err := s.TakeParkedReplies(ctx, pre)
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
	if len(count) != n {
		t.Errorf("%d of %d parked answers taken", len(count), n)
	}
	for k, c := range count {
		if c != 1 {
			t.Errorf("%s taken %d times", k, c)
		}
	}
}
