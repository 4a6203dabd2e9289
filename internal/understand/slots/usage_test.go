package slots

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// TestUsage: the usage profile of plan questions, as students write them.
func TestUsage(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text                 string
		perWeek, total, days float64
		continuous           bool
		window               string
	}{
		{"我们组每周跑40小时4090，包周还是按量", 40, 0, 0, false, ""},
		{"一个月要跑300小时A100怎么租最省", 0, 300, 30, false, ""},
		{"连续训练5天租什么方式", 0, 0, 5, true, ""},
		{"每天晚上跑6个小时3090，租两周", 42, 0, 14, false, WindowEvening},
		{"一周大概二十小时 白天用", 20, 0, 7, false, WindowDay},
		{"4090 30h/周 跑半个月", 30, 0, 15, false, ""},
		{"3090 竞价实例多少钱一小时", 0, 0, 0, false, ""},
		{"we run a 4090 about 50 hours a week for 3 weeks", 50, 0, 21, false, ""},
		{"A100 80G 包月多少", 0, 0, 0, false, ""},
		{"7B LoRA 要多少钱", 0, 0, 0, false, ""},
		{"we need a 4090 ~60 hours a week for a month", 60, 0, 30, false, ""},
	} {
		q := Extract(cat, c.text, false).Query()
		if q.HoursPerWeek != c.perWeek || q.TotalHours != c.total || q.SpanDays != c.days || q.Continuous != c.continuous || q.Window != c.window {
			t.Errorf("%q: per week %v total %v days %v continuous %v window %q", c.text, q.HoursPerWeek, q.TotalHours, q.SpanDays, q.Continuous, q.Window)
		}
	}
}
