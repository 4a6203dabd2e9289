package advice

import (
	"context"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render/adviceview"
	"github.com/labgpu/bot/internal/understand"
)

// TestFactCheck: each kind of claim, from the Query alone, against the
// catalog's sourced figures.
func TestFactCheck(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	env := &answer.Env{Cat: cat}
	for _, c := range []struct {
		name    string
		q       understand.Query
		claim   string
		verdict string
		claimed string
		offBy   bool
	}{
		{"disk per day, 50× off", understand.Query{Platform: "autodl", PriceCNY: 0.5, PriceUnit: "gb_day", Claim: &understand.Claim{Disk: true}},
			"disk_price", adviceview.VerdictNo, "0.5", true},
		{"disk per month", understand.Query{Platform: "autodl", PriceCNY: 0.25, PriceUnit: "gb_month", Claim: &understand.Claim{Disk: true}},
			"disk_price", adviceview.VerdictYes, "0.0083", false}, // per GB-day, to four decimals
		{"free disk", understand.Query{Platform: "autodl", Claim: &understand.Claim{Disk: true, Free: true}}, "free_disk", adviceview.VerdictPartly, "free", false},
		{"per second", understand.Query{Platform: "autodl", Claim: &understand.Claim{Grain: "second"}}, "granularity", adviceview.VerdictYes, "second", false},
		{"speed", understand.Query{NamedGPUs: []string{"RTX 4090", "RTX 3090"}, Claim: &understand.Claim{HasTimes: true, TimesLow: 2, TimesHigh: 2.5}},
			"speed_train", adviceview.VerdictPartly, "2-2.5", false}, // the training estimate is 1.8-2.2×
		{"gpu price", understand.Query{GPUs: []string{"RTX 4090"}, MaxPriceCNY: 1.5}, "gpu_price", "", "1.5", false},
		{"nothing to check", understand.Query{Platform: "autodl"}, "other", adviceview.VerdictUnknown, "", false},
		{"no claim read", understand.Query{}, "other", adviceview.VerdictUnknown, "", false},
	} {
		out := FactCheck(context.Background(), &answer.Ask{Query: c.q, Env: env})
		p := out.Payload.(adviceview.Check)
		ck := p.Check
		if ck.Claim != c.claim || c.verdict != "" && ck.Verdict != c.verdict || ck.Claimed != c.claimed || (ck.OffBy >= 2) != c.offBy {
			t.Errorf("%s: %+v", c.name, *ck)
		}
		if ck.Verdict != adviceview.VerdictUnknown && ck.Source == "" {
			t.Errorf("%s: no source", c.name)
		}
		if p.PerMonth != (c.q.PriceUnit == "gb_month") {
			t.Errorf("%s: per month %v", c.name, p.PerMonth)
		}
	}
}
