package render_test

import (
	"testing"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/render"
)

func TestMoneyMethodName(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{render.Money(12.345), "12.35"},
		{render.Money(99.994), "99.99"},
		{render.Money(512.4), "512"},
		{render.Money(-150), "-150"},
		{render.MethodName(estimator.MethodFull, 32, false), "全量微调（fp32）"},
		{render.MethodName(estimator.MethodFull, 16, true), "full fine-tune"},
		{render.MethodName(estimator.MethodQLoRA, 4, false), "QLoRA 4-bit"},
		{render.MethodName(estimator.MethodInference, 8, true), "inference (8-bit)"},
		{render.MethodName(estimator.MethodLoRA, 16, false), "LoRA"},
		{render.TrimF(2.50), "2.5"},
		{render.TrimF(3), "3"},
		{render.FigureText(catalog.Figure{Low: 0.4, High: 0.6}), "0.4-0.6"},
		{render.JoinIDs([]string{"A", "B"}, false), "A、B"},
		{render.JoinIDs([]string{"A", "B"}, true), "A, B"},
		{render.ModeName("monthly", false), "包月"},
		{render.ModeName("spot", true), "spot (interruptible)"},
		{render.LevelText("none", true), "none"},
		{render.LevelText("bogus", false), "未知"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
