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
		Batch: q.Batch, Resolution: q.Resolution, SeqLen: q.SeqLen, FP32: q.Bits == 32}
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
			fits = append(fits, estimator.Fit{GPU: f.GPU, MemoryGB: f.MemoryGB, Fits: true, GPUCount: 1, VRAMPerGPU: f.VRAMGB, MicroBatch: f.Batch, Hours: f.Hours, MFU: f.MFU})
			hours[f.GPU] = f.Hours
		}
	}
	platform := ""
	if len(q.Platforms) == 1 {
		platform = q.Platform
	}
	opts := env.Est.CostOptions(fits, est.DiskGB, platform, quotes)
	w := estimateview.Workload{Figures: estimateview.Figures{Options: opts, Hours: hours, FLOPs: est.FLOPs}, Est: est,
		GPUCount: q.GPUCount, Lang: i18n.Of(q.English)}
	w.Model, _ = env.Work.Model(est.Job.Model)
	w.Family, _ = env.Work.Family(est.Family)
	w.Dataset, _ = env.Work.Dataset(est.Job.Dataset)
	w.Loader, _ = env.Work.Loader(est.Loader)
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
	return nil
}
