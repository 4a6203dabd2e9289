package slots

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// TestBillingModeNamedPlanWins: a plan named outright (包月) is what the
// question asks about, even after a frequency word (每周); without one,
// the leftmost non-hourly mode is.
func TestBillingModeNamedPlanWins(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		"a100 每周跑100小时 包月划算吗":   ModeMonthly,
		"我们组每周跑40小时4090，包周还是按量": ModeWeekly,
		"按量和包月哪个划算":             ModeMonthly,
		"4090 包日多少":             ModeDaily,
		"一个月要跑300小时A100怎么租最省":   ModeMonthly,
		"4090 按量多少钱":            ModeHourly,
	} {
		if got := Extract(cat, text, false).Query().BillingMode; got != want {
			t.Errorf("%q: billing mode %q, want %q", text, got, want)
		}
	}
}
