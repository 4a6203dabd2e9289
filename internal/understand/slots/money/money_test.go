package money

import (
	"math"
	"testing"
)

// TestAmounts: money as students write it, including a price followed by
// "一小时" / "一天", whose 一 is the per-unit, not a fen or jiao digit.
func TestAmounts(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"1块5", 1.5},
		{"两块五", 2.5},
		{"八毛五", 0.85},
		{"一块二毛五", 1.25},
		{"块半", 1.5},
		{"5毛", 0.5},
		{"5毛一小时", 0.5},
		{"五毛一个小时的卡", 0.5},
		{"1块一小时", 1},
		{"2块一天", 2},
		{"一块二毛一小时", 1.2},
		{"两块五一小时", 2.5},
		{"1块1", 1.1},
		{"一块一", 1.1},
		{"八毛一", 0.81},
	} {
		got := Amounts(c.text, c.text)
		if len(got) == 0 || math.Abs(got[0].Value-c.want) > 1e-9 {
			t.Errorf("%q: amounts %+v, want %v first", c.text, got, c.want)
		}
	}
}
