package claim

import (
	"regexp"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// TestReadClaimTerms: a claim's own terms — a plan's price written
// without a currency word, an hour's, per GB-month, a month for a size,
// dollars, hours before a wipe, billing while stopped, a card's memory.
func TestReadClaimTerms(t *testing.T) {
	for _, c := range []struct {
		text string
		want func(*Claim) bool
	}{
		{"文章说AutoDL 4090包月1200左右 靠谱吗", func(c *Claim) bool { return c.PlanCNY == 1200 }},
		{"听说阿里云 A100 包月一万五 是真的吗", func(c *Claim) bool { return c.PlanCNY == 15000 }},
		{"I read runpod charges 0.79/hr for an L40S", func(c *Claim) bool { return c.HourlyCNY == 0.79 && !c.USD }},
		{"群里说runpod 4090 0.34刀一小时", func(c *Claim) bool { return c.USD }},
		{"矩池云网盘 0.5元一个G一个月 对吗", func(c *Claim) bool { return c.PerGBMonth && !c.Month }},
		{"someone said autodl data disk is 0.5 yuan per GB per month", func(c *Claim) bool { return c.PerGBMonth }},
		{"有人说恒源云存储20G一个月才5块", func(c *Claim) bool { return c.Month && !c.PerGBMonth }},
		{"网上说恒源云关机后 /hy-tmp 24小时清空", func(c *Claim) bool { return c.HasDays && c.Days == 1 && c.Delete }},
		{"师兄说 runpod 停机了存储也收钱 而且更贵", func(c *Claim) bool { return c.Stopped && c.Dearer }},
		{"3090的显存是48G对吧", func(c *Claim) bool { return c.VRAMGB == 48 }},
	} {
		if got := Read(catalog.Fold(c.text)); !c.want(got) {
			t.Errorf("%q: %+v", c.text, *got)
		}
	}
	for s, want := range map[string]float64{"1200": 1200, "一万五": 15000, "两千": 2000, "1.5万": 15000, "三万": 30000, "x": 0} {
		if got := bigNum(s); got != want {
			t.Errorf("bigNum(%q) = %g, want %g", s, got, want)
		}
	}
}

// TestGrainUnits: every Chinese unit the granularity pattern captures is
// named.
func TestGrainUnits(t *testing.T) {
	units := regexp.MustCompile(`\(([^()?]+)\)`).FindStringSubmatch(claimGrain.String())
	if units == nil {
		t.Fatalf("grain %q has no unit group", claimGrain.String())
	}
	for _, u := range strings.Split(units[1], "|") {
		if g := words.Mapping("advice.grain_units")[u]; g != "second" && g != "minute" && g != "hour" {
			t.Errorf("grain unit %q names %q", u, g)
		}
	}
}
