package estimate

import (
	"context"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/workload"
)

// WorkloadJob maps a question onto a non-LLM job: the model and dataset
// it names (q.WorkloadModel, WorkloadDataset; or the model its
// knowledge-base workload means), its figures and the GPUs it asks for.
// ok is false when it names no workload model, or a full fine-tune of one
// only trained with LoRA here.
func WorkloadJob(d *workload.Data, q understand.Query) (workload.Job, bool) {
	if d == nil || q.Model != "" || q.ParamsB > 0 {
		return workload.Job{}, false
	}
	model, dataset := q.WorkloadModel, q.WorkloadDataset
	if model == "" {
		model = d.Advice[q.Workload]
	}
	m, ok := d.Model(model)
	if !ok || m.Kind == workload.KindLoRA && q.Method == estimator.MethodFull {
		return workload.Job{}, false
	}
	j := workload.Job{Model: model, Dataset: dataset, Samples: q.Samples, Images: q.Images, Epochs: q.Epochs, Steps: q.Steps,
		Batch: q.Batch, Resolution: q.Resolution, SeqLen: q.SeqLen, FP32: q.Bits == 32, AudioHours: q.AudioHours,
		GPUCount: q.GPUCount}
	if dataset != "" && q.DataPercent > 0 {
		j.Fraction = q.DataPercent / 100
	}
	if q.GPU != "" {
		j.GPUs = q.GPUs
	}
	return j, true
}

// workloadEstimate answers a non-LLM job ("训练一个ResNet50要多少钱"):
// the estimator's hours on each CUDA card that holds it, priced at the
// best known quotes with the hidden costs (billing.CostOptions). It
// reports false when the job cannot be estimated (the LLM path then
// answers).
func workloadEstimate(ctx context.Context, env *answer.Env, q understand.Query, j workload.Job) (estimateview.Workload, bool) {
	est, err := env.Work.Estimate(env.Cat, j)
	if err != nil {
		return estimateview.Workload{}, false
	}
	method := estimator.MethodFull
	if est.Kind == workload.KindGenerate {
		method = estimator.MethodInference // image clouds sell generation too
	}
	quotes := env.Quotes(env.Offers.Snapshot(ctx), q, method, env.Now(), q.English)
	var fits []estimator.Fit
	hours := map[string]estimator.Range{}
	for _, f := range est.Fits {
		if f.Fits && env.CudaCard(f.GPU) {
			fits = append(fits, estimator.Fit{GPU: f.GPU, MemoryGB: f.MemoryGB, Fits: true, GPUCount: max(est.GPUCount, 1), VRAMPerGPU: f.VRAMGB, MicroBatch: f.Batch, Hours: f.Hours, MFU: f.MFU})
			hours[f.GPU] = f.Hours
		}
	}
	platform := ""
	if len(q.Platforms) == 1 {
		platform = q.Platform
	}
	opts := env.Est.CostOptions(fits, est.DiskGB, platform, quotes)
	w := estimateview.Workload{Figures: estimateview.Figures{Options: opts, Hours: hours, FLOPs: est.FLOPs}, Est: est,
		GPUCount: q.GPUCount, Lang: i18n.Of(q.English), VRAMAsked: q.VRAMAsked, USD: q.Currency == understand.CurrencyUSD,
		NamedGPUs: q.NamedGPUs, SpeedAsked: q.Aspect == understand.AspectSpeed}
	w.Model, _ = env.Work.Model(est.Job.Model)
	w.Family, _ = env.Work.Family(est.Family)
	w.Dataset, _ = env.Work.Dataset(est.Job.Dataset)
	w.Loader, _ = env.Work.Loader(est.Loader)
	if est.GPUCount > 1 {
		w.Scaling = workloadScaling(env, j, est, opts)
	}
	if q.YesNo != nil && (q.PriceCNY > 0 || q.YesNo.WithinHours > 0) {
		w.Verdict = optionsVerdict(env.Cat, opts, q)
	}
	if w.Verdict == nil && q.YesNo != nil && (q.YesNo.Kind == understand.YesNoFits || q.YesNo.Kind == understand.YesNoCan) {
		w.Verdict = workloadFits(env.Cat, est, q, w.Model.Name)
	}
	return w, true
}

// workloadFits: does a workload's job fit the card asked ("3090够吗"
// after "SDXL 出图用什么卡"); nil when the question named no card the
// estimate has.
func workloadFits(cat *catalog.Catalog, est *workload.Estimate, q understand.Query, job string) *estimateview.Verdict {
	for _, f := range est.Fits {
		if len(q.GPUs) == 0 || !onCards(cat, f.GPU, q.GPUs) {
			continue
		}
		v := &estimateview.Verdict{Verdict: render.Verdict{Kind: render.AskFits, Answer: render.VerdictNo}, Why: estimateview.WhyVRAM,
			Count: max(q.GPUCount, 1), Card: f.GPU, HaveGB: f.MemoryGB, NeedGB: f.VRAMGB, Job: job}
		if f.Fits {
			v.Answer = render.VerdictYes
		}
		return v
	}
	if q.YesNo == nil || q.YesNo.VRAMGB <= 0 || len(q.GPUs) > 0 {
		return nil
	}
	// "16G 能训 Flux LoRA 吗": a memory size, no card.
	v := &estimateview.Verdict{Verdict: render.Verdict{Kind: render.AskFits, Answer: render.VerdictNo}, Why: estimateview.WhyVRAM,
		Count: 1, HaveGB: q.YesNo.VRAMGB, NeedGB: est.MinVRAMGB, Job: job}
	if est.MinVRAMGB <= estimator.FitFraction*q.YesNo.VRAMGB*(1<<30)/1e9 {
		v.Answer = render.VerdictYes
	}
	return v
}

// workloadScaling compares the cheapest option's card on the cards asked
// with one of it: the hours on each and the efficiency assumed; nil when
// there is no option or one card cannot be estimated.
func workloadScaling(env *answer.Env, j workload.Job, est *workload.Estimate, opts []estimator.Option) *estimateview.Scaling {
	var f workload.Fit
	found := false
	if len(opts) > 0 {
		for _, x := range est.Fits {
			if x.GPU == opts[0].GPU && x.Fits {
				f, found = x, true
			}
		}
	}
	if !found {
		return nil
	}
	one := j
	one.GPUCount, one.GPUs = 1, []string{f.GPU}
	e1, err := env.Work.Estimate(env.Cat, one)
	if err != nil || len(e1.Fits) == 0 || !e1.Fits[0].Fits {
		return nil
	}
	s := &estimateview.Scaling{GPU: f.GPU, N: est.GPUCount, HoursN: f.Hours.Typical + estimator.SetupHours,
		Hours1: e1.Fits[0].Hours.Typical + estimator.SetupHours, Eff: est.MultiGPU, OneFits: true}
	if e1.Fits[0].Hours.Typical < estimator.SetupHours {
		s.Why = estimateview.ScaleSmall
	}
	return s
}

// workloadUses are what a workload's answer did with the conditions: the
// currency is its line when there is a priced run (nil: none used).
func workloadUses(q *understand.Query, w estimateview.Workload) []answer.Use {
	if !w.USD || len(w.Options) == 0 {
		return nil
	}
	uses := answer.UsesOf(q)
	uses.Add(answer.Said(understand.CondCurrency)...)
	return uses.List()
}
