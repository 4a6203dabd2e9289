// Package estimate answers what a job costs and what a billing mode
// costs: "7B LoRA 要多少钱" (the estimator's figures over the best known
// prices), "训练一个ResNet50要多少钱" (the workload estimator's hours per card
// at the same prices) and "A100 包月多少" (plan prices, or hourly prices
// times the period; with a usage profile, the plan optimizer). Each intent
// registers from its own file (estimate.go, plan.go) and answers with a
// payload of render/estimateview or render/planview.
package estimate

import (
	"context"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/understand"
)

// Figures are an estimate's figures (estimateview.Figures): what the
// JSON of an answer that estimated a job carries.
type Figures = estimateview.Figures

// Answers answers an estimate for the advice answers (Estimate).
//
// Deprecated: the advice answers call Run; Answers goes when they do.
type Answers struct {
	*answer.Env
}

// New returns the answers over env.
func New(env *answer.Env) *Answers { return &Answers{Env: env} }

// Result is an estimate answer as the advice answers still take it: the
// figures and the reply.
//
// Deprecated: Run returns the estimate's payload.
type Result struct {
	understand.Query
	Figures
	Reply chat.Reply
}

// Estimate answers res.Query as Run does, with its figures and reply.
//
// Deprecated: call Run and the payload's Reply.
func (r *Answers) Estimate(ctx context.Context, res *Result) {
	p := Run(ctx, r.Env, res.Query)
	res.Figures, res.Reply = p.EstimateFigures(), p.Reply(r.Rd)
}
