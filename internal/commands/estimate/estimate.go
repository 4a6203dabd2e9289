package estimate

import (
	"context"
	"errors"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
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
		NoGradCkpt: q.NoGradCkpt, NoFlashAttn: q.NoFlashAttn, ZeRO: q.ZeRO, Stack: q.Stack, DPO: q.DPO && q.Method != estimator.MethodInference}
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
			return w, workloadUses(q, w)
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
		ask := estimateview.AskSize{ModelText: q.ModelText, Lang: l}
		if ask.ModelText == "" {
			ask.Job = unknownJob(env.Cat, q.Asked)
		}
		return ask, nil
	case errors.Is(err, estimator.ErrTooManyGPUs):
		return estimateview.TooManyGPUs{Max: estimator.MaxGPUs, Lang: l}, nil
	case err != nil:
		return estimateview.Failed{Err: err.Error(), Lang: l}, nil
	}
	one := scaleRuns(est, q.Runs)
	e := estimateview.Estimate{Figures: estimateview.FiguresOf(est), Lang: l, Problems: answer.ProblemLines(*q, en),
		NamedGPUs: q.NamedGPUs, GPUsAsked: q.GPU != "", BudgetCNY: q.BudgetTotalCNY, USD: q.Currency == understand.CurrencyUSD,
		WhyOnly: q.WhyVerdict, VRAMAsked: q.VRAMAsked, SpeedAsked: q.Aspect == understand.AspectSpeed}
	if one != nil {
		e.Runs, e.RunCNY, e.RunHours = q.Runs, [2]float64{one.TotalLowCNY, one.TotalHighCNY}, one.Hours
		e.RunsPerWeek, e.Weeks, e.WeeksAssumed, e.People = q.RunsPerWeek, q.Weeks, q.WeeksAssumed, q.People
		if e.RunCNY[1] < e.RunCNY[0] || e.RunCNY[1] == 0 {
			e.RunCNY = [2]float64{one.TotalCNY, one.TotalCNY}
		}
	}
	if q.ModelText != "" && q.Model == "" {
		e.UnknownModel = q.ModelText
	}
	if !estimateview.AnyFits(est) {
		e.Alternatives = alternatives(env.Est, est, quotes)
	}
	if job.GPUCount > 1 {
		e.Scaling = llmScaling(env.Est, est, job, quotes)
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
	int8Fit(env.Est, job, est, e.Verdict)
	estimateUses(q, &e, uses)
	return e, uses.List()
}

// int8Fit notes, for 16-bit inference that does not fit one card asked
// (or a family's smaller variant), the VRAM it needs at 8 bits when one
// such card then holds it.
func int8Fit(x *estimator.Estimator, job estimator.Job, est *estimator.Estimate, v *estimateview.Verdict) {
	if v == nil || v.Why != estimateview.WhyVRAM || est.Method != estimator.MethodInference || est.Bits != 16 || v.Count > 1 {
		return
	}
	card := v.ShortCard
	if card == "" && v.Answer == render.VerdictNo {
		card = v.Card
	}
	if card == "" {
		return
	}
	j := job
	j.Bits, j.GPUs, j.GPUCount = 8, []string{card}, 1
	e8, err := x.Estimate(j, nil)
	if err != nil {
		return
	}
	for _, f := range e8.Fits {
		if f.GPU == card && f.Fits && f.GPUCount == 1 {
			v.Int8Card, v.Int8GB = card, f.VRAMPerGPU
		}
	}
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
	if job.Method == estimator.MethodFull && job.Optimizer == "" && len(job.GPUs) > 0 {
		// "8张A100 80G能跑吗" for a full fine-tune: the cards asked, with
		// the optimizer state a quarter of its size (no fp32 master).
		j := job
		j.Optimizer = estimator.OptimizerAdamW8bit
		try(estimateview.AltAdam8bit, j)
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

// llmScaling compares the cheapest option's card on the cards asked with
// one of it ("换成4张A100呢", "用两张4090会快多少"): the hours on each and
// the estimator's multi-GPU efficiency; for inference, that one request
// runs no faster on more cards. nil without an option.
func llmScaling(x *estimator.Estimator, est *estimator.Estimate, job estimator.Job, quotes estimator.Quotes) *estimateview.Scaling {
	if len(est.Options) == 0 || est.Cheapest < 0 {
		return nil
	}
	o := est.Options[est.Cheapest]
	if o.GPUCount < 2 {
		return nil
	}
	var fN *estimator.Fit
	for i := range est.Fits {
		if est.Fits[i].GPU == o.GPU && est.Fits[i].Fits {
			fN = &est.Fits[i]
		}
	}
	if fN == nil {
		return nil
	}
	s := &estimateview.Scaling{GPU: o.GPU, N: o.GPUCount, HoursN: fN.Hours.Typical + estimator.SetupHours, Eff: estimator.Scaling(o.GPUCount)}
	one := job
	one.GPUCount, one.GPUs = 1, []string{o.GPU}
	e1, err := x.Estimate(one, quotes)
	if err == nil {
		for _, f := range e1.Fits {
			if f.GPU == o.GPU && f.Fits && f.GPUCount == 1 {
				s.OneFits, s.Hours1 = true, f.Hours.Typical+estimator.SetupHours
			}
		}
	}
	switch {
	case job.Method == estimator.MethodInference && s.OneFits:
		s.Why = estimateview.ScaleInference
	case job.Method == estimator.MethodInference:
		return nil // it needs the cards to hold the model: nothing to compare
	case s.OneFits && s.Hours1-estimator.SetupHours < estimator.SetupHours:
		s.Why = estimateview.ScaleSmall
	}
	return s
}

// unknownJob is the name of the job a question trains or runs that no
// estimator knows ("训练一个Mamba要多少钱": "Mamba", as written), or "":
// the first name after a verb that is no card or platform.
func unknownJob(cat *catalog.Catalog, asked string) string {
	folded := catalog.Fold(asked)
	for _, name := range understand.JobNames(folded) {
		if len(cat.FindGPUs(name)) > 0 || len(cat.FindPlatforms(name)) > 0 || len(cat.FindModels(name)) > 0 || llmFamily(cat, name) {
			continue
		}
		if i := strings.Index(strings.ToLower(asked), name); i >= 0 && len(asked) >= i+len(name) {
			return asked[i : i+len(name)] // as the asker wrote it
		}
		return name
	}
	return ""
}

// llmFamily reports whether a folded name begins a language model family
// the catalog knows ("qwen", "deepseek"): asked without a size, which the
// plain ask-back asks for.
func llmFamily(cat *catalog.Catalog, name string) bool {
	for _, f := range cat.Families {
		for _, n := range append([]string{f.ID}, f.Names...) {
			if strings.HasPrefix(strings.ReplaceAll(catalog.Fold(n), " ", ""), name) {
				return true
			}
		}
	}
	for _, m := range cat.Models {
		if strings.HasPrefix(catalog.Fold(m.ID), name) {
			return true
		}
	}
	return false
}

// scaleRuns counts the job's priced options runs times ("一个月跑10次":
// the cost and the hours of all of them) and returns the cheapest
// option's one run as it was (nil when the job runs once or has none).
func scaleRuns(est *estimator.Estimate, runs int) *estimator.Option {
	if runs < 2 || len(est.Options) == 0 {
		return nil
	}
	one := est.Options[0]
	n := float64(runs)
	for i := range est.Options {
		o := &est.Options[i]
		o.Hours, o.BilledGPUHours, o.GPUCostCNY = o.Hours*n, o.BilledGPUHours*n, o.GPUCostCNY*n
		o.TotalCNY, o.TotalLowCNY, o.TotalHighCNY = o.TotalCNY*n, o.TotalLowCNY*n, o.TotalHighCNY*n
		if o.StorageCostCNY != nil {
			v := *o.StorageCostCNY * n
			o.StorageCostCNY = &v
		}
	}
	return &one
}
