package wechat

import (
	"unicode"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// Unidentified is a friend who wrote privately but has no remark name
// (备注) of their own, so the bot cannot tell them from anyone who takes
// their nickname (identity.go).
type Unidentified struct {
	// Nick is the friend's nickname, for the admin to find them.
	Nick string
	// Remark is their remark name when another friend has it too; empty
	// when the bot's account gave them none.
	Remark string
}

// unidentifiedKey starts the outbox key of a reply to an unidentified
// friend (their UserName follows): it keeps that reply's queue and rate
// limit apart from every chat's, and names no chat.
const unidentifiedKey = "unidentified:"

// maxTold bounds the contacts remembered as told about; past it the
// memory starts afresh (a contact may then be named once more).
const maxTold = 4096

// tellUnidentified calls Options.OnUnidentified for u unless this contact
// (by this session's UserName, or by nickname and remark) was named
// before. Runs on the sync goroutine; the callback must not block.
func (b *Bot) tellUnidentified(userName string, u Unidentified) {
	if b.opts.OnUnidentified == nil {
		return
	}
	byUser, byName := "user\x00"+userName, "name\x00"+u.Nick+"\x00"+u.Remark
	b.mu.Lock()
	if b.told[byUser] || b.told[byName] {
		b.mu.Unlock()
		return
	}
	if len(b.told) >= maxTold {
		clear(b.told)
	}
	b.told[byUser], b.told[byName] = true, true
	b.mu.Unlock()
	b.opts.OnUnidentified(u)
}

// unidentifiedReply is the answer an unidentified friend gets, in the
// language of their message (Chinese unless it has no Han character and
// some Latin letter).
func unidentifiedReply(u Unidentified, text string) chat.Reply {
	l := i18n.Of(english(text))
	why := l.T("wechat.unidentified.no_remark")
	if u.Remark != "" {
		why = l.T("wechat.unidentified.shared_remark")
	}
	return chat.Reply{Title: l.T("wechat.unidentified.title", why), Lines: []string{l.T("wechat.unidentified.todo")}}
}

// english reports whether text reads as English: no Han character, and
// some Latin letter.
func english(text string) bool {
	latin := false
	for _, r := range text {
		if unicode.Is(unicode.Han, r) {
			return false
		}
		if r < unicode.MaxASCII && unicode.IsLetter(r) {
			latin = true
		}
	}
	return latin
}
