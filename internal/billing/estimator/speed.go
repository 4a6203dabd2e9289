package estimator

import (
	"math"

	"github.com/labgpu/bot/internal/catalog"
)

// Decode efficiency against the memory-bandwidth bound (estimator.md §3
// "Inference decode speed"): HF transformers eager with quantised kernels
// reaches ~0.12-0.3 of it (Qwen README: 40.9 tok/s for Qwen-7B bf16 on an
// A100 against a 132 tok/s bound), vLLM and llama.cpp 0.6-0.8.
const (
	decodeEffLow     = 0.12
	decodeEffTypical = 0.45
	decodeEffHigh    = 0.8
)

// tpEfficiency is tensor-parallel decode efficiency: 90% per GPU beyond
// the first (an assumption; the Qwen README's vLLM run of Qwen-72B on two
// A100s reaches 17.6 tok/s against a one-GPU bound of 14).
func tpEfficiency(n int) float64 {
	if n <= 1 {
		return 1
	}
	return 0.9
}

// decodeSpeed is batch-1 decode tokens/s: every token reads the weights
// and the KV cache once. Several GPUs help only with tensor parallelism
// (the high end, 90% efficient); a layer split (HF device_map) does not.
func decodeSpeed(s shape, j Job, g *catalog.GPU, n int) Range {
	v := vram(s, Job{Method: MethodInference, Bits: j.Bits, SeqLen: j.SeqLen, Batch: 1}, 1)
	perToken := (v.Weights + v.Activations) * 1e9
	bw := g.BandwidthGBs * 1e9
	return Range{
		Low:     decodeEffLow * bw / perToken,
		Typical: decodeEffTypical * bw / perToken,
		High:    decodeEffHigh * bw * float64(n) * tpEfficiency(n) / perToken,
	}
}

// stackMFU is the model FLOPs utilisation (low, typical, high) a stack
// reaches on a card with BF16 and FlashAttention-2 when a step holds
// enough tokens. Measured on A100s (tokens per second × FLOPs per token
// ÷ 312 TFLOPS, with recomputation counted): plain Hugging Face 0.32 and
// FlashAttention-2 0.39 (LLaMA-Factory's LoRA comparison at batch 4 ×
// 1024), 0.51-0.52 (the Qwen README's padded LoRA runs at seq 4096-8192),
// 0.61 (LLaMA-Factory's 16k-token QLoRA); Unsloth 0.53-0.69, torchtune
// and XTuner 0.55-0.63. A tuned stack's high end is reached without
// recomputation (see trainingSpeed).
var stackMFU = map[string]Range{
	StackHF:    {Low: 0.26, Typical: 0.34, High: 0.45},
	StackFA2:   {Low: 0.36, Typical: 0.48, High: 0.65},
	StackTuned: {Low: 0.48, Typical: 0.58, High: 0.70},
}

// olderCardMFU scales stackMFU on cards without BF16 or FlashAttention-2
// (Turing, Volta: fp16 with loss scaling, eager attention) and on NPUs,
// where CUDA-only kernels do not run: 0.16-0.29 at the FA2 stack.
const olderCardMFU = 0.45

// Tokens per step at which a step's fixed costs equal its compute, for an
// A100 (312 TFLOPS, 2039 GB/s) and a 4096-wide model (low, typical and
// high speed). Fixed costs (kernel launches, the optimizer step, Python)
// take the same time on any card, so a card k times faster needs k times
// the tokens; per-layer compute grows with the width squared, so a model
// half as wide needs four times the tokens. The Qwen README's Qwen-7B
// LoRA runs on an A100 reach 0.25 MFU at 256 tokens and 0.52 at 8192
// (0.48 / (1 + 300/T) at the typical end); its Qwen-1.8B run at 2048
// tokens reaches 0.36 (0.48 / (1 + 1200/2048) = 0.30).
var saturationTokens = Range{Low: 450, Typical: 300, High: 200}

// Tokens per step at which QLoRA's dequantisation (every 4-bit weight
// read and expanded in the forward pass, the recomputation and the
// backward pass) equals the compute, for an A100's ratio of compute to
// memory bandwidth (153 FLOPs per byte). Measured QLoRA / LoRA speed
// ratios: 0.74 at 2048 tokens and 0.87 at 4096 (Qwen README, GPTQ), 0.78
// at 4096 on an RTX 4090 and 0.98 at 8192 on an A100 (torchtune), 0.93
// (Unsloth) and 1.01 (bitsandbytes) at 4096 (LLaMA-Factory).
var dequantTokens = Range{Low: 1000, Typical: 500, High: 0}

// tokensPerStep is the tokens one GPU processes per step: micro-batch ×
// the tokens a sequence holds (seqTokens).
func tokensPerStep(j Job) float64 { return float64(j.Batch) * seqTokens(j) }

// seqTokens is the tokens one sequence of a step holds: seq when samples
// are packed (a tuned stack) or fill it, else the average sample length
// (Transformers' collators pad each batch to its longest sample, not to
// seq). Padded to seq, a step holds seq tokens of which only the samples'
// are data: Estimate.PaddingFactor says what that costs.
func seqTokens(j Job) float64 {
	if j.Stack == StackTuned || j.TokensPerSample <= 0 || j.TokensPerSample >= j.SeqLen {
		return float64(j.SeqLen)
	}
	return float64(j.TokensPerSample)
}

// mfu returns the model FLOPs utilisation of j on one GPU g: the stack's
// utilisation less the share of each step its fixed costs and, for QLoRA,
// its dequantisation take, a smooth function of the tokens per step
// relative to the model's width and the card's speed:
//
//	MFU = stackMFU / (1 + (T0 · (peak/312) · (4096/h)² + Tq · (peak/bw)/153) / T)
//
// with T the tokens per step (tokensPerStep), T0 saturationTokens and Tq
// dequantTokens.
func mfu(s shape, g *catalog.GPU, j Job) Range {
	m := stackMFU[j.Stack]
	if m.High == 0 {
		m = stackMFU[StackFA2]
	}
	if !g.FlashAttn2 || !g.BF16 || g.Class == "npu" {
		m = Range{Low: m.Low * olderCardMFU, Typical: m.Typical * olderCardMFU, High: m.High * olderCardMFU}
	}
	t := math.Max(tokensPerStep(j), 1)
	width := (g.TensorTFLOPS / 312) * math.Pow(4096/s.h, 2)
	dq := 0.0
	if j.Method == MethodQLoRA && g.BandwidthGBs > 0 {
		dq = g.TensorTFLOPS * 1000 / g.BandwidthGBs / 153
	}
	at := func(u, t0, tq float64) float64 { return u / (1 + (t0*width+tq*dq)/t) }
	return Range{
		Low:     at(m.Low, saturationTokens.Low, dequantTokens.Low),
		Typical: at(m.Typical, saturationTokens.Typical, dequantTokens.Typical),
		High:    at(m.High, saturationTokens.High, dequantTokens.High),
	}
}

// scaling is the multi-GPU efficiency within one machine (low, typical,
// high). The seed reports 1.6× on two RTX 4090s with ZeRO-2 (0.8);
// XTuner's 8×A100 full fine-tunes keep 0.55-0.63 MFU per GPU, about what
// one GPU would (0.9 and more with NVLink and long sequences).
func scaling(n int) Range {
	return Scaling(n)
}

// Scaling is the multi-GPU efficiency of n cards in one machine: the
// share of each card's speed kept (scaling).
func Scaling(n int) Range {
	switch {
	case n <= 1:
		return Range{Low: 1, Typical: 1, High: 1}
	case n == 2:
		return Range{Low: 0.75, Typical: 0.8, High: 0.92}
	}
	return Range{Low: 0.7, Typical: 0.8, High: 0.92}
}

// flopsPerToken is k·N (estimator.md §3): 6 for LoRA with checkpointing or
// full without, 4 for LoRA without, 8 for full with checkpointing; plus
// attention 6·L·s·h, s the tokens a sequence holds (seqTokens).
func flopsPerToken(s shape, j Job, N float64) float64 {
	var k float64
	switch j.Method {
	case MethodFull:
		k = 6
		if !j.NoGradCkpt {
			k = 8
		}
	default:
		k = 4
		if !j.NoGradCkpt {
			k = 6
		}
	}
	if j.DPO {
		k += 2 // the reference model's forward pass
	}
	return k*s.activeParams(N) + 6*s.L*seqTokens(j)*s.h // a mixture of experts runs its active parameters
}

// hostLinkGBs is the rate at which a paged optimizer's state moves
// between host and GPU memory (page migration over PCIe 4.0; torchtune's
// low-memory Llama-2-7B full fine-tune on an RTX 4090 spends about 8 s a
// step on 54 GB of 32-bit Adam state).
const hostLinkGBs = 13

// trainingSpeed is the MFU range of a training job (j at the micro-batch
// that fits) on n GPUs of g and the tokens/s it gives over all of them
// (high MFU gives the high speed). A tuned stack's fast end does not
// recompute: it offloads activations to CPU memory instead (torchtune's
// activation offloading, Unsloth's gradient checkpointing), so memory does
// not force it. A paged optimizer moves the state that does not fit the
// card in and out every step: added to the compute at the slow end,
// overlapped with it at the fast end.
func trainingSpeed(s shape, j Job, g *catalog.GPU, N float64, n int) (util, tps Range) {
	util = mfu(s, g, j)
	sc := scaling(n)
	fast := j
	fast.NoGradCkpt = fast.NoGradCkpt || j.Stack == StackTuned
	fpt, fptFast := flopsPerToken(s, j, N), flopsPerToken(s, fast, N)
	peak := g.TensorTFLOPS * 1e12 * float64(n)
	tps = Range{Low: util.Low * sc.Low * peak / fpt, Typical: util.Typical * sc.Typical * peak / fpt,
		High: util.High * sc.High * peak / fptFast}
	if page := pagingSeconds(s, j, g, N, n); page > 0 {
		t := tokensPerStep(j) * float64(n)
		tps.Low = t / (t/tps.Low + page)
		tps.Typical = t / (t/tps.Typical + page/2)
		tps.High = t / math.Max(t/tps.High, page)
	}
	return util, tps
}

// pagingSeconds is the time a paged optimizer spends per step moving its
// state in and out of GPU memory: the part of the state (8 bytes per
// parameter for 32-bit Adam, 2 for 8-bit) that does not fit the card
// beside the rest of the job, twice, at hostLinkGBs.
func pagingSeconds(s shape, j Job, g *catalog.GPU, N float64, n int) float64 {
	if !paged(j) {
		return 0
	}
	state := 8 * N
	if j.Optimizer == OptimizerPagedAdamW8bit {
		state = 2 * N
	}
	state /= float64(n)
	free := (FitFraction*CapacityGB(g) - vram(s, j, n).Total) * 1e9
	spill := state - math.Max(0, free)
	if spill <= 0 {
		return 0
	}
	return 2 * spill / (hostLinkGBs * 1e9)
}

// SpeedRatio is how many times faster a job runs on the layout a than on
// b: the ratio of their speeds at the slow end of both, typically and at
// the fast end, ordered low to high. Zero when either has no speed.
func SpeedRatio(a, b Fit) Range { return ratioRange(a.TokensPerSec, b.TokensPerSec) }

// ratioRange is a ÷ b end by end (slow with slow, fast with fast),
// ordered low to high; zero when b has no speed.
func ratioRange(a, b Range) Range {
	if !(b.Low > 0 && b.Typical > 0 && b.High > 0) {
		return Range{}
	}
	lo, hi := a.Low/b.Low, a.High/b.High
	if lo > hi {
		lo, hi = hi, lo
	}
	typ := a.Typical / b.Typical
	return Range{Low: math.Min(lo, typ), Typical: typ, High: math.Max(hi, typ)}
}
