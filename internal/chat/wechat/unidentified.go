package wechat

import (
	"unicode"

	"github.com/labgpu/bot/internal/chat"
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
	en := english(text)
	var why string
	switch {
	case u.Remark != "" && en:
		why = "your remark name in the bot's WeChat is also another friend's, so it cannot tell you apart."
	case u.Remark != "":
		why = "你在机器人微信里的备注名和另一位好友重复，分不清是谁。"
	case en:
		why = "the bot's WeChat has no remark name for you, and anyone can take a nickname."
	default:
		why = "机器人的微信还没给你设备注名，昵称谁都能改成一样的，不能凭它认人。"
	}
	if en {
		return chat.Reply{Title: "I can't do anything for you in a private chat yet: " + why,
			Lines: []string{"Ask whoever runs the bot to give you a remark name only you have and write again. In a group, @mention me as usual."}}
	}
	return chat.Reply{Title: "私聊暂时不能帮你办事：" + why,
		Lines: []string{"请机器人的管理者给你设一个别人没有的备注名，然后再发；在群里 @我 照常可以问。"}}
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
