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
func (c Config) validatePlans(r *report) {
	for i, p := range c.Plans {
		key := fmt.Sprintf("plans[%d]", i)
		if strings.TrimSpace(p.Platform) == "" {
			r.add(key+".platform", "empty (a catalog platform id, e.g. autodl)")
		}
		if strings.TrimSpace(p.GPU) == "" {
			r.add(key+".gpu", "empty (a catalog GPU id, e.g. RTX 4090)")
		}
		if !contains(planModes, p.Mode) {
			r.add(key+".mode", "%q is not one of %s", p.Mode, strings.Join(planModes, ", "))
		}
		if !(p.PriceCNY > 0) {
			r.add(key+".price_cny", "must be a positive number of CNY (e.g. 1.98)")
		}
		if strings.TrimSpace(p.SeenBy) == "" {
			r.add(key+".seen_by", "empty (who saw the price)")
		}
		if _, err := time.Parse(time.DateOnly, p.Date); err != nil {
			r.add(key+".date", "%q is not a date (YYYY-MM-DD)", p.Date)
		}
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
