package advice

import (
	"context"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/adviceview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
)

// seen is a stock source with the offers a claim may be checked against.
type seen []stock.Offer

func (s seen) Snapshot(context.Context) stock.Snapshot {
	return stock.Snapshot{Providers: []stock.ProviderSnapshot{{Provider: "replay", Offers: s}}}
}

func check(t *testing.T, env *answer.Env, q understand.Query) *adviceview.CheckRow {
	t.Helper()
	return FactCheck(context.Background(), &answer.Ask{Query: q, Env: env}).Payload.(adviceview.Check).Check
}

// TestClaimOwnTerms: a plan's price against plan prices, a month of disk
// for its size, a price in dollars, the offers seen before the list
// price, billing while stopped, a card's memory.
func TestClaimOwnTerms(t *testing.T) {
	base, err := loadEnv()
	if err != nil {
		t.Fatal(err)
	}
	env := *base
	now := env.Now()
	env.Rd = &render.Renderer{Cat: env.Cat}
	env.Offers = seen{{Platform: "runpod", GPU: "RTX 4090", Source: stock.SourceReplay, CNYPerGPUHour: 2.45, Currency: "USD", OriginalPrice: 0.34,
		ObservedAt: now.Add(-5 * time.Minute), Free: stock.IntPtr(3)}}
	cases := []struct {
		name    string
		q       understand.Query
		claim   string
		verdict string
		actual  string
	}{
		{"monthly plan", understand.Query{Platform: "autodl", GPU: "RTX 4090", GPUs: []string{"RTX 4090"}, BillingMode: "monthly", ModeNamed: true, PriceCNY: 1200},
			"plan_price", adviceview.VerdictYes, "1200-1500"},
		{"no plan on record", understand.Query{Platform: "matpool", GPU: "RTX 4090", GPUs: []string{"RTX 4090"}, BillingMode: "monthly", ModeNamed: true, PriceCNY: 1000},
			"plan_price", adviceview.VerdictUnknown, ""},
		{"a month of 20 GB", understand.Query{Platform: "hengyuan", PriceCNY: 5, PriceUnit: "month", SizeGB: 20, Claim: &understand.Claim{Disk: true, Month: true}},
			"disk_month", adviceview.VerdictNo, "10.08"},
		{"a month of 100 GB, 50 free", understand.Query{Platform: "autodl", PriceCNY: 15, PriceUnit: "month", SizeGB: 100},
			"disk_month", adviceview.VerdictYes, "9.9-15"},
		{"per GB-month", understand.Query{Platform: "matpool", PriceCNY: 0.5, PriceUnit: "gb_month", Claim: &understand.Claim{Disk: true, PerGBMonth: true}},
			"disk_price", adviceview.VerdictYes, ""},
		{"dollars, the offer seen", understand.Query{Platform: "runpod", GPU: "RTX 4090", GPUs: []string{"RTX 4090"}, PriceCNY: 2.448, Claim: &understand.Claim{USD: true}},
			"gpu_price", adviceview.VerdictYes, "2.45"},
		{"dollars read as dollars", understand.Query{Platform: "runpod", GPU: "L40S", GPUs: []string{"L40S"}, PriceCNY: 0.79},
			"gpu_price", adviceview.VerdictPartly, ""},
		{"billed while stopped", understand.Query{Platform: "runpod", Claim: &understand.Claim{Stopped: true, Dearer: true}},
			"stopped_billing", adviceview.VerdictYes, "yes"},
		{"a card's memory", understand.Query{GPU: "RTX 3090", GPUs: []string{"RTX 3090"}, Claim: &understand.Claim{VRAMGB: 48}},
			"vram", adviceview.VerdictNo, "24"},
	}
	for _, c := range cases {
		got := check(t, &env, c.q)
		if got.Claim != c.claim || got.Verdict != c.verdict || c.actual != "" && got.Actual != c.actual {
			t.Errorf("%s: %+v; want %s %s %q", c.name, *got, c.claim, c.verdict, c.actual)
		}
	}
	if got := check(t, &env, cases[5].q); !got.Observed || got.ClaimedUSD != "0.34" {
		t.Errorf("the offer seen, in dollars: %+v", *got)
	}
	if got := check(t, &env, cases[6].q); got.ClaimedUSD != "0.79" || got.Claimed != "5.69" {
		t.Errorf("a bare price on a platform that prices in dollars: %+v", *got)
	}
	if got := check(t, &env, cases[1].q); got.HourlyTerm == "" || got.HourlyCNY == "" {
		t.Errorf("no plan price: what pay-as-you-go comes to for the term: %+v", *got)
	}
}
