package wechat

import (
	"context"
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
	for {
		m, ok := f.waitSend(5 * time.Second)
		if !ok {
			t.Fatal("no answer to the sentinel")
		}
		if m.To == bobUser && m.Content == "answer: sentinel" {
			break
		}
	}
	got := hs.h.got()
	if len(got) != 4 {
		t.Fatalf("handler got %d messages: %+v", len(got), got)
	}
	alice, malloryGrp, malloryPriv := got[0], got[1], got[2]
	if alice.SenderID != RemarkIDPrefix+aliceRem {
		t.Errorf("Alice's id %q, want the strong %q", alice.SenderID, RemarkIDPrefix+aliceRem)
	}
	if malloryGrp.SenderID == alice.SenderID || malloryPriv.SenderID == alice.SenderID {
		t.Errorf("the renamed member shares Alice's id: %q / %q", malloryGrp.SenderID, malloryPriv.SenderID)
	}
	if malloryGrp.SenderID != aliceNick || malloryPriv.SenderID != aliceNick || malloryPriv.ChatType != chat.P2P {
		t.Errorf("the renamed member's ids %q / %q, want the weak nickname", malloryGrp.SenderID, malloryPriv.SenderID)
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
	if m, v := decide(priv, newAllowList(nil), time.Time{}); v != answer || m.SenderID != "remark:alice-lab" || m.ChatID != "alice-lab" || m.SenderName != "Alice" {
		t.Errorf("private: %v %+v", v, m)
	}
	grp := rawMessage{MsgID: "g", Text: true, FromGroup: true, IsAt: true, Content: "@Bot hi", GroupName: "Lab", SenderNick: "Alice", SenderDisplay: "阿丽", SenderKey: "alice-lab", BotNick: "Bot"}
	if m, v := decide(grp, newAllowList(nil), time.Time{}); v != answer || m.SenderID != "remark:alice-lab" || m.SenderName != "阿丽" {
		t.Errorf("group: %v %+v", v, m)
	}
}
