package app

import (
	"fmt"
	"math"
	"slices"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/i18n"
)

// EstimateFlags are `bot estimate`'s flags before validation.
type EstimateFlags struct {
	Model, Method, GPU, Platform string
	ParamsB, Tokens, Epochs      float64
	Bits, SeqLen, Batch, Samples int
	TokensPerSample, GPUCount    int
	LoRARank, ZeRO               int
	Targets, Optimizer, Stack    string
	NoGradCkpt, NoFlashAttn      bool
	// Given names the numeric flags set explicitly ("seq", "batch", …):
	// an explicit zero is an error rather than "use the default".
	Given []string
}

// Job validates the flags and returns the job. Errors name the flag.
func (f EstimateFlags) Job() (estimator.Job, error) {
	j := estimator.Job{Model: f.Model, ParamsB: f.ParamsB, Method: f.Method, Bits: f.Bits, SeqLen: f.SeqLen, Batch: f.Batch,
		Samples: f.Samples, TokensPerSample: f.TokensPerSample, Tokens: f.Tokens, Epochs: f.Epochs, GPUCount: f.GPUCount,
		LoRARank: f.LoRARank, Platform: f.Platform, NoGradCkpt: f.NoGradCkpt, NoFlashAttn: f.NoFlashAttn, ZeRO: f.ZeRO}
	switch f.Targets {
	case "", "all":
	case "attn", "qv":
		j.LoRATargets = f.Targets
	default:
		return j, fmt.Errorf("--targets: %q is not all, attn or qv", f.Targets)
	}
	switch f.Optimizer {
	case "", "adamw":
	case estimator.OptimizerAdamW8bit, estimator.OptimizerPureBF16:
		j.Optimizer = f.Optimizer
	default:
		return j, fmt.Errorf("--optimizer: %q is not adamw, adamw8bit or bf16", f.Optimizer)
	}
	switch {
	case f.Stack == "":
	case slices.Contains(estimator.Stacks, f.Stack):
		j.Stack = f.Stack
	default:
		return j, fmt.Errorf("--stack: %q is not hf, fa2 or tuned", f.Stack)
	}
	if err := f.checkMethod(); err != nil {
		return j, err
	}
	if err := f.checkNumbers(); err != nil {
		return j, err
	}
	if f.ParamsB > 20000 {
		return j, fmt.Errorf("--params: %g billion is beyond any model; give the size in billions (7 for 7B)", f.ParamsB)
	}
	if f.GPUCount > estimator.MaxGPUs {
		return j, classified(estimator.ErrTooManyGPUs, "--gpus: %d is more than one machine holds (%d); multi-node jobs are not estimated", f.GPUCount, estimator.MaxGPUs)
	}
	if f.Samples > 0 && f.Tokens > 0 {
		return j, fmt.Errorf("--samples and --tokens both give the dataset size; use one")
	}
	if f.Model == "" && f.ParamsB == 0 {
		return j, fmt.Errorf("give --model NAME or --params SIZE_IN_BILLIONS")
	}
	return j, nil
}

// checkMethod checks --zero, --method, --bits and that they agree.
func (f EstimateFlags) checkMethod() error {
	switch f.ZeRO {
	case 0, 2, 3:
	default:
		return fmt.Errorf("--zero: %d is not 2 or 3", f.ZeRO)
	}
	switch f.Method {
	case "", estimator.MethodFull, estimator.MethodLoRA, estimator.MethodQLoRA, estimator.MethodInference:
	default:
		return fmt.Errorf("--method: %q is not full, lora, qlora or inference", f.Method)
	}
	switch f.Bits {
	case 0, 4, 8, 16, 32:
	default:
		return fmt.Errorf("--bits: %d is not 32, 16, 8 or 4", f.Bits)
	}
	switch {
	case f.Method == estimator.MethodQLoRA && (f.Bits == 16 || f.Bits == 32):
		return fmt.Errorf("--bits %d contradicts --method qlora (4 or 8 bits); use --method lora for 16-bit", f.Bits)
	case f.Method == estimator.MethodFull && f.Bits > 0 && f.Bits < 16:
		return fmt.Errorf("--bits %d: a full fine-tune trains 16- or 32-bit weights; use --method qlora for %d-bit", f.Bits, f.Bits)
	case f.Method == estimator.MethodInference && f.Bits == 32:
		return fmt.Errorf("--bits 32: inference is estimated at 16, 8 or 4 bits")
	}
	return nil
}

// checkNumbers checks the numeric flags: numbers, not negative, and
// positive when given.
func (f EstimateFlags) checkNumbers() error {
	nums := map[string]float64{"params": f.ParamsB, "tokens": f.Tokens, "epochs": f.Epochs, "seq": float64(f.SeqLen), "batch": float64(f.Batch),
		"samples": float64(f.Samples), "tokens-per-sample": float64(f.TokensPerSample), "gpus": float64(f.GPUCount), "rank": float64(f.LoRARank)}
	for _, name := range []string{"params", "tokens", "epochs", "seq", "batch", "samples", "tokens-per-sample", "gpus", "rank"} {
		v := nums[name]
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("--%s: %v is not a number", name, v)
		case v < 0:
			return fmt.Errorf("--%s: must not be negative, got %v", name, v)
		case v == 0 && slices.Contains(f.Given, name):
			return fmt.Errorf("--%s: must be positive (leave it out for the default)", name)
		}
	}
	return nil
}

// ResolveJob maps the names in a job (model, GPU, platform) to catalog ids.
// A model the catalog lacks keeps its name and is estimated from its size
// (--params, else the size in its name: "xxx-7b"), with the typical
// configuration nearest in size; without either it is an error wrapping
// estimator.ErrUnknownModel. A model that is not a language model (BERT,
// ResNet) wraps estimator.ErrNotLLM. A known model with a --params that
// disagrees by more than 10% is an error.
func (a *App) ResolveJob(j estimator.Job, gpu string) (estimator.Job, error) {
	if j.Model != "" {
		id, ok := a.Cat.ResolveModel(j.Model)
		size, sized := catalog.SizeInName(j.Model)
		if w, isWork := a.Cat.ResolveWorkloadModel(j.Model); !ok && isWork {
			return j, classified(estimator.ErrNotLLM, "--model: %s is not a language model; ask in a question instead, e.g. bot ask \"%s\"", w, i18n.ZH.T("cli.train_question", j.Model))
		}
		switch {
		case !ok && j.ParamsB == 0 && !sized:
			return j, classified(estimator.ErrUnknownModel, "--model: unknown model %q; give its size with --params (e.g. --params 7) or a size in the name (xxx-7b)", j.Model)
		case !ok && j.ParamsB == 0:
			j.ParamsB = size
		case !ok:
		default:
			m, _ := a.Cat.Model(id)
			if j.ParamsB > 0 && math.Abs(j.ParamsB-m.ParamsB) > 0.1*m.ParamsB {
				return j, fmt.Errorf("--params %g contradicts --model %s (%gB); give one of them", j.ParamsB, id, m.ParamsB)
			}
			j.Model = id
		}
	}
	if gpu != "" {
		id, ok := a.Cat.ResolveGPU(gpu)
		members := a.Cat.FamilyMembers(gpu)
		if m := a.Cat.FindGPUs(catalog.Fold(gpu)); !ok && len(members) == 0 && len(m) > 0 {
			// "a100", "h100" as the help writes them: the family's members.
			if m[0].Family {
				members = a.Cat.FamilyMembers(m[0].ID)
			} else {
				id, ok = m[0].ID, true
			}
		}
		switch {
		case ok:
			j.GPUs = []string{id}
		case len(members) > 0:
			j.GPUs = members
		default:
			return j, fmt.Errorf("--gpu: unknown GPU %q", gpu)
		}
	}
	if j.Platform != "" {
		id, ok := a.Cat.ResolvePlatform(j.Platform)
		if !ok {
			return j, fmt.Errorf("--platform: unknown platform %q", j.Platform)
		}
		j.Platform = id
	}
	return j, nil
}

// classifiedError is a flag error whose message is its own and which
// unwraps to the estimator error that classifies it (for `bot estimate
// --format json`'s reason).
type classifiedError struct {
	msg  string
	kind error
}

func (e classifiedError) Error() string { return e.msg }
func (e classifiedError) Unwrap() error { return e.kind }

// classified formats a flag error classified as kind.
func classified(kind error, format string, args ...any) error {
	return classifiedError{msg: fmt.Sprintf(format, args...), kind: kind}
}
