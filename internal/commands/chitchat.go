package commands

import (
	"context"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/metaview"
	"github.com/labgpu/bot/internal/understand"
)

func init() { answer.Register(answer.Intent{Name: IntentChitChat, Answer: chitChatAnswer}) }

// chitChatAnswer answers thanks and greetings (Query.SmallTalk) with one
// line, never the menu.
func chitChatAnswer(_ context.Context, a *answer.Ask) answer.Out {
	p := metaview.SmallTalk{Lang: i18n.Of(a.English)}
	switch a.SmallTalk {
	case understand.SmallTalkThanks:
		p.Kind = metaview.Thanks
	case understand.SmallTalkGreeting:
		p.Kind = metaview.Greeting
	case understand.SmallTalkDecline:
		p.Kind = metaview.Decline
	case understand.SmallTalkNoAction:
		p.Kind = metaview.NoAction
	}
	return a.Out(p)
}
