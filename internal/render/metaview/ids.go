package metaview

import (
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// IDs answers "本群ID" / "我的ID": the chat's and the asker's ids as the
// channel gives them, and which config key each goes into. It is the one
// answer that shows ids: it is for whoever sets the bot up.
type IDs struct {
	Lang i18n.Lang `json:"-"`
	// Channel is the asker's channel: "feishu", "wechat", "console".
	Channel string `json:"channel"`
	// ChatKey is the chat as the config and the command line name it
	// ("feishu/oc_…", "wechat/<群名>", "console/console"); ChatID its id
	// alone (Feishu chat_id "oc_…").
	ChatKey string `json:"chat_key"`
	ChatID  string `json:"chat_id"`
	// SenderID is the asker's id: Feishu open_id "ou_…", WeChat
	// "remark:<备注>" (a friend the bot's account gave a remark name) or a
	// nickname, "console".
	SenderID string `json:"sender_id"`
	// Group: asked in a group chat.
	Group bool `json:"group"`
	// Lab is the storage.labs name of the chat's lab, "" when the chat is
	// its own lab.
	Lab string `json:"lab,omitempty"`
	// Admin: the asker may change every entry of the lab's ledger
	// (storage.admins, or a bound WeChat admin).
	Admin bool `json:"admin"`
	// StrongWeChat: a WeChat asker known by a remark name, who can be
	// bound as an admin.
	StrongWeChat bool `json:"strong_wechat,omitempty"`
}

// Reply gives both ids on the first two lines (the one this chat is
// asked for first: the chat's in a group, the asker's in a private chat),
// then where each goes.
func (p IDs) Reply(*render.Renderer) chat.Reply {
	l := p.Lang
	chatLine := l.T("ids.chat", p.ChatID)
	if !p.Group {
		chatLine = l.T("ids.chat_p2p", p.ChatID)
	}
	sender := l.T("ids.sender", p.SenderID)
	if p.Channel == "feishu" {
		sender = l.T("ids.sender_feishu", p.SenderID)
	}
	rep := chat.Reply{Title: chatLine, Lines: []string{sender}, English: l.English()}
	switch {
	case p.Channel == "console":
		rep.Title, rep.Lines = sender, nil
	case !p.Group:
		rep.Title, rep.Lines = sender, []string{chatLine}
	}
	rep.Lines = append(rep.Lines, l.T("ids.chat_key", p.ChatKey, p.ChatKey))
	if p.Channel == "wechat" {
		rep.Lines = append(rep.Lines, l.T("ids.wechat_groups"))
	}
	if p.Lab != "" {
		rep.Lines = append(rep.Lines, l.T("ids.lab", p.Lab))
	}
	rep.Lines = append(rep.Lines, p.adminLine(l))
	if !p.Group && p.Channel != "console" {
		rep.Notes = append(rep.Notes, l.T("ids.group_hint"))
	}
	if p.Channel == "feishu" {
		rep.Notes = append(rep.Notes, l.T("ids.note_feishu"))
	}
	return rep
}

// adminLine says how the asker becomes a storage admin, or that they are.
func (p IDs) adminLine(l i18n.Lang) string {
	switch {
	case p.Admin:
		return l.T("ids.admin_already")
	case p.Channel != "wechat":
		return l.T("ids.admin_key", p.SenderID)
	case p.StrongWeChat:
		return l.T("ids.wechat_bind")
	}
	return l.T("ids.wechat_remark")
}
