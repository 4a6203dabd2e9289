package catalog_test

import (
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labgpu/bot/internal/catalog"
)

// TestCatalogModels: every model of models.yaml loads with a source and
// its Hugging Face repository, the parameter count its shape gives agrees
// with the published one (within 3%; a mixture of experts' active count
// within 10%), and the families students use now are all there.
func TestCatalogModels(t *testing.T) {
	c := loadEmbedded(t)
	read := 0
	for _, m := range c.Models {
		if strings.TrimSpace(m.Source) == "" || m.HFRepo == "" {
			t.Errorf("%s: source %q, hf_repo %q", m.ID, m.Source, m.HFRepo)
		}
		if !m.ConfigRead && !strings.Contains(m.Source, "recalled") && !strings.Contains(m.Source, "not read") {
			t.Errorf("%s: config not read, but the source does not say it is recalled: %q", m.ID, m.Source)
		}
		if m.ConfigRead {
			read++
		}
		total, active := m.Recount()
		if math.Abs(total/m.ParamsB-1) > 0.03 {
			t.Errorf("%s: shape gives %.3fB, published %.3fB", m.ID, total, m.ParamsB)
		}
		if m.IsMoE() && math.Abs(active/m.ActiveParamsB-1) > 0.10 {
			t.Errorf("%s: shape gives %.2fB active, published %.2fB", m.ID, active, m.ActiveParamsB)
		}
		if id, ok := c.ResolveModel(m.ID); m.IsLLM() && (!ok || id != m.ID) {
			t.Errorf("ResolveModel(%q) = %q, %v", m.ID, id, ok)
		}
	}
	t.Logf("%d models (%d families), %d with the config read from a stored copy", len(c.Models), len(c.Families), read)
	for _, id := range []string{
		"Llama-2-7B", "Llama-3-8B", "Llama-3.1-8B", "Llama-3.2-3B", "Llama-3.3-70B",
		"Qwen1.5-7B", "Qwen1.5-MoE-A2.7B", "Qwen2-7B", "Qwen2-57B-A14B", "Qwen2.5-7B", "Qwen3-8B", "Qwen3-30B-A3B",
		"Mistral-7B-v0.1", "Mixtral-8x7B", "Gemma-2B", "Gemma-7B", "Gemma-2-9B", "Gemma-2-27B",
		"Gemma-3-1B", "Gemma-3-4B", "Gemma-3-12B", "Gemma-3-27B", "GLM-4-9B", "ChatGLM3-6B",
		"Baichuan2-7B", "Baichuan2-13B", "Yi-6B", "Yi-34B", "DeepSeek-LLM-7B", "DeepSeek-LLM-67B", "DeepSeek-V2-Lite",
		"DeepSeek-R1-Distill-Qwen-1.5B", "DeepSeek-R1-Distill-Qwen-7B", "DeepSeek-R1-Distill-Qwen-14B",
		"DeepSeek-R1-Distill-Qwen-32B", "DeepSeek-R1-Distill-Llama-8B", "DeepSeek-R1-Distill-Llama-70B",
		"Phi-3-mini", "Phi-3-medium", "Phi-4", "InternLM2-7B", "InternLM2-20B", "MiniCPM-2B",
		"BERT-base", "BERT-large", "RoBERTa-base", "RoBERTa-large", "T5-small", "T5-base", "T5-large",
		"ViT-B/16", "ResNet-50", "SD-1.5", "SDXL", "Flux.1-dev",
	} {
		if _, ok := c.Model(id); !ok {
			t.Errorf("model %q missing", id)
		}
	}
}

// TestStudentSpellings: names as students type them resolve to the model
// they mean, in a sentence too.
func TestStudentSpellings(t *testing.T) {
	c := loadEmbedded(t)
	tests := []struct{ in, want string }{
		{"qwen2.5-7b", "Qwen2.5-7B"},
		{"Qwen2.5-7B-Instruct", "Qwen2.5-7B"},
		{"千问2.5 7B", "Qwen2.5-7B"},
		{"通义千问2.5-14B", "Qwen2.5-14B"},
		{"qwen2.5:7b", "Qwen2.5-7B"},
		{"qwen3 8b", "Qwen3-8B"},
		{"Qwen3-30B-A3B", "Qwen3-30B-A3B"},
		{"qwen3 30b", "Qwen3-30B-A3B"},
		{"qwen1.5 moe", "Qwen1.5-MoE-A2.7B"},
		{"qwen2 57b", "Qwen2-57B-A14B"},
		{"llama3-8b", "Llama-3-8B"},
		{"Meta-Llama-3-8B-Instruct", "Llama-3-8B"},
		{"llama3.1 8b", "Llama-3.1-8B"},
		{"llama-3.2-1b", "Llama-3.2-1B"},
		{"llama3.3 70b", "Llama-3.3-70B"},
		{"gemma-2b", "Gemma-2B"},
		{"gemma 7b", "Gemma-7B"},
		{"gemma2 9b", "Gemma-2-9B"},
		{"gemma-2-2b-it", "Gemma-2-2B"},
		{"gemma3 12b", "Gemma-3-12B"},
		{"glm4", "GLM-4-9B"},
		{"glm-4-9b-chat", "GLM-4-9B"},
		{"chatglm3", "ChatGLM3-6B"},
		{"r1 蒸馏 7b", "DeepSeek-R1-Distill-Qwen-7B"},
		{"R1蒸馏32B", "DeepSeek-R1-Distill-Qwen-32B"},
		{"deepseek-r1:14b", "DeepSeek-R1-Distill-Qwen-14B"},
		{"DeepSeek-R1-Distill-Llama-8B", "DeepSeek-R1-Distill-Llama-8B"},
		{"deepseek 67b", "DeepSeek-LLM-67B"},
		{"deepseek v2 lite", "DeepSeek-V2-Lite"},
		{"mixtral 8x7b", "Mixtral-8x7B"},
		{"mistral-7b-v0.3", "Mistral-7B-v0.3"},
		{"百川2 13B", "Baichuan2-13B"},
		{"yi-34b-chat", "Yi-34B"},
		{"phi-3-mini-4k-instruct", "Phi-3-mini"},
		{"phi4", "Phi-4"},
		{"internlm2-chat-7b", "InternLM2-7B"},
		{"书生浦语2 20B", "InternLM2-20B"},
		{"minicpm", "MiniCPM-2B"},
		{"用千问2.5 7B做lora", "Qwen2.5-7B"},
		{"gemma2 9b lora 要多少显存", "Gemma-2-9B"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got, ok := c.ResolveModel(tt.in); !ok || got != tt.want {
				t.Errorf("ResolveModel(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

// TestWorkloadModelsApart: encoders, vision and diffusion models resolve
// through ResolveWorkloadModel and never as language models, so "训练一个
// ResNet50" stays a workload question.
func TestWorkloadModelsApart(t *testing.T) {
	c := loadEmbedded(t)
	for in, want := range map[string]string{
		"resnet50": "ResNet-50", "BERT-base": "BERT-base", "bert-base-chinese": "BERT-base", "roberta-large": "RoBERTa-large",
		"t5-small": "T5-small", "vit-b/16": "ViT-B/16", "SD1.5": "SD-1.5", "sdxl": "SDXL", "flux.1-dev": "Flux.1-dev",
	} {
		if got, ok := c.ResolveWorkloadModel(in); !ok || got != want {
			t.Errorf("ResolveWorkloadModel(%q) = %q, %v; want %q", in, got, ok, want)
		}
		if got, ok := c.ResolveModel(in); ok {
			t.Errorf("ResolveModel(%q) = %q: not a language model", in, got)
		}
	}
	if ms := c.FindModels(catalog.Fold("训练一个ResNet50要多少钱")); len(ms) != 0 {
		t.Errorf("FindModels found %v in a ResNet question", ms)
	}
	if ms := c.FindWorkloadModels(catalog.Fold("SDXL 出 1000 张图要多久")); len(ms) != 1 || ms[0].ID != "SDXL" {
		t.Errorf("FindWorkloadModels = %v, want SDXL", ms)
	}
}

func TestSizeInName(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"xxx-7b", 7, true},
		{"某某-13B", 13, true},
		{"mymodel 1.5b chat", 1.5, true},
		{"tiny-135m", 0.135, true},
		{"foo-8x7b", 56, true},
		{"bar-30B-A3B", 30, true},
		{"llama7b", 7, true},
		{"FooLM", 0, false},
		{"gpt-4o", 0, false},
		{"model-v2.5", 0, false},
	}
	for _, tt := range tests {
		got, ok := catalog.SizeInName(tt.in)
		if ok != tt.ok || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("SizeInName(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestModelValidation: a bad model entry is refused with the file, the
// model and the field named.
func TestModelValidation(t *testing.T) {
	const base = `
  - id: "X-7B"
    hf_repo: x/x
    params_b: 7
    layers: 28
    hidden: 3584
    heads: 28
    kv_heads: 4
    head_dim: 128
    vocab: 152064
    intermediate: 18944
    max_position: 32768
    source: test
`
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{"valid", "models:" + base, nil},
		{"unknown family", "models:" + base + "    family: nope\n    size: 7B\n", []string{`"X-7B"`, `unknown family "nope"`}},
		{"family without size", "families:\n  - id: f\n    names: [F]\nmodels:" + base + "    family: f\n", []string{`"X-7B"`, "size"}},
		{"bad kind", "models:" + base + "    kind: rnn\n", []string{`"X-7B"`, `kind "rnn"`}},
		{"experts without active count", "models:" + base + "    experts: 8\n    experts_per_token: 2\n    expert_intermediate: 1000\n", []string{`"X-7B"`, "active_params_b"}},
		{"more active experts than experts", "models:" + base + "    experts: 2\n    experts_per_token: 4\n    expert_intermediate: 1000\n    active_params_b: 3\n", []string{`"X-7B"`, "experts_per_token"}},
		{"typical CNN", "models:\n  - id: R\n    hf_repo: r/r\n    kind: cnn\n    params_b: 0.02\n    resolution: 224\n    source: s\n    typical: true\n", []string{`"R"`, "typical"}},
		{"CNN without resolution", "models:\n  - id: R\n    hf_repo: r/r\n    kind: cnn\n    params_b: 0.02\n    source: s\n", []string{`"R"`, "resolution"}},
		{"name of two models", "models:" + base + "    aliases: [shared]\n" + strings.Replace(base, "X-7B", "Y-7B", 1) + "    aliases: [shared]\n", []string{`"Y-7B"`, `"shared"`, `"X-7B"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				catalog.PlatformsFile: {Data: []byte("fx_usd_cny: 7.2\nplatforms: []\n")},
				catalog.GPUsFile:      {Data: []byte(gpusYAML)},
				catalog.ModelsFile:    {Data: []byte(tt.yaml)},
			}
			_, err := catalog.Load(fsys)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("valid models refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted; want an error naming %v", tt.want)
			}
			for _, w := range append(tt.want, catalog.ModelsFile) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
}

// TestMLPWidths: a mixture of experts holds every expert and runs a few;
// a dense model's widths are its intermediate size.
func TestMLPWidths(t *testing.T) {
	c := loadEmbedded(t)
	for id, want := range map[string][2]float64{
		"Qwen2.5-7B":       {18944, 18944},
		"Mixtral-8x7B":     {8 * 14336, 2 * 14336},
		"Qwen3-30B-A3B":    {128 * 768, 8 * 768},
		"DeepSeek-V2-Lite": {(10944 + 26*(64*1408+2816)) / 27.0, (10944 + 26*(6*1408+2816)) / 27.0},
	} {
		m, _ := c.Model(id)
		if tot, act := m.MLPWidths(); math.Abs(tot-want[0]) > 1e-6 || math.Abs(act-want[1]) > 1e-6 {
			t.Errorf("%s: MLPWidths = %v, %v; want %v", id, tot, act, want)
		}
	}
}
