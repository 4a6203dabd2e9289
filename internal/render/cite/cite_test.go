package cite

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/i18n"
)

func TestSourceText(t *testing.T) {
	for _, c := range []struct {
		src  string
		en   bool
		want string
	}{
		{"seed 000 §2 (detection, segmentation: 3090 or A100 40G tier)", false, "一篇 2025 年的高校租卡横评"},
		{"seed 000 §4.1, §5, table", false, "一篇 2025 年的高校租卡横评"},
		{"seed 000 §2 (VRAM first), §4.1 (VRAM estimate), §6 table (显存不足OOM); seed 001 §3; PyTorch docs: CUDA semantics (memory management, PYTORCH_CUDA_ALLOC_CONF); PyTorch FAQ (accumulating history)", false,
			"一篇 2025 年的高校租卡横评；一篇 2025 年的租卡实测避坑文；PyTorch docs: CUDA semantics；PyTorch FAQ"},
		{"seed 001 §4 (first pitfall and table: CUDA 版本不匹配), §1 and §2 (hyperscaler images); seed 000 §3.2, §4.4; NVIDIA CUDA Compatibility guide", true,
			"a 2025 hands-on review of GPU rental pitfalls; a 2025 review of GPU rental for students; NVIDIA CUDA Compatibility guide"},
		{"Hugging Face Hub docs: gated models, user access tokens (fine-grained permissions), CLI (hf auth login; huggingface-cli before huggingface_hub 1.0), HF_TOKEN environment variable", true,
			"Hugging Face Hub docs: gated models, user access tokens, CLI, HF_TOKEN environment variable"},
		{"kohya-ss/sd-scripts README (SDXL LoRA: --cache_text_encoder_outputs); community reports; rough", false, "kohya-ss/sd-scripts README；社区经验；粗略估计"},
		{"seed 000 §5; seed 000 §7", false, "一篇 2025 年的高校租卡横评"},
	} {
		if got := Source(c.src, i18n.Of(c.en)); got != c.want {
			t.Errorf("Source(%q)\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestFigure: a figure's source as a reader names it, by where it comes
// from (the platform's own docs, its page quoted elsewhere, a third
// party, the seed articles), with its date.
func TestFigure(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		platform string
		f        catalog.Figure
		en       bool
		want     string
	}{
		{"autodl", catalog.Figure{Source: "https://www.autodl.com/docs/price/", AsOf: "2026-08", Verified: true}, false, "AutoDL 官方文档，2026-08"},
		{"autodl", catalog.Figure{Source: "https://www.autodl.com/docs/price/", AsOf: "2026-08", Verified: true}, true, "AutoDL's docs, 2026-08"},
		{"autodl", catalog.Figure{Source: "blog quoting autodl.com", AsOf: "2026", Verified: true}, false, "AutoDL 官方页面（第三方转引），2026"},
		{"autodl", catalog.Figure{Source: "https://example.org/review", AsOf: " 2026 ", Verified: true}, true, "a third-party public source, 2026"},
		{"autodl", catalog.Figure{Source: "https://example.org/review", Verified: true}, false, "第三方公开资料"},
		{"autodl", catalog.Figure{Source: "seed 000 §5", AsOf: "2025"}, false, "一篇 2025 年的租卡测评（未核实）"},
		{"autodl", catalog.Figure{Source: "seed 000 §5; seed 001 §2", AsOf: "2025"}, true, "two 2025 rental reviews (unverified)"},
		{"autodl", catalog.Figure{Source: "seed 001 §3", AsOf: "2025", Verified: true}, false, "一篇 2025 年的租卡测评（未核实）"},
		{"nosuch", catalog.Figure{Source: "docs.nosuch.ai", AsOf: "2026"}, false, "第三方公开资料，2026"},
	} {
		if got := Figure(cat, c.platform, c.f, i18n.Of(c.en)); got != c.want {
			t.Errorf("Figure(%s, %+v)\n got %q\nwant %q", c.platform, c.f, got, c.want)
		}
	}
}

// BenchmarkSource names a knowledge-base entry's sources (the CUDA OOM
// topic's: two seed articles with sections and notes, two docs).
func BenchmarkSource(b *testing.B) {
	const src = "seed 000 §2 (VRAM first), §4.1 (VRAM estimate), §6 table (显存不足OOM); seed 001 §3; PyTorch docs: CUDA semantics (memory management, PYTORCH_CUDA_ALLOC_CONF); PyTorch FAQ (accumulating history in the training loop)"
	b.ReportAllocs()
	for b.Loop() {
		Source(src, i18n.ZH)
	}
}
