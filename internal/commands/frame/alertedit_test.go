package frame_test

import (
	"slices"
	"testing"

	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/understand"
)

// TestCardAlert: an alert asked of the last answer ("有了告诉我", "notify
// me when it drops under 1.5 yuan") takes the card the answer named, its
// platforms and platform group; after cards the answer chose by memory
// ("which 24GB card is cheapest") "it" names none of them for sure, and
// nothing is taken (the bot asks which card).
func TestCardAlert(t *testing.T) {
	ask := frame.Query{Intent: understand.IntentSubscribe, AlertAsk: true, MaxPriceCNY: 1.5}
	cases := []struct {
		name   string
		last   frame.Query
		ok     bool
		gpus   []string
		group  string
		maxCNY float64
	}{
		{"named card, domestic", frame.Query{Intent: understand.IntentStock, GPU: "RTX 4090", GPUs: []string{"RTX 4090"}, NamedGPUs: []string{"RTX 4090"}},
			true, []string{"RTX 4090"}, "domestic", 1.5},
		{"cards by memory", frame.Query{Intent: understand.IntentStock, GPUs: []string{"RTX 4090", "RTX 3090", "A100 80GB"}},
			false, nil, "", 0},
		{"no card", frame.Query{Intent: understand.IntentPrices, Platform: "autodl", Platforms: []string{"autodl"}}, false, nil, "", 0},
	}
	for _, c := range cases {
		c.last.PlatformGroup = "domestic"
		f := &frame.Frame{Query: frame.Keep(c.last)}
		m, ok := frame.CardAlert(f, ask)
		if ok != c.ok {
			t.Errorf("%s: took the last answer %v, want %v", c.name, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if !slices.Equal(m.GPUs, c.gpus) || m.PlatformGroup != c.group || m.MaxPriceCNY != c.maxCNY || m.Intent != understand.IntentSubscribe {
			t.Errorf("%s: alert on %v, group %q, ≤ %v (%s); want %v, %q, ≤ %v", c.name, m.GPUs, m.PlatformGroup, m.MaxPriceCNY, m.Intent, c.gpus, c.group, c.maxCNY)
		}
	}
}
