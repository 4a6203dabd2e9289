package estimator_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
)

func newEstimator(t testing.TB) *estimator.Estimator {
	t.Helper()
	c, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return &estimator.Estimator{Cat: c}
}

func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol*want }

// TestVRAMAgainstPublished checks a few rows of estimator.md's hand
// calculations against published peaks (Qwen README, torchtune, LLaMA-Factory).
// Issue 3 turns this into a test over all of vram_reference.csv.
func TestVRAMAgainstPublished(t *testing.T) {
	e := newEstimator(t)
	cases := []struct {
		name     string
		job      estimator.Job
		reported float64 // GB
		// over is the largest accepted over-estimate (1.35 = 35%); the
		// torchtune row uses chunked cross-entropy, which our HF-style
		// logits buffer does not model (issue 3 calibrates this).
		over float64
	}{
		// Qwen README: Qwen-7B LoRA, s2048, bs1, ckpt: 23.8 GB (Qwen2.5-7B config stands in).
		{"Qwen 7B LoRA s2048 bs1", estimator.Job{Model: "Qwen2.5-7B", Method: "lora", SeqLen: 2048, Batch: 1, Samples: 1, LoRARank: 64}, 23.8, 1.35},
		// Qwen README: QLoRA int4 s2048: 13.9 GB.
		{"Qwen 7B QLoRA s2048 bs1", estimator.Job{Model: "Qwen2.5-7B", Method: "qlora", SeqLen: 2048, Batch: 1, Samples: 1, LoRARank: 64}, 13.9, 1.35},
		// torchtune: Llama-3.1-8B LoRA bs2 s2048: 16.2 GiB = 17.4 GB.
		{"Llama-3-8B LoRA bs2", estimator.Job{Model: "Llama-3-8B", Method: "lora", SeqLen: 2048, Batch: 2, Samples: 1, LoRARank: 8}, 17.4, 1.6},
		// Qwen README: Qwen-7B bf16 generating 2048 tokens: 16.99 GB.
		{"Qwen 7B inference bf16", estimator.Job{Model: "Qwen2.5-7B", Method: "inference", SeqLen: 2048, Batch: 1}, 16.99, 1.35},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			est, err := e.Estimate(c.job, nil)
			if err != nil {
				t.Fatal(err)
			}
			v := est.VRAM
			sum := v.Weights + v.Gradients + v.Optimizer + v.Activations + v.Logits + v.Overhead
			if !within(sum, v.Total, 1e-9) {
				t.Errorf("breakdown %.2f does not add up to total %.2f", sum, v.Total)
			}
			// Never more than 10% under the reported peak, nor far above it.
			if v.Total < 0.9*c.reported || v.Total > c.over*c.reported {
				t.Errorf("VRAM %.1f GB, reported %.1f GB", v.Total, c.reported)
			}
		})
	}
}

func TestFullFineTuneNeedsMoreThanLoRA(t *testing.T) {
	e := newEstimator(t)
	full, _ := e.Estimate(estimator.Job{ParamsB: 7, Method: "full"}, nil)
	lora, _ := e.Estimate(estimator.Job{ParamsB: 7, Method: "lora"}, nil)
	qlora, _ := e.Estimate(estimator.Job{ParamsB: 7, Method: "qlora"}, nil)
	if !(full.VRAM.Total > lora.VRAM.Total && lora.VRAM.Total > qlora.VRAM.Total) {
		t.Errorf("full %.1f, lora %.1f, qlora %.1f: want full > lora > qlora", full.VRAM.Total, lora.VRAM.Total, qlora.VRAM.Total)
	}
	// Mixed-precision AdamW: about 16 B/param of weights+grads+optimizer.
	if s := full.VRAM.Weights + full.VRAM.Gradients + full.VRAM.Optimizer; !within(s, 16*7.61, 0.05) {
		t.Errorf("full FT state %.1f GB, want ~16 B/param", s)
	}
	if !full.Typical || full.ModelID == "" {
		t.Errorf("a bare size should use a typical config, got %q typical=%v", full.ModelID, full.Typical)
	}
}

// TestScaledTypicalConfig: a size far from every catalog model scales the
// nearest typical configuration instead of silently using its size.
func TestScaledTypicalConfig(t *testing.T) {
	e := newEstimator(t)
	cases := []struct {
		params float64
		scaled bool
	}{{7, false}, {20, true}, {405, true}, {3, false}, {4.5, true}}
	for _, c := range cases {
		est, err := e.Estimate(estimator.Job{ParamsB: c.params, Method: "inference"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		// bf16 weights are ~2 bytes per parameter.
		if est.Scaled != c.scaled || !within(est.VRAM.Weights, 2*c.params, 0.12) {
			t.Errorf("%gB: scaled=%v weights %.1f GB (%s, %d layers)", c.params, est.Scaled, est.VRAM.Weights, est.ModelID, est.Layers)
		}
	}
}

func TestBadJobs(t *testing.T) {
	e := newEstimator(t)
	for _, j := range []estimator.Job{{ParamsB: 7, GPUCount: 9}, {ParamsB: 7, Tokens: math.Inf(1)}, {ParamsB: math.NaN()}, {ParamsB: 7, Epochs: -1}} {
		if _, err := e.Estimate(j, nil); err == nil {
			t.Errorf("%+v: no error", j)
		}
	}
}

func TestUnknownModel(t *testing.T) {
	e := newEstimator(t)
	if _, err := e.Estimate(estimator.Job{Method: "lora"}, nil); !errors.Is(err, estimator.ErrUnknownModel) {
		t.Fatalf("err = %v, want ErrUnknownModel", err)
	}
}

func TestDefaultsAreAssumptions(t *testing.T) {
	e := newEstimator(t)
	est, _ := e.Estimate(estimator.Job{Model: "Qwen2.5-7B", Method: "lora", SeqLen: 4096}, nil)
	has := map[string]bool{}
	for _, a := range est.Assumptions {
		has[strings.SplitN(a, "=", 2)[0]] = true
	}
	if has["seq_len"] || !has["batch"] || !has["epochs"] || !has["samples"] || !has["lora_rank"] {
		t.Errorf("assumptions %v: seq was given; batch, epochs, samples were not", est.Assumptions)
	}
	if est.SeqLen != 4096 || est.Batch != estimator.DefaultBatch || est.Epochs != estimator.DefaultEpochs {
		t.Errorf("got seq %d batch %d epochs %g", est.SeqLen, est.Batch, est.Epochs)
	}
}

// TestCostRounding: GPU-hours are rounded up to the platform's granularity,
// respect the minimum, and disk beyond the free quota costs per GB-day.
func TestCostRounding(t *testing.T) {
	e := newEstimator(t)
	p, _ := e.Cat.Platform("autodl")
	quotes := func(gpu string) []estimator.PriceQuote {
		if gpu != "RTX 4090" {
			return nil
		}
		return []estimator.PriceQuote{{Platform: "autodl", GPU: gpu, CNYPerGPUHour: 2, Source: "catalog", Verified: true}}
	}
	job := estimator.Job{Model: "Qwen2.5-7B", Method: "qlora", Samples: 50000, Epochs: 3, GPUs: []string{"RTX 4090"}}
	est, err := e.Estimate(job, quotes)
	if err != nil {
		t.Fatal(err)
	}
	if len(est.Options) != 1 {
		t.Fatalf("options %+v", est.Options)
	}
	o := est.Options[0]
	hours := est.Fits[0].Hours.Typical + estimator.SetupHours
	if p.Billing.Granularity != "second" || math.Abs(o.BilledGPUHours-hours) > 1.0/3600+1e-3 {
		t.Errorf("billed %.4f h for %.4f h at per-second billing", o.BilledGPUHours, hours)
	}
	if !within(o.GPUCostCNY, o.BilledGPUHours*2, 0.01) || o.TotalCNY < o.GPUCostCNY {
		t.Errorf("cost %+v", o)
	}
	if !(o.TotalLowCNY <= o.TotalCNY && o.TotalCNY <= o.TotalHighCNY) {
		t.Errorf("range %.2f-%.2f does not hold total %.2f", o.TotalLowCNY, o.TotalHighCNY, o.TotalCNY)
	}
	// Under AutoDL's 50 GB free data disk the job's ~13 GB costs nothing.
	if o.StorageCostCNY == nil || *o.StorageCostCNY != 0 {
		t.Errorf("storage %v, want 0 under the free quota", o.StorageCostCNY)
	}
}

// TestHourlyGranularity: a platform billed by the hour rounds 1.1 h up to 2.
func TestHourlyGranularity(t *testing.T) {
	plat := []catalog.Platform{{ID: "p", Name: catalog.Text{Zh: "P"}, Billing: catalog.Billing{Granularity: "hour", MinimumMinutes: 120},
		Storage: catalog.Storage{DataDiskFreeGB: 0, DataDiskCNYPerGBDay: &catalog.Figure{Low: 0.1, High: 0.1, AsOf: "2026", Source: "test"}}}}
	base, _ := catalog.Load(configs.FS)
	c, err := catalog.New(plat, base.GPUs, base.Models, 7.2)
	if err != nil {
		t.Fatal(err)
	}
	e := &estimator.Estimator{Cat: c}
	quotes := func(gpu string) []estimator.PriceQuote {
		return []estimator.PriceQuote{{Platform: "p", GPU: gpu, CNYPerGPUHour: 1, Source: "catalog"}}
	}
	est, err := e.Estimate(estimator.Job{Model: "Qwen2.5-0.5B", Method: "lora", Samples: 100, Epochs: 1, GPUs: []string{"A100 80GB"}}, quotes)
	if err != nil || len(est.Options) != 1 {
		t.Fatalf("%v %+v", err, est)
	}
	o := est.Options[0]
	if o.BilledGPUHours != 2 {
		t.Errorf("billed %.3f GPU-hours for a %.3f h job, want the 2 h minimum", o.BilledGPUHours, o.Hours)
	}
	// No free disk: the whole job's disk is billed for one day at 0.1/GB.
	if want := math.Round(est.DiskGB*0.1*100) / 100; o.StorageCostCNY == nil || math.Abs(*o.StorageCostCNY-want) > 0.011 {
		t.Errorf("storage %v, want %.2f", o.StorageCostCNY, want)
	}
}

func TestMicroBatchBeforeMoreGPUs(t *testing.T) {
	e := newEstimator(t)
	est, _ := e.Estimate(estimator.Job{Model: "Qwen2.5-7B", Method: "lora", GPUs: []string{"RTX 4090"}}, nil)
	f := est.Fits[0]
	if !f.Fits || f.GPUCount != 1 || f.MicroBatch >= estimator.DefaultBatch {
		t.Errorf("4090 fit %+v: want one GPU with a smaller micro-batch", f)
	}
	// An asked batch is the effective batch: a smaller micro-batch with
	// gradient accumulation comes before sharding over more GPUs.
	est, _ = e.Estimate(estimator.Job{Model: "Qwen2.5-7B", Method: "lora", Batch: 8, GPUs: []string{"RTX 4090"}}, nil)
	if f := est.Fits[0]; f.GPUCount != 1 || f.MicroBatch >= 8 || est.Sharded {
		t.Errorf("asked batch 8: fit %+v sharded=%v", f, est.Sharded)
	}
	// 72B LoRA needs several 80 GB cards: sharded, and said so.
	est, _ = e.Estimate(estimator.Job{ParamsB: 72, Method: "lora", GPUs: []string{"A100 80GB"}}, nil)
	if f := est.Fits[0]; !f.Fits || f.GPUCount < 2 || !est.Sharded {
		t.Errorf("72B LoRA on A100 80GB: %+v sharded=%v", f, est.Sharded)
	}
	if est.VRAMMin > est.VRAM.Total {
		t.Errorf("VRAMMin %.1f above VRAM %.1f", est.VRAMMin, est.VRAM.Total)
	}
}

// TestFasterCardCanBeCheaper reproduces the seed's point: the 4090 finishes
// the same job faster and cheaper than the 3090 at AutoDL's list prices.
func TestFasterCardCanBeCheaper(t *testing.T) {
	e := newEstimator(t)
	p, _ := e.Cat.Platform("autodl")
	quotes := func(gpu string) []estimator.PriceQuote {
		pr, ok := p.PriceFor(gpu)
		if !ok {
			return nil
		}
		return []estimator.PriceQuote{{Platform: "autodl", GPU: gpu, CNYPerGPUHour: pr.CNYPerHour.Mid(), Source: "catalog"}}
	}
	est, err := e.Estimate(estimator.Job{Model: "ChatGLM3-6B", Method: "qlora", Samples: 50000, SeqLen: 2048, Batch: 4, Epochs: 3,
		GPUs: []string{"RTX 3090", "RTX 4090"}}, quotes)
	if err != nil {
		t.Fatal(err)
	}
	cost := map[string]estimator.Option{}
	for _, o := range est.Options {
		cost[o.GPU] = o
	}
	a, b := cost["RTX 3090"], cost["RTX 4090"]
	if a.TotalCNY == 0 || b.TotalCNY == 0 || !(b.TotalCNY < a.TotalCNY) || !(b.Hours < a.Hours) {
		t.Errorf("3090 %.2f CNY %.1f h, 4090 %.2f CNY %.1f h: want the 4090 faster and cheaper", a.TotalCNY, a.Hours, b.TotalCNY, b.Hours)
	}
	if est.Options[est.Cheapest].GPU != "RTX 4090" {
		t.Errorf("cheapest is %s", est.Options[est.Cheapest].GPU)
	}
}

func BenchmarkEstimateEveryGPUAndPlatform(b *testing.B) {
	e := newEstimator(b)
	var quotes estimator.Quotes = func(gpu string) []estimator.PriceQuote {
		var out []estimator.PriceQuote
		for i := range e.Cat.Platforms {
			p := &e.Cat.Platforms[i]
			if pr, ok := p.PriceFor(gpu); ok {
				out = append(out, estimator.PriceQuote{Platform: p.ID, GPU: gpu, CNYPerGPUHour: pr.CNYPerHour.Mid(), Source: "catalog"})
			}
		}
		return out
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Estimate(estimator.Job{ParamsB: 7, Method: "lora"}, quotes); err != nil {
			b.Fatal(err)
		}
	}
}
