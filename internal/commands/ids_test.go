package commands_test

import (
	"context"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/store/embedded"
)

// TestIDs: "本群ID" / "我的ID" / "chat id" / "my id" give the chat's and
// the asker's ids first, the chat as config keys name it, the lab it is
// in, and how the asker becomes a storage admin (or that they are), per
// channel and in the asker's language; other questions about ids or
// groups are not this answer.
func TestIDs(t *testing.T) {
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := newRouterWith(t, commands.WithStorage(commands.StorageOptions{Ledger: st, Blobs: st, Admins: []string{"ou_boss"},
		Labs: map[string]string{"feishu/oc_lab": "nlp"}, Price: ledger.CatalogStoragePrice(testCatalog(t), nil)}))
	msg := func(channel string, ct chat.ChatType, chatID, sender, text string) commands.Result {
		return r.Answer(context.Background(), chat.Message{Channel: channel, ChatType: ct, ChatID: chatID, SenderID: sender, Text: text})
	}
	cases := []struct {
		res   commands.Result
		first string
		wants []string
	}{
		{msg("feishu", chat.Group, "oc_lab", "ou_7d6c", "本群ID"), "本群 ID：oc_lab",
			[]string{"你的 open_id：ou_7d6c", "feishu/oc_lab", "实验室 nlp", "把 ou_7d6c 写进 storage.admins"}},
		{msg("feishu", chat.Group, "oc_lab", "ou_boss", "我的id是多少"), "本群 ID：oc_lab", []string{"你的 open_id：ou_boss", "你是存储管理员"}},
		{msg("feishu", chat.P2P, "oc_p2p", "ou_7d6c", "my id"), "Your open_id: ou_7d6c",
			[]string{"This private chat's id: oc_p2p", "Put ou_7d6c in storage.admins", "@mention me there"}},
		{msg("feishu", chat.Group, "oc_x", "ou_1", "what's the chat id?"), "This chat's id: oc_x", []string{"bot digest --lab feishu/oc_x"}},
		{msg("wechat", chat.Group, "GPU群", "remark:alice", "本群ID"), "本群 ID：GPU群", []string{"wechat/GPU群", "wechat.groups", "绑定管理员"}},
		{msg("wechat", chat.Group, "GPU群", "小王", "我的ID"), "本群 ID：GPU群", []string{"备注名"}},
	}
	for _, c := range cases {
		if c.res.Intent != "ids" {
			t.Errorf("%q: intent %q", c.res.Text, c.res.Intent)
			continue
		}
		if first, _, _ := strings.Cut(c.res.Text, "\n"); first != c.first {
			t.Errorf("first line %q, want %q", first, c.first)
		}
		mustContain(t, c.res.Text, c.wants...)
		if n := strings.Count(c.res.Text, "\n") + 1; n > 8 {
			t.Errorf("%d lines:\n%s", n, c.res.Text)
		}
	}
	for _, q := range []string{"群里有多少人", "4090 有货了提醒我", "身份证号"} {
		if res := msg("feishu", chat.Group, "oc_lab", "ou_1", q); res.Intent == "ids" {
			t.Errorf("%q answered with the ids", q)
		}
	}
}
