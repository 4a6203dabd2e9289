// Package reference checks the estimator (internal/billing/estimator) against
// published measurements: peak VRAM and training and decode speeds, from
// the project's original tables (testdata/vram_reference.csv,
// throughput_reference.csv) and the rows gathered since
// (testdata/vram_reference_more.csv, throughput_reference_more.csv). It renders
// the comparison as docs/estimator.md through the generator beside it
// (`go run ./internal/billing/estimator/refdoc`), and its tests hold the estimator
// to the published figures. Only the generator and tests import it; it is
// not part of the running bot.
//
// Units: memory in GB (1e9 bytes), as the sources report it, except
// capacity rows, whose card size is in GiB; speeds in tokens per second.
package reference

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The reference tables, all in testdata: the originals and the additions.
const (
	VRAMFile           = "vram_reference.csv"
	ThroughputFile     = "throughput_reference.csv"
	VRAMMoreFile       = "vram_reference_more.csv"
	ThroughputMoreFile = "throughput_reference_more.csv"
)

// Tags are the settings a row's notes state as key=value: the training
// stack ("stack=hf|fa2|tuned"), the loss ("loss=hf|chunked|fused"),
// whether samples were packed ("packed=yes|no") and, for a capacity row,
// the card's size in GiB ("capacity=24"): the row's seq_len is then the
// longest context that fits that card.
type Tags struct {
	Stack, Loss, Packed string
	CapacityGiB         float64
}

var tagRe = regexp.MustCompile(`\b(stack|loss|packed|capacity)=([A-Za-z0-9.]+)`)

// readTags reads the key=value tags of a row's notes.
func readTags(notes string) Tags {
	var t Tags
	for _, m := range tagRe.FindAllStringSubmatch(notes, -1) {
		switch m[1] {
		case "stack":
			t.Stack = m[2]
		case "loss":
			t.Loss = m[2]
		case "packed":
			t.Packed = m[2]
		case "capacity":
			t.CapacityGiB, _ = strconv.ParseFloat(m[2], 64)
		}
	}
	return t
}

// VRAMRow is one published memory measurement or estimate.
type VRAMRow struct {
	Source, Model, Method, Notes string
	// File is the table the row came from (VRAMFile or VRAMMoreFile).
	File                string
	ParamsB             float64
	Bits, SeqLen, Batch int
	GradCkpt            bool
	// ReportedGB is the published peak in GB (1e9 bytes); for a capacity
	// row, the card's size in GiB.
	ReportedGB float64
	Tags       Tags
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

// ReadVRAM parses a VRAM reference table (vram_reference.csv's columns).
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
			GradCkpt: rec[col["grad_ckpt"]] == "true", ReportedGB: atof("reported_vram_gb"), Tags: readTags(rec[col["notes"]])}
		if !(row.ReportedGB > 0) {
			return nil, fmt.Errorf("vram reference: row %d: reported_vram_gb %q", i+2, rec[col["reported_vram_gb"]])
		}
		if row.Tags.CapacityGiB > 0 && (row.Tags.CapacityGiB != row.ReportedGB || row.SeqLen == 0) {
			return nil, fmt.Errorf("vram reference: row %d: a capacity row needs the card size as reported_vram_gb and the context as seq_len", i+2)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// ThroughputRow is one published training or decode speed.
type ThroughputRow struct {
	Source, Model, Method, GPU, Notes string
	// File is the table the row came from.
	File          string
	SeqLen, Batch int
	// GPUs is the number of GPUs the run used ("1 (8 GPUs)" in the batch
	// column); PerGPU says the speed is per GPU ("tok/s per GPU").
	GPUs   int
	PerGPU bool
	// TokensPerSec is the reported speed.
	TokensPerSec float64
	Tags         Tags
}

var (
	tokPerSecRe = regexp.MustCompile(`([0-9]+(?:\.[0-9]+)?)\s*tok/s`)
	gpusRe      = regexp.MustCompile(`\((\d+) GPUs\)`)
)

// ReadThroughput parses a throughput reference table; the speed is the
// "N tok/s" figure in reported_tokens_per_s_or_step_time.
func ReadThroughput(r io.Reader) ([]ThroughputRow, error) {
	recs, col, err := readTable(r, "throughput reference",
		"source", "model", "method", "gpu", "seq_len", "batch", "reported_tokens_per_s_or_step_time", "notes")
	if err != nil {
		return nil, err
	}
	var rows []ThroughputRow
	for i, rec := range recs[1:] {
		speed := rec[col["reported_tokens_per_s_or_step_time"]]
		m := tokPerSecRe.FindStringSubmatch(speed)
		if m == nil {
			return nil, fmt.Errorf("throughput reference: row %d: no tok/s figure in %q", i+2, speed)
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		seq, _ := strconv.Atoi(strings.TrimSpace(rec[col["seq_len"]]))
		batch, _ := strconv.Atoi(strings.Fields(rec[col["batch"]] + " 1")[0])
		gpus := 1
		if g := gpusRe.FindStringSubmatch(rec[col["batch"]]); g != nil {
			gpus, _ = strconv.Atoi(g[1])
		}
		rows = append(rows, ThroughputRow{Source: rec[col["source"]], Model: rec[col["model"]], Method: rec[col["method"]],
			GPU: rec[col["gpu"]], Notes: rec[col["notes"]], SeqLen: seq, Batch: batch, GPUs: gpus,
			PerGPU: strings.Contains(speed, "per GPU"), TokensPerSec: v, Tags: readTags(rec[col["notes"]])})
	}
	return rows, nil
}

// Load reads every reference row from dir: the original tables
// (VRAMFile, ThroughputFile) and the additions (VRAMMoreFile,
// ThroughputMoreFile), in that order, each row marked with its file.
func Load(dir string) (vram []VRAMRow, tput []ThroughputRow, err error) {
	for _, name := range []string{VRAMFile, VRAMMoreFile} {
		rows, err := readFile(filepath.Join(dir, name), ReadVRAM)
		if err != nil {
			return nil, nil, err
		}
		for i := range rows {
			rows[i].File = name
		}
		vram = append(vram, rows...)
	}
	for _, name := range []string{ThroughputFile, ThroughputMoreFile} {
		rows, err := readFile(filepath.Join(dir, name), ReadThroughput)
		if err != nil {
			return nil, nil, err
		}
		for i := range rows {
			rows[i].File = name
		}
		tput = append(tput, rows...)
	}
	return vram, tput, nil
}

// readFile reads the rows of the file at path with read.
func readFile[R any](path string, read func(io.Reader) ([]R, error)) ([]R, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return rows, nil
}
