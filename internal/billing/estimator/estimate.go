// Package estimator estimates what a training or inference job needs (VRAM,
// time) and costs per platform, including the hidden costs of storage and
// billing granularity. Formulas and their sources:
// docs/reference/estimator.md (Korthikanti et al. 2022 for activations,
// EleutherAI "Transformer Math 101" for optimizer state, the QLoRA paper for
// 4-bit weights, Kaplan et al. for training FLOPs). The memory model is in
// vram.go, the speed model in speed.go, the training stacks and loss
// implementations in stack.go; internal/billing/estimator/reference holds them
// against published measurements (docs/estimator.md).
//
// Units: memory in GB (1e9 bytes); time in hours; money in CNY.
package estimator

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/labgpu/bot/internal/catalog"
)

// Methods a Job can use.
const (
	MethodFull      = "full"
	MethodLoRA      = "lora"
	MethodQLoRA     = "qlora"
	MethodInference = "inference"
)

// CapacityGB is a card's memory in GB (1e9 bytes). Vendors' "24GB" and
// "80GB" are binary: an RTX 4090 has 24 GiB = 25.8 GB (vast.ai reports
// gpu_ram 24564 MiB), so the memory_gb figure is read as GiB.
func CapacityGB(g *catalog.GPU) float64 { return g.MemoryGB * (1 << 30) / 1e9 }

// LoRA target sets (Job.LoRATargets).
const (
	TargetsAll       = ""
	TargetsAttention = "attn"
	TargetsQV        = "qv"
)

// Optimizers a full fine-tune can use (Job.Optimizer); "" is
// mixed-precision AdamW (an fp32 master copy and fp32 m and v).
const (
	// OptimizerPureBF16 is AdamW with bf16 weights, m and v.
	OptimizerPureBF16 = "bf16"
	// OptimizerAdamW8bit is bitsandbytes' 8-bit AdamW on bf16 weights with
	// no fp32 master copy: about 6 bytes per parameter with the weights
	// and gradients (LLaMA-Factory's and torchtune's low-memory recipes).
	OptimizerAdamW8bit = "adamw8bit"
	// OptimizerPagedAdamW and OptimizerPagedAdamW8bit are bitsandbytes'
	// paged AdamW (32-bit or 8-bit state in unified memory that pages out
	// to the host when the card is full), on bf16 weights.
	OptimizerPagedAdamW     = "paged_adamw"
	OptimizerPagedAdamW8bit = "paged_adamw8bit"
)

// Defaults applied when a Job leaves a field zero. They are stated in every
// answer ("按 seq 2048、batch 4 …估算").
const (
	DefaultSeqLen          = 2048
	DefaultBatch           = 4
	DefaultEpochs          = 3
	DefaultTokensPerSample = 512
	DefaultLoRARank        = 16
	DefaultInferenceBatch  = 1
	// SetupHours is the time a rented instance runs besides training:
	// environment setup, downloading weights, evaluation (estimator.md §3
	// suggests +10-20 min).
	SetupHours = 0.25
	// FitFraction is the share of a card's memory a job may plan to use;
	// the rest absorbs allocator fragmentation (estimator.md §1 "O").
	FitFraction = 0.92
	// OverheadGB is the fixed CUDA context, cuBLAS workspace and allocator
	// overhead (estimator.md §1 starts from 1.0 GB), on top of
	// FragmentationShare of the rest. The Qwen README's Qwen-7B LoRA rows
	// extrapolate to 19.6 GB at no tokens against 18.0 GB of weights and
	// LoRA state; the Unsloth README's longest contexts for Llama-3.1-8B
	// QLoRA give 10.4 GB against 9.1 GB.
	OverheadGB = 1.0
	// FragmentationShare is the allocator's fragmentation, as a share of
	// the job's own memory.
	FragmentationShare = 0.02
	// MaxGPUs is the most GPUs one rented instance has (8 on the platforms
	// in the catalog); larger jobs need several machines, which this
	// estimator does not model.
	MaxGPUs = 8
	// StalePriceYears: catalog prices older than this are not used for
	// costs (Featurize's 2021 figures).
	StalePriceYears = 2
)

// Job describes what a user wants to run. Zero fields take defaults.
type Job struct {
	// Model is a catalog model id; empty when only ParamsB is known.
	Model string
	// ParamsB is the parameter count in billions, used when Model is empty.
	ParamsB float64
	// Method is full, lora, qlora or inference (default lora).
	Method string
	// Bits is the weight precision: 32, 16, 8 or 4 (qlora defaults to 4).
	Bits int
	// SeqLen is the training sequence length or the inference context.
	SeqLen int
	// Batch is the micro-batch per GPU (training) or concurrent sequences.
	Batch int
	// Samples and TokensPerSample give the dataset size; Tokens overrides
	// both when set (tokens in the dataset, one epoch).
	Samples         int
	TokensPerSample int
	Tokens          float64
	Epochs          float64
	// GPUCount is the number of GPUs asked for (0 = as many as needed,
	// at most MaxGPUs).
	GPUCount int
	// GradCheckpointing defaults to on for training (NoGradCkpt turns it off).
	NoGradCkpt bool
	// LoRARank defaults to 16 on all linear layers.
	LoRARank int
	// Stack is the training software: StackHF, StackFA2 (the default) or
	// StackTuned; it sets the utilisation range and the memory defaults.
	Stack string
	// Loss is the loss implementation (LossHF, LossQwen1, LossChunked,
	// LossFused); empty takes the stack's and the model's.
	Loss string
	// NoOffload keeps a tuned stack's checkpointed activations on the GPU
	// (a tuned stack otherwise offloads them to CPU memory).
	NoOffload bool
	// NoFP32Cast is QLoRA without PEFT's prepare_model_for_kbit_training
	// cast of the non-quantised parameters to fp32 (LLaMA-Factory's own
	// preparation, GPTQ bases); a tuned stack never casts.
	NoFP32Cast bool
	// OptimInBwd steps the optimizer inside the backward pass (torchtune's
	// optimizer_in_bwd), so a full fine-tune holds one gradient at a time.
	OptimInBwd bool
	// NoDoubleQuant is 4-bit QLoRA without double quantisation
	// (bitsandbytes' default unless asked for): 4.5 bits per weight, not
	// the QLoRA paper's 4.127.
	NoDoubleQuant bool
	// LoRATargets: "" (all linear layers), TargetsAttention (q, k, v, o)
	// or TargetsQV (q and v only, PEFT's default for many models).
	LoRATargets string
	// NoFlashAttn stores the s² attention scores (no FlashAttention/SDPA);
	// cards without FlashAttention-2 support (Turing, Volta) always do.
	NoFlashAttn bool
	// ZeRO is the multi-GPU sharding: 3 (default: weights, gradients and
	// optimizer state split across GPUs) or 2 (gradients and optimizer
	// state only; every GPU holds the whole model).
	ZeRO int
	// TrainEmbeddings makes the embedding and lm_head trainable in a LoRA
	// job (Qwen's "LoRA (emb)"), which adds their gradients and Adam state.
	TrainEmbeddings bool
	// DPO is preference training (TRL's DPOTrainer): each sample is a
	// chosen and a rejected sequence, trained in one micro-batch, and a
	// frozen reference model runs a forward pass over both (with LoRA the
	// base with its adapter off; a full fine-tune holds a second copy of
	// the weights).
	DPO bool
	// Optimizer for a full fine-tune: "" (mixed-precision AdamW: fp32
	// master + m + v, 12 B/param), OptimizerPureBF16 (bf16 m and v,
	// 4 B/param), OptimizerAdamW8bit (8-bit m and v, no master copy,
	// 2 B/param) or a paged one (state in host-pageable memory). Source:
	// EleutherAI "Transformer Math 101".
	Optimizer string
	// GPUs restricts the estimate to these GPU ids (empty = all).
	GPUs []string
	// Platform restricts cost rows to one platform id (empty = all).
	Platform string
}

// VRAM is the memory breakdown of one GPU's share of the job, in GB.
type VRAM struct {
	Weights     float64 `json:"weights"`
	Gradients   float64 `json:"gradients"`
	Optimizer   float64 `json:"optimizer"`
	Activations float64 `json:"activations"`
	Logits      float64 `json:"logits"`
	Overhead    float64 `json:"overhead"`
	Total       float64 `json:"total"`
}

// Range is a low / typical / high estimate.
type Range struct {
	Low     float64 `json:"low"`
	Typical float64 `json:"typical"`
	High    float64 `json:"high"`
}

// Fit says whether and how a GPU can run the job.
type Fit struct {
	GPU      string  `json:"gpu"`
	MemoryGB float64 `json:"memory_gb"`
	Fits     bool    `json:"fits"`
	// GPUCount is the GPUs needed (1, 2, 4 or 8); 0 when even 8 do not fit.
	GPUCount int `json:"gpu_count"`
	// VRAMPerGPU is the per-GPU need at GPUCount.
	VRAMPerGPU float64 `json:"vram_per_gpu_gb"`
	// MicroBatch is the per-GPU micro-batch that fits; when the batch was
	// not given it may be below the default, with gradient accumulation
	// keeping the effective batch.
	MicroBatch int `json:"micro_batch"`
	// Hours is wall-clock training time on GPUCount GPUs (zero for inference).
	Hours Range `json:"hours"`
	// MFU is the utilisation behind Hours (high MFU gives low hours).
	MFU Range `json:"mfu"`
	// TokensPerSec is training throughput (tokens/s over all GPUs) or,
	// for inference, single-stream decode speed.
	TokensPerSec Range `json:"tokens_per_sec"`
}

// PriceQuote is the best known hourly price of a GPU on a platform.
type PriceQuote struct {
	Platform      string  `json:"platform"`
	GPU           string  `json:"gpu"`
	CNYPerGPUHour float64 `json:"cny_per_gpu_hour"`
	// Low and High bound a list-price range (both equal CNYPerGPUHour when
	// the price is one figure).
	Low  float64 `json:"low_cny_per_gpu_hour"`
	High float64 `json:"high_cny_per_gpu_hour"`
	// Source is live, replay or catalog; AsOf is its age or date text.
	Source string `json:"source"`
	AsOf   string `json:"as_of"`
	// Verified is false for a list price only the seed articles give.
	Verified bool `json:"verified"`
	// UnitUnverified is set when the platform does not document the
	// price's unit (恒源云's API price, read as CNY per GPU-hour).
	UnitUnverified bool `json:"unit_unverified,omitempty"`
}

// Option is the cost of the job on one GPU type at one platform.
type Option struct {
	Platform string  `json:"platform"`
	GPU      string  `json:"gpu"`
	GPUCount int     `json:"gpu_count"`
	Hours    float64 `json:"hours"`
	// BilledGPUHours is GPU-hours after setup time, rounding to the
	// platform's billing granularity and its minimum.
	BilledGPUHours float64 `json:"billed_gpu_hours"`
	PriceCNY       float64 `json:"price_cny_per_gpu_hour"`
	GPUCostCNY     float64 `json:"gpu_cost_cny"`
	// PriceLowCNY and PriceHighCNY bound a list-price range.
	PriceLowCNY  float64 `json:"price_low_cny_per_gpu_hour"`
	PriceHighCNY float64 `json:"price_high_cny_per_gpu_hour"`
	// StorageCostCNY is data disk beyond the free quota for the job's days;
	// null when the platform's disk price is unknown (then TotalCNY leaves
	// it out).
	StorageCostCNY *float64 `json:"storage_cost_cny"`
	TotalCNY       float64  `json:"total_cny"`
	// TotalLowCNY and TotalHighCNY bound the total over the time range
	// (fast and slow run) at the typical price.
	TotalLowCNY  float64 `json:"total_low_cny"`
	TotalHighCNY float64 `json:"total_high_cny"`
	PriceSource  string  `json:"price_source"`
	PriceAsOf    string  `json:"price_as_of"`
	Verified     bool    `json:"verified"`
}

// Estimate is the answer for one Job.
type Estimate struct {
	Job Job `json:"-"`
	// ModelID is the configuration used; Typical is true when the user gave
	// only a size and a typical model of that size stands in.
	ModelID string `json:"model"`
	Typical bool   `json:"typical_config"`
	// Layers is the layer count used; it differs from the model's when a
	// typical configuration was scaled to the asked size.
	Layers  int     `json:"layers"`
	Scaled  bool    `json:"scaled_config"`
	ParamsB float64 `json:"params_b"`
	Method  string  `json:"method"`
	Bits    int     `json:"bits"`
	SeqLen  int     `json:"seq_len"`
	Batch   int     `json:"batch"`
	Epochs  float64 `json:"epochs"`
	// Tokens is tokens trained (dataset tokens × epochs); FLOPs the total.
	Tokens float64 `json:"tokens"`
	FLOPs  float64 `json:"flops"`
	// DiskGB is the data disk the job needs: weights + dataset + checkpoints.
	DiskGB float64 `json:"disk_gb"`
	// VRAM is the single-GPU requirement at the asked batch.
	VRAM VRAM `json:"vram_gb"`
	// VRAMMin is the single-GPU requirement at micro-batch 1 (training)
	// with gradient accumulation keeping the effective batch.
	VRAMMin float64 `json:"vram_min_gb"`
	// LoRARank is the rank used (LoRA and QLoRA only).
	LoRARank int      `json:"lora_rank,omitempty"`
	Fits     []Fit    `json:"fits"`
	Options  []Option `json:"options"`
	// Cheapest and Fastest index into Options (-1 when none).
	Cheapest int `json:"-"`
	Fastest  int `json:"-"`
	// Assumptions are the defaults applied, as "name=value" ("seq_len=2048").
	Assumptions []string `json:"assumptions"`
	// Sharded is true when some fit needs several GPUs: the estimate then
	// assumes ZeRO-3/FSDP sharding of weights, gradients and optimizer
	// state, and scaling efficiency below 1 (lower confidence).
	Sharded bool `json:"sharded"`
	// Stack and Loss are the training stack and loss implementation
	// assumed (training only).
	Stack string `json:"stack,omitempty"`
	Loss  string `json:"loss,omitempty"`
	// PaddingFactor is seq ÷ the average sample length: how many times
	// longer training takes when samples are padded to seq rather than
	// packed or padded per batch, as the hours assume (they count the
	// dataset's own tokens). 0 when the sample length is unknown.
	PaddingFactor float64 `json:"padding_factor,omitempty"`
	// TunedSpeedup is how many times faster a tuned stack (Unsloth,
	// Liger, torchtune) would run the job on the cheapest option's GPU
	// (else the first that fits), at the slow end, typically and at the
	// fast end; zero on a tuned stack or when nothing fits.
	TunedSpeedup Range `json:"tuned_speedup"`
}

// ErrBadNumber is returned when a size, token count or epoch count is
// negative, infinite or not a number.
var ErrBadNumber = errors.New("billing: a size, token or epoch count is negative or not a finite number")

// ErrTooManyGPUs is returned for a GPU count above MaxGPUs.
var ErrTooManyGPUs = fmt.Errorf("billing: more than %d GPUs is a multi-machine job, which is not estimated", MaxGPUs)

// ErrUnknownModel is returned when neither a known model nor a size is given.
var ErrUnknownModel = errors.New("billing: model size unknown")

// ErrNotLLM is returned for a catalog model that is not a decoder
// language model (BERT, ResNet, Stable Diffusion): the workload estimate
// covers those.
var ErrNotLLM = errors.New("billing: not a language model; its training is estimated as a workload")

// shape is the architecture used for the formulas. I is the MLP width
// holding weights (every expert of a mixture of experts, averaged over
// the layers: catalog.Model.MLPWidths), Ia the width one token runs
// (its activations and FLOPs; I for a dense model), mlps the MLP blocks
// a layer has (1 dense; the experts, plus one for shared experts), each
// with its own LoRA adapters.
type shape struct {
	L, h, a, kv, d, V, I float64
	Ia, mlps             float64
	tied                 bool
}

func shapeOf(m *catalog.Model) shape {
	total, active := m.MLPWidths()
	mlps := 1.0
	if m.IsMoE() {
		mlps = float64(m.Experts)
		if m.SharedIntermediate > 0 {
			mlps++
		}
	}
	return shape{L: float64(m.Layers), h: float64(m.Hidden), a: float64(m.Heads), kv: float64(m.KVHeads),
		d: float64(m.HeadDim), V: float64(m.Vocab), I: total, Ia: active, mlps: mlps, tied: m.TiedEmbeddings}
}

// activeParams is the parameters one token uses out of n (all of them
// for a dense model): the experts it does not run are left out.
func (s shape) activeParams(n float64) float64 { return n - s.L*3*s.h*(s.I-s.Ia) }

// params returns total and linear-layer parameter counts.
func (s shape) params() (n, nLin float64) {
	attn := s.h*s.a*s.d + 2*s.h*s.kv*s.d + s.a*s.d*s.h
	mlp := 3 * s.h * s.I
	nLin = s.L * (attn + mlp)
	emb := s.V * s.h
	if !s.tied {
		emb *= 2
	}
	n = nLin + s.L*2*s.h + emb
	return n, nLin
}

// loraParams is r·Σ(d_in+d_out)·L over all linear layers.
func (s shape) loraParams(r float64, targets string) float64 {
	q := s.h + s.a*s.d
	v := s.h + s.kv*s.d
	kv := 2 * v
	o := s.a*s.d + s.h
	mlp := 3 * (s.mlps*s.h + s.I)
	switch targets {
	case TargetsQV:
		return r * (q + v) * s.L
	case TargetsAttention:
		return r * (q + kv + o) * s.L
	}
	return r * (q + kv + o + mlp) * s.L
}

// Estimator computes estimates against a catalog.
type Estimator struct {
	Cat *catalog.Catalog
}

// typicalModel picks the typical model nearest in size to paramsB.
func (e *Estimator) typicalModel(paramsB float64) *catalog.Model {
	var best *catalog.Model
	bestD := math.Inf(1)
	for i := range e.Cat.Models {
		m := &e.Cat.Models[i]
		if !m.Typical {
			continue
		}
		d := math.Abs(math.Log(m.ParamsB / paramsB))
		if d < bestD {
			best, bestD = m, d
		}
	}
	return best
}

// Normalize resolves the model and fills defaults, recording each default
// as an assumption. It returns ErrUnknownModel when neither a model nor a
// size is known, ErrTooManyGPUs and ErrBadNumber.
func (e *Estimator) Normalize(j Job) (Job, *catalog.Model, bool, []string, error) {
	m, typical, err := e.resolve(j)
	if err != nil {
		return j, nil, false, nil, err
	}
	var as assumptions
	j = defaultShape(j, &as)
	if j.Method != MethodInference {
		j = defaultTraining(j, &as)
		j = defaultStack(j, m, &as)
		j = dpoPairs(j, &as)
	}
	return j, m, typical, as, nil
}

// assumptions collects the defaults Normalize applied, as "name=value".
type assumptions []string

func (a *assumptions) add(format string, args ...any) {
	*a = append(*a, fmt.Sprintf(format, args...))
}

// resolve finds the catalog model of j, or the typical model nearest to
// j.ParamsB (typical is then true), and rejects GPU counts above MaxGPUs
// and sizes, token and epoch counts that are negative or not finite.
func (e *Estimator) resolve(j Job) (m *catalog.Model, typical bool, err error) {
	if j.Model != "" {
		m, _ = e.Cat.Model(j.Model)
	}
	if m != nil && !m.IsLLM() {
		return nil, false, ErrNotLLM
	}
	if m == nil {
		if !(j.ParamsB > 0) || math.IsInf(j.ParamsB, 0) {
			return nil, false, ErrUnknownModel
		}
		m = e.typicalModel(j.ParamsB)
		if m == nil {
			return nil, false, ErrUnknownModel
		}
		typical = true
	}
	if j.GPUCount > MaxGPUs {
		return nil, false, ErrTooManyGPUs
	}
	for _, x := range []float64{j.ParamsB, j.Tokens, j.Epochs} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return nil, false, ErrBadNumber
		}
	}
	return m, typical, nil
}

// defaultShape fills the method (lora), the weight precision (4 bits for
// QLoRA, else 16; LoRA below 16 bits is QLoRA), the sequence length and
// the batch, and reconciles the sample length with the sequence length.
func defaultShape(j Job, as *assumptions) Job {
	if j.Method == "" {
		j.Method = MethodLoRA
		as.add("method=lora")
	}
	if j.Bits == 0 {
		switch j.Method {
		case MethodQLoRA:
			j.Bits = 4
		default:
			j.Bits = 16
		}
	}
	if j.Method == MethodLoRA && j.Bits < 16 {
		j.Method = MethodQLoRA
	}
	seqDefaulted := j.SeqLen <= 0
	if j.SeqLen <= 0 {
		j.SeqLen = DefaultSeqLen
		as.add("seq_len=%d", j.SeqLen)
	}
	if j.Batch <= 0 {
		if j.Method == MethodInference {
			j.Batch = DefaultInferenceBatch
		} else {
			j.Batch = DefaultBatch
		}
		as.add("batch=%d", j.Batch)
	}
	if j.Method != MethodInference && j.TokensPerSample > j.SeqLen {
		if seqDefaulted {
			// Samples longer than the default sequence: train at their length.
			j.SeqLen = j.TokensPerSample
			as.add("seq_len=%d (the sample length)", j.SeqLen)
		} else {
			// A shorter seq truncates each sample.
			j.TokensPerSample = j.SeqLen
			as.add("tokens_per_sample=%d (truncated to seq_len)", j.SeqLen)
		}
	}
	return j
}

// defaultTraining fills a training job's epochs, dataset size, LoRA rank
// and notes that gradient checkpointing is on.
func defaultTraining(j Job, as *assumptions) Job {
	if j.Epochs <= 0 {
		j.Epochs = DefaultEpochs
		as.add("epochs=%g", j.Epochs)
	}
	if j.Tokens <= 0 {
		if j.TokensPerSample <= 0 {
			j.TokensPerSample = min(DefaultTokensPerSample, j.SeqLen)
			as.add("tokens_per_sample=%d", j.TokensPerSample)
		}
		if j.Samples <= 0 {
			j.Samples = 10000
			as.add("samples=%d", j.Samples)
		}
		j.Tokens = float64(j.Samples) * float64(j.TokensPerSample)
	}
	if j.LoRARank <= 0 && j.Method != MethodFull {
		j.LoRARank = DefaultLoRARank
		as.add("lora_rank=%d", j.LoRARank)
	}
	if !j.NoGradCkpt {
		as.add("gradient_checkpointing=on")
	}
	return j
}

// dpoPairs makes a DPO job's sequences pairs: twice the sequences per
// micro-batch and twice the tokens (a chosen and a rejected one each).
func dpoPairs(j Job, as *assumptions) Job {
	if !j.DPO {
		return j
	}
	j.Batch *= 2
	j.Tokens *= 2
	as.add("dpo=pairs (batch %d sequences, reference forward)", j.Batch)
	return j
}

// minBatch is the smallest micro-batch of a training job: one sequence,
// a DPO job's pair.
func minBatch(j Job) int {
	if j.DPO {
		return 2
	}
	return 1
}

type layout struct{ batch, n int }

// layouts lists the (micro-batch, GPU count) pairs to try, in order of
// preference: the asked batch on one GPU; smaller micro-batches with
// gradient accumulation (the effective batch stays as asked); then more
// GPUs at micro-batch 1.
func layouts(j Job) []layout {
	counts := []int{1, 2, 4, 8}
	if j.GPUCount > 0 {
		counts = []int{j.GPUCount}
	}
	var out []layout
	batches := []int{j.Batch}
	if j.Method != MethodInference {
		for b := j.Batch / 2; b >= minBatch(j); b /= 2 {
			batches = append(batches, b)
		}
	}
	for _, b := range batches {
		out = append(out, layout{b, counts[0]})
	}
	last := batches[len(batches)-1]
	for _, n := range counts[1:] {
		out = append(out, layout{last, n})
	}
	return out
}

// Quotes supplies the best known price per (platform, GPU).
type Quotes func(gpu string) []PriceQuote

// scaleTo returns a copy of shape s with its layer count changed so the
// model has about paramsB billion parameters (embeddings kept). It is used
// when a typical configuration stands in for a size the catalog lacks.
func scaleTo(s shape, paramsB float64) shape {
	N, nLin := s.params()
	perLayer := (nLin + s.L*2*s.h) / s.L
	emb := N - nLin - s.L*2*s.h
	L := math.Round((paramsB*1e9 - emb) / perLayer)
	if L < 1 {
		L = 1
	}
	s.L = L
	return s
}

// Estimate computes VRAM, fits, time and cost. quotes may be nil (no cost
// rows). Errors: ErrUnknownModel, ErrTooManyGPUs, ErrBadNumber.
func (e *Estimator) Estimate(j Job, quotes Quotes) (*Estimate, error) {
	j, m, typical, as, err := e.Normalize(j)
	if err != nil {
		return nil, err
	}
	s, scaled := shapeFor(j, m, typical)
	est := &Estimate{Job: j, ModelID: m.ID, Typical: typical, Layers: int(s.L), Scaled: scaled, ParamsB: m.ParamsB,
		Method: j.Method, Bits: j.Bits, SeqLen: j.SeqLen, Batch: j.Batch, Epochs: j.Epochs, Assumptions: as, Cheapest: -1, Fastest: -1}
	if j.Method == MethodLoRA || j.Method == MethodQLoRA {
		est.LoRARank = j.LoRARank
	}
	if typical {
		est.ParamsB = j.ParamsB
	}
	N, _ := s.params()
	est.VRAM = vram(s, j, 1)
	est.VRAMMin = est.VRAM.Total
	if j.Method != MethodInference {
		one := j
		one.Batch = minBatch(j)
		est.VRAMMin = round(vram(s, one, 1).Total, 1)
		est.Tokens = j.Tokens * j.Epochs
		est.FLOPs = flopsPerToken(s, j, N) * est.Tokens
	}
	est.DiskGB = diskGB(s, j, N)
	for i := range e.Cat.GPUs {
		g := &e.Cat.GPUs[i]
		if len(j.GPUs) > 0 && !contains(j.GPUs, g.ID) {
			continue
		}
		f := fit(s, j, g, N, est.Tokens)
		if f.Fits && f.GPUCount > 1 {
			est.Sharded = true
		}
		est.Fits = append(est.Fits, f)
	}
	if quotes != nil {
		e.costRows(est, quotes)
	}
	if j.Method != MethodInference {
		e.trainingNotes(est, s, N)
	}
	return est, nil
}

// trainingNotes fills what a training estimate states besides its
// figures: the stack, the loss, the padding factor and the speed-up a
// tuned stack would bring.
func (e *Estimator) trainingNotes(est *Estimate, s shape, N float64) {
	j := est.Job
	est.Stack, est.Loss = j.Stack, j.Loss
	if j.Samples > 0 && j.TokensPerSample > 0 {
		est.PaddingFactor = round(float64(j.SeqLen)/float64(j.TokensPerSample), 2)
	}
	if j.Stack == StackTuned {
		return
	}
	gpu := ""
	if est.Cheapest >= 0 {
		gpu = est.Options[est.Cheapest].GPU
	}
	for _, f := range est.Fits {
		if !f.Fits || gpu != "" && f.GPU != gpu {
			continue
		}
		g, _ := e.Cat.GPU(f.GPU)
		jj := j
		jj.Batch, jj.NoFlashAttn = f.MicroBatch, j.NoFlashAttn || !g.FlashAttn2
		tuned := jj
		tuned.Stack = StackTuned
		_, base := trainingSpeed(s, jj, g, N, f.GPUCount)
		_, fast := trainingSpeed(s, tuned, g, N, f.GPUCount)
		est.TunedSpeedup = ratioRange(fast, base)
		return
	}
}

// Throughput is the speed of j on j.GPUCount cards (0 counts as 1) of the
// catalog GPU gpu whether or not the job fits their memory, computed as
// Estimate computes Fit.TokensPerSec for a layout that fits, at j.Batch
// as the micro-batch: for training, tokens/s over all the GPUs (MFU ×
// dense BF16 peak × multi-GPU scaling, over k·N FLOPs per token, less a
// paged optimizer's traffic); for inference, single-stream decode
// tokens/s from memory bandwidth. The checks against published runs
// (internal/billing/reference) use it: those runs ran at their batch
// whatever margin the estimator keeps. Errors: those of Normalize, and a
// GPU not in the catalog.
func (e *Estimator) Throughput(j Job, gpu string) (Range, error) {
	j, m, typical, _, err := e.Normalize(j)
	if err != nil {
		return Range{}, err
	}
	g, ok := e.Cat.GPU(gpu)
	if !ok {
		return Range{}, fmt.Errorf("billing: GPU %q is not in the catalog", gpu)
	}
	n := max(j.GPUCount, 1)
	s, _ := shapeFor(j, m, typical)
	if j.Method == MethodInference {
		return decodeSpeed(s, j, g, n), nil
	}
	N, _ := s.params()
	_, tps := trainingSpeed(s, j, g, N, n)
	return tps, nil
}

// shapeFor is m's shape; when m is a typical model standing in for a size
// more than 10% away from its own, its layer count is scaled to j.ParamsB
// (scaled is then true).
func shapeFor(j Job, m *catalog.Model, typical bool) (s shape, scaled bool) {
	s = shapeOf(m)
	if typical && math.Abs(math.Log(j.ParamsB/m.ParamsB)) > math.Log(1.1) {
		return scaleTo(s, j.ParamsB), true
	}
	return s, false
}

// diskGB is the data disk a job needs: the downloaded weights (16-bit for
// training; at the serving precision for inference), the dataset (~4 bytes
// per token of text, tokenised cache included) and checkpoints (adapters
// are small; a full fine-tune keeps two).
func diskGB(s shape, j Job, N float64) float64 {
	perParam := 2.0
	if j.Method == MethodInference {
		perParam = float64(j.Bits) / 8
	}
	disk := perParam*N/1e9 + 4*j.Tokens/1e9
	if j.Method == MethodFull {
		disk += 2 * 2 * N / 1e9
	} else if j.Method != MethodInference {
		disk += 3 * 4 * s.loraParams(float64(j.LoRARank), j.LoRATargets) / 1e9
	}
	return disk
}

// fit tries j's layouts on g in order of preference and returns the first
// that fits, with its speed and, for training, the hours to train tokens;
// when none fits, Fits is false and VRAMPerGPU is the last layout's need.
func fit(s shape, j Job, g *catalog.GPU, N, tokens float64) Fit {
	f := Fit{GPU: g.ID, MemoryGB: g.MemoryGB}
	for _, c := range layouts(j) {
		jj := j
		jj.Batch = c.batch
		jj.NoFlashAttn = j.NoFlashAttn || !g.FlashAttn2
		v := vram(s, jj, c.n)
		if v.Total <= FitFraction*CapacityGB(g) {
			f.Fits, f.GPUCount, f.VRAMPerGPU, f.MicroBatch = true, c.n, round(v.Total, 1), c.batch
			break
		}
		f.VRAMPerGPU = round(v.Total, 1)
	}
	switch {
	case !f.Fits:
	case j.Method == MethodInference:
		f.TokensPerSec = decodeSpeed(s, j, g, f.GPUCount)
	default:
		jj := j
		jj.Batch, jj.NoFlashAttn = f.MicroBatch, j.NoFlashAttn || !g.FlashAttn2
		f.MFU, f.TokensPerSec = trainingSpeed(s, jj, g, N, f.GPUCount)
		f.Hours = Range{
			Low:     tokens / f.TokensPerSec.High / 3600,
			Typical: tokens / f.TokensPerSec.Typical / 3600,
			High:    tokens / f.TokensPerSec.Low / 3600,
		}
	}
	return f
}

func (e *Estimator) costRows(est *Estimate, quotes Quotes) {
	j := est.Job
	for _, f := range est.Fits {
		if !f.Fits {
			continue
		}
		for _, q := range quotes(f.GPU) {
			if j.Platform != "" && q.Platform != j.Platform {
				continue
			}
			p, ok := e.Cat.Platform(q.Platform)
			if !ok || !(q.CNYPerGPUHour > 0) {
				continue
			}
			lowP, highP := q.Low, q.High
			if !(lowP > 0) || lowP > q.CNYPerGPUHour {
				lowP = q.CNYPerGPUHour
			}
			if highP < q.CNYPerGPUHour {
				highP = q.CNYPerGPUHour
			}
			o := Option{Platform: q.Platform, GPU: f.GPU, GPUCount: f.GPUCount, PriceCNY: round(q.CNYPerGPUHour, 3),
				PriceLowCNY: lowP, PriceHighCNY: highP, PriceSource: q.Source, PriceAsOf: q.AsOf, Verified: q.Verified}
			hours := func(h float64) float64 {
				if j.Method == MethodInference {
					return 1 // inference is quoted per hour of serving
				}
				return h + SetupHours
			}
			billed := func(h float64) float64 {
				g := p.Billing.GranularityHours()
				b := math.Ceil(h/g-1e-9) * g
				if mm := p.Billing.MinimumMinutes / 60; b < mm {
					b = mm
				}
				return b * float64(f.GPUCount)
			}
			disk := func(h float64) float64 {
				if j.Method == MethodInference {
					// Serving is quoted per hour: GPUs only; disk bills per day.
					return 0
				}
				c, ok := storageCost(p, est.DiskGB, h)
				if !ok {
					return 0
				}
				return c
			}
			o.Hours = round(hours(f.Hours.Typical), 2)
			o.BilledGPUHours = round(billed(hours(f.Hours.Typical)), 3)
			o.GPUCostCNY = round(o.BilledGPUHours*q.CNYPerGPUHour, 2)
			if c, ok := storageCost(p, est.DiskGB, hours(f.Hours.Typical)); ok {
				o.StorageCostCNY = &c
			}
			o.TotalCNY = round(o.GPUCostCNY+disk(hours(f.Hours.Typical)), 2)
			// The total's range is the time range at the typical price; the
			// price range is shown beside it (PriceLowCNY/PriceHighCNY).
			o.TotalLowCNY = round(billed(hours(f.Hours.Low))*q.CNYPerGPUHour+disk(hours(f.Hours.Low)), 2)
			o.TotalHighCNY = round(billed(hours(f.Hours.High))*q.CNYPerGPUHour+disk(hours(f.Hours.High)), 2)
			est.Options = append(est.Options, o)
		}
	}
	sort.SliceStable(est.Options, func(a, b int) bool { return est.Options[a].TotalCNY < est.Options[b].TotalCNY })
	if len(est.Options) > 0 {
		est.Cheapest = 0
		est.Fastest = 0
		for i, o := range est.Options {
			if o.Hours < est.Options[est.Fastest].Hours {
				est.Fastest = i
			}
		}
	}
}

// storageCost is the data disk beyond the platform's free quota, billed per
// GB-day for the whole days the job runs (at least one). It returns 0 when
// the job fits the free quota, and false when the price is unknown.
func storageCost(p *catalog.Platform, diskGB, hours float64) (float64, bool) {
	extra := diskGB - p.Storage.DataDiskFreeGB
	if extra <= 0 {
		return 0, true
	}
	f := p.Storage.DataDiskCNYPerGBDay
	if f == nil {
		return 0, false
	}
	days := math.Max(1, math.Ceil(hours/24))
	return round(extra*f.Mid()*days, 2), true
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// String gives a one-line summary, for logs.
func (e *Estimate) String() string {
	return fmt.Sprintf("%s %s %d-bit: %.1f GB, %.3g tokens", e.ModelID, e.Method, e.Bits, e.VRAM.Total, e.Tokens)
}
