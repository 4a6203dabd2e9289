package render_test

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// TestBudgetText: a budget in a verdict says the amount as it was said
// (dollars, per card) and what it is in CNY in all.
func TestBudgetText(t *testing.T) {
	for _, c := range []struct {
		cny     float64
		said    render.BudgetSaid
		english bool
		want    []string
		not     []string
	}{
		{1000, render.BudgetSaid{}, false, []string{"1000 "}, []string{"$", "2000"}},
		{720, render.BudgetSaid{USDRate: 7.2}, false, []string{"$100", "720 "}, nil},
		{720, render.BudgetSaid{USDRate: 7.2}, true, []string{"$100 (about 720 CNY)"}, nil},
		{2000, render.BudgetSaid{Cards: 2}, false, []string{"1000 ", "2 ", "2000 "}, []string{"$"}},
		{2000, render.BudgetSaid{Cards: 2}, true, []string{"1000 CNY a card", "2 cards: 2000 CNY"}, nil},
		{2880, render.BudgetSaid{USDRate: 7.2, Cards: 4}, true, []string{"$100 a card", "4 cards: about 2880 CNY"}, nil},
		{1000, render.BudgetSaid{Cards: 1}, true, []string{"1000 CNY"}, []string{"a card"}},
	} {
		got := render.BudgetText(i18n.Of(c.english), c.cny, c.said)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("BudgetText(%v, %+v, en %v) = %q, want %q in it", c.cny, c.said, c.english, got, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("BudgetText(%v, %+v, en %v) = %q, want no %q", c.cny, c.said, c.english, got, w)
			}
		}
	}
}
