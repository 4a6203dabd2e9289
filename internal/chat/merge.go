package chat

import (
	"strings"

	"github.com/labgpu/bot/internal/i18n"
)

// MergeReplies makes one message of replies that piled up for one chat:
// a title counting them, then each reply's short form as plain text
// (tables as aligned text), separated by a rule; the mentions of all. It
// is the outbox's answer to a burst of questions under the chat's rate
// limit: one message now instead of one a second.
func MergeReplies(rs []Reply) Reply {
	if len(rs) == 0 {
		return Reply{}
	}
	en := rs[0].English
	out := Reply{English: en, Title: i18n.Of(en).T("chat.merged_title", len(rs))}
	seen := map[string]bool{}
	for i, r := range rs {
		if i > 0 {
			out.Lines = append(out.Lines, "————")
		}
		r.Full = nil
		r.Mentions = nil
		if text := strings.TrimRight(PlainText(r), "\n"); text != "" {
			out.Lines = append(out.Lines, strings.Split(text, "\n")...)
		}
		for _, m := range rs[i].Mentions {
			if !seen[m] {
				seen[m] = true
				out.Mentions = append(out.Mentions, m)
			}
		}
	}
	return out
}
