package commands

import (
	"context"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/metaview"
)

func init() { answer.Register(answer.Intent{Name: IntentMore, Answer: moreAnswer}) }

// moreAnswer answers "详情" with the full form of the asker's (else the
// chat's) last answer, in that answer's language.
func moreAnswer(_ context.Context, a *answer.Ask) answer.Out {
	if a.Last == nil {
		return a.Out(metaview.NothingMore{Lang: i18n.Of(a.English)})
	}
	rep := *a.Last
	rep.Full = nil
	a.English = rep.English
	return a.Out(metaview.More{Full: rep})
}
