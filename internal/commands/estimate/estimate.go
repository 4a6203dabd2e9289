package estimate

import (
	"context"
	"errors"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/understand"
)

func init() {
	answer.Register(answer.Intent{Name: understand.IntentEstimate, Answer: func(ctx context.Context, a *answer.Ask) answer.Out {
		q := a.Query
		p, uses := run(ctx, a.Env, &q)
		_, ask := p.(estimateview.AskSize)
		return answer.Out{Payload: p, Query: a.Query, Uses: uses, AskedBack: ask}
	}})
}

// JobFromQuery maps parsed parameters onto an estimator job.
func JobFromQuery(q understand.Query) estimator.Job {
	j := estimator.Job{Model: q.Model, ParamsB: q.ParamsB, Method: q.Method, Bits: q.Bits, SeqLen: q.SeqLen,
		Batch: q.Batch, Samples: q.Samples, TokensPerSample: q.TokensPerSample, Tokens: q.Tokens, Epochs: q.Epochs,
		GPUCount: q.GPUCount, LoRARank: q.LoRARank, LoRATargets: q.LoRATargets, Optimizer: q.Optimizer,
		NoGradCkpt: q.NoGradCkpt, NoFlashAttn: q.NoFlashAttn, ZeRO: q.ZeRO, Stack: q.Stack}
	if len(q.Platforms) <= 1 {
		j.Platform = q.Platform
	}
	if q.GPU != "" || q.VRAMMinGB > 0 || q.VRAMMaxGB > 0 {
		// The cards named, or those within the VRAM asked.
		j.GPUs = q.GPUs
	}
	return j
}

// Run answers an estimate question ("7B LoRA 要多少钱") from q and env:
// a workload that is no language model (estimateview.Workload, when q
// names one the workload estimator knows), else the LLM estimator's
// figures over the best known prices (estimateview.Estimate) with what
// would work when nothing fits and the billing mode the cheapest option
// assumed; or the ask-back for the model's size (AskSize) or the
// estimator's refusal (TooManyGPUs, Failed). The advice answers call it
// for the job an OOM or card question describes; its EstimateFigures are
// the figures (empty for an ask-back or refusal) and Reply(env.Rd) the
// reply.
func Run(ctx context.Context, env *answer.Env, q understand.Query) estimateview.Answer {
	p, _ := run(ctx, env, &q)
	return p
}

// run is Run, and what it did with the question's conditions (q as the
// answer used it: the cards within the VRAM asked).
func run(ctx context.Context, env *answer.Env, q *understand.Query) (estimateview.Answer, []answer.Use) {
	en := q.English
	l := i18n.Of(en)
	if j, ok := WorkloadJob(env.Work, *q); ok {
		if w, ok := workloadEstimate(ctx, env, *q, j); ok {
			return w, nil
		}
	}
	uses := answer.UsesOf(q)
	uses.Add(answer.NarrowByVRAM(env.Cat, q)...)
	job := JobFromQuery(*q)
	method := job.Method
	if method == "" {
		method = estimator.MethodLoRA
	}
	quotes := env.Quotes(env.Offers.Snapshot(ctx), *q, method, env.Now(), en)
	est, err := env.Est.Estimate(job, quotes)
	switch {
	case errors.Is(err, estimator.ErrUnknownModel):
		return estimateview.AskSize{ModelText: q.ModelText, Lang: l}, nil
	case errors.Is(err, estimator.ErrTooManyGPUs):
		return estimateview.TooManyGPUs{Max: estimator.MaxGPUs, Lang: l}, nil
	case err != nil:
		return estimateview.Failed{Err: err.Error(), Lang: l}, nil
	}
	e := estimateview.Estimate{Figures: estimateview.FiguresOf(est), Lang: l, Problems: answer.ProblemLines(*q, en),
		NamedGPUs: q.NamedGPUs, GPUsAsked: q.GPU != "", BudgetCNY: q.BudgetTotalCNY, USD: q.Currency == understand.CurrencyUSD,
		WhyOnly: q.WhyVerdict}
	if q.ModelText != "" && q.Model == "" {
		e.UnknownModel = q.ModelText
	}
	if !estimateview.AnyFits(est) {
		e.Alternatives = alternatives(env.Est, est, quotes)
	}
	if len(est.Options) > 0 {
		e.Plan = planNote(env, est.Options[0], en)
		e.Period = periodNote(env, *q, est.Options[0])
	}
	e.Verdict = jobVerdict(env.Cat, est, *q, func() *estimator.Estimate {
		// Worth it against the cheapest run on any card.
		j := job
		j.GPUs, j.GPUCount = nil, 0
		all, err := env.Est.Estimate(j, quotes)
		if err != nil {
			return nil
		}
		return all
	})
	estimateUses(q, &e, uses)
	return e, uses.List()
}

// alternatives are what would work when nothing asked for fits, each
// with its cheapest known option: the same job as QLoRA 4-bit, the same
// card in more GPUs (up to 8), and the cheapest other card.
func alternatives(x *estimator.Estimator, est *estimator.Estimate, quotes estimator.Quotes) []estimateview.Alternative {
	job := est.Job
	var alts []estimateview.Alternative
	try := func(kind estimateview.AltKind, j estimator.Job) {
		if o, f, ok := cheapestFit(x, j, quotes); ok {
			alts = append(alts, estimateview.Alternative{Kind: kind, Option: o, Fit: f})
		}
	}
	if job.Method != estimator.MethodQLoRA && job.Method != estimator.MethodInference {
		j := job
		j.Method, j.Bits, j.GPUCount = estimator.MethodQLoRA, 4, 0
		try(estimateview.AltQLoRA, j)
	}
	if job.GPUCount > 0 && job.GPUCount < estimator.MaxGPUs {
		j := job
		j.GPUCount = 0
		try(estimateview.AltMoreGPUs, j)
	}
	j := job
	j.GPUs, j.GPUCount = nil, 0
	try(estimateview.AltOtherCard, j)
	return alts
}

// cheapestFit is a job's option on the fewest GPUs, then the cheapest (a
// 72B QLoRA on one A100 beats eight T4s), with its fit; or, with no price
// known, the first fit alone.
func cheapestFit(x *estimator.Estimator, j estimator.Job, quotes estimator.Quotes) (estimator.Option, *estimator.Fit, bool) {
	e2, err := x.Estimate(j, quotes)
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
