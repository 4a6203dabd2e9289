package wechat

import (
	"context"
	"errors"
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
// (internal/commands/answer/admins.go).
//
// Chats are keyed the same way (the ChatID of chat.Message, and what
// Send takes), by kind, so no name can stand for another kind of chat:
//
//   - a private chat is RemarkIDPrefix + the friend's unique remark name,
//     the friend's strong id: renaming themself changes nothing, and a
//     friend without a remark of their own (none, or one another friend
//     also has) has no private chat with the bot: their private messages
//     get a short answer saying why (unidentifiedReply), never the
//     Handler, and Options.OnUnidentified tells the admin once;
//   - a group is its NickName, or GroupIDPrefix + the NickName when that
//     starts with one of our prefixes (a group named "remark:alice" is
//     "group:remark:alice", never Alice's private chat).
//
// A ChatID without a prefix that names no group is, for keys stored
// before private chats had a prefix, the friend whose unique remark it is
// (never a nickname); one that names both a group and a friend's remark
// is refused (Wire.Parts).
const (
	RemarkIDPrefix = "remark:"
	NickIDPrefix   = "nick:"
	GroupIDPrefix  = "group:"
)

// privateChatID is the ChatID of the private chat with the friend whose
// unique remark name is key.
func privateChatID(key string) string { return RemarkIDPrefix + strings.TrimSpace(key) }

// groupChatID is the ChatID of the group named name: the name, or with
// GroupIDPrefix in front when it starts with one of our prefixes.
func groupChatID(name string) string {
	if reserved(name) {
		return GroupIDPrefix + name
	}
	return name
}

// reserved reports whether a name starts with one of our id prefixes.
func reserved(name string) bool {
	return strings.HasPrefix(name, RemarkIDPrefix) || strings.HasPrefix(name, NickIDPrefix) || strings.HasPrefix(name, GroupIDPrefix)
}

// chatKind is what a ChatID names.
type chatKind int

const (
	// chatLegacy: a bare name, a group (or, stored before private chats
	// had a prefix, a friend by remark).
	chatLegacy chatKind = iota
	// chatFriend: RemarkIDPrefix + a remark name.
	chatFriend
	// chatGroup: GroupIDPrefix + a group name.
	chatGroup
	// chatNone: a weak id (NickIDPrefix), which names no chat.
	chatNone
)

// parseChatID splits a ChatID into its kind and name.
func parseChatID(id string) (chatKind, string) {
	if r, ok := strings.CutPrefix(id, RemarkIDPrefix); ok {
		return chatFriend, r
	}
	if g, ok := strings.CutPrefix(id, GroupIDPrefix); ok {
		return chatGroup, g
	}
	if strings.HasPrefix(id, NickIDPrefix) {
		return chatNone, id
	}
	return chatLegacy, id
}

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

// PrivateChatID is the ChatID of the private chat with the friend whose
// unique remark name (备注) is remark: "remark:<备注>".
func PrivateChatID(remark string) string { return privateChatID(remark) }

// OldPrivateChat reports, for a ChatID stored before private chats had a
// prefix (a bare remark name), the private chat's ChatID it stands for:
// when no group has that name (among the contacts, or the groups that
// wrote in this session) and exactly one friend has it as remark name.
// It returns "" for any other ChatID (a group, a prefixed key, a nickname,
// a remark two friends share). It needs a logged-in session; the app
// moves old subscriptions to the new key with it after a login.
func (b *Bot) OldPrivateChat(ctx context.Context, chatID string) (string, error) {
	kind, name := parseChatID(chatID)
	if kind != chatLegacy || strings.TrimSpace(name) == "" {
		return "", nil
	}
	s := b.current()
	if err := s.alive(); err != nil {
		return "", err
	}
	if _, err := b.lookup(ctx, s, name, true); !errors.Is(err, ErrGroupNotFound) {
		return "", err // a group of that name (nil), or the lookup failed
	}
	if _, err := b.lookup(ctx, s, name, false); err != nil {
		if errors.Is(err, errFriendNotFound) || errors.Is(err, errFriendAmbiguous) {
			return "", nil
		}
		return "", err
	}
	return privateChatID(name), nil
}
