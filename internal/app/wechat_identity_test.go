package app_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/stock"
)

// wxFriend is a contact of the bot's WeChat account for miniWeChat.
func wxFriend(user, nick, remark string) map[string]any {
	return map[string]any{"UserName": user, "NickName": nick, "RemarkName": remark}
}

// to lists what the bot sent to a WeChat user.
func (f *miniWeChat) to(user string) []string {
	var out []string
	for _, s := range f.sends() {
		if rest, ok := strings.CutPrefix(s, user+" "); ok {
			out = append(out, rest)
		}
	}
	return out
}

// TestWeChatRenameCannotTakeAPrivateChat (issue 26) runs `bot serve` with
// a real router and store: Alice (remark alice-lab) registers a disk,
// turns the digest on and subscribes in her private chat. Friends who
// renamed themselves to her remark name or to her nickname — with a remark
// of their own, or none — see none of her disks and cannot switch her
// digest; one without a remark, or sharing one, gets no private-chat
// actions at all, and the admin is told once per contact. Her alert
// reaches her, not the group named like her.
func TestWeChatRenameCannotTakeAPrivateChat(t *testing.T) {
	needShared(t, fixtures)
	wx := newMiniWeChat(t)
	wx.contacts = []map[string]any{
		{"UserName": "@@lab", "NickName": "Lab Group"},
		{"UserName": "@@fake", "NickName": "alice-lab"}, // a group named like her remark
		wxFriend("@alice", "Alice", "alice-lab"),
		wxFriend("@bob", "alice-lab", "bob-lab"), // renamed to her remark; has his own
		wxFriend("@carl", "Alice", "carl-lab"),   // renamed to her nickname; has his own
		wxFriend("@mal", "alice-lab", ""),        // renamed to her remark; no remark
		wxFriend("@nick", "Alice", ""),           // renamed to her nickname; no remark
		wxFriend("@dave", "Dave", "twin"),        // a remark two friends share
		wxFriend("@erin", "Erin", "twin"),
	}
	wecom := newFakeWeCom(t)
	cfg, rec := replayConfig(t)
	cfg.Webhooks = []config.WebhookConf{{Name: "ops", Kind: "wecom", URL: wecom.url}}
	cfg.WeChat = config.WeChatConf{Enabled: true, Groups: []string{"Lab Group"}, Admin: "webhook/ops"}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a, _ := startWeChatServe(t, cfg, wx, nil)
	say := func(user, text string, n int) string {
		t.Helper()
		wx.push(user, "@self", text)
		waitFor(t, user+"'s answer to "+text, func() bool { return len(wx.to(user)) >= n })
		return wx.to(user)[n-1]
	}
	if r := say("@alice", "登记存储 AutoDL 数据盘 120G 蛋白质折叠", 1); !strings.Contains(r, "#1") {
		t.Fatalf("Alice's registration: %q", r)
	}
	if r := say("@alice", "开启周报", 2); !strings.Contains(r, "已开启") {
		t.Fatalf("Alice's digest: %q", r)
	}
	if r := say("@alice", "AutoDL 4090 有货了提醒我", 3); !strings.Contains(r, "4090") {
		t.Fatalf("Alice's subscription: %q", r)
	}
	for _, user := range []string{"@bob", "@carl", "@mal", "@nick"} {
		// What Alice's data would show: her note, her disk's size and
		// number, and her subscription's platform.
		for i, q := range []string{"存储列表", "我的存储", "本周存储花费", "关闭周报", "我的订阅"} {
			r := say(user, q, i+1)
			if strings.Contains(r, "蛋白质") || strings.Contains(r, "120") || strings.Contains(r, "#1") || q == "我的订阅" && strings.Contains(r, "AutoDL") {
				t.Errorf("%s asked %q and saw Alice's data: %q", user, q, r)
			}
			if (user == "@mal" || user == "@nick") && !strings.Contains(r, "备注名") {
				t.Errorf("%s (no remark) asked %q: %q, want the short answer saying why", user, q, r)
			}
		}
	}
	if r := say("@dave", "存储列表", 1); !strings.Contains(r, "重复") {
		t.Errorf("Dave (a shared remark): %q", r)
	}
	chats, err := a.Store.DigestChats(context.Background())
	if err != nil || !slices.Contains(chats, "wechat/remark:alice-lab") {
		t.Errorf("digest chats %v (%v): Alice's digest was switched off by someone else", chats, err)
	}
	// The admin is told once per contact without a remark of their own.
	waitFor(t, "the admin notices", func() bool { return len(wecom.got()) >= 3 })
	time.Sleep(100 * time.Millisecond)
	got := wecom.got()
	if len(got) != 3 {
		t.Fatalf("admin notices %d, want 3 (mal, nick, dave once each): %q", len(got), got)
	}
	for _, n := range got {
		if !strings.Contains(n, "备注名") {
			t.Errorf("admin notice %q", n)
		}
	}
	// Her alert reaches her private chat, nobody else.
	before := len(wx.sends())
	stockArrives(t, a, rec)
	waitFor(t, "Alice's alert", func() bool { return len(wx.to("@alice")) >= 4 })
	time.Sleep(100 * time.Millisecond)
	if s := wx.sends(); len(s) != before+1 || !strings.Contains(wx.to("@alice")[3], "4090") {
		t.Errorf("after the poll: %q; want only Alice's alert", s[before:])
	}
}

// TestWeChatOldPrivateKeysMoved: a subscription made in a private chat
// before private chats had the remark: key (ChatID the bare remark name,
// its owner that friend) is moved to the new key after the login, with
// its chat's mute; a group's subscription and one keyed by a nickname are
// left as they are. Its owner then lists it in her private chat, and its
// alert reaches her.
func TestWeChatOldPrivateKeysMoved(t *testing.T) {
	needShared(t, fixtures)
	wx := newMiniWeChat(t)
	wx.contacts = []map[string]any{{"UserName": "@@lab", "NickName": "Lab Group"}, wxFriend("@alice", "Alice", "alice-lab"), wxFriend("@bob", "Bob", "bob-lab")}
	cfg, rec := replayConfig(t)
	cfg.WeChat = config.WeChatConf{Enabled: true, Groups: []string{"Lab Group"}}
	now := time.Now()
	old := []stock.Subscription{
		{ID: "s-old-private", Channel: "wechat", ChatID: "alice-lab", OwnerID: "remark:alice-lab", OwnerName: "Alice", GPUs: []string{"RTX 4090"}, Platforms: []string{"autodl"}, CreatedAt: now},
		{ID: "s-group", Channel: "wechat", ChatID: "Lab Group", OwnerID: "remark:alice-lab", OwnerName: "Alice", GPUs: []string{"A100 80GB"}, CreatedAt: now},
		{ID: "s-nick", Channel: "wechat", ChatID: "Alice", OwnerID: "Alice", OwnerName: "Alice", GPUs: []string{"H800"}, CreatedAt: now},
	}
	mutedTill := now.Add(time.Hour).Truncate(time.Second)
	a, _ := startWeChatServe(t, cfg, wx, func(a *app.App) {
		for _, s := range old {
			if err := a.Store.AddSubscription(context.Background(), s); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.Store.SetMute(context.Background(), "wechat/alice-lab", mutedTill); err != nil {
			t.Fatal(err)
		}
		// Digests of old private chats: Alice's kept no ledger (moved),
		// Bob's has one (stays: moving the switch alone would empty it).
		for _, k := range []string{"wechat/alice-lab", "wechat/bob-lab", "wechat/Lab Group"} {
			if err := a.Store.SetDigestChat(context.Background(), k, true); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.Store.AppendStorageEvents(context.Background(), []ledger.StorageEvent{{Time: now, Lab: "wechat/bob-lab", Owner: "remark:bob-lab",
			Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 100}}); err != nil {
			t.Fatal(err)
		}
	})
	chatOf := func(id string) string {
		subs, _ := a.Store.Subscriptions(context.Background())
		for _, s := range subs {
			if s.ID == id {
				return s.ChatID
			}
		}
		return "?"
	}
	waitFor(t, "the old key moved", func() bool { return chatOf("s-old-private") == "remark:alice-lab" })
	if c := chatOf("s-group"); c != "Lab Group" {
		t.Errorf("the group's subscription moved to %q", c)
	}
	if c := chatOf("s-nick"); c != "Alice" {
		t.Errorf("the nickname-keyed subscription moved to %q", c)
	}
	if until, err := a.Store.MutedUntil(context.Background(), "wechat/remark:alice-lab"); err != nil || !until.Equal(mutedTill) {
		t.Errorf("mute of the new key: %v %v, want %v", until, err, mutedTill)
	}
	digests := func() []string {
		chats, _ := a.Store.DigestChats(context.Background())
		slices.Sort(chats)
		return chats
	}
	want := []string{"wechat/Lab Group", "wechat/bob-lab", "wechat/remark:alice-lab"}
	waitFor(t, "Alice's digest moved", func() bool { return slices.Equal(digests(), want) })
	wx.push("@alice", "@self", "我的订阅")
	waitFor(t, "her list", func() bool { return len(wx.to("@alice")) >= 1 })
	if r := wx.to("@alice")[0]; !strings.Contains(r, "4090") || strings.Contains(r, "A100") || strings.Contains(r, "H800") {
		t.Errorf("her subscriptions in her private chat: %q", r)
	}
	if err := a.Store.SetMute(context.Background(), "wechat/remark:alice-lab", time.Time{}); err != nil {
		t.Fatal(err)
	}
	stockArrives(t, a, rec)
	waitFor(t, "her alert", func() bool { return len(wx.to("@alice")) >= 2 })
	if r := wx.to("@alice")[1]; !strings.Contains(r, "4090") {
		t.Errorf("alert %q", r)
	}
}
