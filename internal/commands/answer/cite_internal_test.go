package answer

import (
	"testing"
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
		if got := SourceText(c.src, c.en); got != c.want {
			t.Errorf("SourceText(%q)\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}
