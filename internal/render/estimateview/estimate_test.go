package estimateview_test

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
)

func renderer(t *testing.T) *render.Renderer {
	t.Helper()
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return &render.Renderer{Cat: cat}
}

// TestHumanNum: large counts in the reader's units.
func TestHumanNum(t *testing.T) {
	for _, c := range []struct {
		x    float64
		en   bool
		want string
	}{
		{50000, false, "5万"}, {50000, true, "50k"}, {1.5e8, false, "1.5亿"}, {1.5e8, true, "150M"}, {2e12, false, "2万亿"},
		{2e12, true, "2e+12"}, {3e9, true, "3B"}, {999, false, "999"}, {9999, false, "9999"},
	} {
		if got := estimateview.HumanNum(c.x, i18n.Of(c.en)); got != c.want {
			t.Errorf("HumanNum(%g, %v) = %q, want %q", c.x, c.en, got, c.want)
		}
	}
}

// TestRatioText: a speed ratio is always a range, with more decimals when
// one would hide it.
func TestRatioText(t *testing.T) {
	cases := []struct {
		r    estimator.Range
		want string
	}{
		{estimator.Range{Low: 1.83, Typical: 2.01, High: 2.26}, "1.8–2.3"},
		{estimator.Range{Low: 2.16, Typical: 2.2, High: 2.24}, "2.16–2.24"},
	}
	for _, c := range cases {
		if got := estimateview.RatioText(c.r); got != c.want || !strings.Contains(got, "–") {
			t.Errorf("RatioText(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
}

// trainingEstimate is a 7B LoRA that fits on one 4090 (micro-batch 2) and
// one A100, with two priced options on one platform: the 4090 cheaper but
// slower.
func trainingEstimate() *estimator.Estimate {
	disk := 3.5
	return &estimator.Estimate{
		Job:     estimator.Job{Samples: 50000, TokensPerSample: 512},
		ModelID: "Qwen2.5-7B", Typical: true, ParamsB: 7, Method: estimator.MethodLoRA, Bits: 16, SeqLen: 2048, Batch: 8, Epochs: 3,
		Tokens: 7.68e7, FLOPs: 3.2e18, DiskGB: 40, LoRARank: 16,
		VRAM:    estimator.VRAM{Weights: 15.2, Activations: 4, Overhead: 1, Total: 20.2},
		VRAMMin: 17.1,
		Fits: []estimator.Fit{
			{GPU: "RTX 4090", Fits: true, GPUCount: 1, MicroBatch: 2, MFU: estimator.Range{Low: 0.3, High: 0.45}},
			{GPU: "A100 80GB", Fits: true, GPUCount: 1, MicroBatch: 8, MFU: estimator.Range{Low: 0.35, High: 0.5}},
			{GPU: "T4", Fits: false, GPUCount: 8},
		},
		Options: []estimator.Option{
			{Platform: "autodl", GPU: "RTX 4090", GPUCount: 1, Hours: 10, PriceCNY: 2, GPUCostCNY: 20, StorageCostCNY: &disk, TotalCNY: 23.5, TotalLowCNY: 20, TotalHighCNY: 30, PriceSource: "catalog", PriceAsOf: "2026-01", Verified: true},
			{Platform: "autodl", GPU: "A100 80GB", GPUCount: 1, Hours: 4, PriceCNY: 5, GPUCostCNY: 20, TotalCNY: 24, TotalLowCNY: 21, TotalHighCNY: 28, PriceSource: "catalog", PriceAsOf: "2026-01"},
		},
		Cheapest: 0, Fastest: 1,
	}
}

func TestEstimate(t *testing.T) {
	r := renderer(t)
	est := trainingEstimate()
	for _, c := range []struct {
		name         string
		ask          estimateview.Estimate
		title        string
		short, full  []string
		notShortFull string
	}{
		{name: "zh", ask: estimateview.Estimate{},
			// The short form on a phone: the model behind "7B" in the
			// assumptions, the list of cards cut, the totals without their
			// ranges; 详情 has them all.
			title: "7B LoRA：最便宜 AutoDL RTX 4090×1 约 23.50 元（20.00–30.00），10.0 小时。",
			short: []string{"显存约 20.2 GB（batch 1 + 梯度累积约 17.1 GB）。", "放得下——单卡：A100 80GB等", "AutoDL  RTX 4090×1   10.0  23.50", "24.00*",
				"价格是目录标价（不是实时价）：2026-01；* 仅见于 2025 年测评文章、未核实。", "模型按典型配置 Qwen2.5-7B；按 seq 2048、batch 8、5万条×512 tokens、3 轮估算"},
			full: []string{"估算：7B 模型（按典型配置 Qwen2.5-7B） LoRA", "放得下——单卡：A100 80GB；单卡（batch 2+梯度累积）：RTX 4090", "23.50 (20.00-30.00)",
				"单卡显存：约 20.2 GB（权重 15.2 + 梯度 0.0", "训练量：7680万 tokens（数据 × 3 轮），约 3.2e+18 FLOPs",
				"最便宜：AutoDL RTX 4090 ×1，约 23.50 元（10.0 小时）；最快：AutoDL A100 80GB ×1，4.0 小时，约 24.00 元*。", "未知", "目录标价 2026-01*",
				"LoRA rank 16（全部线性层）", "数据 5万 条 × 512 tokens", "MFU 0.30-0.50"}},
		{name: "en, named cards, unknown model", ask: estimateview.Estimate{Lang: i18n.EN, NamedGPUs: []string{"RTX 4090", "A100 80GB"}, GPUsAsked: true, UnknownModel: "Foo-7B", Problems: []string{"⚠ x."}},
			title: "7B model (typical config: Qwen2.5-7B) — “Foo-7B” is not in the catalog; estimated from its size, LoRA: about the same money, the A100 80GB is faster: about 4.0 h against 10.0 h on the RTX 4090 (about 24.00 vs 23.50 CNY).",
			short: []string{"⚠ x.", "Fits — 1 GPU: A100 80GB…", "Does not fit: T4 — try QLoRA", "50k samples × 512 tokens"},
			full:  []string{"Fits — 1 GPU: A100 80GB; 1 GPU (batch 2 + grad accumulation): RTX 4090", "Cheapest: AutoDL RTX 4090 ×1, ~23.50 CNY (10.0 h). Fastest: AutoDL A100 80GB ×1, 4.0 h, ~24.00 CNY*.", "LoRA rank 16 (all linear layers)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := c.ask
			e.Figures = estimateview.FiguresOf(est)
			rep := e.Reply(r)
			if rep.Title != c.title {
				t.Errorf("title %q, want %q", rep.Title, c.title)
			}
			if rep.Full == nil {
				t.Fatal("no full form")
			}
			short, full := chat.PlainText(rep), chat.PlainText(*rep.Full)
			for _, want := range c.short {
				if !strings.Contains(short, want) {
					t.Errorf("short form lacks %q:\n%s", want, short)
				}
			}
			for _, want := range c.full {
				if !strings.Contains(full, want) {
					t.Errorf("full form lacks %q:\n%s", want, full)
				}
			}
			if got := e.Full(r); chat.PlainText(got) != full {
				t.Errorf("Full differs from the full form")
			}
		})
	}
}

// TestEstimateNothingFits: the line for what does not fit, and the
// alternatives the answer found, priced or not.
func TestEstimateNothingFits(t *testing.T) {
	r := renderer(t)
	est := &estimator.Estimate{Job: estimator.Job{GPUCount: 2, GPUs: []string{"T4"}, Tokens: 1e6}, ModelID: "Qwen2.5-72B", Method: estimator.MethodLoRA, Bits: 16,
		Fits: []estimator.Fit{{GPU: "T4", GPUCount: 2}}, Cheapest: -1}
	alts := []estimateview.Alternative{
		{Kind: estimateview.AltQLoRA, Option: estimator.Option{Platform: "autodl", GPU: "A100 80GB", GPUCount: 1, TotalCNY: 321, Hours: 12.5}},
		{Kind: estimateview.AltOtherCard, Fit: &estimator.Fit{GPU: "H100 SXM", GPUCount: 2, VRAMPerGPU: 61.24}},
	}
	for _, c := range []struct {
		ask  estimateview.Estimate
		want []string
	}{
		{estimateview.Estimate{Alternatives: alts}, []string{"2 张 T4 放不下。", "可行的做法——改用 QLoRA 4-bit：AutoDL A100 80GB×1，约 321 元（12.5 小时）；换卡：H100 SXM×2 放得下（约 61.2 GB/卡），暂无报价。"}},
		{estimateview.Estimate{Lang: i18n.EN, Alternatives: alts[1:]}, []string{"Does not fit on 2× T4.", "What would work — another card: fits on H100 SXM×2 (~61.2 GB per GPU), no price known."}},
		{estimateview.Estimate{}, []string{"2 张 T4 放不下。", "数据 100万 tokens"}},
	} {
		e := c.ask
		e.Figures = estimateview.FiguresOf(est)
		rep := e.Reply(r)
		text := chat.PlainText(*rep.Full)
		for _, want := range c.want {
			if !strings.Contains(text, want) {
				t.Errorf("lacks %q:\n%s", want, text)
			}
		}
		if rep.Table != nil || strings.Contains(text, "可行的做法") != (len(c.ask.Alternatives) > 0 && !c.ask.Lang.English()) {
			t.Errorf("unexpected table or alternatives:\n%s", text)
		}
	}
}

// TestPlanNote: the short form's last note says which billing mode the
// cheapest option assumed.
func TestPlanNote(t *testing.T) {
	r := renderer(t)
	for _, c := range []struct {
		e    estimateview.Estimate
		want string
	}{
		{estimateview.Estimate{Plan: &estimateview.PlanNote{Hours: 2.7}}, "按量计费（2.7 小时用不上包日/包周）。"},
		{estimateview.Estimate{Lang: i18n.EN, Plan: &estimateview.PlanNote{Hours: 3.2}}, "Priced pay-as-you-go (3.2 h is too short for a daily or weekly plan)."},
		{estimateview.Estimate{Plan: &estimateview.PlanNote{Hours: 160, Platform: "autodl", Mode: "weekly", CNY: 312.4, Source: "AutoDL 官方文档，2026-08"}},
			"AutoDL 包周 更省：约 312 元（AutoDL 官方文档，2026-08）。"},
	} {
		c.e.Figures = estimateview.FiguresOf(trainingEstimate())
		rep := c.e.Reply(r)
		if got := rep.Notes[len(rep.Notes)-1]; got != c.want {
			t.Errorf("plan note %q, want %q", got, c.want)
		}
	}
}
