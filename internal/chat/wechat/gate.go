package wechat

import (
	"html"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/chat"
)

// rawMessage is what the gate needs to know about an inbound WeChat
// message. The adapter (fromOpenWechat) fills it from an
// *openwechat.Message, whose state is partly unexported and so cannot be
// built in tests; the decision itself (decide) is a pure function of it.
type rawMessage struct {
	// MsgID is the message's MsgId.
	MsgID string
	// Text: a plain text message (openwechat's IsText: MsgType 1, no Url).
	Text bool
	// SelfSent: sent by the bot's own account (from the phone, or the bot).
	SelfSent bool
	// FromGroup: the chat is a group (FromUserName "@@…").
	FromGroup bool
	// FromFriend: a private message from a contact that is a friend (not an
	// official account).
	FromFriend bool
	// IsAt is openwechat's @mention heuristic (Message.IsAt).
	IsAt bool
	// Content is the text after openwechat's processing: without the
	// "<member>:<br/>" prefix, with line breaks, HTML entities and emoji
	// decoded.
	Content string
	// ChatUserName is the per-session UserName to reply to ("@@…" for a
	// group, "@…" for a friend).
	ChatUserName string
	// GroupName is the group's NickName (its name).
	GroupName string
	// SenderNick is the sender's NickName.
	SenderNick string
	// SenderDisplay is the sender's display name in the group (群昵称).
	SenderDisplay string
	// SenderRemark is the friend's RemarkName (备注) set by the bot account.
	SenderRemark string
	// SenderKey is the sender's verified remark name: a friend (in a group:
	// found by this session's UserName) whose remark no other friend has;
	// "" when there is none. It makes the strong SenderID (identity.go).
	SenderKey string
	// BotNick is the bot account's NickName.
	BotNick string
	// BotDisplay is the bot's display name in the group, if it set one.
	BotDisplay string
	// Created is the message's CreateTime.
	Created time.Time
}

// verdict is the gate's decision about an inbound message.
type verdict int

const (
	// answer: hand the message to the Handler.
	answer verdict = iota
	// ignoreNotText: not a plain text message.
	ignoreNotText
	// ignoreSelf: sent by the bot's own account.
	ignoreSelf
	// ignoreOld: created long before the login (a backlog after a restart).
	ignoreOld
	// ignoreNotFriend: a private message from an official account or
	// someone who is not a friend.
	ignoreNotFriend
	// ignoreUnnamedGroup: a group without a name cannot be allow-listed or
	// found again for pushes.
	ignoreUnnamedGroup
	// ignoreGroupNotAllowed: the group is not in Options.Groups.
	ignoreGroupNotAllowed
	// ignoreNotMentioned: a group message that does not @mention the bot.
	ignoreNotMentioned
	// ignoreDuplicate: a MsgId already handled.
	ignoreDuplicate
	// ignoreUnknownSender: the sender could not be looked up.
	ignoreUnknownSender
	// unidentified: a private message from a friend without a remark name
	// of their own (none, or one another friend has): not for the
	// Handler; the friend gets unidentifiedReply and the admin is told
	// once (identity.go).
	unidentified
)

// String names the verdict for logs.
func (v verdict) String() string {
	switch v {
	case answer:
		return "answer"
	case ignoreNotText:
		return "not-text"
	case ignoreSelf:
		return "self-sent"
	case ignoreOld:
		return "old"
	case ignoreNotFriend:
		return "not-a-friend"
	case ignoreUnnamedGroup:
		return "unnamed-group"
	case ignoreGroupNotAllowed:
		return "group-not-allowed"
	case ignoreNotMentioned:
		return "not-mentioned"
	case ignoreDuplicate:
		return "duplicate"
	case ignoreUnknownSender:
		return "unknown-sender"
	case unidentified:
		return "no-unique-remark"
	}
	return "verdict(" + strconv.Itoa(int(v)) + ")"
}

// MaxMessageAge: messages created more than this long before the login
// completed are ignored, so that a restart does not answer the backlog
// that a hot login's sync key delivers.
const MaxMessageAge = 2 * time.Minute

// allowList is the set of group names the bot answers in; all is true for
// an empty list or one holding "*".
type allowList struct {
	all   bool
	names map[string]bool
}

func newAllowList(groups []string) allowList {
	a := allowList{names: map[string]bool{}}
	for _, g := range groups {
		g = strings.TrimSpace(g)
		switch g {
		case "":
		case "*":
			a.all = true
		default:
			a.names[g] = true
		}
	}
	if len(a.names) == 0 {
		a.all = true
	}
	return a
}

func (a allowList) allows(name string) bool {
	return a.all || a.names[strings.TrimSpace(name)]
}

// decide is the gate: it says whether the bot answers raw and builds the
// chat.Message it would answer. started is when the login completed (zero:
// no age check). It is a pure function.
//
//   - Only text messages; never the bot's own messages.
//   - Private messages: only from friends (not official accounts), and
//     only from a friend with a remark name no other friend has: ChatID
//     and SenderID are both "remark:<备注>" (identity.go). Any other
//     friend's message is unidentified: it never reaches the Handler.
//   - Group messages: the group must have a name and be allowed, and the
//     bot must be @mentioned: openwechat's IsAt AND an "@<name>" of the
//     bot (its group display name or its NickName) followed by U+2005
//     (what WeChat's mention picker inserts), a space or the end of the
//     text. @所有人 does not count. ChatID is the group's NickName (with
//     "group:" in front when the name starts with one of our prefixes).
//   - The bot's mentions are removed from the text wherever they are (in
//     private chats too), and so is "@所有人"; an empty text is still
//     answered (the router answers it with help).
//
// SenderID is "remark:<备注>" for a friend whose remark name (set by the
// bot's account) no other friend has, else the NickName (see identity.go:
// the web protocol gives no stable user id, and a nickname is anyone's to
// take, so only the former carries rights). SenderName is the group
// display name (what WeChat shows and what an @mention must match), else
// the NickName.
func decide(raw rawMessage, allow allowList, started time.Time) (chat.Message, verdict) {
	msg := chat.Message{
		Channel: "wechat",
		ID:      raw.MsgID,
		Time:    raw.Created,
	}
	if !raw.Text {
		return msg, ignoreNotText
	}
	if raw.SelfSent {
		return msg, ignoreSelf
	}
	if !started.IsZero() && !raw.Created.IsZero() && raw.Created.Before(started.Add(-MaxMessageAge)) {
		return msg, ignoreOld
	}
	if !raw.FromGroup {
		if !raw.FromFriend {
			return msg, ignoreNotFriend
		}
		msg.ChatType = chat.P2P
		msg.SenderName = firstNonEmpty(raw.SenderNick, raw.SenderRemark)
		if strings.TrimSpace(raw.SenderKey) == "" {
			// No remark of their own: a nickname (or a shared remark)
			// is anyone's to take, so it keys no private chat.
			msg.Text = raw.Content
			return msg, unidentified
		}
		msg.ChatID = privateChatID(raw.SenderKey)
		msg.SenderID = senderID(raw.SenderNick, raw.SenderKey)
		// "@bot" is not needed in a private chat, but harmless: drop it.
		quote, content := splitQuote(raw.Content)
		text, _ := stripMentions(content, botNames(raw))
		msg.Text, msg.Quote = tidy(stripAll(text)), quote
		return msg, answer
	}

	msg.ChatType = chat.Group
	msg.ChatID = groupChatID(raw.GroupName)
	if !raw.IsAt {
		return msg, ignoreNotMentioned
	}
	if strings.TrimSpace(raw.GroupName) == "" {
		return msg, ignoreUnnamedGroup
	}
	if !allow.allows(raw.GroupName) {
		return msg, ignoreGroupNotAllowed
	}
	quote, content := splitQuote(raw.Content)
	text, found := stripMentions(content, botNames(raw))
	if !found {
		return msg, ignoreNotMentioned
	}
	msg.SenderID = senderID(raw.SenderNick, raw.SenderKey)
	msg.SenderName = firstNonEmpty(raw.SenderDisplay, raw.SenderNick)
	if msg.SenderID == "" {
		return msg, ignoreUnknownSender
	}
	msg.Text, msg.Quote = tidy(stripAll(text)), quote
	return msg, answer
}

// botNames are the names the bot can be @mentioned by, longest first (so
// that "LabBot" is tried before "Lab"), with HTML entities decoded (the
// content is decoded by openwechat, names are not).
func botNames(raw rawMessage) []string {
	var names []string
	seen := map[string]bool{}
	for _, n := range []string{raw.BotDisplay, raw.BotNick} {
		for _, v := range []string{n, html.UnescapeString(n)} {
			if v = strings.TrimSpace(v); v != "" && !seen[v] {
				seen[v] = true
				names = append(names, v)
			}
		}
	}
	sort.SliceStable(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	return names
}

// mentionSep reports whether r may follow an @name: U+2005 (inserted by
// WeChat's mention picker) or other white space.
func mentionSep(r rune) bool {
	switch r {
	case '\u2005', ' ', '\u00a0', '\t', '\n', '\r', ideographicSpace:
		return true
	}
	return false
}

// stripMentions removes every "@<name>" followed by a separator or the end
// of text, for each of names, and says whether there was one.
func stripMentions(text string, names []string) (string, bool) {
	found := false
	var out strings.Builder
	for i := 0; i < len(text); {
		if text[i] == '@' {
			hit := false
			for _, n := range names {
				rest := text[i+1:]
				if !strings.HasPrefix(rest, n) {
					continue
				}
				after := rest[len(n):]
				if after == "" {
					i = len(text)
					hit = true
					break
				}
				r, size := firstRune(after)
				if mentionSep(r) {
					i += 1 + len(n) + size
					hit = true
					// Keep one space between words the mention separated.
					out.WriteByte(' ')
					break
				}
			}
			if hit {
				found = true
				continue
			}
		}
		out.WriteByte(text[i])
		i++
	}
	return out.String(), found
}

// ideographicSpace is U+3000, the full-width space.
const ideographicSpace = 0x3000

// stripAll removes the mentions of everyone ("@所有人", "@all":
// configs/chatwords.yaml).
func stripAll(text string) string {
	s, _ := stripMentions(text, chat.ReadWords().WeChatEveryone)
	return s
}

// tidy trims the text, turns U+2005 into spaces and collapses the runs of
// spaces removing mentions leaves behind, line by line.
func tidy(s string) string {
	s = strings.ReplaceAll(s, "\u2005", " ")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func firstRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
