package wechat

import (
	"strings"

	"github.com/labgpu/bot/internal/chat"
)

// splitQuote splits a message that quotes another, as WeChat gives it in
// text ("「name：quoted」\n- - - … -\nreply": configs/chatwords.yaml
// wechat_quote), into the quoted text (without the quoted sender's name)
// and the reply; a message that quotes nothing is all reply.
func splitQuote(content string) (quote, reply string) {
	q := chat.ReadWords().WeChatQuote
	text := strings.TrimSpace(content)
	if q.Open == "" || q.Rule == "" || !strings.HasPrefix(text, q.Open) {
		return "", content
	}
	head, rest, ok := strings.Cut(text, "\n"+q.Rule)
	if !ok {
		return "", content
	}
	head = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(head), q.Open), q.Close)
	if _, body, named := cutName(head, q.Colons); named {
		head = body
	}
	return strings.TrimSpace(head), strings.TrimSpace(rest)
}

// cutName cuts the quoted sender's name ("name：text", ending at the
// first of colons) off a quote.
func cutName(s, colons string) (name, body string, ok bool) {
	i := strings.IndexAny(s, colons)
	if colons == "" || i < 0 || strings.Contains(s[:i], "\n") {
		return "", s, false
	}
	_, size := firstRune(s[i:])
	return s[:i], s[i+size:], true
}
