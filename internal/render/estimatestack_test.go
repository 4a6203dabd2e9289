package render_test

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/render"
)

// TestRatioText: a speed ratio is always a range, with more decimals when
// one would hide it.
func TestRatioText(t *testing.T) {
	cases := []struct {
		r    estimator.Range
		want string
	}{
		{estimator.Range{Low: 1.83, Typical: 2.01, High: 2.26}, "1.8–2.3"},
		{estimator.Range{Low: 2.16, Typical: 2.2, High: 2.24}, "2.16–2.24"},
	}
	for _, c := range cases {
		if got := render.RatioText(c.r); got != c.want || !strings.Contains(got, "–") {
			t.Errorf("RatioText(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
}

// TestStackName: every stack has a name in both languages.
func TestStackName(t *testing.T) {
	for _, s := range estimator.Stacks {
		zh, en := render.StackName(s, false), render.StackName(s, true)
		if zh == "" || en == "" || (s != estimator.StackFA2 && zh == render.StackName(estimator.StackFA2, false)) {
			t.Errorf("stack %q: %q / %q", s, zh, en)
		}
	}
}
