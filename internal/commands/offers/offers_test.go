package offers_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	_ "github.com/labgpu/bot/internal/commands/offers"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/offerview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
)

var now = time.Date(2026, 11, 29, 10, 5, 0, 0, time.UTC)

// fixed is an offer source with one snapshot.
type fixed stock.Snapshot

func (f fixed) Snapshot(context.Context) stock.Snapshot { return stock.Snapshot(f) }

// env answers over the embedded catalog and live RTX 4090 offers on
// AutoDL (sold out) and vast.ai (3 free).
func env(t *testing.T) *answer.Env {
	t.Helper()
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	offer := func(platform string, free int, price float64) stock.Offer {
		return stock.Offer{Platform: platform, GPU: "RTX 4090", Free: stock.IntPtr(free), CNYPerGPUHour: price, Source: stock.SourceLive, ObservedAt: now.Add(-time.Minute), Verified: true}
	}
	snap := fixed{TakenAt: now, Providers: []stock.ProviderSnapshot{
		{Provider: "autodl", Status: stock.StatusOK, FetchedAt: now, Offers: []stock.Offer{offer("autodl", 0, 1.98)}},
		{Provider: "vastai", Status: stock.StatusOK, FetchedAt: now, Offers: []stock.Offer{offer("vastai", 3, 2.43)}},
	}}
	return &answer.Env{Cat: cat, Offers: snap, Now: func() time.Time { return now }, Rd: &render.Renderer{Cat: cat}}
}

func answerOf(t *testing.T, e *answer.Env, q understand.Query) answer.Out {
	t.Helper()
	in, ok := answer.Lookup(q.Intent)
	if !ok {
		t.Fatalf("%s is not registered", q.Intent)
	}
	return in.Answer(context.Background(), &answer.Ask{Query: q, Env: e})
}

// TestStockAnswer: the rows for the card, available first; a question
// for other platforms than the one named drops it from the Query.
func TestStockAnswer(t *testing.T) {
	e := env(t)
	q := understand.Query{Intent: understand.IntentStock, GPU: "RTX 4090", GPUs: []string{"RTX 4090"}, Platform: "autodl", Platforms: []string{"autodl"}}
	out := answerOf(t, e, q)
	s := out.Payload.(offerview.Stock)
	if len(s.Offers) == 0 || slices.ContainsFunc(s.Offers, func(r render.OfferRow) bool { return r.Platform != "autodl" }) || len(s.Providers) != 2 {
		t.Errorf("autodl only: %+v", s.Offers)
	}
	q.Elsewhere = true
	out = answerOf(t, e, q)
	s = out.Payload.(offerview.Stock)
	if out.Query.Platform != "" || out.Query.Platforms != nil || s.Offers[0].Platform != "vastai" || *s.Offers[0].Available != true {
		t.Errorf("elsewhere: query platforms %v, first row %+v", out.Query.Platforms, s.Offers[0])
	}
	q = understand.Query{Intent: understand.IntentStock, GPU: "RTX 4090", GPUs: []string{"RTX 4090"}, MaxPriceCNY: 1}
	if s := answerOf(t, e, q).Payload.(offerview.Stock); !s.AboveCap || len(s.Offers) == 0 {
		t.Errorf("nothing under 1 CNY: above the cap %v, %d rows", s.AboveCap, len(s.Offers))
	}
}

// TestPricesAnswer: list prices of a card on every platform, trusted and
// cheapest first, each citing its source; the no-GPU modes.
func TestPricesAnswer(t *testing.T) {
	e := env(t)
	p := answerOf(t, e, understand.Query{Intent: understand.IntentPrices, GPU: "RTX 4090", GPUs: []string{"RTX 4090"}}).Payload.(offerview.Prices)
	if len(p.Offers) < 2 || len(p.Ask.Platforms) != 0 {
		t.Fatalf("card prices: %+v", p)
	}
	for i, row := range p.Offers {
		if row.Cite == "" || row.Source != "catalog" || i > 0 && render.Trust(p.Offers[i-1]) == render.Trust(row) && *p.Offers[i-1].PriceCNY > *row.PriceCNY {
			t.Errorf("row %d: %+v", i, row)
		}
	}
	p = answerOf(t, e, understand.Query{Intent: understand.IntentPrices, NoCardMode: true}).Payload.(offerview.Prices)
	if len(p.NoCard) == 0 || len(p.Offers) != 0 {
		t.Errorf("no-GPU mode: %+v", p)
	}
}

// TestCompareAnswer: two cards compared with a training ratio; one card
// and "哪家" is the stock answer; one card alone asks back.
func TestCompareAnswer(t *testing.T) {
	e := env(t)
	q := understand.Query{Intent: understand.IntentCompare, NamedGPUs: []string{"RTX 3090", "RTX 4090"}, Aspect: "price"}
	c := answerOf(t, e, q).Payload.(offerview.Compare)
	if len(c.Result.Cards) != 2 || c.Ratio == nil || c.Ratio.Fast != "RTX 4090" || c.Result.Verdict == "" || c.Result.Aspect != "price" {
		t.Errorf("two cards: %+v", c)
	}
	q = understand.Query{Intent: understand.IntentCompare, NamedGPUs: []string{"RTX 4090"}, GPUs: []string{"RTX 4090"}, WhichPlatform: true}
	out := answerOf(t, e, q)
	if _, ok := out.Payload.(offerview.Stock); !ok || out.Query.Intent != understand.IntentStock {
		t.Errorf("which platform: intent %s, payload %T", out.Query.Intent, out.Payload)
	}
	q.WhichPlatform = false
	if c := answerOf(t, e, q).Payload.(offerview.Compare); !c.AskBack || c.Question == "" || c.Result.Verdict != "" {
		t.Errorf("one card: %+v", c)
	}
	q = understand.Query{Intent: understand.IntentCompare, Platforms: []string{"autodl", "vastai", "hengyuan", "matpool", "lambda"}, GPUs: []string{"RTX 4090"}}
	if c := answerOf(t, e, q).Payload.(offerview.Compare); len(c.Compared) != offerview.MaxComparePlatforms || len(c.Result.Prices) != 1 {
		t.Errorf("five platforms: %+v", c)
	}
}
