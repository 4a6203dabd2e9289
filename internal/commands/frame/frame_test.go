package frame_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/understand"
)

// TestMem: the in-memory Store keeps a frame its ttl, gives it to one
// take, caps lists newest first, and holds at most its maximum of keys.
func TestMem(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	m := frame.NewMem(func() time.Time { return now }, 3)
	ctx := context.Background()
	_ = m.PutFrame(ctx, "a", []byte("1"), time.Minute)
	if b, _ := m.Frame(ctx, "a"); string(b) != "1" {
		t.Errorf("frame a = %q", b)
	}
	if b, _ := m.TakeFrame(ctx, "a"); string(b) != "1" {
		t.Errorf("take a = %q", b)
	}
	if b, _ := m.TakeFrame(ctx, "a"); b != nil {
		t.Errorf("second take = %q", b)
	}
	_ = m.PutFrame(ctx, "b", []byte("2"), time.Minute)
	now = now.Add(2 * time.Minute)
	if b, _ := m.Frame(ctx, "b"); b != nil {
		t.Errorf("past its ttl: %q", b)
	}
	for _, v := range []string{"x", "y", "z"} {
		_ = m.PushFrame(ctx, "l", []byte(v), 2, time.Hour)
	}
	if l, _ := m.Frames(ctx, "l"); len(l) != 2 || string(l[0]) != "z" || string(l[1]) != "y" {
		t.Errorf("list = %q", l)
	}
	for _, k := range []string{"c", "d", "e", "f"} {
		_ = m.PutFrame(ctx, k, []byte(k), time.Hour)
	}
	if b, _ := m.Frame(ctx, "f"); string(b) != "f" {
		t.Errorf("the newest key was dropped: %q", b)
	}
}

// TestKeptRoundTrip: what a frame keeps of a Query survives its JSON,
// the fields left out of the Query's own JSON included.
func TestKeptRoundTrip(t *testing.T) {
	q := understand.Query{Intent: understand.IntentAvailability, GPU: "RTX 4090", GPUs: []string{"RTX 4090"},
		When: &understand.WeekWindow{Set: "weekend"}, KBWorkload: "sdxl", Verbs: []string{"mute"}, Asked: "resnet50 imagenet"}
	b, err := json.Marshal(frame.Frame{Query: frame.Keep(q)})
	if err != nil {
		t.Fatal(err)
	}
	f := frame.Decode(b)
	if f == nil {
		t.Fatal("no frame")
	}
	got := f.Query.Restore()
	if got.Intent != q.Intent || got.GPU != q.GPU || got.When == nil || got.When.Set != "weekend" || got.KBWorkload != "sdxl" ||
		len(got.Verbs) != 1 || got.Asked != q.Asked {
		t.Errorf("restored %+v", got)
	}
	if frame.Decode([]byte("not json")) != nil || frame.Decode(nil) != nil {
		t.Error("a frame decoded from nothing")
	}
}
