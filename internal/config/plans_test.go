package config_test

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/config"
)

// TestPlans: the lab's own plan prices load, and a bad entry is an error
// naming its key.
func TestPlans(t *testing.T) {
	good := "plans:\n  - {platform: autodl, gpu: \"RTX 4090\", mode: weekly, price_cny: 260, date: \"2026-09-01\", seen_by: 小王}\n"
	cfg, err := loadText(t, good)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Plans) != 1 || cfg.Plans[0].PriceCNY != 260 || cfg.Plans[0].SeenBy != "小王" {
		t.Errorf("plans = %+v", cfg.Plans)
	}
	for _, c := range []struct{ body, key string }{
		{"plans:\n  - {platform: autodl, gpu: \"RTX 4090\", mode: biweekly, price_cny: 260, date: \"2026-09-01\", seen_by: a}\n", "plans[0].mode"},
		{"plans:\n  - {platform: autodl, gpu: \"RTX 4090\", mode: weekly, price_cny: 0, date: \"2026-09-01\", seen_by: a}\n", "plans[0].price_cny"},
		{"plans:\n  - {platform: autodl, gpu: \"RTX 4090\", mode: weekly, price_cny: 260, date: \"last week\", seen_by: a}\n", "plans[0].date"},
		{"plans:\n  - {platform: autodl, gpu: \"RTX 4090\", mode: weekly, price_cny: 260, date: \"2026-09-01\"}\n", "plans[0].seen_by"},
		{"plans:\n  - {platform: \"\", gpu: \"RTX 4090\", mode: weekly, price_cny: 260, date: \"2026-09-01\", seen_by: a}\n", "plans[0].platform"},
	} {
		if _, err := loadText(t, c.body); err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%q: err = %v, want it to name %s", c.body, err, c.key)
		}
	}
}

func loadText(t *testing.T, body string) (config.Config, error) {
	t.Helper()
	return config.Load(write(t, body), env(nil))
}
