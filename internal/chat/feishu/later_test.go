package feishu_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/claim"
	"github.com/labgpu/bot/internal/chat/feishu"
)

// lateHandler answers after delay from older data (a platform was late)
// and, as a chat.Updater, gives the answer again once fresh is closed;
// same: the fresh answer would read the same (nothing to update).
type lateHandler struct {
	slowHandler
	fresh chan struct{}
	same  bool
	// gave is told each time the later answer was given (or not).
	gave chan bool
}

func (h *lateHandler) HandleUpdatable(ctx context.Context, m chat.Message) (chat.Reply, chat.Later) {
	if m.ChatType == chat.P2P {
		// Another question, answered at once from fresh data.
		return chat.Reply{Title: "RTX 3090 有货"}, nil
	}
	r := h.Handle(ctx, m)
	r.Lines = []string{"⚠ vast.ai 还没回应，先用8 分钟前的数据。"}
	return r, func(ctx context.Context) (chat.Reply, bool) {
		select {
		case <-h.fresh:
		case <-ctx.Done():
			return chat.Reply{}, false
		}
		if h.gave != nil {
			defer func() { h.gave <- !h.same }()
		}
		if h.same {
			return chat.Reply{}, false
		}
		return chat.Reply{Title: "RTX 4090 有货", Table: &chat.Table{Header: []string{"平台", "元/卡时"}, Rows: [][]string{{"vast.ai", "1.44"}}}}, true
	}
}

var _ chat.Updater = (*lateHandler)(nil)

// TestAnswerUpdatedWhenFreshDataComes: an answer given from older data
// replaces the "查询中…" card, and when the late platform's data comes
// the same card is replaced again (PATCH) with the fresh answer — one
// message in the chat, never a second answer. While the update waits, the
// worker answers other messages. An answer that would read the same is
// not patched; a fast one (no "查询中…" card: the platform was already
// late) is posted as a card and replaced the same way.
func TestAnswerUpdatedWhenFreshDataComes(t *testing.T) {
	fixtureDir(t)
	const replyID = "om_7f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c" // resp_im_v1_messages_reply.json
	interimPath := "/open-apis/im/v1/messages/" + groupMsgID + "/reply"
	patchPath := "/open-apis/im/v1/messages/" + replyID
	cases := []struct {
		name  string
		delay time.Duration
		same  bool
		want  []string
		last  string
	}{
		{"fresh data: the card is replaced again", 300 * time.Millisecond, false, []string{interimPath, patchPath, patchPath}, "1.44"},
		{"the same answer: no second update", 300 * time.Millisecond, true, []string{interimPath, patchPath}, "还没回应"},
		{"a fast answer: posted as a card, then replaced", 0, false, []string{interimPath /* the answer itself */, patchPath}, "1.44"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			h := &lateHandler{slowHandler: slowHandler{delay: c.delay}, fresh: make(chan struct{}), same: c.same, gave: make(chan bool, 1)}
			opts := baseOptions(f, h, nil)
			opts.InterimAfter = 50 * time.Millisecond
			opts.Workers = 1
			b := newBot(t, opts)
			if rec := deliver(b.HTTPHandler(), sealed(groupEvent(t, groupEventID, groupMsgID, "", nil), time.Now())); rec.Code != 200 {
				t.Fatalf("status %d", rec.Code)
			}
			first := len(c.want)
			if !c.same {
				first-- // the update comes after the fresh data
			}
			waitUntil(t, "the first answer", func() bool { return len(f.messages()) >= first })
			// The one worker is free while the update waits: a p2p
			// message is answered before the fresh data comes.
			if rec := deliver(b.HTTPHandler(), sealed(p2pEvent(t, "ev-p2p-1", "om_p2p_1", "哪家有4090"), time.Now())); rec.Code != 200 {
				t.Fatalf("status %d", rec.Code)
			}
			waitUntil(t, "the second message's answer", func() bool { return len(f.messages()) >= first+1 })
			close(h.fresh)
			if gave := <-h.gave; gave {
				waitUntil(t, "the update", func() bool { return len(f.messages()) >= len(c.want)+1 })
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			var paths []string
			var lastToFirst string
			for _, m := range f.messages() {
				if strings.Contains(m.Path, "om_p2p_1") {
					continue
				}
				paths = append(paths, m.Path)
				lastToFirst = m.Content
			}
			if strings.Join(paths, " ") != strings.Join(c.want, " ") {
				t.Fatalf("requests %q, want %q", paths, c.want)
			}
			if !strings.Contains(lastToFirst, c.last) {
				t.Errorf("the card ends as %s, want %q in it", lastToFirst, c.last)
			}
		})
	}
}

// TestCloseEndsWaitingUpdate: Close does not wait for a late platform:
// an update still waiting is dropped, and the first answer stands.
func TestCloseEndsWaitingUpdate(t *testing.T) {
	fixtureDir(t)
	f := newFake(t)
	h := &lateHandler{slowHandler: slowHandler{delay: 200 * time.Millisecond}, fresh: make(chan struct{})}
	opts := baseOptions(f, h, nil)
	opts.InterimAfter = 50 * time.Millisecond
	b := newBot(t, opts)
	deliver(b.HTTPHandler(), sealed(groupEvent(t, groupEventID, groupMsgID, "", nil), time.Now()))
	waitUntil(t, "the answer", func() bool { return len(f.messages()) >= 2 })
	done := make(chan struct{})
	go func() { _ = b.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for the late platform")
	}
	if n := len(f.messages()); n != 2 {
		t.Errorf("%d requests, want the interim card and the answer", n)
	}
}

// waitUntil polls cond for up to 10 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// switchDedup is a claim store that can go down and come back.
type switchDedup struct {
	down atomic.Bool
	mem  feishu.Deduper
}

func (d *switchDedup) ClaimAlert(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	if d.down.Load() {
		return brokenDedup{}.ClaimAlert(ctx, key, ttl)
	}
	return d.mem.ClaimAlert(ctx, key, ttl)
}

func (d *switchDedup) ReleaseAlert(ctx context.Context, key string) error {
	return d.mem.ReleaseAlert(ctx, key)
}

// TestReadyFromRecordedIntake: Ready reads what the callback recorded and
// calls nobody: it turns false only when every verified event has been
// refused (503) for 30 s, three at least, and true again at the next
// accepted one; events failing verification never count.
func TestReadyFromRecordedIntake(t *testing.T) {
	fixtureDir(t)
	cases := []struct {
		name    string
		refused int
		after   time.Duration
		forged  int
		ready   bool
	}{
		{"nothing refused", 0, time.Minute, 0, true},
		{"refusals for less than 30 s", 5, 20 * time.Second, 0, true},
		{"two refusals over a minute", 2, time.Minute, 0, true},
		{"every event refused for 31 s", 3, 31 * time.Second, 0, false},
		{"forged events do not count", 0, time.Minute, 5, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			var mu sync.Mutex
			now := time.Now()
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			dedup := &switchDedup{mem: claim.NewMemoryDeduper()}
			opts := baseOptions(f, &recHandler{}, nil)
			opts.Dedup, opts.Now = dedup, clock
			b := newBot(t, opts)
			dedup.down.Store(true)
			for i := range c.refused {
				id := fmt.Sprintf("ev-r-%d", i)
				if rec := deliver(b.HTTPHandler(), sealed(p2pEvent(t, id, "om-"+id, "hi"), clock())); rec.Code != http.StatusServiceUnavailable {
					t.Fatalf("refused event answered %d", rec.Code)
				}
			}
			for i := range c.forged {
				d := sealed(p2pEvent(t, fmt.Sprintf("ev-f-%d", i), fmt.Sprintf("om-f-%d", i), "hi"), clock())
				d.header.Set("X-Lark-Signature", strings.Repeat("0", 64))
				deliver(b.HTTPHandler(), d)
			}
			mu.Lock()
			now = now.Add(c.after)
			mu.Unlock()
			if err := b.Ready(); (err == nil) != c.ready {
				t.Fatalf("Ready: %v, want ready %v", err, c.ready)
			}
			if c.ready {
				return
			}
			dedup.down.Store(false)
			if rec := deliver(b.HTTPHandler(), sealed(p2pEvent(t, "ev-ok", "om-ok", "hi"), clock())); rec.Code != 200 {
				t.Fatalf("accepted event answered %d", rec.Code)
			}
			if err := b.Ready(); err != nil {
				t.Errorf("after an accepted event: %v", err)
			}
		})
	}
}
