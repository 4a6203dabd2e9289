package feishu

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	larkim "github.com/larksuite/oapi-sdk-go/v3/service/im/v1"

	"github.com/labgpu/bot/internal/chat"
)

// Verdict is Gate's decision about an inbound message.
type Verdict int

const (
	// Answer: hand the message to the Handler.
	Answer Verdict = iota
	// Unsupported: addressed to the bot but not text; answer with a short
	// note ("目前只支持文字消息").
	Unsupported
	// IgnoreMalformed: the event lacks a message id, chat id or content.
	IgnoreMalformed
	// IgnoreFromBot: sent by an app or bot, the bot itself included.
	IgnoreFromBot
	// IgnoreOld: created more than MaxMessageAge before the process started.
	IgnoreOld
	// IgnoreNotMentioned: a group message that does not @mention the bot
	// (@all, or only other people).
	IgnoreNotMentioned
)

// String names the verdict for logs.
func (v Verdict) String() string {
	switch v {
	case Answer:
		return "answer"
	case Unsupported:
		return "unsupported-type"
	case IgnoreMalformed:
		return "malformed"
	case IgnoreFromBot:
		return "from-bot"
	case IgnoreOld:
		return "old"
	case IgnoreNotMentioned:
		return "not-mentioned"
	}
	return "verdict(" + strconv.Itoa(int(v)) + ")"
}

// Gate decides whether the bot answers ev, and builds the chat.Message it
// would answer. It is a pure function.
//
//   - Messages from apps or bots (sender_type "app" or "bot"), or from
//     botOpenID itself, are ignored.
//   - Messages created more than 60 s before started are ignored.
//   - In group and topic_group chats the bot answers only when a mention's
//     id.open_id is botOpenID: not on @all, not when only someone else is
//     mentioned. In p2p chats it always answers.
//   - Non-text messages that pass get Unsupported.
//
// Text: the @_user_N placeholders that open the message (the addressing,
// "@bot @alice 4090有吗" → "4090有吗") and every placeholder of the bot are
// removed; other people's placeholders later in the text become "@Name".
// SenderName is filled when the sender appears among the mentions (the
// event carries no sender name); ParentID and RootID when the message
// replies to another (a reply to one of the bot's answers continues it).
func Gate(ev *larkim.P2MessageReceiveV1, botOpenID string, started time.Time) (chat.Message, Verdict) {
	if ev == nil || ev.Event == nil || ev.Event.Message == nil {
		return chat.Message{}, IgnoreMalformed
	}
	m := ev.Event.Message
	msg := chat.Message{
		Channel:  "feishu",
		ID:       str(m.MessageId),
		ChatID:   str(m.ChatId),
		ParentID: str(m.ParentId),
		RootID:   str(m.RootId),
	}
	if s := ev.Event.Sender; s != nil && s.SenderId != nil {
		msg.SenderID = str(s.SenderId.OpenId)
	}
	if msg.ID == "" || msg.ChatID == "" {
		return msg, IgnoreMalformed
	}
	if s := ev.Event.Sender; s != nil {
		switch str(s.SenderType) {
		case "app", "bot":
			return msg, IgnoreFromBot
		}
	}
	if botOpenID != "" && msg.SenderID == botOpenID {
		return msg, IgnoreFromBot
	}

	msg.Time = msTime(str(m.CreateTime))
	if msg.Time.IsZero() && ev.EventV2Base != nil && ev.EventV2Base.Header != nil {
		msg.Time = msTime(ev.EventV2Base.Header.CreateTime)
	}
	if !msg.Time.IsZero() && !started.IsZero() && msg.Time.Before(started.Add(-MaxMessageAge)) {
		return msg, IgnoreOld
	}

	mentions, atBot := readMentions(m.Mentions, botOpenID, &msg)
	if str(m.ChatType) == string(chat.P2P) {
		msg.ChatType = chat.P2P
	} else {
		// "group", "topic_group" and anything unknown need the @mention.
		msg.ChatType = chat.Group
		if !atBot {
			return msg, IgnoreNotMentioned
		}
	}

	if str(m.MessageType) != "text" {
		return msg, Unsupported
	}
	var content struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal([]byte(str(m.Content)), &content); err != nil {
		return msg, IgnoreMalformed
	}
	msg.Text = cleanText(content.Text, mentions)
	return msg, Answer
}

// readMentions reads message.mentions: the entries with a key, whether
// one is the bot, and the sender's name when the sender is mentioned.
func readMentions(ms []*larkim.MentionEvent, botOpenID string, msg *chat.Message) ([]mention, bool) {
	mentions := make([]mention, 0, len(ms))
	atBot := false
	for _, me := range ms {
		if me == nil {
			continue
		}
		mt := mention{key: str(me.Key), name: str(me.Name)}
		if me.Id != nil {
			mt.openID = str(me.Id.OpenId)
		}
		mt.isBot = botOpenID != "" && mt.openID == botOpenID
		atBot = atBot || mt.isBot
		if mt.openID != "" && mt.openID == msg.SenderID && msg.SenderName == "" {
			msg.SenderName = mt.name
		}
		if mt.key != "" {
			mentions = append(mentions, mt)
		}
	}
	return mentions, atBot
}

// mention is one entry of message.mentions.
type mention struct {
	key, name, openID string
	isBot             bool
}

// cleanText removes the addressing mentions and the bot's, and turns other
// placeholders into "@Name".
func cleanText(text string, mentions []mention) string {
	// "@_all" may appear in the text without a mentions entry.
	hasAll := false
	for _, mt := range mentions {
		hasAll = hasAll || mt.key == "@_all"
	}
	if !hasAll {
		mentions = append(mentions, mention{key: "@_all", name: chat.ReadWords().FeishuEveryone})
	}
	// Longest keys first, so that @_user_1 does not match inside @_user_12.
	sort.SliceStable(mentions, func(i, j int) bool { return len(mentions[i].key) > len(mentions[j].key) })

	var out strings.Builder
	leading := true
	for i := 0; i < len(text); {
		var hit *mention
		if text[i] == '@' {
			for k := range mentions {
				if strings.HasPrefix(text[i:], mentions[k].key) {
					hit = &mentions[k]
					break
				}
			}
		}
		if hit != nil {
			i += len(hit.key)
			if !leading && !hit.isBot && hit.name != "" {
				out.WriteString("@" + hit.name)
			}
			continue
		}
		c := text[i]
		if leading && (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++
			continue
		}
		leading = false
		out.WriteByte(c)
		i++
	}
	// Removing a mention leaves double spaces; tidy each line.
	lines := strings.Split(out.String(), "\n")
	for i, l := range lines {
		for strings.Contains(l, "  ") {
			l = strings.ReplaceAll(l, "  ", " ")
		}
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// msTime parses a Unix time in milliseconds; "" or garbage gives zero.
func msTime(s string) time.Time {
	ms, err := strconv.ParseInt(s, 10, 64)
	if err != nil || ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
