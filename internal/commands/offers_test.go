package commands_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render/offerview"
)

// offersOf are the offer rows behind an answer (intents stock and
// prices).
func offersOf(res commands.Result) []commands.OfferRow {
	switch p := res.Payload.(type) {
	case offerview.Stock:
		return p.Offers
	case offerview.Prices:
		return p.Offers
	}
	return nil
}

// isCompare reports whether an answer is a comparison.
func isCompare(res commands.Result) bool {
	_, ok := res.Payload.(offerview.Compare)
	return ok
}

// TestOffersJSON: the offers answers keep their JSON keys (`bot ask
// --format json`) through their payloads: the rows and providers of a
// stock answer, the rows of a prices answer, the comparison with its
// verdict, and the question a comparison asks back.
func TestOffersJSON(t *testing.T) {
	r := newRouter(t)
	cases := []struct {
		ask, intent string
		keys        []string
		check       func(map[string]json.RawMessage, commands.Result) string
	}{
		{"哪家有4090", "stock", []string{"offers", "providers", "text"}, nil},
		{"AutoDL 怎么收费", "prices", []string{"offers", "text", "full_text"}, nil},
		{"恒源云和AutoDL哪个便宜", "compare", []string{"compare"}, func(m map[string]json.RawMessage, res commands.Result) string {
			var c struct {
				Verdict string            `json:"verdict"`
				Prices  []json.RawMessage `json:"prices"`
			}
			if json.Unmarshal(m["compare"], &c) != nil || !strings.HasPrefix(c.Verdict, "看卡：") || c.Verdict != res.Reply.Title || len(c.Prices) == 0 {
				return string(m["compare"])
			}
			return ""
		}},
		{"3090 还是 4090", "compare", []string{"compare"}, func(m map[string]json.RawMessage, res commands.Result) string {
			var c struct {
				Verdict string            `json:"verdict"`
				Cards   []json.RawMessage `json:"cards"`
			}
			if json.Unmarshal(m["compare"], &c) != nil || !strings.Contains(c.Verdict, "实际训练按 7B QLoRA 估算") || c.Verdict != res.Reply.Title || len(c.Cards) != 2 {
				return string(m["compare"])
			}
			return ""
		}},
		{"比较一下 3090", "compare", []string{"compare", "question"}, nil},
	}
	for _, c := range cases {
		res := ask(r, c.ask)
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%q: %v: %s", c.ask, err, b)
		}
		if res.Intent != c.intent {
			t.Errorf("%q: intent %s, want %s", c.ask, res.Intent, c.intent)
		}
		for _, k := range c.keys {
			if _, ok := m[k]; !ok {
				t.Errorf("%q: no %q in %s", c.ask, k, b)
			}
		}
		if c.check != nil {
			if bad := c.check(m, res); bad != "" {
				t.Errorf("%q: compare %s", c.ask, bad)
			}
		}
	}
}

// TestOffersRegistered: stock, prices and compare are registered intents
// (answer.Register from their own files), each answering with its payload.
func TestOffersRegistered(t *testing.T) {
	for _, name := range []string{commands.IntentStock, commands.IntentPrices, commands.IntentCompare} {
		if _, ok := answer.Lookup(name); !ok {
			t.Errorf("%s is not registered", name)
		}
	}
	r := newRouter(t)
	for text, want := range map[string]any{"哪家有4090": offerview.Stock{}, "4090 价格表": offerview.Prices{}, "3090 还是 4090": offerview.Compare{}, "3090 哪家便宜": offerview.Stock{}} {
		res := ask(r, text)
		if fmt.Sprintf("%T", res.Payload) != fmt.Sprintf("%T", want) {
			t.Errorf("%q: payload %T, want %T", text, res.Payload, want)
		}
	}
}
