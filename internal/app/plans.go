package app

import (
	"fmt"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/plan"
)

// labPlans turns the config's plans: entries into the optimizer's prices
// ("本组记录 (who)", dated), checking platform and GPU against the
// catalog; an error names the key.
func labPlans(cat *catalog.Catalog, entries []config.PlanConf) ([]plan.Price, error) {
	var out []plan.Price
	for i, e := range entries {
		if _, ok := cat.Platform(e.Platform); !ok {
			return nil, fmt.Errorf("plans[%d].platform: %q is not a catalog platform id", i, e.Platform)
		}
		if _, ok := cat.GPU(e.GPU); !ok {
			return nil, fmt.Errorf("plans[%d].gpu: %q is not a catalog GPU id", i, e.GPU)
		}
		f := catalog.Figure{Low: e.PriceCNY, High: e.PriceCNY, AsOf: e.Date, Source: plan.LabSource(e.SeenBy), Verified: true}
		out = append(out, plan.Price{Platform: e.Platform, GPU: e.GPU, Mode: e.Mode, CNY: f, Lab: true, SeenBy: e.SeenBy})
	}
	return out, nil
}
