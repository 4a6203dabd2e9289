package wechat

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eatmoreapple/openwechat"

	"github.com/labgpu/bot/internal/chat"
)

func TestSenderID(t *testing.T) {
	for _, tc := range []struct{ nick, key, want string }{
		{"Alice", "alice-lab", "remark:alice-lab"},
		{"Alice", "", "Alice"},
		{"Alice", "  ", "Alice"},
		// A nickname shaped like a strong id stays weak.
		{"remark:alice-lab", "", "nick:remark:alice-lab"},
		{"nick:x", "", "nick:nick:x"},
	} {
		if got := senderID(tc.nick, tc.key); got != tc.want {
			t.Errorf("senderID(%q, %q) = %q, want %q", tc.nick, tc.key, got, tc.want)
		}
	}
	if nameOfID("remark:alice-lab") != "alice-lab" || nameOfID("nick:remark:x") != "remark:x" || nameOfID("Bob") != "Bob" {
		t.Error("nameOfID")
	}
}

func TestFriendKey(t *testing.T) {
	members := openwechat.Members{
		{UserName: "@alice", NickName: "Alice", RemarkName: "alice-lab"},
		{UserName: "@mallory", NickName: "Alice"}, // renamed to Alice, no remark
		{UserName: "@c1", NickName: "C1", RemarkName: "twin"},
		{UserName: "@c2", NickName: "C2", RemarkName: "twin"},
		{UserName: "@mp", NickName: "News", RemarkName: "news", VerifyFlag: 24},
		{UserName: "@@grp", NickName: "Lab", RemarkName: "lab"},
	}
	for _, tc := range []struct{ user, want string }{
		{"@alice", "alice-lab"},
		{"@mallory", ""},  // no remark: weak
		{"@c1", ""},       // a remark two friends share proves nothing
		{"@mp", ""},       // not a friend
		{"@@grp", ""},     // a group
		{"@stranger", ""}, // a group member who is no friend
		{"", ""},
	} {
		if got := friendKey(members, tc.user); got != tc.want {
			t.Errorf("friendKey(%q) = %q, want %q", tc.user, got, tc.want)
		}
	}
}

// Done-when of issue 15 on the channel's side: a member renamed to
// another member's nickname gets a different SenderID, in a group and in
// a private chat, so nothing that follows the id follows the nickname.
func TestNicknameSpoofGetsAnotherID(t *testing.T) {
	const malloryUser = "@mallory0001"
	f := newFake(t)
	// Mallory is in the group and a friend of the bot, renamed to "Alice"
	// and with a group display name like hers; the bot gave her no remark.
	g := f.groups[grpUser]
	g.MemberList = append(append([]fakeUser(nil), g.MemberList...), fakeUser{UserName: malloryUser, NickName: aliceNick, DisplayName: aliceDisp})
	g.MemberCount = len(g.MemberList)
	f.groups[grpUser] = g
	f.contacts = append(f.contacts, fakeUser{UserName: malloryUser, NickName: aliceNick})
	hs := start(t, f, nil)

	f.push(groupMsg(aliceUser, "@"+botInGrp+"\u2005存储 1 已关机"), groupMsg(malloryUser, "@"+botInGrp+"\u2005存储 1 已关机"),
		privMsg(malloryUser, "绑定管理员"), sentinel())
	var toMallory []sentMsg
	for {
		m, ok := f.waitSend(5 * time.Second)
		if !ok {
			t.Fatal("no answer to the sentinel")
		}
		if isSentinel(m) {
			break
		}
		if m.To == malloryUser {
			toMallory = append(toMallory, m)
		}
	}
	got := hs.h.got()
	if len(got) != 3 {
		t.Fatalf("handler got %d messages, want 3 (Alice's, Mallory's in the group, the sentinel): %+v", len(got), got)
	}
	alice, malloryGrp := got[0], got[1]
	if alice.SenderID != RemarkIDPrefix+aliceRem {
		t.Errorf("Alice's id %q, want the strong %q", alice.SenderID, RemarkIDPrefix+aliceRem)
	}
	if malloryGrp.SenderID == alice.SenderID || malloryGrp.SenderID != aliceNick {
		t.Errorf("the renamed member's id %q, want the weak nickname, not Alice's %q", malloryGrp.SenderID, alice.SenderID)
	}
	// Her private message has no chat at all: a short answer, no Handler.
	if len(toMallory) != 1 || !strings.Contains(toMallory[0].Content, "备注名") {
		t.Errorf("private answers to the renamed member: %+v, want one saying she needs a remark name", toMallory)
	}
}

// An alert that mentions a strong id shows the member's group display
// name, never the id.
func TestMentionOfStrongID(t *testing.T) {
	f := newFake(t)
	hs := start(t, f, nil)
	alert := chat.Reply{Title: "RTX 4090 有货了", Mentions: []string{RemarkIDPrefix + aliceRem}}
	if err := hs.b.Send(context.Background(), grpName, alert, chat.SendOptions{}); err != nil {
		t.Fatal(err)
	}
	s, ok := f.waitSend(5 * time.Second)
	if !ok {
		t.Fatal("alert not delivered")
	}
	if s.To != grpUser || s.Content != "@"+aliceDisp+"\u2005RTX 4090 有货了" {
		t.Errorf("alert %+v", s)
	}
}

func TestDecideStrongID(t *testing.T) {
	priv := rawMessage{MsgID: "m", Text: true, FromFriend: true, Content: "hi", SenderNick: "Alice", SenderRemark: "alice-lab", SenderKey: "alice-lab"}
	if m, v := decide(priv, newAllowList(nil), time.Time{}); v != answer || m.SenderID != "remark:alice-lab" || m.ChatID != "remark:alice-lab" || m.SenderName != "Alice" {
		t.Errorf("private: %v %+v", v, m)
	}
	grp := rawMessage{MsgID: "g", Text: true, FromGroup: true, IsAt: true, Content: "@Bot hi", GroupName: "Lab", SenderNick: "Alice", SenderDisplay: "阿丽", SenderKey: "alice-lab", BotNick: "Bot"}
	if m, v := decide(grp, newAllowList(nil), time.Time{}); v != answer || m.SenderID != "remark:alice-lab" || m.SenderName != "阿丽" {
		t.Errorf("group: %v %+v", v, m)
	}
}

// TestRenameCannotTakeAPrivateChat (issue 26): a friend who renames
// himself to another member's remark name, or to her nickname, never gets
// her private chat: with a remark of his own he keeps his own chat; without
// one he gets no chat at all (a short answer, never the Handler). Alerts
// for her reach her, even with groups named like her remark about.
func TestRenameCannotTakeAPrivateChat(t *testing.T) {
	const renamedUser = "@renamed0001"
	aliceChat := RemarkIDPrefix + aliceRem
	cases := []struct {
		name   string
		nick   string // what he renamed himself to
		remark string // the remark the bot's account gave him
	}{
		{"with a remark, renamed to her remark name", aliceRem, "dan-lab"},
		{"with a remark, renamed to her nickname", aliceNick, "dan-lab"},
		{"without a remark, renamed to her remark name", aliceRem, ""},
		{"without a remark, renamed to her nickname", aliceNick, ""},
		{"without a remark, renamed to her chat's key", aliceChat, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.contacts = append(f.contacts,
				fakeUser{UserName: renamedUser, NickName: c.nick, RemarkName: c.remark},
				// Groups named like her remark and like her chat's key.
				fakeUser{UserName: "@@lookalike", NickName: aliceRem},
				fakeUser{UserName: "@@lookalike2", NickName: aliceChat})
			hs := start(t, f, nil)
			f.push(privMsg(aliceUser, "我的存储"), privMsg(renamedUser, "我的存储"), privMsg(renamedUser, "关闭周报"), sentinel())
			var toHim []sentMsg
			for {
				m, ok := f.waitSend(5 * time.Second)
				if !ok {
					t.Fatal("no answer to the sentinel")
				}
				if isSentinel(m) {
					break
				}
				if m.To == renamedUser {
					toHim = append(toHim, m)
				}
			}
			got := hs.h.got()
			if got[0].ChatID != aliceChat || got[0].SenderID != aliceChat {
				t.Errorf("Alice's private chat %q (sender %q), want %q", got[0].ChatID, got[0].SenderID, aliceChat)
			}
			his := got[1 : len(got)-1]
			for _, m := range his {
				if m.ChatID == aliceChat || m.SenderID == aliceChat || m.ChatID == aliceRem || m.ChatID == aliceNick {
					t.Errorf("the renamed friend got chat %q, sender %q: Alice's chat or name", m.ChatID, m.SenderID)
				}
			}
			if c.remark != "" {
				if len(his) != 2 || his[0].ChatID != RemarkIDPrefix+c.remark {
					t.Errorf("with a remark of his own: handler got %+v, want his two messages in %q", his, RemarkIDPrefix+c.remark)
				}
			} else if len(his) != 0 || len(toHim) != 2 || !strings.Contains(toHim[0].Content, "备注名") {
				t.Errorf("without a remark: handler got %+v and he got %+v; want no Handler and two short answers", his, toHim)
			}
			// An alert for her private chat reaches her, not a group
			// named like her.
			if err := hs.b.Send(context.Background(), aliceChat, chat.Reply{Title: "RTX 4090 有货了"}, chat.SendOptions{IdempotencyKey: "alert:a:1"}); err != nil {
				t.Fatal(err)
			}
			if m, ok := f.waitSend(5 * time.Second); !ok || m.To != aliceUser {
				t.Fatalf("alert for Alice went to %+v, want %s", m, aliceUser)
			}
			// A key from before the prefix that names both a group and
			// her remark is refused: nothing sent.
			before := len(f.sends())
			if err := hs.b.Send(context.Background(), aliceRem, chat.Reply{Title: "旧订阅"}, chat.SendOptions{}); err == nil || !strings.Contains(err.Error(), "unclear") {
				t.Errorf("an ambiguous bare key: %v, want refused", err)
			}
			// The group named like her chat's key is its own kind.
			if err := hs.b.Send(context.Background(), GroupIDPrefix+aliceChat, chat.Reply{Title: "群消息"}, chat.SendOptions{}); err != nil {
				t.Fatal(err)
			}
			if m, ok := f.waitSend(5 * time.Second); !ok || m.To != "@@lookalike2" || len(f.sends()) != before+1 {
				t.Errorf("group send %+v, sends %d → %d", m, before, len(f.sends()))
			}
		})
	}
}

// TestUnidentifiedFriends: a friend without a remark, and two friends
// sharing one, get no private-chat actions (their messages never reach
// the Handler; each gets a short answer saying why, in the language
// asked), and OnUnidentified is called once per contact however often
// they write.
func TestUnidentifiedFriends(t *testing.T) {
	const daveUser, erinUser = "@dave0001", "@erin0001"
	f := newFake(t)
	f.contacts = append(f.contacts, fakeUser{UserName: daveUser, NickName: "Dave", RemarkName: "twin"}, fakeUser{UserName: erinUser, NickName: "Erin", RemarkName: "twin"})
	var mu sync.Mutex
	var told []Unidentified
	hs := start(t, f, func(o *Options) {
		o.OnUnidentified = func(u Unidentified) { mu.Lock(); told = append(told, u); mu.Unlock() }
	})
	f.push(privMsg(bobUser, "我的存储"), privMsg(bobUser, "my disks"), privMsg(daveUser, "订阅 4090"), privMsg(erinUser, "hi"),
		privMsg(daveUser, "绑定管理员"), sentinel())
	answers := map[string][]string{}
	for {
		m, ok := f.waitSend(5 * time.Second)
		if !ok {
			t.Fatal("no answer to the sentinel")
		}
		if isSentinel(m) {
			break
		}
		answers[m.To] = append(answers[m.To], m.Content)
	}
	if got := hs.h.got(); len(got) != 1 {
		t.Errorf("handler got %+v, want only the sentinel", got)
	}
	if a := answers[bobUser]; len(a) != 2 || !strings.Contains(a[0], "没给你设备注名") || !strings.Contains(a[1], "no remark name for you") {
		t.Errorf("Bob's answers %q: want the reason, in Chinese then English", a)
	}
	if a := answers[daveUser]; len(a) != 2 || !strings.Contains(a[0], "重复") {
		t.Errorf("Dave's answers %q: want the shared remark named", a)
	}
	if a := answers[erinUser]; len(a) != 1 || !strings.Contains(a[0], "also another friend's") {
		t.Errorf("Erin's answers %q", a)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []Unidentified{{Nick: bobNick}, {Nick: "Dave", Remark: "twin"}, {Nick: "Erin", Remark: "twin"}}
	if len(told) != len(want) {
		t.Fatalf("admin told %+v, want once per contact: %+v", told, want)
	}
	for i := range want {
		if told[i] != want[i] {
			t.Errorf("told[%d] = %+v, want %+v", i, told[i], want[i])
		}
	}
	// Nor can anything be sent to their names.
	for _, id := range []string{RemarkIDPrefix + "twin", bobNick, NickIDPrefix + bobNick} {
		if err := hs.b.Send(context.Background(), id, chat.Reply{Title: "x"}, chat.SendOptions{}); err == nil {
			t.Errorf("Send(%q) succeeded", id)
		}
	}
}
