package slots

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// TestChatModelNames: chat questions name models as students type them;
// a name the catalog lacks keeps its size (and its name when it looks like
// one), and a workload model is not taken for a language model.
func TestChatModelNames(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, model, modelText, method string
		paramsB                        float64
	}{
		{"gemma2 9b lora 要多少显存", "Gemma-2-9B", "", "lora", 9.24},
		{"千问2.5 7B qlora 5万条多少钱", "Qwen2.5-7B", "", "qlora", 7.61},
		{"r1 蒸馏 7b 全参微调要几张卡", "DeepSeek-R1-Distill-Qwen-7B", "", "full", 7.62},
		{"llama3-8b 推理要多少显存", "Llama-3-8B", "", "inference", 8.03},
		{"glm4 lora 多少钱", "GLM-4-9B", "", "lora", 9.4},
		{"qwen3-30b-a3b lora 显存", "Qwen3-30B-A3B", "", "lora", 30.5},
		{"用 deepseek-r1:14b 做 qlora", "DeepSeek-R1-Distill-Qwen-14B", "", "qlora", 14.8},
		{"gemma-2b lora", "Gemma-2B", "", "lora", 2.51},
		{"xxx-7b lora 多少钱", "", "xxx-7b", "lora", 7},
		{"某某-13B lora 多少钱", "", "某某-13b", "lora", 13},
		{"用某某-13B做lora", "", "某某-13b", "lora", 13},
		{"训练一个ResNet50要多少钱", "", "", "", 0},
	} {
		q := Extract(cat, c.text, false).Query()
		if q.Model != c.model || q.ModelText != c.modelText || q.Method != c.method || q.ParamsB != c.paramsB {
			t.Errorf("%q: model %q text %q method %q params %v; want %q %q %q %v",
				c.text, q.Model, q.ModelText, q.Method, q.ParamsB, c.model, c.modelText, c.method, c.paramsB)
		}
		if len(q.Problems) > 0 {
			t.Errorf("%q: problems %v", c.text, q.Problems)
		}
	}
}

// "full finetune" written as one word was read as LoRA (a new user's
// test): every spelling of a full fine-tune reads as one.
func TestFullFinetuneSpellings(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Llama-3-8B full finetune on 8x A100, how long?", "full-finetune qwen2.5 7b", "7b full fine-tuning cost", "qwen 7b 全参微调多少钱", "full finetuning a 1.5b model"} {
		if q := Extract(cat, s, false).Query(); q.Method != "full" {
			t.Errorf("%q: method %q, want full", s, q.Method)
		}
	}
}
