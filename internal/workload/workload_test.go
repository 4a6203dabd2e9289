package workload_test

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/workload"
)

var (
	loadOnce sync.Once
	data     *workload.Data
	cat      *catalog.Catalog
	loadErr  error
)

// load returns the embedded workloads and catalog.
func load(t testing.TB) (*workload.Data, *catalog.Catalog) {
	t.Helper()
	loadOnce.Do(func() {
		if data, loadErr = workload.Load(configs.FS); loadErr == nil {
			cat, loadErr = catalog.Load(configs.FS)
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return data, cat
}

// estimate runs j and returns its fit on gpu.
func estimate(t *testing.T, j workload.Job, gpu string) (*workload.Estimate, workload.Fit) {
	t.Helper()
	d, c := load(t)
	est, err := d.Estimate(c, j)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range est.Fits {
		if f.GPU == gpu {
			return est, f
		}
	}
	t.Fatalf("%s: no fit on %s", j.Model, gpu)
	return nil, workload.Fit{}
}

// TestAnchors: every published measurement a family is fitted to is
// reproduced within 30% at the anchor's stack (the family's high, tuned
// speed unless the anchor says typical), GPU-bound, at the anchor's
// sequence length; image generation anchors are steps per second of one
// image (the VAE decode left out); inference anchors images per second.
func TestAnchors(t *testing.T) {
	d, c := load(t)
	n := 0
	for i := range d.Families {
		f := &d.Families[i]
		for _, a := range f.Anchors {
			n++
			m, _ := d.Model(a.Model)
			g, ok := c.GPU(a.GPU)
			if !ok {
				t.Errorf("%s anchor: GPU %q not in the catalog", f.ID, a.GPU)
				continue
			}
			stack := f.Stack.High
			if a.Stack == "typical" {
				stack = f.Stack.Typical
			}
			gmacs := m.GMACs
			if a.Seq > 0 {
				r := float64(a.Seq) / float64(m.Seq)
				gmacs = (m.GMACs-m.AttnGMACs)*r + m.AttnGMACs*r*r
			}
			flops := 3 * 2 * gmacs * 1e9
			if m.Kind == workload.KindGenerate {
				passes := 1.0
				if m.CFG {
					passes = 2
				}
				flops = 2 * gmacs * passes * 1e9
			}
			if m.Kind == workload.KindInfer {
				flops = 2 * gmacs * 1e9 // one forward pass an image
			}
			got := stack / (flops * workload.SecondsPerFLOP(f, g, false))
			t.Logf("%s %s on %s: model %.3g/s, measured %.3g/s (%+.0f%%)", f.ID, a.Model, a.GPU, got, a.PerSec, (got/a.PerSec-1)*100)
			if r := got / a.PerSec; r < 1/1.3 || r > 1.3 {
				t.Errorf("%s: %s on %s: model %.3g/s, measured %.3g/s (%+.0f%%; %s)", f.ID, a.Model, a.GPU, got, a.PerSec, (r-1)*100, a.Source)
			}
		}
	}
	if n < 15 {
		t.Errorf("only %d anchors", n)
	}
}

// TestSeedResNet50: the seeds' worked case (seed 000 §5: ResNet-50 on a
// 10% ImageNet-1k subset, batch 256, 30 epochs, "about 6 h" on a 3090) is
// the default ResNet-50 job and comes out near 6 h, limited by the data
// loader (seed 000 §6: network disks starve the GPU).
func TestSeedResNet50(t *testing.T) {
	est, f := estimate(t, workload.Job{Model: "resnet50"}, "RTX 3090")
	if est.DatasetName != "ImageNet-1k" || est.Job.Fraction != 0.1 || est.Job.Epochs != 30 || est.Job.Batch != 256 {
		t.Fatalf("default job = %+v", est.Job)
	}
	if est.Work != 128117*30 {
		t.Errorf("work = %v, want 128117 images × 30 epochs", est.Work)
	}
	if h := f.Hours.Typical; h < 5.2 || h > 6.5 {
		t.Errorf("3090 hours = %v, want about 6 (seed 000 §5)", f.Hours)
	}
	if !(f.Hours.Low < 2 && f.Hours.High > 7) || !f.DataBound || f.Batch != 256 {
		t.Errorf("3090 fit = %+v: want a wide range (fast loader to slow disk), data-bound, batch 256", f)
	}
	_, f4 := estimate(t, workload.Job{Model: "resnet50"}, "RTX 4090")
	if f4.Hours.Typical != f.Hours.Typical {
		t.Errorf("4090 %v vs 3090 %v: a loader-bound job is not faster on a faster card", f4.Hours, f.Hours)
	}
}

// TestRanges: each workload's answer brackets what public measurements
// say (the sources are in the comments).
func TestRanges(t *testing.T) {
	cases := []struct {
		name string
		job  workload.Job
		gpu  string
		// per is the figure checked: "s/image", "hours" or "per_sec" (the
		// GPU-bound speed). The estimate's low..high range must overlap
		// the source's [lo, hi] (one figure: lo = hi); with typical set,
		// the typical figure must lie in it.
		per     string
		lo, hi  float64
		typical bool
		comment string
	}{
		{name: "SD 1.5 50 steps on a 3090", job: workload.Job{Model: "sd15", Images: 1, Steps: 50}, gpu: "RTX 3090", per: "s/image", lo: 2.6, hi: 2.6,
			comment: "diffusers torch2.0 benchmark: 22.56 it/s at batch 1 = 2.2 s + VAE decode"},
		{name: "SD 1.5 50 steps on a 4090", job: workload.Job{Model: "sd15", Images: 1, Steps: 50}, gpu: "RTX 4090", per: "s/image", lo: 1.4, hi: 1.4,
			comment: "diffusers torch2.0 benchmark: 40.5 it/s at batch 1 = 1.23 s + decode"},
		{name: "SDXL 50 steps on an A100", job: workload.Job{Model: "sdxl", Images: 1, Steps: 50}, gpu: "A100 80GB", per: "s/image", lo: 8, hi: 10,
			comment: "Baseten: 8-10 s out of the box for 1024x1024 at 50 steps"},
		{name: "SDXL 30 steps on a 4090", job: workload.Job{Model: "sdxl", Images: 1}, gpu: "RTX 4090", per: "s/image", lo: 5, hi: 15, typical: true,
			comment: "gigagpu: SDXL takes 5-15 s at standard resolutions on a modern GPU"},
		{name: "BERT-large SQuAD seq 384 on an A100", job: workload.Job{Model: "bert-large", Samples: 1, SeqLen: 384}, gpu: "A100 80GB", per: "per_sec", lo: 110.5, hi: 110.5,
			comment: "NVIDIA DeepLearningExamples BERT: 110.5 sequences/s mixed precision"},
		{name: "YOLOv5x 300 COCO epochs on a V100", job: workload.Job{Model: "yolov5x", Epochs: 300}, gpu: "V100 16GB", per: "hours", lo: 8 * 24 * 0.75, hi: 8 * 24 * 1.35, typical: true,
			comment: "ultralytics/yolov5 README: 8 days on a V100"},
		{name: "Faster R-CNN 1x on one V100", job: workload.Job{Model: "faster-rcnn", Images: 16 * 90000, Epochs: 1}, gpu: "V100 16GB", per: "hours", lo: 42 * 0.75, hi: 42 * 1.3, typical: true,
			comment: "detectron2 MODEL_ZOO: 0.210 s/iter × 90k iterations on 8 V100 = 5.25 h, 42 GPU-hours"},
		{name: "ResNet-50 GPU-bound on a 3090", job: workload.Job{Model: "resnet50"}, gpu: "RTX 3090", per: "per_sec", lo: 1182, hi: 1182,
			comment: "tf_cnn_benchmarks fp16 batch 256: 1182 img/s"},
		{name: "Flux.1-dev 28 steps on a 4090", job: workload.Job{Model: "flux-dev", Images: 1}, gpu: "RTX 4090", per: "s/image", lo: 25, hi: 60, typical: true,
			comment: "no measurement checked (the family is unverified); ComfyUI users report 1.2-1.5 s/it with fp8 weights, 34-42 s for 28 steps"},
		{name: "SDXL LoRA 2000 steps on a 3090", job: workload.Job{Model: "sdxl-lora", Images: 20}, gpu: "RTX 3090", per: "hours", lo: 0.5, hi: 1.2, typical: true,
			comment: "kohya-ss users report 1-2 s/it at 1024, batch 1, on 24 GB cards (community, unverified): 0.55-1.1 h"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			est, f := estimate(t, c.job, c.gpu)
			var r [3]float64 // low, typical, high of the checked figure
			switch c.per {
			case "s/image":
				r = [3]float64{1 / f.PerSec.High, 1 / f.PerSec.Typical, 1 / f.PerSec.Low}
			case "per_sec":
				r = [3]float64{f.GPUPerSec.Low, f.GPUPerSec.Typical, f.GPUPerSec.High}
			case "hours":
				r = [3]float64{f.Hours.Low, f.Hours.Typical, f.Hours.High}
			}
			if c.typical && (r[1] < c.lo || r[1] > c.hi) {
				t.Errorf("typical %s = %.3g, want %g-%g (%s); estimate %+v", c.per, r[1], c.lo, c.hi, c.comment, est.Job)
			}
			if !c.typical && (c.hi < r[0] || c.lo > r[2]) {
				t.Errorf("%s range %.3g-%.3g misses %g-%g (%s)", c.per, r[0], r[2], c.lo, c.hi, c.comment)
			}
		})
	}
}

// TestCardRatio: a GPU-bound 4090 is 1.3-2.0 times a 3090, not the 2.3 of
// their peaks (seed 000 §2: 1.5-2 x; tf_cnn_benchmarks 1.50; Lambda
// 1.6-1.96 across ResNet-50, BERT and SD).
func TestCardRatio(t *testing.T) {
	for _, j := range []workload.Job{{Model: "resnet50", Dataset: "cifar10"}, {Model: "bert-base"}, {Model: "sd15"}, {Model: "vit-l16", Dataset: "cifar10"}} {
		_, a := estimate(t, j, "RTX 3090")
		_, b := estimate(t, j, "RTX 4090")
		if r := b.GPUPerSec.Typical / a.GPUPerSec.Typical; r < 1.3 || r > 2.0 {
			t.Errorf("%s: 4090/3090 = %.2f, want 1.3-2.0", j.Model, r)
		}
	}
}

// TestJobs: defaults, data sizes and memory as the questions give them.
func TestJobs(t *testing.T) {
	est, f := estimate(t, workload.Job{Model: "resnet50", Dataset: "imagenet", Epochs: 90}, "A100 80GB")
	if est.Work != 1281167*90 || est.Job.Fraction != 0 {
		t.Errorf("whole ImageNet, 90 epochs: work %v, fraction %v", est.Work, est.Job.Fraction)
	}
	if f.Hours.Typical < 150 || f.Hours.Typical > 200 {
		t.Errorf("ImageNet 90 epochs on an A100, loader-bound at ~180 img/s: %v h", f.Hours)
	}
	est, _ = estimate(t, workload.Job{Model: "bert-base", Samples: 100000}, "RTX 3090")
	if est.Work != 300000 || est.Job.SeqLen != 128 || est.Loader != "" {
		t.Errorf("BERT 10万条: %+v", est)
	}
	est, _ = estimate(t, workload.Job{Model: "sdxl", Images: 1000}, "RTX 3090")
	if est.Work != 1000 || est.Job.Steps != 30 || est.Unit != "image" {
		t.Errorf("SDXL 1000 images: %+v", est)
	}
	est, _ = estimate(t, workload.Job{Model: "sd15-lora", Images: 20}, "RTX 3090")
	if est.Work != 2000 || est.Unit != "step" {
		t.Errorf("SD LoRA 20 images: work %v %s, want 2000 steps", est.Work, est.Unit)
	}
	// CIFAR ResNets keep full resolution in the stem: 16 x the pixel scale.
	est, _ = estimate(t, workload.Job{Model: "resnet18", Dataset: "cifar10"}, "RTX 3090")
	if r := est.FLOPsPerUnit / (6 * 1.81e9); math.Abs(r-16*math.Pow(32.0/224, 2)) > 1e-6 {
		t.Errorf("CIFAR ResNet-18 flops ratio %v", r)
	}
}

// TestMemory: which cards hold a job, and a smaller batch where the
// default does not fit.
func TestMemory(t *testing.T) {
	cases := []struct {
		model string
		gpu   string
		fits  bool
		batch int // 0: not checked; -1: below the default
	}{
		{"resnet50", "T4", true, 256},           // NVIDIA trains batch 256 AMP on 16 GB
		{"resnet50", "RTX 2080 Ti", true, -1},   // 11 GB: a smaller batch
		{"sdxl-lora", "T4", false, 0},           // 16 GB need on a 16 GB card
		{"flux-dev", "RTX 4090", true, 0},       // fp8 weights on 24 GB
		{"flux-dev", "V100 16GB", false, 0},     // not on 16 GB
		{"vit-l16", "RTX 3090", true, 64},       // 5 + 0.25 × 64 = 21 GB
		{"mask-rcnn", "RTX 2080 Ti", true, 2},   // detectron2: 3.4 GB at 2 images
		{"bert-large", "RTX 2080 Ti", true, -1}, // 5.5 + 0.25 × 32 > 10 GB
	}
	for _, c := range cases {
		est, f := estimate(t, workload.Job{Model: c.model}, c.gpu)
		if f.Fits != c.fits || c.batch > 0 && f.Batch != c.batch || c.batch < 0 && !(f.Batch > 0 && f.Batch < est.Job.Batch) {
			t.Errorf("%s on %s: fits %v batch %d (%.1f GB), want fits %v batch %d", c.model, c.gpu, f.Fits, f.Batch, f.VRAMGB, c.fits, c.batch)
		}
	}
}

// TestFind: the model and dataset a question names.
func TestFind(t *testing.T) {
	d, _ := load(t)
	cases := []struct{ text, model, dataset string }{
		{"ResNet50 ImageNet 10% 30个epoch 用3090 多久多少钱", "resnet50", "imagenet"},
		{"训练一个ResNet50要多少钱", "resnet50", ""},
		{"SDXL 出 1000 张图要多久", "sdxl", ""},
		{"训练 sdxl 的 lora 要多久", "sdxl-lora", ""},
		{"sd lora 训练 20 张图", "sd15-lora", ""},
		{"BERT-base 微调 10万条", "bert-base", ""},
		{"yolov8 训练 coco 100 epoch 4090 要几天", "yolov8n", "coco"},
		{"yolov8m 300 epochs on coco, gpu hours?", "yolov8m", "coco"},
		{"ViT-B/16 在 cifar-10 上训 100 轮", "vit-b16", "cifar10"},
		{"roberta-large 文本分类", "roberta-large", ""},
		{"flux 出 500 张图", "flux-dev", ""},
		{"mask rcnn coco 12 epoch a100 多久", "mask-rcnn", "coco"},
		{"ssd 检测 用什么卡", "", ""},
		{"my activity log", "", ""},
	}
	for _, c := range cases {
		if m, s := d.Find(c.text); m != c.model || s != c.dataset {
			t.Errorf("Find(%q) = %q, %q; want %q, %q", c.text, m, s, c.model, c.dataset)
		}
	}
}

// TestErrors: unknown models and bad counts are errors, not answers.
func TestErrors(t *testing.T) {
	d, c := load(t)
	if _, err := d.Estimate(c, workload.Job{Model: "gpt-5"}); !errors.Is(err, workload.ErrUnknownModel) {
		t.Errorf("unknown model: %v", err)
	}
	if _, err := d.Estimate(c, workload.Job{Model: "resnet50", Epochs: math.NaN()}); !errors.Is(err, workload.ErrBadNumber) {
		t.Errorf("NaN epochs: %v", err)
	}
	if _, err := d.Estimate(c, workload.Job{Model: "resnet50", Images: -5}); !errors.Is(err, workload.ErrBadNumber) {
		t.Errorf("negative images: %v", err)
	}
}

// TestLoadRejects: a broken data file is refused with the entry named.
func TestLoadRejects(t *testing.T) {
	good, err := configs.FS.ReadFile(workload.File)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, from, to, want string }{
		{"unknown field", "families:", "familys:", "familys"},
		{"anchor of another family", "{model: resnet50, gpu: \"A100 80GB\"", "{model: bert-base, gpu: \"A100 80GB\"", `family "cnn": anchor model "bert-base"`},
		{"efficiency above 1", "efficiency: {consumer: 0.80, datacenter: 0.42}", "efficiency: {consumer: 1.80, datacenter: 0.42}", `family "cnn"`},
		{"unknown default dataset", "defaults: {dataset: coco, epochs: 12}", "defaults: {dataset: lvis, epochs: 12}", `default dataset "lvis"`},
		{"advice to nothing", "cnn-coursework: resnet50", "cnn-coursework: resnet5", `advice "cnn-coursework"`},
		{"loader range", "per_sec: {low: 120, typical: 180, high: 900}", "per_sec: {low: 200, typical: 180, high: 900}", `loader "jpeg"`},
	}
	for _, c := range cases {
		s := string(good)
		if !strings.Contains(s, c.from) {
			t.Fatalf("%s: %q not in %s", c.name, c.from, workload.File)
		}
		fsys := fstest.MapFS{workload.File: {Data: []byte(strings.Replace(s, c.from, c.to, 1))}}
		if _, err := workload.Load(fsys); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one naming %s", c.name, err, c.want)
		}
	}
}

// BenchmarkEstimate: one workload job across every GPU (cost rows are
// priced in commands/estimate).
func BenchmarkEstimate(b *testing.B) {
	d, c := load(b)
	for b.Loop() {
		if _, err := d.Estimate(c, workload.Job{Model: "resnet50"}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAdviceWorkloads: every knowledge-base workload the data maps to a
// model exists in advice.yaml, so a question the knowledge base tags
// ("训练一个ResNet50要多少钱" → cnn-coursework) reaches the estimator.
func TestAdviceWorkloads(t *testing.T) {
	d, _ := load(t)
	base, err := advice.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, w := range base.Workloads {
		ids[w.ID] = true
	}
	for w := range d.Advice {
		if !ids[w] {
			t.Errorf("advice workload %q is not in advice.yaml", w)
		}
	}
	if len(d.Advice) < 6 {
		t.Errorf("only %d knowledge-base workloads mapped", len(d.Advice))
	}
}

// TestMultiGPU: N cards divide the hours by N × the kind's efficiency
// (training 0.8, generation and inference 0.97 typical), and one card is
// the single-card estimate.
func TestMultiGPU(t *testing.T) {
	for _, tc := range []struct {
		model string
		eff   float64
	}{{"bert-base", 0.8}, {"sdxl", 0.97}, {"sam-vit-h", 0.97}, {"flux-lora", 0.8}, {"whisper-large-v3", 0.97}} {
		j := workload.Job{Model: tc.model, Images: 100000, GPUs: []string{"RTX 4090"}} // long enough for hours to three decimals
		if tc.model == "bert-base" {
			j.Images, j.Samples = 0, 1000000
		}
		_, one := estimate(t, j, "RTX 4090")
		j.GPUCount = 4
		est, four := estimate(t, j, "RTX 4090")
		if est.GPUCount != 4 || est.MultiGPU.Typical != tc.eff {
			t.Errorf("%s: gpu_count %d, efficiency %v, want 4 and %v", tc.model, est.GPUCount, est.MultiGPU.Typical, tc.eff)
		}
		if r := one.Hours.Typical / four.Hours.Typical; math.Abs(r-4*tc.eff) > 0.05*4*tc.eff {
			t.Errorf("%s: 4 cards %.3f h vs one %.3f h: %.2f×, want %.2f×", tc.model, four.Hours.Typical, one.Hours.Typical, r, 4*tc.eff)
		}
	}
}

// TestNewWorkloads: Whisper transcription counts audio at a measured rate
// scaled by bandwidth (a 3070 Ti-class 608 GB/s card runs faster-whisper
// at 12.4 × real time), Whisper fine-tuning cuts audio into 30-second
// clips, and a question naming Flux with training words means its LoRA.
func TestNewWorkloads(t *testing.T) {
	d, _ := load(t)
	est, f := estimate(t, workload.Job{Model: "whisper-large-v3", AudioHours: 100}, "RTX 3090")
	if !est.Measured || est.Work != 100*3600 {
		t.Errorf("whisper: measured %v, work %v s, want a measured rate over 360000 s", est.Measured, est.Work)
	}
	if want := 12.4 * 936 / 608; math.Abs(f.PerSec.Typical-want) > 0.1 {
		t.Errorf("whisper on a 3090: %.2f × real time, want %.2f", f.PerSec.Typical, want)
	}
	est, _ = estimate(t, workload.Job{Model: "whisper-small-ft", AudioHours: 50}, "RTX 4090")
	if est.Job.Samples != 6000 {
		t.Errorf("whisper-small-ft on 50 h: %d clips, want 6000", est.Job.Samples)
	}
	for text, want := range map[string]string{"训练flux lora要多少钱": "flux-lora", "想练个 flux 的画风 lora": "flux-lora",
		"微调whisper": "whisper-large-v3-ft", "sam 推理 1万张": "sam-vit-h", "fine-tune SAM": "sam-finetune", "whisper small 转写": "whisper-small"} {
		if got, _ := d.Find(text); got != want {
			t.Errorf("Find(%q) = %q, want %q", text, got, want)
		}
	}
	_, f = estimate(t, workload.Job{Model: "flux-lora"}, "RTX 4090")
	if !f.Fits || f.VRAMGB != 22 {
		t.Errorf("flux-lora on a 4090: fits %v at %.1f GB, want 22 GB fitting", f.Fits, f.VRAMGB)
	}
}
