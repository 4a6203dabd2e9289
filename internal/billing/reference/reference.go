// Package reference checks the estimator (internal/billing) against
// published measurements: peak VRAM (../shared/data/estimator/
// vram_reference.csv) and training and decode speeds
// (throughput_reference.csv). It renders the comparison as
// docs/estimator.md through the generator beside it
// (`go run ./internal/billing/refdoc`), and its tests hold the estimator
// to the published figures. Only the generator and tests import it; it is
// not part of the running bot.
//
// Units: memory in GB (1e9 bytes), as the sources report it; speeds in
// tokens per second.
package reference

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/labgpu/bot/internal/billing"
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
	Job   billing.Job
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

// readTable reads a CSV with a header row and at least one row after it,
// and maps each column name to its index; every one of cols must be there.
// Errors start with what (the table's name).
func readTable(r io.Reader, what string, cols ...string) (recs [][]string, col map[string]int, err error) {
	recs, err = csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	if len(recs) < 2 {
		return nil, nil, fmt.Errorf("%s: no rows", what)
	}
	col = map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, c := range cols {
		if _, ok := col[c]; !ok {
			return nil, nil, fmt.Errorf("%s: column %q missing", what, c)
		}
	}
	return recs, col, nil
}

// ReadVRAM parses vram_reference.csv.
func ReadVRAM(r io.Reader) ([]VRAMRow, error) {
	recs, col, err := readTable(r, "vram reference",
		"source", "model", "params_b", "method", "bits", "seq_len", "batch", "grad_ckpt", "reported_vram_gb", "notes")
	if err != nil {
		return nil, err
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

// jobForRow maps a reference row to a Job, its bound and the settings it
// assumed, or gives the reason (skip) it cannot.
// Rows without a sequence length (rule-of-thumb tables) are compared at
// seq 512 and batch 1; LoRA ranks follow each source's default (Qwen
// finetune.py r=64, torchtune and LLaMA-Factory r=8, QLoRA paper r=64).
func jobForRow(e *billing.Estimator, r VRAMRow) (j billing.Job, bound Bound, assumed, skip string) {
	bound = boundOf(r.Notes)
	j = billing.Job{SeqLen: r.SeqLen, Batch: r.Batch, Samples: 1, TokensPerSample: 1, Epochs: 1, GPUCount: 1}
	var as []string
	if skip := setModel(e, r, &j, &as); skip != "" {
		return j, bound, "", skip
	}
	j.LoRARank = loraRank(r.Source)
	if strings.Contains(r.Source, "torchtune") {
		// torchtune's recipes compute the loss with chunked cross entropy
		// on a tuned stack (packed sequences, torch.compile).
		j.ChunkedCE, j.Optimized = true, true
		as = append(as, "chunked cross entropy, optimised stack")
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
	if skip := setMethod(r, &j, &as); skip != "" {
		return j, bound, "", skip
	}
	if strings.Contains(r.Notes, "allocator caches more") {
		// The same job peaks at 17.4 GB on a 24 GB card; on a 48 GB card
		// the caching allocator holds more than the job needs.
		bound = BoundUpper
		as = append(as, "allocator caching on a 48 GB card")
	}
	return j, bound, strings.Join(as, ", "), ""
}

// boundOf reads a row's notes: "'< X GB'" is an upper bound, "> X GB" a
// lower one.
func boundOf(notes string) Bound {
	switch {
	case strings.Contains(notes, "'<"):
		return BoundUpper
	case strings.Contains(notes, ">") && strings.Contains(notes, "GB"):
		return BoundLower
	}
	return BoundPoint
}

// setModel sets j's model: a catalog id, or for "generic-" rows the size
// alone (the estimator's typical configuration). It returns a skip reason
// for other models.
func setModel(e *billing.Estimator, r VRAMRow, j *billing.Job, as *[]string) (skip string) {
	if id, ok := referenceModels[r.Model]; ok {
		j.Model = id
	} else if _, ok := e.Cat.Model(r.Model); ok {
		j.Model = r.Model
	} else if strings.HasPrefix(r.Model, "generic-") {
		j.ParamsB = r.ParamsB
		*as = append(*as, "typical config")
	} else {
		return "model not in the catalog"
	}
	return ""
}

// loraRank is the source's default LoRA rank.
func loraRank(source string) int {
	switch {
	case strings.Contains(source, "Qwen"):
		return 64
	case strings.Contains(source, "QLoRA paper"):
		// The paper's memory breakdown gives LoRA parameters of 26 MB at
		// 7B: a small adapter, not its r=64 accuracy setting.
		return 8
	}
	return 8
}

// methodSpec is the Job a reference method stands for.
type methodSpec struct {
	method string
	// bits is the weight precision; 0 takes the row's.
	bits            int
	gpus, zero      int
	trainEmbeddings bool
	optimizer       string
	// assumed describes what the row does not say.
	assumed string
}

// referenceMethods maps the reference data's methods to Job settings.
// The multi-GPU rows are summed over A100s running DeepSpeed ZeRO-3, as
// the Qwen scripts use.
var referenceMethods = map[string]methodSpec{
	"lora":            {method: billing.MethodLoRA, bits: 16},
	"lora_emb":        {method: billing.MethodLoRA, bits: 16, trainEmbeddings: true},
	"qlora":           {method: billing.MethodQLoRA},
	"full_amp_adamw":  {method: billing.MethodFull, bits: 16},
	"full_16bit":      {method: billing.MethodFull, bits: 16},
	"full_pure_bf16":  {method: billing.MethodFull, bits: 16, optimizer: billing.OptimizerPureBF16},
	"inference":       {method: billing.MethodInference},
	"full_2gpu":       {method: billing.MethodFull, bits: 16, gpus: 2, zero: 3, assumed: "ZeRO-3 on 2 GPUs, per-GPU estimate × 2"},
	"lora_zero3_4gpu": {method: billing.MethodLoRA, bits: 16, gpus: 4, zero: 3, assumed: "ZeRO-3 on 4 GPUs, per-GPU estimate × 4"},
}

// unmodelled gives the reason for reference methods the estimator cannot
// express.
var unmodelled = map[string]string{
	"full_paged_adamw8bit_optim_in_bwd": "optimizer-in-backward (gradients freed per layer) is not modelled",
}

// setMethod sets j's method, precision and GPUs from the row's method, or
// returns the reason it is not modelled. Inference rows without a context
// length are compared at 512.
func setMethod(r VRAMRow, j *billing.Job, as *[]string) (skip string) {
	m, ok := referenceMethods[r.Method]
	switch {
	case !ok && unmodelled[r.Method] != "":
		return unmodelled[r.Method]
	case !ok:
		return "method not modelled"
	case m.method == billing.MethodQLoRA && r.Bits != 4 && r.Bits != 8:
		return fmt.Sprintf("%d-bit QLoRA is not modelled", r.Bits)
	}
	j.Method, j.Bits, j.TrainEmbeddings, j.Optimizer = m.method, m.bits, m.trainEmbeddings, m.optimizer
	if m.bits == 0 {
		j.Bits = r.Bits
	}
	if m.gpus > 0 {
		j.GPUCount, j.ZeRO = m.gpus, m.zero
	}
	if m.method == billing.MethodInference && j.SeqLen == 0 {
		j.SeqLen = 512
		*as = append(*as, "context 512")
	}
	if m.assumed != "" {
		*as = append(*as, m.assumed)
	}
	return ""
}

// CheckVRAM estimates every reference row it can express.
func CheckVRAM(e *billing.Estimator, rows []VRAMRow) []VRAMCheck {
	var out []VRAMCheck
	for _, r := range rows {
		j, bound, assumed, skip := jobForRow(e, r)
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

// ReadThroughput parses throughput_reference.csv; the speed is the
// "N tok/s" figure in reported_tokens_per_s_or_step_time.
func ReadThroughput(r io.Reader) ([]ThroughputRow, error) {
	recs, col, err := readTable(r, "throughput reference",
		"source", "model", "method", "gpu", "seq_len", "batch", "reported_tokens_per_s_or_step_time", "notes")
	if err != nil {
		return nil, err
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
	Range    billing.Range
	Inside   bool
}

// referenceGPUs maps the reference data's GPU names to catalog ids. The
// torchtune "RTX A6000" rows exceed that card's 155 TFLOPS peak, which
// estimator.md reads as the RTX 6000 Ada.
var referenceGPUs = map[string]string{"A100-SXM4-80G": "A100 80GB", "2x A100-SXM4-80G": "A100 80GB", "A100": "A100 80GB",
	"RTX 4090": "RTX 4090", "RTX A6000": "RTX 6000 Ada"}

// CheckThroughput estimates the speed range for every row.
func CheckThroughput(e *billing.Estimator, rows []ThroughputRow) []ThroughputCheck {
	var out []ThroughputCheck
	for _, r := range rows {
		out = append(out, checkThroughput(e, r))
	}
	return out
}

// checkThroughput estimates one row's speed range. The range does not
// depend on the job fitting the estimator's memory margin: the published
// runs ran, some with memory savers the estimator does not model (8-bit
// optimizer, offloading).
func checkThroughput(e *billing.Estimator, r ThroughputRow) ThroughputCheck {
	c := ThroughputCheck{Row: r, GPUCount: 1}
	gpu, ok := referenceGPUs[r.GPU]
	if !ok {
		c.Skip = "GPU not in the catalog"
		return c
	}
	c.GPU = gpu
	j := billing.Job{SeqLen: r.SeqLen, Batch: r.Batch, Samples: 1, TokensPerSample: 1, Epochs: 1, GPUs: []string{gpu},
		Optimized: strings.Contains(r.Source, "torchtune"), Model: r.Model}
	if id, ok := referenceModels[r.Model]; ok {
		j.Model = id
	}
	m := strings.ToLower(r.Method)
	switch {
	case strings.HasPrefix(m, "inference"):
		j.Method, j.Bits = billing.MethodInference, 16
		if strings.Contains(m, "int4") {
			j.Bits = 4
		}
		if strings.Contains(m, "2x") || strings.HasPrefix(r.GPU, "2x") {
			c.GPUCount = 2
		}
	case strings.HasPrefix(m, "qlora"):
		j.Method, j.Bits = billing.MethodQLoRA, 4
	case strings.HasPrefix(m, "lora"):
		j.Method, j.Bits = billing.MethodLoRA, 16
	case strings.HasPrefix(m, "full"):
		j.Method, j.Bits = billing.MethodFull, 16
	default:
		c.Skip = "method not modelled"
		return c
	}
	j.GPUCount = c.GPUCount
	speed, err := e.Throughput(j, gpu)
	if err != nil {
		c.Skip = err.Error()
		return c
	}
	c.Range = speed
	c.Inside = r.TokensPerSec >= c.Range.Low && r.TokensPerSec <= c.Range.High
	return c
}

// WriteReport renders the comparison of estimates with the published
// measurements as Markdown (docs/estimator.md). It is generated by
// `go run ./internal/billing/refdoc`, never edited by hand.
func WriteReport(w io.Writer, vram []VRAMCheck, tput []ThroughputCheck) error {
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
