package estimate

import (
	"context"
	"errors"
	"fmt"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/understand"
)

// JobFromQuery maps parsed parameters onto an estimator job.
func JobFromQuery(q understand.Query) estimator.Job {
	j := estimator.Job{Model: q.Model, ParamsB: q.ParamsB, Method: q.Method, Bits: q.Bits, SeqLen: q.SeqLen,
		Batch: q.Batch, Samples: q.Samples, TokensPerSample: q.TokensPerSample, Tokens: q.Tokens, Epochs: q.Epochs,
		GPUCount: q.GPUCount, LoRARank: q.LoRARank, LoRATargets: q.LoRATargets, Optimizer: q.Optimizer,
		NoGradCkpt: q.NoGradCkpt, NoFlashAttn: q.NoFlashAttn, ZeRO: q.ZeRO, Stack: q.Stack}
	if len(q.Platforms) <= 1 {
		j.Platform = q.Platform
	}
	if q.GPU != "" {
		j.GPUs = q.GPUs
	}
	return j
}

// Estimate answers "7B LoRA 要多少钱".
func (r *Answers) Estimate(ctx context.Context, res *Result) {
	q := res.Query
	en := q.English
	now := r.Now()
	job := JobFromQuery(q)
	method := job.Method
	if method == "" {
		method = estimator.MethodLoRA
	}
	if j, ok := WorkloadJob(r.Work, q); ok && r.workloadEstimate(ctx, res, j) {
		return
	}
	snap := r.Offers.Snapshot(ctx)
	quotes := r.Quotes(snap, q, method, now, en)
	est, err := r.est.Estimate(job, quotes)
	switch {
	case errors.Is(err, estimator.ErrUnknownModel):
		r.askSize(res)
		return
	case errors.Is(err, estimator.ErrTooManyGPUs):
		res.Reply = chat.Reply{Title: answer.Pick(en,
			fmt.Sprintf("一台机器最多 %d 张卡；超过 %d 卡是多机训练，这里不估算。可以问“8卡 …”看单机的方案。", estimator.MaxGPUs, estimator.MaxGPUs),
			fmt.Sprintf("One machine has at most %d GPUs; more is multi-node training, which I do not estimate. Ask with 8 GPUs for a single-machine plan.", estimator.MaxGPUs))}
		return
	case err != nil:
		res.Reply = chat.Reply{Title: answer.Pick(en, "无法估算：", "Cannot estimate: ") + err.Error()}
		return
	}
	res.Estimate = est
	res.Options = est.Options
	res.VRAMGB = &est.VRAM
	res.Fits = est.Fits
	res.TokensTrained = est.Tokens
	res.FLOPs = est.FLOPs
	if est.Method != estimator.MethodInference {
		res.Hours = map[string]estimator.Range{}
		for _, f := range est.Fits {
			if f.Fits {
				res.Hours[f.GPU] = f.Hours
			}
		}
	}
	ask := render.EstimateAsk{Problems: answer.ProblemLines(q, en), NamedGPUs: q.NamedGPUs, GPUsAsked: q.GPU != "", English: en}
	if q.ModelText != "" && q.Model == "" {
		ask.UnknownModel = q.ModelText
	}
	if !render.AnyFits(est) {
		ask.Alternatives = r.alternatives(est, quotes)
	}
	res.Reply = r.Rd.Estimate(est, ask)
	if len(est.Options) > 0 {
		res.Reply.Notes = append(res.Reply.Notes, r.planNote(est.Options[0], en))
	}
}

func (r *Answers) askSize(res *Result) {
	en := res.English
	name := res.ModelText
	var qs string
	switch {
	case en && name != "":
		qs = fmt.Sprintf("I don't know the model “%s”. How many parameters does it have? e.g. “7B LoRA cost”.", name)
	case en:
		qs = "How many parameters does the model have? e.g. “how much would 7B LoRA cost”."
	case name != "":
		qs = fmt.Sprintf("不认识模型“%s”。它有多大参数量？例如“7B LoRA 要多少钱”。", name)
	default:
		qs = "模型多大参数量？例如“7B LoRA 要多少钱”或“Qwen2.5-7B QLoRA 多少钱”。"
	}
	res.Question = qs
	res.Reply = chat.Reply{Title: qs}
}

// alternatives are what would work when nothing asked for fits, each
// with its cheapest known option: the same job as QLoRA 4-bit, the same
// card in more GPUs (up to 8), and the cheapest other card.
func (r *Answers) alternatives(est *estimator.Estimate, quotes estimator.Quotes) []render.Alternative {
	job := est.Job
	var alts []render.Alternative
	try := func(kind render.AltKind, j estimator.Job) {
		if o, f, ok := r.cheapestFit(j, quotes); ok {
			alts = append(alts, render.Alternative{Kind: kind, Option: o, Fit: f})
		}
	}
	if job.Method != estimator.MethodQLoRA && job.Method != estimator.MethodInference {
		j := job
		j.Method, j.Bits, j.GPUCount = estimator.MethodQLoRA, 4, 0
		try(render.AltQLoRA, j)
	}
	if job.GPUCount > 0 && job.GPUCount < estimator.MaxGPUs {
		j := job
		j.GPUCount = 0
		try(render.AltMoreGPUs, j)
	}
	j := job
	j.GPUs, j.GPUCount = nil, 0
	try(render.AltOtherCard, j)
	return alts
}

// cheapestFit is a job's option on the fewest GPUs, then the cheapest (a
// 72B QLoRA on one A100 beats eight T4s), with its fit; or, with no price
// known, the first fit alone.
func (r *Answers) cheapestFit(j estimator.Job, quotes estimator.Quotes) (estimator.Option, *estimator.Fit, bool) {
	e2, err := r.est.Estimate(j, quotes)
	if err != nil {
		return estimator.Option{}, nil, false
	}
	best := -1
	for i, o := range e2.Options {
		if best < 0 || o.GPUCount < e2.Options[best].GPUCount || o.GPUCount == e2.Options[best].GPUCount && o.TotalCNY < e2.Options[best].TotalCNY {
			best = i
		}
	}
	for i := range e2.Fits {
		f := &e2.Fits[i]
		if best >= 0 && f.GPU == e2.Options[best].GPU {
			return e2.Options[best], f, true
		}
	}
	for i := range e2.Fits {
		if e2.Fits[i].Fits {
			return estimator.Option{}, &e2.Fits[i], true
		}
	}
	return estimator.Option{}, nil, false
}
