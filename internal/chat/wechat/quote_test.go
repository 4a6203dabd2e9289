package wechat

import (
	"testing"
	"time"
)

// TestSplitQuote: a message quoting another (as web WeChat gives it)
// splits into the quoted text, without its sender's name, and the reply;
// anything else is all reply.
func TestSplitQuote(t *testing.T) {
	rule := "\n- - - - - - - - - - - - - - -\n"
	for _, c := range []struct{ in, quote, reply string }{
		{"「GPU助手：RTX 4090：最便宜 AutoDL 2.18 元/卡时」" + rule + "@GPU助手\u2005那A100呢", "RTX 4090：最便宜 AutoDL 2.18 元/卡时", "@GPU助手\u2005那A100呢"},
		{"「LabBot: 7B LoRA: cheapest\nsecond line」" + rule + "and on a 3090?", "7B LoRA: cheapest\nsecond line", "and on a 3090?"},
		{"哪家有4090", "", "哪家有4090"},
		{"「没有分隔线」那A100呢", "", "「没有分隔线」那A100呢"},
		{"「」" + rule, "", ""},
	} {
		q, r := splitQuote(c.in)
		if q != c.quote || r != c.reply {
			t.Errorf("splitQuote(%q) = %q, %q; want %q, %q", c.in, q, r, c.quote, c.reply)
		}
	}
}

// TestDecideQuote: a group message quoting the bot's answer is answered
// with the reply as its text and the quote beside it.
func TestDecideQuote(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 1, 0, 0, time.UTC)
	raw := rawMessage{MsgID: "m1", Text: true, FromGroup: true, IsAt: true,
		Content:      "「GPU助手：RTX 4090：最便宜 AutoDL 2.18 元/卡时」\n- - - - - - - - - - - - - - -\n@GPU助手\u2005那A100呢",
		ChatUserName: "@@g", GroupName: "Lab Group", SenderNick: "Alice", BotNick: "LabBot", BotDisplay: "GPU助手", Created: at}
	msg, v := decide(raw, newAllowList(nil), at.Add(-time.Minute))
	if v != answer || msg.Text != "那A100呢" || msg.Quote != "RTX 4090：最便宜 AutoDL 2.18 元/卡时" {
		t.Errorf("decide = %v, text %q, quote %q", v, msg.Text, msg.Quote)
	}
}

// FuzzSplitQuote: any text splits without a panic, and what it gives
// back is no longer than what came.
func FuzzSplitQuote(f *testing.F) {
	f.Add("「GPU助手：RTX 4090」\n- - - - - - - - - - - - - - -\n那A100呢")
	f.Add("「\n- - - - - - - - - - - - - - -\n")
	f.Add("哪家有4090")
	f.Fuzz(func(t *testing.T, s string) {
		q, r := splitQuote(s)
		if len(q)+len(r) > len(s) {
			t.Errorf("splitQuote(%q) = %q, %q: longer than the text", s, q, r)
		}
	})
}
