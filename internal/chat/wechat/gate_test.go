package wechat

import (
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
)

func TestDecide(t *testing.T) {
	started := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	at := started.Add(time.Minute)
	// group is a text message in "Lab Group" from Alice that openwechat
	// considered an @mention of the bot ("GPU助手" in the group, "LabBot").
	group := func(content string, mod ...func(*rawMessage)) rawMessage {
		r := rawMessage{MsgID: "m1", Text: true, FromGroup: true, IsAt: true, Content: content,
			ChatUserName: "@@g", GroupName: "Lab Group", SenderNick: "Alice", SenderDisplay: "阿丽",
			BotNick: "LabBot", BotDisplay: "GPU助手", Created: at}
		for _, m := range mod {
			m(&r)
		}
		return r
	}
	private := func(content string, mod ...func(*rawMessage)) rawMessage {
		r := rawMessage{MsgID: "m2", Text: true, FromFriend: true, Content: content, ChatUserName: "@a",
			SenderNick: "Alice", SenderRemark: "alice-lab", SenderKey: "alice-lab", BotNick: "LabBot", Created: at}
		for _, m := range mod {
			m(&r)
		}
		return r
	}
	allowLab := newAllowList([]string{"Lab Group", " Other "})
	allowAll := newAllowList(nil)

	cases := []struct {
		name     string
		raw      rawMessage
		allow    allowList
		want     verdict
		wantText string
		check    func(t *testing.T, m chat.Message)
	}{
		{name: "display name with U+2005", raw: group("@GPU助手\u2005哪家有4090"), allow: allowLab, want: answer, wantText: "哪家有4090",
			check: func(t *testing.T, m chat.Message) {
				want := chat.Message{Channel: "wechat", ID: "m1", ChatID: "Lab Group", ChatType: chat.Group, SenderID: "Alice",
					SenderName: "阿丽", Text: "哪家有4090", Time: at}
				if m != want {
					t.Errorf("got %+v\nwant %+v", m, want)
				}
			}},
		{name: "display name with a space", raw: group("@GPU助手 哪家有4090"), allow: allowLab, want: answer, wantText: "哪家有4090"},
		{name: "nickname with U+2005 (no display name set)", raw: group("@LabBot\u2005price 4090", func(r *rawMessage) { r.BotDisplay = "" }),
			allow: allowLab, want: answer, wantText: "price 4090"},
		{name: "nickname while a display name is set", raw: group("@LabBot\u2005price 4090"), allow: allowLab, want: answer, wantText: "price 4090"},
		{name: "mention in the middle", raw: group("请问 @GPU助手\u2005A100 多少钱"), allow: allowLab, want: answer, wantText: "请问 A100 多少钱"},
		{name: "mention at the end", raw: group("4090 有货吗 @GPU助手"), allow: allowLab, want: answer, wantText: "4090 有货吗"},
		{name: "mentioned twice", raw: group("@GPU助手\u2005@GPU助手\u20054090"), allow: allowLab, want: answer, wantText: "4090"},
		{name: "empty text after stripping", raw: group("@GPU助手\u2005"), allow: allowLab, want: answer, wantText: ""},
		{name: "only the name, no separator", raw: group("@GPU助手"), allow: allowLab, want: answer, wantText: ""},
		{name: "another member's mention is kept", raw: group("@GPU助手\u2005@Bob\u2005看看这个"), allow: allowLab, want: answer, wantText: "@Bob 看看这个"},
		{name: "@所有人 with the bot too: answered, @所有人 removed", raw: group("@所有人\u2005@GPU助手\u2005停机通知"), allow: allowLab, want: answer, wantText: "停机通知"},
		{name: "multi-line text keeps its lines", raw: group("@GPU助手\u2005估算\n7B LoRA\n  seq 4096"), allow: allowLab, want: answer, wantText: "估算\n7B LoRA\nseq 4096"},
		{name: "@所有人 only: not at", raw: group("@所有人\u2005明天停电", func(r *rawMessage) { r.IsAt = false }), allow: allowLab, want: ignoreNotMentioned},
		{name: "IsAt but a longer name (openwechat matches substrings)", raw: group("@GPU助手2号\u2005hi"), allow: allowLab, want: ignoreNotMentioned},
		{name: "IsAt but name glued to text", raw: group("@GPU助手hi"), allow: allowLab, want: ignoreNotMentioned},
		{name: "not at", raw: group("哪家有4090", func(r *rawMessage) { r.IsAt = false }), allow: allowLab, want: ignoreNotMentioned},
		{name: "group not allowed", raw: group("@GPU助手\u2005hi", func(r *rawMessage) { r.GroupName = "Random" }), allow: allowLab, want: ignoreGroupNotAllowed},
		{name: "allow-list entry is trimmed", raw: group("@GPU助手\u2005hi", func(r *rawMessage) { r.GroupName = "Other" }), allow: allowLab, want: answer, wantText: "hi"},
		{name: "all groups allowed", raw: group("@GPU助手\u2005hi", func(r *rawMessage) { r.GroupName = "Random" }), allow: allowAll, want: answer, wantText: "hi"},
		{name: "\"*\" allows all", raw: group("@GPU助手\u2005hi", func(r *rawMessage) { r.GroupName = "Random" }), allow: newAllowList([]string{"*"}), want: answer, wantText: "hi"},
		{name: "unnamed group", raw: group("@GPU助手\u2005hi", func(r *rawMessage) { r.GroupName = "" }), allow: allowAll, want: ignoreUnnamedGroup},
		{name: "self-sent to the group", raw: group("@GPU助手\u2005hi", func(r *rawMessage) { r.SelfSent = true }), allow: allowLab, want: ignoreSelf},
		{name: "not text", raw: group("", func(r *rawMessage) { r.Text = false }), allow: allowLab, want: ignoreNotText},
		{name: "backlog before the login", raw: group("@GPU助手\u2005hi", func(r *rawMessage) { r.Created = started.Add(-time.Hour) }), allow: allowLab, want: ignoreOld},
		{name: "sender without display name", raw: group("@GPU助手\u2005hi", func(r *rawMessage) { r.SenderDisplay = "" }), allow: allowLab, want: answer, wantText: "hi",
			check: func(t *testing.T, m chat.Message) {
				if m.SenderName != "Alice" || m.SenderID != "Alice" {
					t.Errorf("sender %q/%q", m.SenderID, m.SenderName)
				}
			}},
		{name: "HTML-escaped bot name", raw: group("@R&D Bot\u2005hi", func(r *rawMessage) { r.BotDisplay = "R&amp;D Bot" }), allow: allowLab, want: answer, wantText: "hi"},
		{name: "unknown sender", raw: group("@GPU助手\u2005hi", func(r *rawMessage) { r.SenderNick = ""; r.SenderDisplay = "" }), allow: allowLab, want: ignoreUnknownSender},
		{name: "private from a friend", raw: private("4090多少钱"), allow: allowLab, want: answer, wantText: "4090多少钱",
			check: func(t *testing.T, m chat.Message) {
				want := chat.Message{Channel: "wechat", ID: "m2", ChatID: "remark:alice-lab", ChatType: chat.P2P, SenderID: "remark:alice-lab",
					SenderName: "Alice", Text: "4090多少钱", Time: at}
				if m != want {
					t.Errorf("got %+v\nwant %+v", m, want)
				}
			}},
		{name: "private without remark: unidentified, no chat", raw: private("hi", func(r *rawMessage) { r.SenderRemark, r.SenderKey = "", "" }), allow: allowLab, want: unidentified,
			check: func(t *testing.T, m chat.Message) {
				if m.ChatID != "" || m.SenderID != "" {
					t.Errorf("an unidentified friend got ChatID %q, SenderID %q", m.ChatID, m.SenderID)
				}
			}},
		{name: "private with a remark another friend has: unidentified", raw: private("hi", func(r *rawMessage) { r.SenderKey = "" }), allow: allowLab, want: unidentified},
		{name: "private, nickname shaped like a key, no remark: unidentified", raw: private("hi", func(r *rawMessage) { r.SenderNick, r.SenderRemark, r.SenderKey = "remark:bob-lab", "", "" }), allow: allowLab, want: unidentified},
		{name: "group named like a private chat's key", raw: group("@GPU助手\u2005hi", func(r *rawMessage) { r.GroupName = "remark:alice-lab" }), allow: allowAll, want: answer, wantText: "hi",
			check: func(t *testing.T, m chat.Message) {
				if m.ChatID != "group:remark:alice-lab" {
					t.Errorf("ChatID %q, want the group's kind in front", m.ChatID)
				}
			}},
		{name: "private with a needless @bot", raw: private("@LabBot 4090"), allow: allowLab, want: answer, wantText: "4090"},
		{name: "private from a non-friend", raw: private("广告", func(r *rawMessage) { r.FromFriend = false }), allow: allowLab, want: ignoreNotFriend},
		{name: "private self-sent", raw: private("hi", func(r *rawMessage) { r.SelfSent = true }), allow: allowLab, want: ignoreSelf},
		{name: "private, group allow-list does not apply", raw: private("hi"), allow: newAllowList([]string{"Nothing"}), want: answer, wantText: "hi"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, v := decide(tc.raw, tc.allow, started)
			if v != tc.want {
				t.Fatalf("verdict %v, want %v (msg %+v)", v, tc.want, m)
			}
			if v == answer && m.Text != tc.wantText {
				t.Errorf("text %q, want %q", m.Text, tc.wantText)
			}
			if tc.check != nil {
				tc.check(t, m)
			}
		})
	}
}

func TestStripMentions(t *testing.T) {
	names := []string{"LabBot", "Lab"}
	cases := []struct {
		in, out string
		found   bool
	}{
		{"@LabBot\u2005x", " x", true},
		{"@Lab\u2005x", " x", true},
		{"@LabBotx", "@LabBotx", false},
		{"a@LabBot b", "a b", true},
		{"@LabBot", "", true},
		{"@Labs x", "@Labs x", false},
		{"@@LabBot x", "@ x", true},
		{"no mention", "no mention", false},
	}
	for _, c := range cases {
		out, found := stripMentions(c.in, names)
		if out != c.out || found != c.found {
			t.Errorf("stripMentions(%q) = %q, %v; want %q, %v", c.in, out, found, c.out, c.found)
		}
	}
}

func TestVerdictString(t *testing.T) {
	for v := answer; v <= ignoreUnknownSender; v++ {
		if s := v.String(); s == "" || s[0] == 'v' {
			t.Errorf("verdict %d has no name: %q", v, s)
		}
	}
}
