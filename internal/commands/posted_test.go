package commands_test

import (
	"context"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

// TestDetailsOfAPostedDigest: "详情" in a chat the bot posted a digest to
// on its own (the weekly job) shows that digest's full form; another chat
// gets nothing to expand.
func TestDetailsOfAPostedDigest(t *testing.T) {
	r := newRouter(t)
	r.RememberPosted("wechat/lab", chat.Reply{Title: "存储花费 2026-W48：合计 97.55 元。", Lines: []string{"按人：", "  张伟 57.06（58%）"}})
	res := r.Answer(context.Background(), chat.Message{Channel: "wechat", ChatID: "lab", SenderID: "u1", Text: "详情", ChatType: chat.Group})
	if !strings.Contains(res.Text, "张伟 57.06") {
		t.Errorf("详情 in the lab's chat: %q", res.Text)
	}
	res = r.Answer(context.Background(), chat.Message{Channel: "wechat", ChatID: "other", SenderID: "u1", Text: "详情", ChatType: chat.Group})
	if strings.Contains(res.Text, "张伟") {
		t.Errorf("详情 in another chat shows the lab's digest: %q", res.Text)
	}
}
