package app

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/workload"
)

// WorkloadFlags are `bot estimate`'s flags for a job that is not a
// language model (--model resnet50, yolov8n, bert-base, sdxl, sd15-lora …):
// the dataset, images (to train on, or to make), sampling steps (or a
// LoRA run's steps), resolution and the share of the dataset (0-1).
type WorkloadFlags struct {
	Dataset    string
	Images     int
	Steps      int
	Resolution int
	Fraction   float64
}

// IsWorkloadModel reports whether name is a model of the workload
// estimator (configs/workloads.yaml) rather than a language model.
func IsWorkloadModel(name string) bool {
	d := workload.Default()
	if d == nil || strings.TrimSpace(name) == "" {
		return false
	}
	m, _ := d.Find(name)
	return m != ""
}

// EstimateWorkload runs the workload estimator on a job given by flags
// and prints the answer (JSON: the answer's figures, as `bot ask`).
// Errors name the flag.
func (a *App) EstimateWorkload(ctx context.Context, f EstimateFlags, wf WorkloadFlags, format string, w io.Writer) error {
	d := workload.Default()
	model, _ := d.Find(f.Model)
	q := commands.Query{Intent: commands.IntentEstimate, Asked: model, WorkloadModel: model, Samples: f.Samples, Images: wf.Images, Epochs: f.Epochs, Steps: wf.Steps,
		Batch: f.Batch, Resolution: wf.Resolution, SeqLen: f.SeqLen, Bits: f.Bits, GPUCount: f.GPUCount}
	for name, v := range map[string]float64{"images": float64(wf.Images), "steps": float64(wf.Steps), "resolution": float64(wf.Resolution),
		"samples": float64(f.Samples), "epochs": f.Epochs, "batch": float64(f.Batch), "seq": float64(f.SeqLen)} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("--%s: must be a positive number, got %v", name, v)
		}
	}
	if wf.Fraction < 0 || wf.Fraction > 1 || math.IsNaN(wf.Fraction) {
		return fmt.Errorf("--fraction: %v is not a share between 0 and 1 (0.1 for a 10%% subset)", wf.Fraction)
	}
	if wf.Dataset != "" {
		_, ds := d.Find(wf.Dataset)
		if ds == "" {
			var ids []string
			for _, s := range d.Datasets {
				ids = append(ids, s.ID)
			}
			return fmt.Errorf("--dataset: unknown dataset %q; known: %s (or give --images / --samples for your own data)", wf.Dataset, strings.Join(ids, ", "))
		}
		q.Asked += " " + ds
		q.WorkloadDataset = ds
		q.DataPercent = wf.Fraction * 100
	}
	job, err := a.ResolveJob(estimator.Job{Platform: f.Platform}, f.GPU)
	if err != nil {
		return err
	}
	if len(job.GPUs) > 0 {
		q.GPU, q.GPUs = job.GPUs[0], job.GPUs
	}
	if job.Platform != "" {
		q.Platform, q.Platforms = job.Platform, []string{job.Platform}
	}
	res := a.Router.AnswerQuery(ctx, q)
	if _, ok := res.Payload.(estimateview.Workload); !ok {
		return &NoEstimateError{Answer: strings.TrimSpace(res.Text)}
	}
	if format == FormatJSON {
		return writeJSON(w, res)
	}
	_, err = io.WriteString(w, chat.PlainText(res.Reply))
	return err
}
