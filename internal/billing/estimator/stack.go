package estimator

import (
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
)

// Training stacks (Job.Stack): the software a job runs on. They differ in
// speed (published comparisons of one LoRA run on one A100 put plain
// Hugging Face at 100%, FlashAttention-2 at 123% and Unsloth at 168%:
// LLaMA-Factory's wiki "Performance comparison", copied in Unsloth's
// README) and in memory (eager attention stores the attention scores; a
// tuned stack fuses the loss and offloads checkpoints).
const (
	// StackHF is plain Transformers + PEFT with eager attention.
	StackHF = "hf"
	// StackFA2 is Transformers + PEFT with FlashAttention-2 (the default).
	StackFA2 = "fa2"
	// StackTuned is Unsloth, Liger, torchtune or XTuner: fused kernels,
	// packed sequences, a fused or chunked loss and, by default,
	// checkpointed activations offloaded to CPU memory.
	StackTuned = "tuned"
)

// Loss implementations (Job.Loss), by the memory the loss holds per token
// and vocabulary entry (lossBytesPerLogit).
const (
	// LossHF is Transformers' default: the logits upcast to fp32, the
	// shifted copy, log-softmax and its gradient, about 16 bytes.
	LossHF = "hf"
	// LossQwen1 is first-generation Qwen's remote code (modeling_qwen.py):
	// bf16 logits and a bf16 shifted copy, the cross entropy run in fp32
	// by autocast (log-softmax and its gradient) and the bf16 gradient,
	// about 14 bytes (the Qwen README's Qwen-7B and Qwen-1.8B LoRA rows
	// grow 2.1-2.5 MB per token with a 151936-entry vocabulary).
	LossQwen1 = "qwen1"
	// LossChunked computes the loss in chunks over bf16 logits
	// (torchtune's CEWithChunkedOutputLoss, LitGPT's chunked cross
	// entropy): the bf16 logits and one fp32 chunk, about 4 bytes.
	LossChunked = "chunked"
	// LossFused never materialises the logits (Liger's fused linear cross
	// entropy, Unsloth, Apple's Cut Cross-Entropy): one chunk of them.
	LossFused = "fused"
)

// Stacks lists the stack ids; Losses the loss ids.
var (
	Stacks = []string{StackHF, StackFA2, StackTuned}
	Losses = []string{LossHF, LossQwen1, LossChunked, LossFused}
)

// lossBytesPerLogit is the loss buffer in bytes per token and vocabulary
// entry. LossHF: 4 × fp32 (logits, shifted copy, log-softmax, gradient);
// the Unsloth README's "Llama 3.1 (8B) max. context length" rows for
// Hugging Face + FA2 grow 2.65 MB per token, of which 16 × 128256 is
// 2.05 MB and the fp32 checkpoints 0.52 MB. LossFused holds a chunk of
// tokens at a time, which the layer's working set outweighs (Unsloth's
// rows with Cut Cross-Entropy grow 0.23 MB per token, the layer alone).
var lossBytesPerLogit = map[string]float64{LossHF: 16, LossQwen1: 14, LossChunked: 4, LossFused: 0}

// qwen1RemoteCode reports whether m runs first-generation Qwen's remote
// code (Hugging Face repos Qwen/Qwen-*), whose loss is LossQwen1.
func qwen1RemoteCode(m *catalog.Model) bool {
	return strings.HasPrefix(m.HFRepo, "Qwen/Qwen-")
}

// defaultStack fills the stack (StackFA2) and the loss: LossFused on a
// tuned stack, LossQwen1 for Qwen-1's remote code, else LossHF.
func defaultStack(j Job, m *catalog.Model, as *assumptions) Job {
	if !slices.Contains(Stacks, j.Stack) {
		j.Stack = ""
	}
	if !slices.Contains(Losses, j.Loss) {
		j.Loss = ""
	}
	if j.Stack == "" {
		j.Stack = StackFA2
		as.add("stack=%s", j.Stack)
	}
	if j.Loss == "" {
		switch {
		case j.Stack == StackTuned:
			j.Loss = LossFused
		case qwen1RemoteCode(m):
			j.Loss = LossQwen1
		default:
			j.Loss = LossHF
		}
	}
	if j.Stack == StackHF {
		// Eager attention stores the scores.
		j.NoFlashAttn = true
	}
	return j
}

// offloaded reports whether j keeps its checkpointed activations in CPU
// memory (a tuned stack unless NoOffload).
func offloaded(j Job) bool { return j.Stack == StackTuned && !j.NoOffload && !j.NoGradCkpt }

// fp32Cast reports whether j's non-quantised parameters and residual
// stream are fp32: QLoRA through PEFT's prepare_model_for_kbit_training,
// which casts every parameter that is not 4- or 8-bit (embeddings,
// lm_head, norms) to fp32, unless the stack is tuned or NoFP32Cast.
func fp32Cast(j Job) bool {
	return j.Method == MethodQLoRA && j.Stack != StackTuned && !j.NoFP32Cast
}
