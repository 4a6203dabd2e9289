// Package advice answers troubleshooting and how-to questions from the
// knowledge base ("CUDA out of memory", "第一次租卡要注意什么", "微调 BERT
// 用什么卡"), with the lab's data a topic ties to (an estimate, disk and
// billing rules, stock), and checks claims against sourced figures ("文章说
// AutoDL 数据盘 0.1 元/GB/天，是真的吗").
package advice

import (
	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/commands/estimate"
	"github.com/labgpu/bot/internal/commands/offers"
	"github.com/labgpu/bot/internal/understand"
)

// Answers answers the advice and factcheck intents.
type Answers struct {
	*answer.Env
	est *estimator.Estimator
	kb  *kb.Base
	// estimates answer a card question that names a job; offers count
	// the offers of a stock tie.
	estimates *estimate.Answers
	offers    *offers.Answers
	// alerts and storage say whether stock alerts and the storage ledger
	// are on (an answer then points to them).
	alerts, storage bool
}

// Deps are what the advice answers read besides the Env.
type Deps struct {
	Est       *estimator.Estimator
	KB        *kb.Base
	Estimates *estimate.Answers
	Offers    *offers.Answers
	// Alerts and Storage are set when stock alerts and the storage ledger
	// are on.
	Alerts, Storage bool
}

// New returns the answers over env and d.
func New(env *answer.Env, d Deps) *Answers {
	return &Answers{Env: env, est: d.Est, kb: d.KB, estimates: d.Estimates, offers: d.Offers, alerts: d.Alerts, storage: d.Storage}
}

// Result is an advice or fact-check answer: the advice or the check, the
// figures of an estimate the answer made, and the reply.
type Result struct {
	understand.Query
	estimate.Figures
	Advice *AdviceResult
	Check  *CheckResult
	Reply  chat.Reply
}
