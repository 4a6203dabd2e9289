package commands_test

import (
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/workload"
)

// figures are the estimate figures of an answer: the estimate intent's
// payload's, or those an advice answer made.
func figures(res commands.Result) estimateview.Figures {
	if p, ok := res.Payload.(estimateview.Answer); ok {
		return p.EstimateFigures()
	}
	return res.Figures
}

// workloadOf is the workload estimate of an answer (nil when it made
// none).
func workloadOf(res commands.Result) *workload.Estimate {
	if p, ok := res.Payload.(estimateview.Workload); ok {
		return p.Est
	}
	return nil
}
