package storetest

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"testing"
	"time"
)

// FrameStore keeps a conversation's frames (commands.FrameStore): bytes
// under a key for a while, taken once, and capped lists of them.
type FrameStore interface {
	PutFrame(ctx context.Context, key string, data []byte, ttl time.Duration) error
	Frame(ctx context.Context, key string) ([]byte, error)
	TakeFrame(ctx context.Context, key string) ([]byte, error)
	PushFrame(ctx context.Context, key string, data []byte, keep int, ttl time.Duration) error
	Frames(ctx context.Context, key string) ([][]byte, error)
}

// Frames checks a FrameStore.
func Frames(t *testing.T, s FrameStore) {
	t.Helper()
	t.Run("PutFrame", func(t *testing.T) { putFrame(t, s) })
	t.Run("TakeFrameOnce", func(t *testing.T) { takeFrameOnce(t, s) })
	t.Run("FrameLists", func(t *testing.T) { frameLists(t, s) })
	t.Run("FrameListsConcurrent", func(t *testing.T) { frameListsConcurrent(t, s) })
}

// putFrame: a frame reads back as put, is replaced by the next put, is
// gone after its ttl and after a take; keys are separate; bad arguments
// are errors.
func putFrame(t *testing.T, s FrameStore) {
	ctx := context.Background()
	key, other := unique(t, "frame/feishu/oc/ou"), unique(t, "frame/feishu/oc/ou")
	if b, err := s.Frame(ctx, key); err != nil || b != nil {
		t.Fatalf("before any put: %q, %v; want nothing", b, err)
	}
	put := func(k string, v []byte, ttl time.Duration) {
		t.Helper()
		if err := s.PutFrame(ctx, k, v, ttl); err != nil {
			t.Fatal(err)
		}
	}
	put(key, []byte(`{"query":{"intent":"stock"}}`), time.Hour)
	put(key, []byte(text("binary_answer")), time.Hour)
	put(other, []byte{0xff, 0x00}, time.Hour)
	if b, err := s.Frame(ctx, key); err != nil || !bytes.Equal(b, []byte(text("binary_answer"))) {
		t.Errorf("after two puts: %q, %v; want the second", b, err)
	}
	if b, err := s.TakeFrame(ctx, key); err != nil || !bytes.Equal(b, []byte(text("binary_answer"))) {
		t.Errorf("take: %q, %v", b, err)
	}
	if b, err := s.Frame(ctx, key); err != nil || b != nil {
		t.Errorf("after the take: %q, %v; want nothing", b, err)
	}
	if b, err := s.TakeFrame(ctx, key); err != nil || b != nil {
		t.Errorf("a second take: %q, %v; want nothing", b, err)
	}
	if b, _ := s.Frame(ctx, other); !bytes.Equal(b, []byte{0xff, 0x00}) {
		t.Errorf("another key: %q", b)
	}
	short := unique(t, "short")
	put(short, []byte("x"), 50*time.Millisecond)
	time.Sleep(120 * time.Millisecond)
	if b, err := s.Frame(ctx, short); err != nil || b != nil {
		t.Errorf("past its ttl: %q, %v; want nothing", b, err)
	}
	if b, err := s.TakeFrame(ctx, short); err != nil || b != nil {
		t.Errorf("take past its ttl: %q, %v; want nothing", b, err)
	}
	if err := s.PutFrame(ctx, "", []byte("x"), time.Hour); err == nil {
		t.Error("an empty key was accepted")
	}
	if err := s.PutFrame(ctx, unique(t, "k"), []byte("x"), 0); err == nil {
		t.Error("a zero ttl was accepted")
	}
}

// takeFrameOnce: n replicas taking the same frame (the "确认" of one
// pending action sent twice): one gets it.
func takeFrameOnce(t *testing.T, s FrameStore) {
	ctx := context.Background()
	key := unique(t, "frame-pending/feishu/oc/ou")
	if err := s.PutFrame(ctx, key, []byte(`{"intent":"mute"}`), time.Hour); err != nil {
		t.Fatal(err)
	}
	won := Race(t, 16, "take", func(int) (bool, error) {
		b, err := s.TakeFrame(ctx, key)
		return b != nil, err
	})
	if won != 1 {
		t.Errorf("%d takes of one frame got it, want 1", won)
	}
}

// frameLists: pushes read back newest first, capped at keep; lists are
// separate; a list is gone after its ttl; bad arguments are errors.
func frameLists(t *testing.T, s FrameStore) {
	ctx := context.Background()
	key, other := unique(t, "frame-said/wechat/lab"), unique(t, "frame-said/wechat/lab")
	if l, err := s.Frames(ctx, key); err != nil || len(l) != 0 {
		t.Fatalf("before any push: %q, %v", l, err)
	}
	for i := range 5 {
		if err := s.PushFrame(ctx, key, []byte(fmt.Sprintf("f%d", i)), 3, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PushFrame(ctx, other, []byte{0x00, 0xff}, 3, time.Hour); err != nil {
		t.Fatal(err)
	}
	l, err := s.Frames(ctx, key)
	if err != nil || len(l) != 3 || string(l[0]) != "f4" || string(l[2]) != "f2" {
		t.Errorf("list = %q, %v; want f4 f3 f2", l, err)
	}
	if l, _ := s.Frames(ctx, other); len(l) != 1 || !bytes.Equal(l[0], []byte{0x00, 0xff}) {
		t.Errorf("another list = %q", l)
	}
	short := unique(t, "short")
	if err := s.PushFrame(ctx, short, []byte("x"), 3, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(120 * time.Millisecond)
	if l, err := s.Frames(ctx, short); err != nil || len(l) != 0 {
		t.Errorf("past its ttl: %q, %v; want nothing", l, err)
	}
	if err := s.PushFrame(ctx, "", []byte("x"), 3, time.Hour); err == nil {
		t.Error("an empty key was accepted")
	}
	if err := s.PushFrame(ctx, unique(t, "k"), []byte("x"), 0, time.Hour); err == nil {
		t.Error("keep 0 was accepted")
	}
}

// frameListsConcurrent: pushes at once from many writers (answers in one
// chat on two replicas) are all kept: no lost writes.
func frameListsConcurrent(t *testing.T, s FrameStore) {
	ctx := context.Background()
	key := unique(t, "frame-said/feishu/oc")
	const n = 16
	Race(t, n, "push", func(i int) (bool, error) {
		return true, s.PushFrame(ctx, key, []byte(fmt.Sprintf("answer-%02d", i)), 2*n, time.Hour)
	})
	l, err := s.Frames(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(l))
	for i, b := range l {
		got[i] = string(b)
	}
	sort.Strings(got)
	if len(got) != n || got[0] != "answer-00" || got[n-1] != fmt.Sprintf("answer-%02d", n-1) {
		t.Errorf("after %d concurrent pushes: %d kept %q", n, len(got), got)
	}
}
