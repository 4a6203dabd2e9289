package render_test

import (
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/render"
)

func TestMoneyHumanNumMethodName(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{render.Money(12.345), "12.35"},
		{render.Money(99.994), "99.99"},
		{render.Money(512.4), "512"},
		{render.Money(-150), "-150"},
		{render.MethodName(billing.MethodFull, 32, false), "全量微调（fp32）"},
		{render.MethodName(billing.MethodFull, 16, true), "full fine-tune"},
		{render.MethodName(billing.MethodQLoRA, 4, false), "QLoRA 4-bit"},
		{render.MethodName(billing.MethodInference, 8, true), "inference (8-bit)"},
		{render.MethodName(billing.MethodLoRA, 16, false), "LoRA"},
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

func TestPlan(t *testing.T) {
	r := renderer(t)
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	plan := catalog.Figure{Low: 1500, High: 1500, Verified: true, AsOf: "2026-05"}
	pr := &render.PlanResult{Mode: "monthly", Rows: []render.PlanRow{
		{Platform: "autodl", GPU: "RTX 4090", Offered: true, PlanCNY: &plan, HourlyCNY: catalog.Figure{Low: 2, High: 2, Verified: true, AsOf: "2026-05"}, HourlyTimesCNY: [2]float64{1440, 1440}, Source: "src"},
		{Platform: "autodl", GPU: "RTX 3090", HourlyCNY: catalog.Figure{Low: 1.3, High: 1.5, AsOf: "2026-05"}, HourlyTimesCNY: [2]float64{936, 1080}, Source: "src2"},
	}}
	rep := r.Plan(pr, render.PlanAsk{NamedGPUs: []string{"RTX 4090"}, Now: now})
	if want := "RTX 4090 包月：目录里有 AutoDL RTX 4090 的包月价 1500 元（src）；按量标价折算最低 AutoDL RTX 4090 约 1440 元/月（2.00 元/卡时 × 720 小时）。"; rep.Title != want {
		t.Errorf("title %q, want %q", rep.Title, want)
	}
	text := chat.PlainText(rep)
	for _, want := range []string{"没有记录", "936-1080*", "“按量×720 小时”是按量标价", "* 只有 2025 年的租卡测评文章这么写"} {
		if !strings.Contains(text, want) {
			t.Errorf("plan lacks %q:\n%s", want, text)
		}
	}
	spot := r.Plan(&render.PlanResult{Mode: "spot", Rows: pr.Rows}, render.PlanAsk{English: true, Now: now})
	if want := "across platforms: spot instances exist on AutoDL; spot prices move with the market and none is on record."; spot.Title != want {
		t.Errorf("spot title %q, want %q", spot.Title, want)
	}
	if none := r.Plan(&render.PlanResult{Mode: "yearly"}, render.PlanAsk{}); none.Title != "目录里没有包年的价格，也没有能折算的按量标价。" {
		t.Errorf("empty plan %q", none.Title)
	}
}
