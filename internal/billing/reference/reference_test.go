package reference_test

import (
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/billing/reference"
	"github.com/labgpu/bot/internal/catalog"
)

func estimator(t testing.TB) *billing.Estimator {
	t.Helper()
	c, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return &billing.Estimator{Cat: c}
}

// readReference reads the reference CSV at path with read. A file that
// cannot be opened skips the test, or fails it when required or when CI is
// set.
func readReference[R any](t *testing.T, path string, required bool, read func(io.Reader) ([]R, error)) []R {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		if required || os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	defer f.Close()
	rows, err := read(f)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

const vramReference = "../../../../shared/data/estimator/vram_reference.csv"

// TestVRAMReference checks every row of the published measurements the
// estimator can express: never more than 10% under a reported peak, and a
// median absolute error of at most 20%.
func TestVRAMReference(t *testing.T) {
	rows := readReference(t, vramReference, false, reference.ReadVRAM)
	e := estimator(t)
	checks := reference.CheckVRAM(e, rows)
	var b strings.Builder
	for _, c := range checks {
		if c.Skip != "" {
			fmt.Fprintf(&b, "skip  %-14s %-30s %s\n", c.Row.Model, c.Row.Method, c.Skip)
			continue
		}
		fmt.Fprintf(&b, "%+5.0f%% %-14s %-16s s%-5d b%d  est %6.1f  rep %6.1f %s\n", 100*c.Error, c.Row.Model, c.Row.Method, c.Job.SeqLen, c.Job.Batch, c.EstimateGB, c.Row.ReportedGB, c.Bound)
		switch {
		case c.Bound == reference.BoundUpper && c.EstimateGB > c.Row.ReportedGB:
			t.Errorf("%s %s: estimate %.1f GB above the published upper bound %.1f", c.Row.Model, c.Row.Method, c.EstimateGB, c.Row.ReportedGB)
		case c.Bound != reference.BoundUpper && c.Error < -0.10:
			t.Errorf("%s %s seq %d: estimate %.1f GB is %.0f%% under the reported %.1f GB", c.Row.Model, c.Row.Method, c.Job.SeqLen, c.EstimateGB, -100*c.Error, c.Row.ReportedGB)
		}
	}
	// Exactly these rows are not compared; a new CSV row cannot drop out
	// silently.
	skips := map[string]int{}
	for _, c := range checks {
		if c.Skip != "" {
			skips[c.Skip]++
		}
	}
	wantSkips := map[string]int{
		"2-bit QLoRA is not modelled":                                       1,
		"optimizer-in-backward (gradients freed per layer) is not modelled": 1,
	}
	if fmt.Sprint(skips) != fmt.Sprint(wantSkips) {
		t.Errorf("rows not compared: %v, want %v", skips, wantSkips)
	}
	median, worst, n := reference.VRAMSummary(checks)
	t.Logf("\n%s\nmedian |error| %.1f%% over %d rows; worst under-estimate %.1f%%", b.String(), 100*median, n, 100*worst)
	if n < 25 {
		t.Errorf("only %d rows compared", n)
	}
	if median > 0.20 {
		t.Errorf("median absolute error %.1f%%, want at most 20%%", 100*median)
	}
}

const throughputReference = "../../../../shared/data/estimator/throughput_reference.csv"

// TestThroughputReference: every published speed lies inside the
// estimated low-high range for its model, method and GPU.
func TestThroughputReference(t *testing.T) {
	rows := readReference(t, throughputReference, false, reference.ReadThroughput)
	e := estimator(t)
	checks := reference.CheckThroughput(e, rows)
	var ratios []float64
	defer func() {
		sort.Float64s(ratios)
		if len(ratios) > 0 {
			med := ratios[len(ratios)/2]
			t.Logf("training rows: median |ln(reported/typical)| = %.2f (%.0f%%)", med, 100*(math.Exp(med)-1))
			if med > math.Log(1.3) {
				t.Errorf("typical speed is off by %.0f%% on the median training row, want at most 30%%", 100*(math.Exp(med)-1))
			}
		}
	}()
	if len(checks) != len(rows) || len(rows) < 20 {
		t.Fatalf("%d checks for %d rows", len(checks), len(rows))
	}
	for _, c := range checks {
		if c.Skip != "" {
			t.Errorf("%s %s on %s: not estimated: %s", c.Row.Model, c.Row.Method, c.Row.GPU, c.Skip)
			continue
		}
		t.Logf("%-8v %-12s %-40s %-18s s%-5d reported %7.1f  range %7.1f - %7.1f (typical %.1f)", c.Inside, c.Row.Model, c.Row.Method, c.Row.GPU, c.Row.SeqLen, c.Row.TokensPerSec, c.Range.Low, c.Range.High, c.Range.Typical)
		if !c.Inside {
			t.Errorf("%s %s on %s seq %d: reported %.0f tok/s outside %.0f-%.0f", c.Row.Model, c.Row.Method, c.Row.GPU, c.Row.SeqLen, c.Row.TokensPerSec, c.Range.Low, c.Range.High)
		}
		// A training range must mean something: at most 2.5x wide for a
		// plain stack (the torchtune rows run an optimised one).
		training := !strings.HasPrefix(c.Row.Method, "inference")
		if training && !strings.Contains(c.Row.Source, "torchtune") && c.Range.High > 2.5*c.Range.Low {
			t.Errorf("%s %s on %s: range %.0f-%.0f is wider than 2.5x", c.Row.Model, c.Row.Method, c.Row.GPU, c.Range.Low, c.Range.High)
		}
		if training {
			ratios = append(ratios, math.Abs(math.Log(c.Row.TokensPerSec/c.Range.Typical)))
		}
	}
}

// TestEstimatorDocUpToDate: docs/estimator.md is what refdoc generates from
// the current estimator, so it is never stale or edited by hand.
func TestEstimatorDocUpToDate(t *testing.T) {
	// Without the VRAM measurements there is nothing to check; with them,
	// the throughput ones must be there too.
	vrows := readReference(t, vramReference, false, reference.ReadVRAM)
	trows := readReference(t, throughputReference, true, reference.ReadThroughput)
	e := estimator(t)
	var b strings.Builder
	if err := reference.WriteReport(&b, reference.CheckVRAM(e, vrows), reference.CheckThroughput(e, trows)); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../../docs/estimator.md")
	if err != nil || string(got) != b.String() {
		t.Errorf("docs/estimator.md is stale; run: go run ./internal/billing/refdoc")
	}
}
