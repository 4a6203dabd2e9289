// Package estimate answers what a job costs and what a billing mode
// costs: "7B LoRA 要多少钱" (the estimator's figures over the best known
// prices), "训练一个ResNet50要多少钱" (the workload estimator's hours per card
// at the same prices)
// and "A100 包月多少" (plan prices, or hourly prices times the period).
package estimate

import (
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/workload"
)

// Answers answers the estimate and plan intents: the catalog, offers and
// clock of env, the LLM estimator and the workload estimator's data (nil:
// non-LLM jobs are not estimated).
type Answers struct {
	*answer.Env
	est  *estimator.Estimator
	Work *workload.Data
	// LabPlans are the lab's own observed prices (config plans:,
	// "本组记录"), which win over the catalog's; Risk is the queue risk
	// from the availability history (nil: unknown).
	LabPlans []plan.Price
	Risk     plan.QueueRisk
}

// New returns the answers over env, est and the workload data work.
func New(env *answer.Env, est *estimator.Estimator, work *workload.Data) *Answers {
	return &Answers{Env: env, est: est, Work: work}
}

// Figures are an estimate's figures: the estimate itself, and its main
// figures repeated at the top level of the JSON (hours per GPU id: low /
// typical / high).
type Figures struct {
	Estimate      *estimator.Estimate        `json:"estimate,omitempty"`
	VRAMGB        *estimator.VRAM            `json:"vram_gb,omitempty"`
	Fits          []estimator.Fit            `json:"fits,omitempty"`
	TokensTrained float64                    `json:"tokens_trained,omitempty"`
	FLOPs         float64                    `json:"flops,omitempty"`
	Hours         map[string]estimator.Range `json:"hours,omitempty"`
	Options       []estimator.Option         `json:"options,omitempty"`
}

// Result is an estimate or plan answer: the figures, a non-LLM job's
// estimate (its options and hours are in Figures), the plan rows, the
// question asked back and the reply.
type Result struct {
	understand.Query
	Figures
	Workload *workload.Estimate
	Plan     *PlanResult
	Plans    *plan.Result
	Question string
	Reply    chat.Reply
}
