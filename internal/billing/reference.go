package billing

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
)

// VRAMRow is one published memory measurement or estimate
// (../shared/data/estimator/vram_reference.csv).
type VRAMRow struct {
	Source, Model, Method, Notes string
	ParamsB                      float64
	Bits, SeqLen, Batch          int
	GradCkpt                     bool
	// ReportedGB is the published peak in GB (1e9 bytes).
	ReportedGB float64
}

// Bound says how a reported figure is to be read.
type Bound string

const (
	// BoundPoint: a measured or estimated peak.
	BoundPoint Bound = "point"
	// BoundUpper: the source says "< X" (the job fits under X).
	BoundUpper Bound = "upper"
	// BoundLower: the source says "> X".
	BoundLower Bound = "lower"
)

// VRAMCheck is an estimate compared with a reference row.
type VRAMCheck struct {
	Row VRAMRow
	// Skip is the reason a row is not expressible by the estimator; empty
	// when it was estimated.
	Skip  string
	Job   Job
	Bound Bound
	// GPUs is the number of GPUs the row's figure sums over (1, or 2 and 4
	// for the Qwen README's multi-GPU rows); EstimateGB is summed too.
	GPUs       int
	EstimateGB float64
	// Error is (estimate - reported) / reported.
	Error float64
	// Assumed describes settings the row does not give.
	Assumed string
}

// ReadVRAMReference parses vram_reference.csv.
func ReadVRAMReference(r io.Reader) ([]VRAMRow, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("vram reference: %w", err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("vram reference: no rows")
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, c := range []string{"source", "model", "params_b", "method", "bits", "seq_len", "batch", "grad_ckpt", "reported_vram_gb", "notes"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("vram reference: column %q missing", c)
		}
	}
	var rows []VRAMRow
	for i, rec := range recs[1:] {
		atoi := func(c string) int { v, _ := strconv.Atoi(strings.TrimSpace(rec[col[c]])); return v }
		atof := func(c string) float64 { v, _ := strconv.ParseFloat(strings.TrimSpace(rec[col[c]]), 64); return v }
		row := VRAMRow{Source: rec[col["source"]], Model: rec[col["model"]], Method: rec[col["method"]], Notes: rec[col["notes"]],
			ParamsB: atof("params_b"), Bits: atoi("bits"), SeqLen: atoi("seq_len"), Batch: atoi("batch"),
			GradCkpt: rec[col["grad_ckpt"]] == "true", ReportedGB: atof("reported_vram_gb")}
		if !(row.ReportedGB > 0) {
			return nil, fmt.Errorf("vram reference: row %d: reported_vram_gb %q", i+2, rec[col["reported_vram_gb"]])
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// referenceModels maps names in the reference data to catalog ids.
var referenceModels = map[string]string{"Llama-3.1-8B": "Llama-3-8B", "Guanaco-7B": "LLaMA-7B", "Guanaco-65B": "LLaMA-65B"}

// JobForRow maps a reference row to a Job, or says why it cannot.
// Rows without a sequence length (rule-of-thumb tables) are compared at
// seq 512 and batch 1; LoRA ranks follow each source's default (Qwen
// finetune.py r=64, torchtune and LLaMA-Factory r=8, QLoRA paper r=64).
func (e *Estimator) JobForRow(r VRAMRow) (Job, Bound, string, string) {
	bound := BoundPoint
	switch {
	case strings.Contains(r.Notes, "'<"):
		bound = BoundUpper
	case strings.Contains(r.Notes, ">") && strings.Contains(r.Notes, "GB"):
		bound = BoundLower
	}
	j := Job{SeqLen: r.SeqLen, Batch: r.Batch, Samples: 1, TokensPerSample: 1, Epochs: 1, GPUCount: 1}
	var assumed []string
	if id, ok := referenceModels[r.Model]; ok {
		j.Model = id
	} else if _, ok := e.Cat.Model(r.Model); ok {
		j.Model = r.Model
	} else if strings.HasPrefix(r.Model, "generic-") {
		j.ParamsB = r.ParamsB
		assumed = append(assumed, "typical config")
	} else {
		return j, bound, "", "model not in the catalog"
	}
	switch {
	case strings.Contains(r.Source, "Qwen"):
		j.LoRARank = 64
	case strings.Contains(r.Source, "QLoRA paper"):
		// The paper's memory breakdown gives LoRA parameters of 26 MB at
		// 7B: a small adapter, not its r=64 accuracy setting.
		j.LoRARank = 8
	default:
		j.LoRARank = 8
	}
	if strings.Contains(r.Source, "torchtune") {
		// torchtune's recipes compute the loss with chunked cross entropy
		// on a tuned stack (packed sequences, torch.compile).
		j.ChunkedCE, j.Optimized = true, true
		assumed = append(assumed, "chunked cross entropy, optimised stack")
	}
	j.NoGradCkpt = !r.GradCkpt && r.Method != "inference"
	if r.SeqLen == 0 && r.Method != "inference" {
		j.SeqLen = 512
		j.NoGradCkpt = false
		assumed = append(assumed, "seq 512")
	}
	if r.Batch == 0 {
		j.Batch = 1
		assumed = append(assumed, "batch 1")
	}
	switch r.Method {
	case "lora":
		j.Method, j.Bits = MethodLoRA, 16
	case "lora_emb":
		j.Method, j.Bits, j.TrainEmbeddings = MethodLoRA, 16, true
	case "qlora":
		if r.Bits != 4 && r.Bits != 8 {
			return j, bound, "", fmt.Sprintf("%d-bit QLoRA is not modelled", r.Bits)
		}
		j.Method, j.Bits = MethodQLoRA, r.Bits
	case "full_amp_adamw", "full_16bit":
		j.Method, j.Bits = MethodFull, 16
	case "full_pure_bf16":
		j.Method, j.Bits, j.Optimizer = MethodFull, 16, OptimizerPureBF16
	case "inference":
		j.Method, j.Bits = MethodInference, r.Bits
		if j.SeqLen == 0 {
			j.SeqLen = 512
			assumed = append(assumed, "context 512")
		}
	case "full_2gpu":
		// Summed over 2 A100s; DeepSpeed ZeRO-3 as the Qwen scripts use.
		j.Method, j.Bits, j.GPUCount, j.ZeRO = MethodFull, 16, 2, 3
		assumed = append(assumed, "ZeRO-3 on 2 GPUs, per-GPU estimate × 2")
	case "lora_zero3_4gpu":
		j.Method, j.Bits, j.GPUCount, j.ZeRO = MethodLoRA, 16, 4, 3
		assumed = append(assumed, "ZeRO-3 on 4 GPUs, per-GPU estimate × 4")
	case "full_paged_adamw8bit_optim_in_bwd":
		return j, bound, "", "optimizer-in-backward (gradients freed per layer) is not modelled"
	default:
		return j, bound, "", "method not modelled"
	}
	if strings.Contains(r.Notes, "allocator caches more") {
		// The same job peaks at 17.4 GB on a 24 GB card; on a 48 GB card
		// the caching allocator holds more than the job needs.
		bound = BoundUpper
		assumed = append(assumed, "allocator caching on a 48 GB card")
	}
	return j, bound, strings.Join(assumed, ", "), ""
}

// CheckVRAM estimates every reference row it can express.
func (e *Estimator) CheckVRAM(rows []VRAMRow) []VRAMCheck {
	var out []VRAMCheck
	for _, r := range rows {
		j, bound, assumed, skip := e.JobForRow(r)
		c := VRAMCheck{Row: r, Job: j, Bound: bound, Skip: skip, Assumed: assumed, GPUs: 1}
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
				c.Error = (c.EstimateGB - r.ReportedGB) / r.ReportedGB
			}
		}
		out = append(out, c)
	}
	return out
}

// VRAMSummary gives the median absolute error over point rows and the
// worst under-estimate over rows that may not be under-estimated (point
// and lower-bound rows).
func VRAMSummary(cs []VRAMCheck) (median, worstUnder float64, n int) {
	var errs []float64
	for _, c := range cs {
		if c.Skip != "" {
			continue
		}
		if c.Bound == BoundPoint {
			errs = append(errs, math.Abs(c.Error))
		}
		if c.Bound != BoundUpper && c.Error < worstUnder {
			worstUnder = c.Error
		}
	}
	sort.Float64s(errs)
	if len(errs) == 0 {
		return 0, worstUnder, 0
	}
	m := errs[len(errs)/2]
	if len(errs)%2 == 0 {
		m = (errs[len(errs)/2-1] + errs[len(errs)/2]) / 2
	}
	return m, worstUnder, len(errs)
}

// ThroughputRow is one published training or decode speed
// (../shared/data/estimator/throughput_reference.csv).
type ThroughputRow struct {
	Source, Model, Method, GPU, Notes string
	SeqLen, Batch                     int
	// TokensPerSec is the reported speed.
	TokensPerSec float64
}

var tokPerSecRe = regexp.MustCompile(`([0-9]+(?:\.[0-9]+)?)\s*tok/s`)

// ReadThroughputReference parses throughput_reference.csv; the speed is
// the "N tok/s" figure in reported_tokens_per_s_or_step_time.
func ReadThroughputReference(r io.Reader) ([]ThroughputRow, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("throughput reference: %w", err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("throughput reference: no rows")
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, c := range []string{"source", "model", "method", "gpu", "seq_len", "batch", "reported_tokens_per_s_or_step_time", "notes"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("throughput reference: column %q missing", c)
		}
	}
	var rows []ThroughputRow
	for i, rec := range recs[1:] {
		m := tokPerSecRe.FindStringSubmatch(rec[col["reported_tokens_per_s_or_step_time"]])
		if m == nil {
			return nil, fmt.Errorf("throughput reference: row %d: no tok/s figure in %q", i+2, rec[col["reported_tokens_per_s_or_step_time"]])
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		seq, _ := strconv.Atoi(strings.TrimSpace(rec[col["seq_len"]]))
		batch, _ := strconv.Atoi(strings.Fields(rec[col["batch"]] + " 1")[0])
		rows = append(rows, ThroughputRow{Source: rec[col["source"]], Model: rec[col["model"]], Method: rec[col["method"]],
			GPU: rec[col["gpu"]], Notes: rec[col["notes"]], SeqLen: seq, Batch: batch, TokensPerSec: v})
	}
	return rows, nil
}

// ThroughputCheck is an estimated speed range compared with a row.
type ThroughputCheck struct {
	Row  ThroughputRow
	Skip string
	GPU  string
	// GPUCount is the number of GPUs the row used.
	GPUCount int
	Range    Range
	Inside   bool
}

// referenceGPUs maps the reference data's GPU names to catalog ids. The
// torchtune "RTX A6000" rows exceed that card's 155 TFLOPS peak, which
// estimator.md reads as the RTX 6000 Ada.
var referenceGPUs = map[string]string{"A100-SXM4-80G": "A100 80GB", "2x A100-SXM4-80G": "A100 80GB", "A100": "A100 80GB",
	"RTX 4090": "RTX 4090", "RTX A6000": "RTX 6000 Ada"}

// CheckThroughput estimates the speed range for every row.
func (e *Estimator) CheckThroughput(rows []ThroughputRow) []ThroughputCheck {
	var out []ThroughputCheck
	for _, r := range rows {
		c := ThroughputCheck{Row: r, GPUCount: 1}
		gpu, ok := referenceGPUs[r.GPU]
		if !ok {
			c.Skip = "GPU not in the catalog"
			out = append(out, c)
			continue
		}
		c.GPU = gpu
		j := Job{SeqLen: r.SeqLen, Batch: r.Batch, Samples: 1, TokensPerSample: 1, Epochs: 1, GPUs: []string{gpu},
			Optimized: strings.Contains(r.Source, "torchtune")}
		if id, ok := referenceModels[r.Model]; ok {
			j.Model = id
		} else {
			j.Model = r.Model
		}
		m := strings.ToLower(r.Method)
		switch {
		case strings.HasPrefix(m, "inference"):
			j.Method, j.Bits = MethodInference, 16
			if strings.Contains(m, "int4") {
				j.Bits = 4
			}
			if strings.Contains(m, "2x") || strings.HasPrefix(r.GPU, "2x") {
				c.GPUCount = 2
			}
		case strings.HasPrefix(m, "qlora"):
			j.Method, j.Bits = MethodQLoRA, 4
		case strings.HasPrefix(m, "lora"):
			j.Method, j.Bits = MethodLoRA, 16
		case strings.HasPrefix(m, "full"):
			j.Method, j.Bits = MethodFull, 16
		default:
			c.Skip = "method not modelled"
			out = append(out, c)
			continue
		}
		j.GPUCount = c.GPUCount
		est, err := e.Estimate(j, nil)
		if err != nil {
			c.Skip = err.Error()
			out = append(out, c)
			continue
		}
		f := est.Fits[0]
		if j.Method == MethodInference && !f.Fits {
			// The row ran; speed does not depend on our fit margin.
			g, _ := e.Cat.GPU(gpu)
			f.TokensPerSec = decodeSpeed(shapeOf(mustModel(e, j.Model)), j, g, c.GPUCount)
		}
		if j.Method != MethodInference && !f.Fits {
			// The speed model does not depend on fitting; the row's run
			// used memory savers (8-bit optimizer, offloading).
			s := shapeOf(mustModel(e, j.Model))
			N, _ := s.params()
			g, _ := e.Cat.GPU(gpu)
			lo, typ, hi := mfu(g, j)
			fast := j
			fast.NoGradCkpt = j.Optimized
			peak := g.TensorTFLOPS * 1e12
			f.TokensPerSec = Range{Low: lo * peak / flopsPerToken(s, j, N), Typical: typ * peak / flopsPerToken(s, j, N), High: hi * peak / flopsPerToken(s, fast, N)}
		}
		c.Range = f.TokensPerSec
		c.Inside = r.TokensPerSec >= c.Range.Low && r.TokensPerSec <= c.Range.High
		out = append(out, c)
	}
	return out
}

func mustModel(e *Estimator, id string) *catalog.Model {
	m, _ := e.Cat.Model(id)
	return m
}

// WriteReferenceReport renders the comparison of estimates with the
// published measurements as Markdown (docs/estimator.md). It is generated
// by `go run ./internal/billing/refdoc`, never edited by hand.
func WriteReferenceReport(w io.Writer, vram []VRAMCheck, tput []ThroughputCheck) error {
	var b strings.Builder
	median, worst, n := VRAMSummary(vram)
	inside := 0
	for _, c := range tput {
		if c.Inside {
			inside++
		}
	}
	fmt.Fprintf(&b, "# Estimator against published measurements\n\n")
	fmt.Fprintf(&b, "Generated by `go run ./internal/billing/refdoc` from `../shared/data/estimator/vram_reference.csv` and `throughput_reference.csv`; do not edit by hand. The formulas are in `internal/billing/estimate.go` and `../shared/reference/estimator.md`.\n\n")
	fmt.Fprintf(&b, "- VRAM: %d rows compared, median absolute error **%.1f%%**, worst under-estimate **%.1f%%** (the tests require at most 20%% and at most 10%%).\n", n, 100*median, 100*worst)
	fmt.Fprintf(&b, "- Throughput: **%d of %d** published speeds lie inside the estimated low-high range.\n\n", inside, len(tput))
	fmt.Fprintf(&b, "GB = 1e9 bytes. Error = (estimate - reported) / reported. A bound row (\"< 48 GB\", \"> 780 GB\") is checked against its bound and left out of the median.\n\n")
	fmt.Fprintf(&b, "## VRAM\n\n| model | method | bits | seq | batch | estimate GB | reported GB | error | note |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range vram {
		r := c.Row
		if c.Skip != "" {
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | – | %.1f | – | not compared: %s |\n", r.Model, r.Method, r.Bits, intOr(r.SeqLen), intOr(r.Batch), r.ReportedGB, c.Skip)
			continue
		}
		note := c.Assumed
		if c.Bound != BoundPoint {
			note = strings.TrimPrefix(note+"; "+string(c.Bound)+" bound", "; ")
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %.1f | %.1f | %+.0f%% | %s |\n", r.Model, r.Method, c.Job.Bits, c.Job.SeqLen, c.Job.Batch, c.EstimateGB, r.ReportedGB, 100*c.Error, note)
	}
	fmt.Fprintf(&b, "\n## Throughput\n\nTraining rows: tokens/s over the GPU's dense BF16 peak at MFU low/typical/high (the fast end without activation recomputation). Inference rows: batch-1 decode speed from memory bandwidth at 0.12/0.45/0.8 of the bound.\n\n| model | method | GPU (as estimated) | seq | reported tok/s | low | typical | high | inside |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range tput {
		r := c.Row
		if c.Skip != "" {
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %.1f | – | – | – | not compared: %s |\n", r.Model, r.Method, r.GPU, r.SeqLen, r.TokensPerSec, c.Skip)
			continue
		}
		gpu := c.GPU
		if c.GPUCount > 1 {
			gpu = fmt.Sprintf("%d× %s", c.GPUCount, gpu)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %.1f | %.1f | %.1f | %.1f | %v |\n", r.Model, r.Method, gpu, r.SeqLen, r.TokensPerSec, c.Range.Low, c.Range.Typical, c.Range.High, c.Inside)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func intOr(n int) string {
	if n == 0 {
		return "–"
	}
	return strconv.Itoa(n)
}
