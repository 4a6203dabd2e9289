package reference_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/billing/estimator/reference"
	"github.com/labgpu/bot/internal/catalog"
)

func newEstimator(t testing.TB) *estimator.Estimator {
	t.Helper()
	c, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return &estimator.Estimator{Cat: c}
}

// load reads every reference row: the original tables and the additions,
// all in testdata.
func load(t *testing.T) ([]reference.VRAMRow, []reference.ThroughputRow) {
	t.Helper()
	v, tp, err := reference.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return v, tp
}

// TestVRAMReference checks every row of the published measurements, the
// originals and the additions: no point row more than 10% under, no
// published bound broken, every capacity row 0-8% under its card, and a
// median absolute error of at most 10%.
func TestVRAMReference(t *testing.T) {
	rows, _ := load(t)
	checks := reference.CheckVRAM(newEstimator(t), rows)
	var b strings.Builder
	skips := map[string]int{}
	for _, c := range checks {
		if c.Skip != "" {
			skips[c.Skip]++
			fmt.Fprintf(&b, "skip  %-14s %-30s %s\n", c.Row.Model, c.Row.Method, c.Skip)
			continue
		}
		fmt.Fprintf(&b, "%+5.0f%% %-13s %-33s s%-6d b%d est %6.1f target %6.1f %-8s %s\n", 100*c.Error, c.Row.Model, c.Row.Method, c.Job.SeqLen, c.Job.Batch, c.EstimateGB, c.TargetGB, c.Bound, c.Assumed)
		if !c.OK() {
			t.Errorf("%s %s seq %d (%s): estimate %.1f GB against %.1f GB (%s bound): error %+.1f%%", c.Row.Model, c.Row.Method, c.Job.SeqLen, c.Row.File, c.EstimateGB, c.TargetGB, c.Bound, 100*c.Error)
		}
	}
	// Exactly these rows are not compared; a new CSV row cannot drop out
	// silently.
	if want := map[string]int{"2-bit QLoRA is not modelled": 1}; fmt.Sprint(skips) != fmt.Sprint(want) {
		t.Errorf("rows not compared: %v, want %v", skips, want)
	}
	st := reference.SummarizeVRAM(checks)
	t.Logf("\n%s\nmedian |error| %.1f%% over %d rows; worst under-estimate %.1f%%; capacity %d/%d; bounds %d/%d",
		b.String(), 100*st.Median, st.N, 100*st.WorstUnder, st.CapacityOK, st.Capacity, st.BoundsOK, st.Bounds)
	if st.Compared != len(rows)-1 || st.Capacity < 6 {
		t.Errorf("%d of %d rows compared, %d capacity rows", st.Compared, len(rows), st.Capacity)
	}
	if st.Median > reference.MaxMedianVRAMError {
		t.Errorf("median absolute error %.1f%%, want at most %.0f%%", 100*st.Median, 100*reference.MaxMedianVRAMError)
	}
}

// TestThroughputReference: every published speed lies inside the
// estimated low-high range for its model, method, GPU and stack, and the
// typical speed is within 25% of the training rows' on the median.
func TestThroughputReference(t *testing.T) {
	_, rows := load(t)
	checks := reference.CheckThroughput(newEstimator(t), rows)
	if len(checks) != len(rows) || len(rows) < 35 {
		t.Fatalf("%d checks for %d rows", len(checks), len(rows))
	}
	for _, c := range checks {
		if c.Skip != "" {
			t.Errorf("%s %s on %s: not estimated: %s", c.Row.Model, c.Row.Method, c.Row.GPU, c.Skip)
			continue
		}
		t.Logf("%-5v %-12s %-38.38s %-14s %-5s s%-5d b%d reported %7.1f range %7.1f - %7.1f (typical %7.1f, %+4.0f%%)", c.Inside, c.Row.Model, c.Row.Method, c.Row.GPU, c.Stack, c.Row.SeqLen, c.Row.Batch, c.Row.TokensPerSec, c.Range.Low, c.Range.High, c.Range.Typical, 100*c.TypicalError())
		if !c.Inside {
			t.Errorf("%s %s on %s seq %d (stack %s): reported %.0f tok/s outside %.0f-%.0f", c.Row.Model, c.Row.Method, c.Row.GPU, c.Row.SeqLen, c.Stack, c.Row.TokensPerSec, c.Range.Low, c.Range.High)
		}
		// A training range must mean something: at most 3x wide.
		if c.Training() && c.Range.High > 3*c.Range.Low {
			t.Errorf("%s %s on %s: range %.0f-%.0f is wider than 3x", c.Row.Model, c.Row.Method, c.Row.GPU, c.Range.Low, c.Range.High)
		}
	}
	st := reference.SummarizeThroughput(checks)
	t.Logf("%d of %d inside; typical off by %.1f%% on the median of %d training rows", st.Inside, st.Compared, 100*st.MedianTypical, st.Training)
	if st.MedianTypical > reference.MaxMedianTypicalError {
		t.Errorf("typical speed off by %.0f%% on the median training row, want at most %.0f%%", 100*st.MedianTypical, 100*reference.MaxMedianTypicalError)
	}
}

// TestEstimatorDocUpToDate: docs/estimator.md is what refdoc generates from
// the current estimator, so it is never stale or edited by hand.
func TestEstimatorDocUpToDate(t *testing.T) {
	vrows, trows := load(t)
	e := newEstimator(t)
	var b strings.Builder
	if err := reference.WriteReport(&b, reference.CheckVRAM(e, vrows), reference.CheckThroughput(e, trows)); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../../../docs/estimator.md")
	if err != nil || string(got) != b.String() {
		t.Errorf("docs/estimator.md is stale; run: go run ./internal/billing/estimator/refdoc")
	}
}

// TestTags: a row's notes give its stack, loss, packing and card size.
func TestTags(t *testing.T) {
	rows, _ := load(t)
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Tags.Stack != "" {
			seen["stack="+r.Tags.Stack] = true
		}
		if r.Tags.Loss != "" {
			seen["loss="+r.Tags.Loss] = true
		}
		if r.Tags.CapacityGiB > 0 && r.Tags.CapacityGiB != r.ReportedGB {
			t.Errorf("capacity row %s seq %d: card %g GiB, reported %g", r.Model, r.SeqLen, r.Tags.CapacityGiB, r.ReportedGB)
		}
	}
	for _, want := range []string{"stack=hf", "stack=fa2", "stack=tuned", "loss=hf", "loss=chunked", "loss=fused"} {
		if !seen[want] {
			t.Errorf("no row tagged %s", want)
		}
	}
}
