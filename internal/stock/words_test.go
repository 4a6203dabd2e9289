package stock_test

import (
	"testing"

	"github.com/labgpu/bot/internal/stock"
)

func TestAPIWords(t *testing.T) {
	if _, err := stock.LoadAPIWords(); err != nil {
		t.Fatal(err)
	}
	regions := []struct{ platform, region, want string }{
		{"autodl", "westDC2", "西北企业区"},
		{"autodl", " West-B ", "西北B区"},
		{"matpool", "11", "亚太2区"},
	}
	for _, c := range regions {
		if got, ok := stock.KnownRegion(c.platform, c.region); !ok || got != c.want {
			t.Errorf("KnownRegion(%q, %q) = %q, %v; want %q", c.platform, c.region, got, ok, c.want)
		}
	}
	if _, ok := stock.KnownRegion("autodl", "mars-1"); ok {
		t.Error("an unknown region is known")
	}
	if got := stock.RegionName("runpod", " EU-RO-1 "); got != "EU-RO-1" {
		t.Errorf("RegionName of another platform = %q", got)
	}
	expired := []struct {
		msg  string
		want bool
	}{{"登录已过期，请重新登录", true}, {"Token Expired", true}, {"unauthorized", true}, {"server busy", false}, {"", false}}
	for _, c := range expired {
		if got := stock.SaysTokenExpired("hengyuan", c.msg); got != c.want {
			t.Errorf("SaysTokenExpired(%q) = %v", c.msg, got)
		}
	}
}
