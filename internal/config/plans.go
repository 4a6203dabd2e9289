package config

import (
	"fmt"
	"strings"
	"time"
)

// PlanConf is a plan price the lab saw itself (`plans:`), which wins over
// the catalog's in plan answers and is labelled "本组记录".
type PlanConf struct {
	// Platform is a catalog platform id ("autodl"); GPU a catalog GPU id
	// ("RTX 4090"). The app checks both against the catalog.
	Platform string `yaml:"platform"`
	GPU      string `yaml:"gpu"`
	// Mode is hourly, daily, weekly, monthly, yearly or spot.
	Mode string `yaml:"mode"`
	// PriceCNY is CNY per GPU-hour (hourly, spot) or CNY per GPU for one
	// term (daily 24 h, weekly 7 days, monthly 30 days, yearly).
	PriceCNY float64 `yaml:"price_cny"`
	// Date is when it was seen (YYYY-MM-DD); SeenBy who saw it.
	Date   string `yaml:"date"`
	SeenBy string `yaml:"seen_by"`
}

// planModes are the modes a plans: entry may have.
var planModes = []string{"hourly", "daily", "weekly", "monthly", "yearly", "spot"}

// validatePlans checks each plans: entry and names the key.
func (c Config) validatePlans() error {
	for i, p := range c.Plans {
		key := fmt.Sprintf("plans[%d]", i)
		switch {
		case strings.TrimSpace(p.Platform) == "":
			return fmt.Errorf("%s.platform: empty", key)
		case strings.TrimSpace(p.GPU) == "":
			return fmt.Errorf("%s.gpu: empty", key)
		case !contains(planModes, p.Mode):
			return fmt.Errorf("%s.mode: %q is not one of %s", key, p.Mode, strings.Join(planModes, ", "))
		case !(p.PriceCNY > 0):
			return fmt.Errorf("%s.price_cny: must be a positive number of CNY", key)
		case strings.TrimSpace(p.SeenBy) == "":
			return fmt.Errorf("%s.seen_by: empty (who saw the price)", key)
		}
		if _, err := time.Parse(time.DateOnly, p.Date); err != nil {
			return fmt.Errorf("%s.date: %q is not a date (YYYY-MM-DD)", key, p.Date)
		}
	}
	return nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
