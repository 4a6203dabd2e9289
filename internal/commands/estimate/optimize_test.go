package estimate_test

import (
	"math"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/estimate"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/understand/slots"
)

// TestProfile: plan questions as the new user wrote them, read into the
// optimizer's profile with the catalog's prices and an injected clock
// (Wednesday 2 December 2026, 10:00 in Shanghai).
func TestProfile(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	_, prices := plan.FromCatalog(cat, nil)
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.FixedZone("CST", 8*3600))
	priced := func(gpu string) bool {
		for _, p := range prices {
			if p.GPU == gpu && p.Mode != "spot" {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		text string
		// gpu "" skips the card check; variant is the family named.
		gpu, variant         string
		count                int
		days, hours, perWeek float64
		span, runThrough     bool
		deadline             string
	}{
		// 4: a family without a size is priced as its cheapest variant with
		// a price (V100 32GB has none; Lambda lists V100 16GB), said so.
		{text: "每周跑40小时V100，怎么租", gpu: "V100 16GB", variant: "V100", count: 1, days: 28, hours: 160, perWeek: 40, span: true},
		// 1: hours a day × 7 on two cards for one week.
		{text: "两张4090跑一周，每天12小时左右，怎么租最便宜", gpu: "RTX 4090", count: 2, days: 7, hours: 84, perWeek: 84},
		// 2: a stated span; a total alone runs back to back, assumed.
		{text: "how should we rent an A100 for 100 hours over two weeks", variant: "A100", count: 1, days: 14, hours: 100},
		{text: "一共跑50小时的4090", gpu: "RTX 4090", count: 1, days: 50.0 / 24, hours: 50, span: true, runThrough: true},
		// 3: from now to the deadline: Wednesday to next Friday is 9 days.
		{text: "ddl是下周五，从现在开始每天跑10小时4090", gpu: "RTX 4090", count: 1, days: 9, hours: 90, perWeek: 70, deadline: "下周五"},
		{text: "月底前要跑完200小时4090", gpu: "RTX 4090", count: 1, days: 29, hours: 200, deadline: "月底"},
	} {
		q := *slots.Extract(cat, c.text, false).Query()
		p, as := estimate.Profile(q, prices, now)
		if c.gpu != "" && p.GPU != c.gpu || !priced(p.GPU) {
			t.Errorf("%q: gpu %q (priced %v), want %q", c.text, p.GPU, priced(p.GPU), c.gpu)
		}
		if as.Variant != c.variant || p.Count != c.count || math.Abs(p.Weeks*7-c.days) > 1e-6 || math.Abs(p.Hours()-c.hours) > 1e-6 || p.HoursPerWeek != c.perWeek {
			t.Errorf("%q: variant %q count %d days %.3f hours %.1f per week %.0f, want %q %d %.3f %.1f %.0f",
				c.text, as.Variant, p.Count, p.Weeks*7, p.Hours(), p.HoursPerWeek, c.variant, c.count, c.days, c.hours, c.perWeek)
		}
		if as.Span != c.span || as.RunThrough != c.runThrough || as.Deadline != c.deadline {
			t.Errorf("%q: assumed span %v run-through %v deadline %q", c.text, as.Span, as.RunThrough, as.Deadline)
		}
	}
}

// The variant is the cheapest priced one: of two variants both with
// prices the cheaper per GPU-hour wins, a plan counted over its term.
func TestProfileCheapestVariant(t *testing.T) {
	f := func(v float64) catalog.Figure { return catalog.Figure{Low: v, High: v, Verified: true} }
	prices := []plan.Price{
		{Platform: "x", GPU: "A100 40GB", Mode: "hourly", CNY: f(6)},
		{Platform: "y", GPU: "A100 80GB", Mode: "hourly", CNY: f(7)},
		{Platform: "y", GPU: "A100 80GB", Mode: "weekly", CNY: f(168 * 5)}, // 5 a GPU-hour
		{Platform: "z", GPU: "A100 40GB", Mode: "spot", CNY: f(2)},         // spot does not count
	}
	q := slots.Query{GPU: "A100", GPUFamily: true, GPUs: []string{"A100 40GB", "A100 80GB"}, HoursPerWeek: 40}
	if p, as := estimate.Profile(q, prices, time.Time{}); p.GPU != "A100 80GB" || as.Variant != "A100" {
		t.Errorf("gpu %q variant %q, want A100 80GB (weekly 5/h) said as A100", p.GPU, as.Variant)
	}
	// Nothing priced: the largest variant, as before.
	if p, _ := estimate.Profile(q, nil, time.Time{}); p.GPU != "A100 80GB" {
		t.Errorf("unpriced family: gpu %q", p.GPU)
	}
}
