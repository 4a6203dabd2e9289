package feishu_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
)

// linkHandler is a recHandler that keeps what its answers were about
// (chat.AnswerLinker): it records the ids it is told.
type linkHandler struct {
	recHandler
	mu     sync.Mutex
	linked map[string][]string
}

func (h *linkHandler) LinkAnswer(_ context.Context, msg chat.Message, ids []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.linked[msg.ID] = append(h.linked[msg.ID], ids...)
}

// TestReplyLinks: a reply's parent_id and root_id reach the Handler, and
// after the answer goes out the Handler is told the message_id Feishu
// gave it, so a reply to that message can continue the answer.
func TestReplyLinks(t *testing.T) {
	f := newFake(t)
	h := &linkHandler{linked: map[string][]string{}}
	b := newBot(t, baseOptions(f, h, nil))
	ev := groupEvent(t, "ev-reply", "om-reply", "那A100呢", nil)
	msg := sub(sub(ev, "event"), "message")
	msg["parent_id"], msg["root_id"] = "om_parent", "om_root"
	if rec := deliver(b.HTTPHandler(), sealed(ev, time.Now())); rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	_ = b.Close()
	ms := h.messages()
	if len(ms) != 1 || ms[0].ParentID != "om_parent" || ms[0].RootID != "om_root" {
		t.Fatalf("messages %+v", ms)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if got := h.linked["om-reply"]; len(got) != 1 || got[0] != "om_7f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c" {
		t.Errorf("linked %v, want the reply's message_id", h.linked)
	}
}
