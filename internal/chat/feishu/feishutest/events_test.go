package feishutest

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

func TestEventsMessage(t *testing.T) {
	ev, err := LoadEvents(filepath.Join("..", "..", "..", "..", "testdata", "feishu"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.UnixMilli(1718013600123)
	tests := []struct {
		name     string
		m        Message
		chatType string
		chat     string
		sender   string
		text     string
		mentions int
		token    string
	}{
		{"group @bot", Message{EventID: "e1", MessageID: "m1", Text: "版本", Mention: true, Created: at},
			"group", "oc_5ad11d72b830411d72b836c20ad11d72", "ou_84aad35d084aa403a838cf73ee18467d", "@_user_1 版本", 1, "labbot-verify-token-0001"},
		{"group, no mention", Message{EventID: "e2", MessageID: "m2", ChatID: "oc_x", Text: "hi", Token: "tok", Created: at},
			"group", "oc_x", "ou_84aad35d084aa403a838cf73ee18467d", "hi", 0, "tok"},
		{"p2p, another sender", Message{EventID: "e3", MessageID: "m3", ChatID: "oc_p", P2P: true, Sender: "ou_bob", Text: "我的ID", Mention: true, Created: at},
			"p2p", "oc_p", "ou_bob", "我的ID", 0, "labbot-verify-token-0001"},
	}
	for _, tt := range tests {
		var got struct {
			Header struct {
				Token string `json:"token"`
			} `json:"header"`
			Event struct {
				Sender struct {
					SenderID struct {
						OpenID string `json:"open_id"`
					} `json:"sender_id"`
				} `json:"sender"`
				Message struct {
					MessageID string `json:"message_id"`
					ChatID    string `json:"chat_id"`
					ChatType  string `json:"chat_type"`
					Content   string `json:"content"`
					Mentions  []any  `json:"mentions"`
				} `json:"message"`
			} `json:"event"`
		}
		if err := json.Unmarshal(ev.Message(tt.m), &got); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var content struct{ Text string }
		_ = json.Unmarshal([]byte(got.Event.Message.Content), &content)
		m := got.Event.Message
		if m.ChatType != tt.chatType || m.ChatID != tt.chat || m.MessageID != tt.m.MessageID || content.Text != tt.text ||
			len(m.Mentions) != tt.mentions || got.Event.Sender.SenderID.OpenID != tt.sender || got.Header.Token != tt.token {
			t.Errorf("%s: got %+v, text %q", tt.name, got, content.Text)
		}
	}
}
