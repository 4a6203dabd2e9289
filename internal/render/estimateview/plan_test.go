package estimateview_test

import (
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/estimateview"
)

func TestPlan(t *testing.T) {
	r := renderer(t)
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	plan := catalog.Figure{Low: 1500, High: 1500, Verified: true, AsOf: "2026-05"}
	pr := estimateview.PlanResult{Mode: "monthly", Rows: []estimateview.PlanRow{
		{Platform: "autodl", GPU: "RTX 4090", Offered: true, PlanCNY: &plan, HourlyCNY: catalog.Figure{Low: 2, High: 2, Verified: true, AsOf: "2026-05"}, HourlyTimesCNY: [2]float64{1440, 1440}, Source: "src"},
		{Platform: "autodl", GPU: "RTX 3090", HourlyCNY: catalog.Figure{Low: 1.3, High: 1.5, AsOf: "2026-05"}, HourlyTimesCNY: [2]float64{936, 1080}, Source: "src2"},
	}}
	rep := estimateview.Plan{Plan: pr, NamedGPUs: []string{"RTX 4090"}, Now: now}.Reply(r)
	if want := "RTX 4090 包月：目录里有 AutoDL RTX 4090 的包月价 1500 元（src）；按量标价折算最低 AutoDL RTX 4090 约 1440 元/月（2.00 元/卡时 × 720 小时）。"; rep.Title != want {
		t.Errorf("title %q, want %q", rep.Title, want)
	}
	// The hourly price times the month is in 详情 when the phone's table
	// has no room for it.
	text := chat.PlainText(rep) + chat.PlainText(*rep.Full)
	for _, want := range []string{"没有记录", "936-1080*", "“按量×720 小时”是按量标价", "* 只有 2025 年的租卡测评文章这么写"} {
		if !strings.Contains(text, want) {
			t.Errorf("plan lacks %q:\n%s", want, text)
		}
	}
	spot := estimateview.Plan{Plan: estimateview.PlanResult{Mode: "spot", Rows: pr.Rows}, Lang: i18n.EN, Now: now}.Reply(r)
	if want := "across platforms: spot instances exist on AutoDL; spot prices move with the market and none is on record."; spot.Title != want {
		t.Errorf("spot title %q, want %q", spot.Title, want)
	}
	if none := (estimateview.Plan{Plan: estimateview.PlanResult{Mode: "yearly"}}).Reply(r); none.Title != "目录里没有包年的价格，也没有能折算的按量标价。" {
		t.Errorf("empty plan %q", none.Title)
	}
}
