package reference

import (
	"math"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
)

// ThroughputCheck is an estimated speed range compared with a row.
type ThroughputCheck struct {
	Row  ThroughputRow
	Skip string
	GPU  string
	// GPUCount is the number of GPUs the row used; Stack the training
	// stack estimated (empty for inference).
	GPUCount int
	Stack    string
	// Range is in the row's unit: over all GPUs, or per GPU when the row
	// reports a per-GPU speed.
	Range  estimator.Range
	Inside bool
	// Assumed describes settings the row does not give.
	Assumed string
}

// Training reports whether the row is a training speed.
func (c ThroughputCheck) Training() bool {
	return !strings.HasPrefix(strings.ToLower(c.Row.Method), "inference")
}

// TypicalError is (typical - reported) / reported.
func (c ThroughputCheck) TypicalError() float64 {
	return (c.Range.Typical - c.Row.TokensPerSec) / c.Row.TokensPerSec
}

// referenceGPUs maps the reference data's GPU names to catalog ids. The
// torchtune "RTX A6000" rows exceed that card's 155 TFLOPS peak, which
// estimator.md reads as the RTX 6000 Ada. A bare "A100" is the 80 GB SXM
// card the sources' pages name elsewhere.
var referenceGPUs = map[string]string{"A100-SXM4-80G": "A100 80GB", "2x A100-SXM4-80G": "A100 80GB", "A100": "A100 80GB",
	"A100 40GB": "A100 40GB", "RTX 4090": "RTX 4090", "RTX A6000": "RTX 6000 Ada"}

// CheckThroughput estimates the speed range for every row.
func CheckThroughput(e *estimator.Estimator, rows []ThroughputRow) []ThroughputCheck {
	var out []ThroughputCheck
	for _, r := range rows {
		out = append(out, checkThroughput(e, r))
	}
	return out
}

// checkThroughput estimates one row's speed range. The range does not
// depend on the job fitting the estimator's memory margin: the published
// runs ran.
func checkThroughput(e *estimator.Estimator, r ThroughputRow) ThroughputCheck {
	c := ThroughputCheck{Row: r, GPUCount: 1}
	gpu, ok := referenceGPUs[r.GPU]
	if !ok {
		c.Skip = "GPU not in the catalog"
		return c
	}
	c.GPU = gpu
	// The rows count a step's tokens as batch × seq (packed or padded).
	j := estimator.Job{SeqLen: r.SeqLen, Batch: r.Batch, Samples: 1, TokensPerSample: r.SeqLen, Epochs: 1, GPUs: []string{gpu}}
	var as []string
	if skip := setModel(e, r.Model, 0, &j, &as); skip != "" {
		c.Skip = skip
		return c
	}
	if !setSpeedMethod(r, &j, &c) {
		c.Skip = "method not modelled"
		return c
	}
	if c.Training() {
		setStack(r.Source, r.Notes, r.Tags, &j, &as)
		c.Stack = j.Stack
		if r.GPUs > 1 {
			c.GPUCount, j.ZeRO = r.GPUs, 3
			as = append(as, "ZeRO-3")
		}
	}
	j.GPUCount = c.GPUCount
	speed, err := e.Throughput(j, gpu)
	if err != nil {
		c.Skip = err.Error()
		return c
	}
	if r.PerGPU {
		n := float64(c.GPUCount)
		speed = estimator.Range{Low: speed.Low / n, Typical: speed.Typical / n, High: speed.High / n}
	}
	c.Range, c.Assumed = speed, strings.Join(as, ", ")
	c.Inside = r.TokensPerSec >= c.Range.Low && r.TokensPerSec <= c.Range.High
	return c
}

// setSpeedMethod sets j's method, precision and optimizer from the row's
// method text ("qlora_int4", "full (PagedAdamW8bit, optimizer_in_bwd)"),
// and for inference the GPUs; false when the method is not modelled.
// torchtune's full fine-tune rows that name no optimizer ran the recipe's
// default (8B_full_single_device.yaml: PagedAdamW8bit fused into the
// backward pass).
func setSpeedMethod(r ThroughputRow, j *estimator.Job, c *ThroughputCheck) bool {
	m := strings.ToLower(r.Method)
	switch {
	case strings.HasPrefix(m, "inference"):
		j.Method, j.Bits = estimator.MethodInference, 16
		if strings.Contains(m, "int4") {
			j.Bits = 4
		}
		if strings.Contains(m, "2x") || strings.HasPrefix(r.GPU, "2x") {
			c.GPUCount = 2
		}
	case strings.HasPrefix(m, "qlora"):
		j.Method, j.Bits = estimator.MethodQLoRA, 4
	case strings.HasPrefix(m, "lora"):
		j.Method, j.Bits = estimator.MethodLoRA, 16
	case strings.HasPrefix(m, "full"):
		j.Method, j.Bits = estimator.MethodFull, 16
		if m == "full" && strings.Contains(r.Source, "torchtune") && strings.Contains(r.Source, "@bd2a0fc (") {
			m = "full (pagedadamw8bit, optimizer_in_bwd)"
		}
		switch {
		case strings.Contains(m, "pagedadamw8bit"):
			j.Optimizer = estimator.OptimizerPagedAdamW8bit
		case strings.Contains(m, "pagedadamw"):
			j.Optimizer = estimator.OptimizerPagedAdamW
		case strings.Contains(m, "adamw8bit"):
			j.Optimizer = estimator.OptimizerAdamW8bit
		}
		j.OptimInBwd = strings.Contains(m, "optimizer_in_bwd")
	default:
		return false
	}
	return true
}

// ThroughputStats sums up the throughput checks.
type ThroughputStats struct {
	// Inside is the rows inside their range, of Compared.
	Inside, Compared int
	// Training is the training rows; MedianTypical the median of
	// |typical - reported| / reported over them.
	Training      int
	MedianTypical float64
}

// SummarizeThroughput computes the ThroughputStats of checks.
func SummarizeThroughput(cs []ThroughputCheck) ThroughputStats {
	var st ThroughputStats
	var errs []float64
	for _, c := range cs {
		if c.Skip != "" {
			continue
		}
		st.Compared++
		if c.Inside {
			st.Inside++
		}
		if c.Training() {
			st.Training++
			errs = append(errs, math.Abs(c.TypicalError()))
		}
	}
	st.MedianTypical = median(errs)
	return st
}
