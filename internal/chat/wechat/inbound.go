package wechat

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/eatmoreapple/openwechat"

	"github.com/labgpu/bot/internal/chat"
)

// onMessage runs on openwechat's sync goroutine for every new message: it
// gathers what the gate needs (looking the sender up, which may call
// WeChat), decides, and queues the messages to answer.
func (b *Bot) onMessage(s *session, m *openwechat.Message) {
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("wechat: panic while reading a message", "panic", r)
		}
	}()
	raw, err := adapt(m)
	if err != nil {
		b.log.Warn("wechat: cannot identify a message's chat or sender; ignored", "msg_id", m.MsgId, "err", err)
		return
	}
	msg, v := decide(raw, b.allow, s.started)
	if (v == answer || v == unidentified) && b.seenBefore(msg.ID) {
		v = ignoreDuplicate
	}
	j := job{s: s, msg: msg, to: raw.ChatUserName}
	switch v {
	case answer:
	case unidentified:
		// No private chat without a remark of their own: a short answer
		// saying why (nothing else), and the admin told once.
		u := Unidentified{Nick: openwechat.FormatEmoji(raw.SenderNick), Remark: strings.TrimSpace(openwechat.FormatEmoji(raw.SenderRemark))}
		b.log.Info("wechat: private message from a friend without a remark name of their own; not answered", "shared_remark", u.Remark != "", "msg_id", msg.ID)
		b.tellUnidentified(raw.ChatUserName, u)
		reply := unidentifiedReply(u, msg.Text)
		j.reply = &reply
		j.msg.ChatID = unidentifiedKey + raw.ChatUserName // the outbox's queue and rate limit only
	default:
		b.log.Debug("wechat: message ignored", "reason", v.String(), "chat", msg.ChatID, "msg_id", msg.ID)
		return
	}
	if msg.ChatType == chat.Group {
		b.learnGroup(s, raw.GroupName, raw.ChatUserName)
	}
	select {
	case b.jobs <- j:
		b.log.Info("wechat: message to answer", "chat", msg.ChatID, "chat_type", msg.ChatType, "sender", msg.SenderName)
	default:
		b.log.Warn("wechat: queue full; message dropped", "chat", msg.ChatID, "queue", QueueSize)
	}
}

// seenBefore records id and reports whether it was recorded already (the
// last 1024 ids are kept). An empty id is never a duplicate.
func (b *Bot) seenBefore(id string) bool {
	if id == "" {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen[id] {
		return true
	}
	if old := b.seenRing[b.seenNext]; old != "" {
		delete(b.seen, old)
	}
	b.seenRing[b.seenNext] = id
	b.seenNext = (b.seenNext + 1) % len(b.seenRing)
	b.seen[id] = true
	return false
}

// adapt reads an openwechat message into a rawMessage. It runs on the sync
// goroutine (it uses openwechat's contact caches) and looks up names only
// for messages that could be answered: text, not self-sent, and in groups
// @mentioning the bot by openwechat's IsAt.
func adapt(m *openwechat.Message) (rawMessage, error) {
	owner := m.Owner()
	if owner == nil || owner.User == nil {
		return rawMessage{MsgID: m.MsgId}, errors.New("message without an owner (logged out?)")
	}
	raw := rawMessage{
		MsgID:     m.MsgId,
		Text:      m.IsText(),
		SelfSent:  m.IsSendBySelf(),
		FromGroup: m.IsSendByGroup(),
		IsAt:      m.IsAt(),
		Content:   m.Content,
	}
	if m.CreateTime > 0 {
		raw.Created = time.Unix(m.CreateTime, 0)
	}
	raw.BotNick = owner.NickName
	if !raw.Text || raw.SelfSent {
		return raw, nil
	}
	raw.ChatUserName = m.FromUserName
	if raw.FromGroup {
		if !raw.IsAt {
			return raw, nil
		}
		group, err := m.Sender()
		if err != nil {
			return raw, fmt.Errorf("look up group %s: %w", m.FromUserName, redact(err))
		}
		raw.GroupName = group.NickName
		if me := group.MemberList.SearchByUserName(1, owner.UserName); me.Count() > 0 {
			raw.BotDisplay = me.First().DisplayName
		}
		member, err := m.SenderInGroup()
		if err != nil {
			return raw, fmt.Errorf("look up the sender in group %q: %w", raw.GroupName, redact(err))
		}
		raw.SenderNick, raw.SenderDisplay = member.NickName, member.DisplayName
		// The member is the same contact as a friend of this session's
		// UserName: its remark name is the strong id (identity.go).
		if members, err := owner.Members(); err == nil {
			raw.SenderKey = friendKey(members, member.UserName)
		}
		return raw, nil
	}
	if !m.IsSendByFriend() {
		// "filehelper", "weixin" (the WeChat team) and other system chats.
		return raw, nil
	}
	sender, err := m.Sender()
	if err != nil {
		return raw, fmt.Errorf("look up sender %s: %w", m.FromUserName, redact(err))
	}
	raw.FromFriend = sender.IsFriend()
	raw.SenderNick, raw.SenderRemark = sender.NickName, sender.RemarkName
	if members, err := owner.Members(); err == nil && raw.FromFriend {
		raw.SenderKey = uniqueRemark(members, sender.UserName, openwechat.FormatEmoji(sender.RemarkName))
	}
	return raw, nil
}
