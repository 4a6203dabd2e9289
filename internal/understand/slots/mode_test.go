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

// TestHourlyTimeNoMode: "一小时" as a time ("一小时后呢") is no billing mode.
func TestHourlyTimeNoMode(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, mode string }{
		{"一小时后呢", ""},
		{"4090 一小时以内能开上吗", ""},
		{"4090 一小时多少钱", ModeHourly},
		{"4090 按量呢", ModeHourly},
	} {
		if q := Extract(cat, c.text, false).Query(); q.BillingMode != c.mode {
			t.Errorf("%q: billing mode %q, want %q", c.text, q.BillingMode, c.mode)
		}
	}
}
