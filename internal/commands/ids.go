package commands

import (
	"context"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/metaview"
)

func init() { answer.Register(answer.Intent{Name: "ids", Answer: idsAnswer}) }

// idsAnswer answers "本群ID" / "我的ID": the chat's and the asker's ids,
// the lab the chat belongs to and whether the asker is a storage admin.
func idsAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	p := metaview.IDs{Lang: i18n.Of(a.English), Channel: a.From.Channel, ChatKey: a.From.ChatKey(), ChatID: a.From.ChatID,
		SenderID: a.From.SenderID, Group: a.From.ChatType == chat.Group, StrongWeChat: a.From.IsWeChat() && answer.StrongWeChat(a.From.SenderID)}
	if a.Storage != nil {
		if lab := a.Storage.LabOf(p.ChatKey); lab != p.ChatKey {
			p.Lab = lab
		}
		p.Admin = a.Storage.IsAdmin(ctx, a.From)
	}
	return answer.Out{Payload: p, Query: a.Query}
}
