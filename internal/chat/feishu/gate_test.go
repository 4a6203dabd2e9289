package feishu_test

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	larkim "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/feishu"
)

func toEvent(t *testing.T, m map[string]any) *larkim.P2MessageReceiveV1 {
	t.Helper()
	var ev larkim.P2MessageReceiveV1
	if err := json.Unmarshal([]byte(mustJSON(m)), &ev); err != nil {
		t.Fatal(err)
	}
	return &ev
}

// TestGate is the pure @-gating and text cleaning.
func TestGate(t *testing.T) {
	fixtureDir(t)
	started := time.Now()
	bot := func(key string) any { return mention(key, botOpenID, "LabBot") }
	other := func(key, id, name string) any { return mention(key, id, name) }

	type tc struct {
		name     string
		ev       func(t *testing.T) map[string]any
		want     feishu.Verdict
		wantText string
		check    func(t *testing.T, m chat.Message)
	}
	group := func(text string, ms ...any) func(t *testing.T) map[string]any {
		return func(t *testing.T) map[string]any {
			if ms == nil {
				ms = []any{}
			}
			return groupEvent(t, "e", "m", text, ms)
		}
	}
	edit := func(base func(t *testing.T) map[string]any, f func(ev, msg map[string]any)) func(t *testing.T) map[string]any {
		return func(t *testing.T) map[string]any {
			ev := base(t)
			f(ev, sub(sub(ev, "event"), "message"))
			return ev
		}
	}
	p2p := func(text string) func(t *testing.T) map[string]any {
		return func(t *testing.T) map[string]any { return p2pEvent(t, "e", "m", text) }
	}
	cases := []tc{
		{name: "fixture: bot first, Zhang San later", ev: func(t *testing.T) map[string]any {
			return groupEvent(t, "e", "m", "", nil)
		}, want: feishu.Answer, wantText: "/status A100 queue, cc @Zhang San"},
		{name: "@bot @alice 4090有吗", ev: group("@_user_1 @_user_2 4090有吗", bot("@_user_1"), other("@_user_2", aliceOpenID, "Alice")),
			want: feishu.Answer, wantText: "4090有吗"},
		{name: "@alice @bot", ev: group("@_user_1 @_user_2 4090有吗", other("@_user_1", aliceOpenID, "Alice"), bot("@_user_2")),
			want: feishu.Answer, wantText: "4090有吗"},
		{name: "bot mentioned mid-text", ev: group("哪家 @_user_1 有4090", bot("@_user_1")),
			want: feishu.Answer, wantText: "哪家 有4090"},
		{name: "@_user_1 is not a prefix of @_user_10", ev: group("@_user_1 问 @_user_10 的卡", bot("@_user_1"), other("@_user_10", aliceOpenID, "Bob")),
			want: feishu.Answer, wantText: "问 @Bob 的卡"},
		{name: "only the bot", ev: group("@_user_1", bot("@_user_1")), want: feishu.Answer, wantText: ""},
		{name: "multi-line", ev: group("@_user_1 订阅 4090\n  低于2.5元 ", bot("@_user_1")), want: feishu.Answer, wantText: "订阅 4090\n低于2.5元"},
		{name: "quotes and newlines kept", ev: group("@_user_1 say \"hi\"\nthere", bot("@_user_1")), want: feishu.Answer, wantText: "say \"hi\"\nthere"},
		{name: "@all only", ev: group("@_all 4090有吗", other("@_all", "", "所有人")), want: feishu.IgnoreNotMentioned},
		{name: "@all with bot", ev: group("@_all @_user_1 4090有吗", bot("@_user_1")), want: feishu.Answer, wantText: "4090有吗"},
		{name: "only someone else", ev: group("@_user_1 4090有吗", other("@_user_1", aliceOpenID, "Alice")), want: feishu.IgnoreNotMentioned},
		{name: "no mentions in group", ev: group("4090有吗"), want: feishu.IgnoreNotMentioned},
		{name: "bot's name typed, not mentioned", ev: group("@LabBot 4090有吗"), want: feishu.IgnoreNotMentioned},
		{name: "topic group without mention", ev: edit(group("4090有吗"), func(_, m map[string]any) { m["chat_type"] = "topic_group" }),
			want: feishu.IgnoreNotMentioned},
		{name: "topic group with mention", ev: edit(group("@_user_1 4090有吗", bot("@_user_1")), func(_, m map[string]any) { m["chat_type"] = "topic_group" }),
			want: feishu.Answer, wantText: "4090有吗", check: func(t *testing.T, m chat.Message) {
				if m.ChatType != chat.Group {
					t.Errorf("chat type %q", m.ChatType)
				}
			}},
		{name: "unknown chat type needs the mention", ev: edit(group("4090有吗"), func(_, m map[string]any) { m["chat_type"] = "meeting" }),
			want: feishu.IgnoreNotMentioned},
		{name: "p2p always", ev: p2p("/help"), want: feishu.Answer, wantText: "/help", check: func(t *testing.T, m chat.Message) {
			if m.ChatType != chat.P2P || m.ChatID != p2pChat || m.SenderID != humanOpenID || m.Channel != "feishu" || m.ID != "m" {
				t.Errorf("message %+v", m)
			}
		}},
		{name: "sender_type bot", ev: edit(p2p("/help"), func(ev, _ map[string]any) { sub(sub(ev, "event"), "sender")["sender_type"] = "bot" }),
			want: feishu.IgnoreFromBot},
		{name: "sender_type app", ev: edit(p2p("/help"), func(ev, _ map[string]any) { sub(sub(ev, "event"), "sender")["sender_type"] = "app" }),
			want: feishu.IgnoreFromBot},
		{name: "sender is the bot", ev: edit(group("@_user_1 hi", bot("@_user_1")), func(ev, _ map[string]any) {
			sub(sub(sub(ev, "event"), "sender"), "sender_id")["open_id"] = botOpenID
		}), want: feishu.IgnoreFromBot},
		{name: "61 s before start", ev: edit(p2p("/help"), func(_, m map[string]any) {
			m["create_time"] = msStr(started.Add(-61 * time.Second))
		}), want: feishu.IgnoreOld},
		{name: "59 s before start", ev: edit(p2p("/help"), func(_, m map[string]any) {
			m["create_time"] = msStr(started.Add(-59 * time.Second))
		}), want: feishu.Answer, wantText: "/help"},
		{name: "no create_time: header's", ev: edit(p2p("/help"), func(ev, m map[string]any) {
			delete(m, "create_time")
			sub(ev, "header")["create_time"] = msStr(started.Add(-2 * time.Minute))
		}), want: feishu.IgnoreOld},
		{name: "post at bot", ev: edit(group("", bot("@_user_1")), func(_, m map[string]any) {
			m["message_type"] = "post"
			m["content"] = `{"title":"","content":[[{"tag":"at","user_id":"@_user_1"},{"tag":"text","text":"4090"}]]}`
		}), want: feishu.Unsupported},
		{name: "image in p2p", ev: edit(p2p(""), func(_, m map[string]any) { m["message_type"] = "image"; m["content"] = `{"image_key":"k"}` }),
			want: feishu.Unsupported},
		{name: "image in group, not at bot", ev: edit(group(""), func(_, m map[string]any) { m["message_type"] = "image" }),
			want: feishu.IgnoreNotMentioned},
		{name: "content not JSON", ev: edit(p2p(""), func(_, m map[string]any) { m["content"] = "{oops" }), want: feishu.IgnoreMalformed},
		{name: "no message id", ev: edit(p2p(""), func(_, m map[string]any) { delete(m, "message_id") }), want: feishu.IgnoreMalformed},
		{name: "sender name from a self-mention", ev: group("@_user_1 @_user_2 看看我的卡", bot("@_user_1"), other("@_user_2", humanOpenID, "Li Si")),
			want: feishu.Answer, wantText: "看看我的卡", check: func(t *testing.T, m chat.Message) {
				if m.SenderName != "Li Si" {
					t.Errorf("sender name %q", m.SenderName)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, v := feishu.Gate(toEvent(t, c.ev(t)), botOpenID, started)
			if v != c.want {
				t.Fatalf("verdict %v, want %v (message %+v)", v, c.want, m)
			}
			if v == feishu.Answer && m.Text != c.wantText {
				t.Errorf("text %q, want %q", m.Text, c.wantText)
			}
			if c.check != nil {
				c.check(t, m)
			}
		})
	}
	if _, v := feishu.Gate(nil, botOpenID, started); v != feishu.IgnoreMalformed {
		t.Errorf("nil event: %v", v)
	}
}

func msStr(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }
