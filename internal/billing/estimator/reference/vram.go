package reference

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
)

// Bound says how a reported figure is to be read.
type Bound string

const (
	// BoundPoint: a measured or estimated peak.
	BoundPoint Bound = "point"
	// BoundUpper: the source says "< X" (the job fits under X).
	BoundUpper Bound = "upper"
	// BoundLower: the source says "> X".
	BoundLower Bound = "lower"
	// BoundCapacity: the longest context that fits a card of X GiB; the
	// estimate must lie within CapacityMargin under the card.
	BoundCapacity Bound = "capacity"
)

// CapacityMargin is how far under the card a capacity row's estimate may
// lie (the job just fits the card, so the estimate must not exceed it).
const CapacityMargin = 0.08

// VRAMCheck is an estimate compared with a reference row.
type VRAMCheck struct {
	Row VRAMRow
	// Skip is the reason a row is not expressible by the estimator; empty
	// when it was estimated.
	Skip  string
	Job   estimator.Job
	Bound Bound
	// GPUs is the number of GPUs the row's figure sums over (1, or 2 and 4
	// for the Qwen README's multi-GPU rows); EstimateGB is summed too.
	GPUs       int
	EstimateGB float64
	// TargetGB is the figure compared with: the reported GB, or a capacity
	// row's card in GB (GiB × 1.074).
	TargetGB float64
	// Error is (estimate - target) / target.
	Error float64
	// Assumed describes settings the row does not give.
	Assumed string
}

// OK reports whether the check meets its bound: a point or lower-bound row
// at most 10% under, an upper bound not exceeded, a capacity row within
// CapacityMargin under the card.
func (c VRAMCheck) OK() bool {
	switch {
	case c.Skip != "":
		return true
	case c.Bound == BoundUpper:
		return c.EstimateGB <= c.TargetGB
	case c.Bound == BoundCapacity:
		return c.Error <= 0 && c.Error >= -CapacityMargin
	}
	return c.Error >= -0.10
}

// referenceModels maps names in the reference data to catalog ids.
var referenceModels = map[string]string{"Llama-3.1-8B": "Llama-3-8B", "Guanaco-7B": "LLaMA-7B", "Guanaco-65B": "LLaMA-65B"}

// jobForRow maps a reference row to a Job, its bound and the settings it
// assumed, or gives the reason (skip) it cannot.
// Rows without a sequence length (rule-of-thumb tables) are compared at
// seq 512 and batch 1.
func jobForRow(e *estimator.Estimator, r VRAMRow) (j estimator.Job, bound Bound, assumed, skip string) {
	bound = boundOf(r)
	j = estimator.Job{SeqLen: r.SeqLen, Batch: r.Batch, Samples: 1, TokensPerSample: 1, Epochs: 1, GPUCount: 1}
	var as []string
	if skip := setModel(e, r.Model, r.ParamsB, &j, &as); skip != "" {
		return j, bound, "", skip
	}
	j.LoRARank = loraRank(r.Source, r.Notes)
	if qvOnly.MatchString(r.Notes) {
		j.LoRATargets = estimator.TargetsQV
	}
	if r.Method != "inference" {
		setStack(r.Source, r.Notes, r.Tags, &j, &as)
	}
	j.NoGradCkpt = !r.GradCkpt && r.Method != "inference"
	if r.SeqLen == 0 && r.Method != "inference" {
		j.SeqLen = 512
		j.NoGradCkpt = false
		as = append(as, "seq 512")
	}
	if r.Batch == 0 {
		j.Batch = 1
		as = append(as, "batch 1")
	}
	j.TokensPerSample = j.SeqLen
	if skip := setMethod(r, &j, &as); skip != "" {
		return j, bound, "", skip
	}
	j.NoDoubleQuant = strings.Contains(r.Notes, "no double quant")
	if strings.Contains(r.Source, "QwenLM/Qwen") && j.Method == estimator.MethodQLoRA {
		// "For single-GPU training, we have to use DeepSpeed for
		// mixed-precision training" (Qwen README, Q-LoRA).
		j.ZeRO = 2
		as = append(as, "DeepSpeed ZeRO-2 on one GPU")
	}
	if strings.Contains(r.Notes, "allocator caches more") {
		// The same job peaks at 17.4 GB on a 24 GB card; on a 48 GB card
		// the caching allocator holds more than the job needs.
		bound = BoundUpper
		as = append(as, "allocator caching on a 48 GB card")
	}
	return j, bound, strings.Join(as, ", "), ""
}

// boundOf reads a row's notes: "capacity=" is a capacity row, "'< X GB'"
// an upper bound, "> X GB" a lower one.
func boundOf(r VRAMRow) Bound {
	switch {
	case r.Tags.CapacityGiB > 0:
		return BoundCapacity
	case strings.Contains(r.Notes, "'<"):
		return BoundUpper
	case strings.Contains(r.Notes, ">") && strings.Contains(r.Notes, "GB"):
		return BoundLower
	}
	return BoundPoint
}

// setModel sets j's model: a catalog id, or for "generic-" rows the size
// alone (the estimator's typical configuration). It returns a skip reason
// for other models.
func setModel(e *estimator.Estimator, model string, paramsB float64, j *estimator.Job, as *[]string) (skip string) {
	if id, ok := referenceModels[model]; ok {
		j.Model = id
	} else if _, ok := e.Cat.Model(model); ok {
		j.Model = model
	} else if strings.HasPrefix(model, "generic-") {
		j.ParamsB = paramsB
		*as = append(*as, "typical config")
	} else {
		return "model not in the catalog"
	}
	return ""
}

var (
	loraRRe = regexp.MustCompile(`lora_r=(\d+)|\br(\d{1,3})\b`)
	// qvOnly is a LoRA on q and v only ("r8 q,v;", "on q,v"), not "q,v,o".
	qvOnly = regexp.MustCompile(`\bq,v(?:[^,]|$)`)
)

// loraRank is the LoRA rank the row's source or notes give ("r8",
// "lora_r=64"), else the source's default: Qwen's finetune.py r=64; the
// QLoRA paper's memory breakdown (LoRA parameters of 26 MB at 7B: a small
// adapter, not its r=64 accuracy setting), torchtune and LLaMA-Factory 8.
func loraRank(source, notes string) int {
	for _, s := range []string{notes, source} {
		if m := loraRRe.FindStringSubmatch(s); m != nil {
			v, _ := strconv.Atoi(m[1] + m[2])
			return v
		}
	}
	if strings.Contains(source, "Qwen") {
		return 64
	}
	return 8
}

// setStack sets the training stack and what the source's software does
// with memory: the notes' stack= and loss= tags where given, else by
// source (torchtune: tuned with chunked cross entropy; the Qwen scripts
// and the rest: FlashAttention-2 with the model's default loss).
// QLoRA casts the non-quantised parameters to fp32 only through PEFT's
// prepare_model_for_kbit_training: LLaMA-Factory prepares its models
// itself, Qwen's scripts train GPTQ bases (which PEFT leaves alone) and
// LitGPT and torchtune are their own. A tuned stack keeps checkpoints on
// the GPU unless the source offloads them (Unsloth's gradient
// checkpointing, torchtune's activation offloading in its
// "Optimization flags" table).
func setStack(source, notes string, t Tags, j *estimator.Job, as *[]string) {
	j.Stack = estimator.StackFA2
	if strings.Contains(source, "torchtune") {
		j.Stack, j.Loss = estimator.StackTuned, estimator.LossChunked
	}
	if t.Stack != "" {
		j.Stack = t.Stack
	}
	if t.Loss != "" {
		j.Loss = t.Loss
	}
	for _, s := range []string{"LLaMA-Factory", "Llama-Factory", "QwenLM/Qwen", "litgpt", "torchtune"} {
		if strings.Contains(source, s) {
			j.NoFP32Cast = true
		}
	}
	j.NoOffload = !strings.Contains(notes, "Unsloth gradient checkpointing") && !strings.Contains(source, "'Optimization flags'")
	desc := "stack " + j.Stack
	if j.Loss != "" {
		desc += ", loss " + j.Loss
	}
	if j.Stack == estimator.StackTuned && !j.NoOffload {
		desc += ", checkpoints offloaded"
	}
	*as = append(*as, desc)
}

// methodSpec is the Job a reference method stands for.
type methodSpec struct {
	method string
	// bits is the weight precision; 0 takes the row's.
	bits            int
	gpus, zero      int
	trainEmbeddings bool
	optimizer       string
	optimInBwd      bool
	// assumed describes what the row does not say.
	assumed string
}

// referenceMethods maps the reference data's methods to Job settings.
// The multi-GPU rows are summed over A100s running DeepSpeed ZeRO-3, as
// the Qwen scripts use.
var referenceMethods = map[string]methodSpec{
	"lora":                              {method: estimator.MethodLoRA, bits: 16},
	"lora_emb":                          {method: estimator.MethodLoRA, bits: 16, trainEmbeddings: true},
	"qlora":                             {method: estimator.MethodQLoRA},
	"full_amp_adamw":                    {method: estimator.MethodFull, bits: 16},
	"full_16bit":                        {method: estimator.MethodFull, bits: 16},
	"full_pure_bf16":                    {method: estimator.MethodFull, bits: 16, optimizer: estimator.OptimizerPureBF16},
	"full_paged_adamw8bit_optim_in_bwd": {method: estimator.MethodFull, bits: 16, optimizer: estimator.OptimizerPagedAdamW8bit, optimInBwd: true},
	"full_paged_adamw_optim_in_bwd":     {method: estimator.MethodFull, bits: 16, optimizer: estimator.OptimizerPagedAdamW, optimInBwd: true},
	"inference":                         {method: estimator.MethodInference},
	"full_2gpu":                         {method: estimator.MethodFull, bits: 16, gpus: 2, zero: 3, assumed: "ZeRO-3 on 2 GPUs, per-GPU estimate × 2"},
	"lora_zero3_4gpu":                   {method: estimator.MethodLoRA, bits: 16, gpus: 4, zero: 3, assumed: "ZeRO-3 on 4 GPUs, per-GPU estimate × 4"},
}

// setMethod sets j's method, precision and GPUs from the row's method, or
// returns the reason it is not modelled. Inference rows without a context
// length are compared at 512.
func setMethod(r VRAMRow, j *estimator.Job, as *[]string) (skip string) {
	m, ok := referenceMethods[r.Method]
	switch {
	case !ok:
		return "method not modelled"
	case m.method == estimator.MethodQLoRA && r.Bits != 4 && r.Bits != 8:
		return fmt.Sprintf("%d-bit QLoRA is not modelled", r.Bits)
	}
	j.Method, j.Bits, j.TrainEmbeddings, j.Optimizer, j.OptimInBwd = m.method, m.bits, m.trainEmbeddings, m.optimizer, m.optimInBwd
	if m.bits == 0 {
		j.Bits = r.Bits
	}
	if m.gpus > 0 {
		j.GPUCount, j.ZeRO = m.gpus, m.zero
	}
	if m.method == estimator.MethodInference && j.SeqLen == 0 {
		j.SeqLen = 512
		*as = append(*as, "context 512")
	}
	if m.assumed != "" {
		*as = append(*as, m.assumed)
	}
	return ""
}

// CheckVRAM estimates every reference row it can express.
func CheckVRAM(e *estimator.Estimator, rows []VRAMRow) []VRAMCheck {
	var out []VRAMCheck
	for _, r := range rows {
		j, bound, assumed, skip := jobForRow(e, r)
		c := VRAMCheck{Row: r, Job: j, Bound: bound, Skip: skip, Assumed: assumed, GPUs: 1, TargetGB: r.ReportedGB}
		if bound == BoundCapacity {
			c.TargetGB = r.ReportedGB * (1 << 30) / 1e9
		}
		if skip == "" {
			if j.GPUCount > 1 {
				c.GPUs = j.GPUCount
				j.GPUs = []string{"A100 80GB"}
			}
			est, err := e.Estimate(j, nil)
			switch {
			case err != nil:
				c.Skip = err.Error()
			case j.GPUCount > 1:
				c.EstimateGB = est.Fits[0].VRAMPerGPU * float64(j.GPUCount)
			default:
				c.EstimateGB = est.VRAM.Total
			}
			if c.Skip == "" {
				c.Error = (c.EstimateGB - c.TargetGB) / c.TargetGB
			}
		}
		out = append(out, c)
	}
	return out
}

// VRAMStats sums up the VRAM checks.
type VRAMStats struct {
	// Compared is the number of rows estimated; Median the median
	// absolute error over the N point and capacity rows.
	Compared, N int
	Median      float64
	// WorstUnder is the most negative error over point and lower-bound
	// rows (0 when none is under).
	WorstUnder float64
	// Capacity rows, and those within CapacityMargin under the card;
	// Bounds, and the upper and lower bounds met.
	Capacity, CapacityOK, Bounds, BoundsOK int
}

// SummarizeVRAM computes the VRAMStats of checks.
func SummarizeVRAM(cs []VRAMCheck) VRAMStats {
	var st VRAMStats
	var errs []float64
	for _, c := range cs {
		if c.Skip != "" {
			continue
		}
		st.Compared++
		switch c.Bound {
		case BoundPoint, BoundCapacity:
			errs = append(errs, math.Abs(c.Error))
		}
		switch c.Bound {
		case BoundCapacity:
			st.Capacity++
			if c.OK() {
				st.CapacityOK++
			}
		case BoundUpper, BoundLower:
			st.Bounds++
			if c.OK() {
				st.BoundsOK++
			}
		}
		if c.Bound != BoundUpper && c.Bound != BoundCapacity && c.Error < st.WorstUnder {
			st.WorstUnder = c.Error
		}
	}
	st.N, st.Median = len(errs), median(errs)
	return st
}

// median is the median of xs (0 for none); xs is sorted in place.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	m := xs[len(xs)/2]
	if len(xs)%2 == 0 {
		m = (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
	}
	return m
}
