package wechat

import (
	"strings"

	"github.com/eatmoreapple/openwechat"
)

// Who a sender is.
//
// openwechat's web (UOS) protocol gives a contact no stable id: UserName
// ("@…") is new at every QR login, Uin is 0, Alias (微信号) is empty,
// AvatarID (the seq of the avatar URL) changes with the avatar, and the
// NickName and the group display name are set by the member. Within one
// session a UserName is the same contact in friend lists, group member
// lists and messages; the only name that lasts across logins and that the
// member cannot set is the RemarkName (备注) the bot's own account gives a
// friend.
//
// So the SenderID of a message is:
//
//   - RemarkIDPrefix + RemarkName when the sender (in a private chat, or a
//     group member found by this session's UserName) is a friend with a
//     remark name no other friend has: a strong id. It survives re-logins
//     and renames; it changes when the remark does (whoever holds the
//     bot's phone sets it), and a member who is not a friend, or has no
//     remark or a shared one, has none.
//   - the NickName otherwise: a weak id, for conversations, subscriptions
//     and mentions only; anyone can take it. A nickname that starts with a
//     prefix of ours gets NickIDPrefix in front, so no weak id ever looks
//     strong.
//
// Rights (a ledger entry's owner, a storage admin) follow strong ids only
// (internal/commands, storage_admin.go).
const (
	RemarkIDPrefix = "remark:"
	NickIDPrefix   = "nick:"
)

// senderID is the SenderID for a sender with nickname nick and verified
// remark name key ("" when none).
func senderID(nick, key string) string {
	if key = strings.TrimSpace(key); key != "" {
		return RemarkIDPrefix + key
	}
	if strings.HasPrefix(nick, RemarkIDPrefix) || strings.HasPrefix(nick, NickIDPrefix) {
		return NickIDPrefix + nick
	}
	return nick
}

// nameOfID is what an id shows as when nothing better is known: the
// remark name or the nickname, without our prefixes.
func nameOfID(id string) string {
	if r, ok := strings.CutPrefix(id, RemarkIDPrefix); ok {
		return r
	}
	if n, ok := strings.CutPrefix(id, NickIDPrefix); ok {
		return n
	}
	return id
}

// friendKey is the remark name of the friend with this session's
// userName, when it has one that no other friend has; "" otherwise. It
// reads openwechat's contact cache, so it runs on the sync goroutine.
func friendKey(members openwechat.Members, userName string) string {
	if userName == "" {
		return ""
	}
	var remark string
	found := false
	for _, u := range members {
		if u != nil && u.UserName == userName && u.IsFriend() {
			remark, found = strings.TrimSpace(openwechat.FormatEmoji(u.RemarkName)), true
			break
		}
	}
	if !found || remark == "" {
		return ""
	}
	return uniqueRemark(members, userName, remark)
}

// uniqueRemark returns remark when no friend but userName has it.
func uniqueRemark(members openwechat.Members, userName, remark string) string {
	remark = strings.TrimSpace(remark)
	if remark == "" {
		return ""
	}
	for _, u := range members {
		if u != nil && u.UserName != userName && u.IsFriend() && strings.TrimSpace(openwechat.FormatEmoji(u.RemarkName)) == remark {
			return ""
		}
	}
	return remark
}
