package estimate

import (
	"context"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/workload"
)

// WorkloadJob maps a question onto a non-LLM job: the model and dataset
// its text names (or the model its knowledge-base workload means), its
// figures and the GPUs it asks for. ok is false when it names no
// workload model, or a full fine-tune of one only trained with LoRA
// here.
func WorkloadJob(d *workload.Data, q understand.Query) (workload.Job, bool) {
	if d == nil || q.Model != "" || q.ParamsB > 0 {
		return workload.Job{}, false
	}
	model, dataset := d.Find(q.Asked)
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
func (r *Answers) workloadEstimate(ctx context.Context, res *Result, j workload.Job) bool {
	est, err := r.Work.Estimate(r.Cat, j)
	if err != nil {
		return false
	}
	q := res.Query
	method := estimator.MethodFull
	if est.Kind == workload.KindGenerate {
		method = estimator.MethodInference // image clouds sell generation too
	}
	quotes := r.Quotes(r.Offers.Snapshot(ctx), q, method, r.Now(), q.English)
	var fits []estimator.Fit
	hours := map[string]estimator.Range{}
	for _, f := range est.Fits {
		if f.Fits && r.CudaCard(f.GPU) {
			fits = append(fits, estimator.Fit{GPU: f.GPU, MemoryGB: f.MemoryGB, Fits: true, GPUCount: 1, VRAMPerGPU: f.VRAMGB, MicroBatch: f.Batch, Hours: f.Hours, MFU: f.MFU})
			hours[f.GPU] = f.Hours
		}
	}
	platform := ""
	if len(q.Platforms) == 1 {
		platform = q.Platform
	}
	opts := r.est.CostOptions(fits, est.DiskGB, platform, quotes)
	res.Workload, res.Options, res.Hours, res.FLOPs = est, opts, hours, est.FLOPs
	m, _ := r.Work.Model(est.Job.Model)
	a := render.WorkloadAnswer{Est: est, Options: opts, Model: m, GPUCount: q.GPUCount, English: q.English}
	a.Family, _ = r.Work.Family(est.Family)
	a.Dataset, _ = r.Work.Dataset(est.Job.Dataset)
	a.Loader, _ = r.Work.Loader(est.Loader)
	res.Reply = r.Rd.Workload(a)
	return true
}
