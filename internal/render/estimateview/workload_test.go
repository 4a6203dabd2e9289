package estimateview_test

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/workload"
)

// workloadAnswer estimates j with the embedded data and prices every card
// that fits at 2 CNY an hour on AutoDL.
func workloadAnswer(t *testing.T, r *render.Renderer, j workload.Job, en bool) estimateview.Workload {
	t.Helper()
	d := workload.Default()
	est, err := d.Estimate(r.Cat, j)
	if err != nil {
		t.Fatal(err)
	}
	var fits []estimator.Fit
	for _, f := range est.Fits {
		if f.Fits {
			fits = append(fits, estimator.Fit{GPU: f.GPU, MemoryGB: f.MemoryGB, Fits: true, GPUCount: 1, Hours: f.Hours})
		}
	}
	quotes := func(gpu string) []estimator.PriceQuote {
		return []estimator.PriceQuote{{Platform: "autodl", GPU: gpu, CNYPerGPUHour: 2, Low: 2, High: 2, Source: "catalog", AsOf: "2026", Verified: true}}
	}
	opts := (&estimator.Estimator{Cat: r.Cat}).CostOptions(fits, est.DiskGB, "", quotes)
	a := estimateview.Workload{Figures: estimateview.Figures{Options: opts}, Est: est, Lang: i18n.Of(en)}
	a.Model, _ = d.Model(est.Job.Model)
	a.Family, _ = d.Family(est.Family)
	a.Loader, _ = d.Loader(est.Loader)
	return a
}

// TestWorkloadAnswer: the short form leads with the job and the cheapest
// run, says what limits the speed, shows at most five rows and the
// assumptions; the full form adds the compute, each card's speed, the
// seed's run for its own setting and how the hours were made.
func TestWorkloadAnswer(t *testing.T) {
	r := renderer(t)
	cases := []struct {
		name       string
		job        workload.Job
		en         bool
		title      string
		short      []string
		full       []string
		notInShort []string
	}{
		{name: "seed ResNet-50", job: workload.Job{Model: "resnet50"},
			title: "ResNet-50 · ImageNet-1k 10%（12.81万张）× 30 轮：最便宜 AutoDL ",
			short: []string{"瓶颈在数据加载", "约 180 张/秒", "按 batch 256、混合精度、单卡估算", "（发“详情”看完整内容）"},
			full:  []string{"原文实测（2025 年测评，未核实）：RTX 3090 约 6 小时", "计算量：384.35万个样本", "受数据加载限制只有 180 张/秒", "RTX 4090 的速度是 RTX 3090 的 1.0 倍"}},
		{name: "whole ImageNet has no seed line", job: workload.Job{Model: "resnet50", Dataset: "imagenet"}, title: "ResNet-50 · ImageNet-1k（128.12万张）× 30 轮",
			notInShort: []string{"原文实测（2025"}},
		{name: "SDXL images", job: workload.Job{Model: "sdxl", Images: 1000}, title: "SDXL 出 1000 张图（1024×1024，30 步）：最便宜 AutoDL",
			short: []string{"秒/张（算力用上约", "说“50步”“2000张”“1024x1024”可改"}, full: []string{"原文说 3090 出一张 1024×1024 约 2–3 秒", "每张 367 TFLOPs"}},
		{name: "BERT in English", job: workload.Job{Model: "bert-base", Samples: 100000}, en: true,
			title: "BERT-base fine-tune, 100k samples × 3 epochs (seq 128): cheapest AutoDL",
			short: []string{"samples/s (using about", "(say “more” for the whole answer)"}, full: []string{"Compute: 300k samples"}},
		{name: "SD LoRA", job: workload.Job{Model: "sd15-lora", Images: 20}, title: "SD 1.5 LoRA 训练（20 张图，2000 步）", short: []string{"it/s（算力用上约"}},
		{name: "Flux is unverified", job: workload.Job{Model: "flux-dev"}, title: "Flux.1-dev 出 100 张图", full: []string{"没有拿实测核对过"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := workloadAnswer(t, r, c.job, c.en).Reply(r)
			if !strings.HasPrefix(rep.Title, c.title) {
				t.Errorf("title %q, want it to start with %q", rep.Title, c.title)
			}
			if rep.Table == nil || len(rep.Table.Rows) > render.ShortRows {
				t.Errorf("short table %v: want 1-%d rows", rep.Table, render.ShortRows)
			}
			short := chat.PlainText(rep)
			full := chat.PlainText(*rep.Full)
			for _, w := range c.short {
				if !strings.Contains(short, w) {
					t.Errorf("short form lacks %q:\n%s", w, short)
				}
			}
			for _, w := range c.full {
				if !strings.Contains(full, w) {
					t.Errorf("full form lacks %q:\n%s", w, full)
				}
			}
			for _, w := range c.notInShort {
				if strings.Contains(short+full, w) {
					t.Errorf("answer has %q:\n%s", w, full)
				}
			}
		})
	}
}

// TestWorkloadNoPrice: without prices the hours still answer; with no card
// that holds the job, the memory it needs does.
func TestWorkloadNoPrice(t *testing.T) {
	r := renderer(t)
	a := workloadAnswer(t, r, workload.Job{Model: "sdxl", Images: 10, GPUs: []string{"RTX 4090"}}, false)
	a.Options = nil
	if rep := a.Reply(r); !strings.Contains(rep.Title, "RTX 4090 约") || !strings.Contains(rep.Title, "没有已知价格") {
		t.Errorf("no price: %q", rep.Title)
	}
	a = workloadAnswer(t, r, workload.Job{Model: "flux-dev", GPUs: []string{"T4"}}, true)
	if rep := a.Reply(r); !strings.Contains(rep.Title, "none of the GPUs asked for holds it (it needs about 22 GB)") {
		t.Errorf("no fit: %q", rep.Title)
	}
}
