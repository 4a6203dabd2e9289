package commands_test

import (
	"testing"

	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/render/planview"
)

// A plan question's data disk size reaches the optimizer (a new user's
// test: "数据盘200G" was priced as the assumed 50 GB), as do its hours
// and span.
func TestPlanReadsTheDisk(t *testing.T) {
	r := newRouter(t)
	for _, c := range []struct {
		q           string
		disk, perWk float64
		weeks       float64
	}{
		{"4090 每周40小时，数据盘200G，包周还是按量", 200, 40, 4},
		{"数据盘要500G 4090跑两周 每天8小时 怎么租最省", 500, 56, 2},
		{"we run a 4090 40 hours a week for 3 weeks with a 1TB data disk, hourly or weekly plan?", 1000, 40, 3},
	} {
		res := ask(r, c.q)
		plans, ok := res.Payload.(planview.Plans)
		if res.Intent != commands.IntentPlan || !ok {
			t.Errorf("%q: intent %s, plans %v", c.q, res.Intent, ok)
			continue
		}
		p := plans.Result.Profile
		if p.DiskGB != c.disk || p.HoursPerWeek != c.perWk || p.Weeks != c.weeks {
			t.Errorf("%q: disk %v GB, %v h a week, %v weeks; want %v, %v, %v", c.q, p.DiskGB, p.HoursPerWeek, p.Weeks, c.disk, c.perWk, c.weeks)
		}
	}
}
