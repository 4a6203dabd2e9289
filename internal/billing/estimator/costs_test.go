package estimator_test

import (
	"math"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
)

// TestCostOptions: hours estimated elsewhere (the workload estimator) are
// priced like an LLM estimate's: setup time added, the data disk beyond a
// platform's free quota per started day, cheapest first, one platform
// when asked.
func TestCostOptions(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	e := &estimator.Estimator{Cat: cat}
	fits := []estimator.Fit{{GPU: "RTX 3090", Fits: true, GPUCount: 1, Hours: estimator.Range{Low: 1, Typical: 6, High: 9}}}
	quotes := func(gpu string) []estimator.PriceQuote {
		return []estimator.PriceQuote{
			{Platform: "autodl", GPU: gpu, CNYPerGPUHour: 2.5, Low: 2.5, High: 2.5, Source: "catalog", Verified: true},
			{Platform: "hengyuan", GPU: gpu, CNYPerGPUHour: 2.6, Low: 2.6, High: 2.6, Source: "catalog", Verified: true},
		}
	}
	// 20 GB of data: inside AutoDL's free 50 GB, all billed on 恒源云
	// (catalog: no free data disk, 0.0168 CNY/GB-day), one day.
	opts := e.CostOptions(fits, 20, "", quotes)
	if len(opts) != 2 || opts[0].Platform != "autodl" || opts[1].Platform != "hengyuan" {
		t.Fatalf("options %+v", opts)
	}
	a, h := opts[0], opts[1]
	if a.Hours != 6+estimator.SetupHours || math.Abs(a.TotalCNY-2.5*a.Hours) > 0.02 || a.StorageCostCNY == nil || *a.StorageCostCNY != 0 {
		t.Errorf("autodl %+v", a)
	}
	if h.StorageCostCNY == nil || math.Abs(*h.StorageCostCNY-20*0.0168) > 0.01 || math.Abs(h.TotalCNY-(2.6*h.Hours+*h.StorageCostCNY)) > 0.02 {
		t.Errorf("hengyuan %+v", h)
	}
	if !(a.TotalLowCNY < a.TotalCNY && a.TotalCNY < a.TotalHighCNY) {
		t.Errorf("range %v < %v < %v", a.TotalLowCNY, a.TotalCNY, a.TotalHighCNY)
	}
	if one := e.CostOptions(fits, 20, "hengyuan", quotes); len(one) != 1 || one[0].Platform != "hengyuan" {
		t.Errorf("platform filter: %+v", one)
	}
	if none := e.CostOptions(fits, 20, "", nil); none != nil {
		t.Errorf("no quotes: %+v", none)
	}
}
