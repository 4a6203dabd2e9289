package redis_test

import (
	"context"
	"testing"
	"time"

	redisstore "github.com/labgpu/bot/internal/store/redis"
	"github.com/labgpu/bot/internal/store/storetest"
)

// TestFrameKeyLayout pins the frames' key names, types and expiry.
func TestFrameKeyLayout(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	p, c := s.Prefix(), s.Client()
	if err := s.PutFrame(ctx, "frame/feishu/oc/ou", []byte("{}"), time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.PushFrame(ctx, "frame-said/feishu/oc/", []byte("{}"), 3, time.Hour); err != nil {
		t.Fatal(err)
	}
	for k, typ := range map[string]string{"frame:frame/feishu/oc/ou": "string", "frames:frame-said/feishu/oc/": "list"} {
		if got, err := c.Type(ctx, p+k).Result(); err != nil || got != typ {
			t.Errorf("TYPE %s = %q, %v; want %s", p+k, got, err, typ)
		}
		if ttl := c.PTTL(ctx, p+k).Val(); ttl <= 59*time.Minute || ttl > time.Hour+10*time.Millisecond {
			t.Errorf("PTTL %s = %v, want about an hour", k, ttl)
		}
	}
}

// TestFramesAcrossReplicas: a frame kept by one replica is read by the
// other, and a pending action taken from both at once is taken once.
func TestFramesAcrossReplicas(t *testing.T) {
	prefix := testPrefix(t)
	a, b := open(t, prefix), open(t, prefix)
	t.Cleanup(func() { deleteKeys(t, a.Client(), prefix) })
	ctx := context.Background()
	if err := a.PutFrame(ctx, "frame/feishu/oc/ou", []byte(`{"query":{"intent":"stock"}}`), time.Hour); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Frame(ctx, "frame/feishu/oc/ou"); err != nil || string(got) != `{"query":{"intent":"stock"}}` {
		t.Errorf("replica b reads %q, %v", got, err)
	}
	for round := range 5 {
		key := "frame-pending/feishu/oc/ou" + string(rune('0'+round))
		if err := a.PutFrame(ctx, key, []byte(`{"intent":"mute"}`), time.Hour); err != nil {
			t.Fatal(err)
		}
		won := storetest.Race(t, 20, "take", func(i int) (bool, error) {
			got, err := []*redisstore.Store{a, b}[i%2].TakeFrame(ctx, key)
			return got != nil, err
		})
		if won != 1 {
			t.Errorf("%s: %d of 20 takes across two replicas got it, want 1", key, won)
		}
	}
}
