package slots

import (
	"strings"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Kinds of small talk (Query.SmallTalk).
const (
	SmallTalkThanks   = "thanks"
	SmallTalkGreeting = "greeting"
	// SmallTalkDecline: the member said not to do an action ("别静音");
	// nothing changes.
	SmallTalkDecline = "decline"
	// SmallTalkNoAction: a yes ("确认") when nothing waits for one.
	SmallTalkNoAction = "no_action"
)

// SmallTalk is what a chitchat message is by its words
// (configs/slots/router.yaml, smalltalk): thanks ("谢谢", "thx"), else a
// greeting ("你好", "hi"), else "" (a 👍 or "好的").
func SmallTalk(text string) string {
	s := strings.ToLower(strings.TrimSpace(text))
	switch {
	case words.ContainsAny(s, thanksWords.List()):
		return SmallTalkThanks
	case words.ContainsAny(s, greetingWords.List()):
		return SmallTalkGreeting
	}
	return ""
}
