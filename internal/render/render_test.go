package render_test

import (
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

func renderer(t *testing.T) *render.Renderer {
	t.Helper()
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return &render.Renderer{Cat: cat}
}

// TestAlert: one message for all items, each owner @mentioned once, every
// offer with its price, source, age and region, and the marks' legend.
func TestAlert(t *testing.T) {
	r := renderer(t)
	at := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	a := stock.Alert{Channel: "test", ChatID: "lab1", At: at, Items: []stock.AlertItem{
		{Subscription: stock.Subscription{OwnerID: "ou_a", OwnerName: "alice", GPUs: []string{"RTX 4090"}, MaxPriceCNY: 2.5}, Reason: stock.ReasonAvailable,
			Offers: []stock.Offer{{Platform: "autodl", GPU: "RTX 4090", CNYPerGPUHour: 2.18, Free: stock.IntPtr(2), Source: stock.SourceLive, ObservedAt: at.Add(-time.Minute), Region: "west-B"}}},
		{Subscription: stock.Subscription{OwnerID: "ou_b", OwnerName: "bob", GPUs: []string{"RTX 3090"}}, Reason: stock.ReasonPriceDrop,
			Offers: []stock.Offer{{Platform: "matpool", GPU: "RTX 3090", CNYPerGPUHour: 1.2, Free: stock.IntPtr(3), Source: stock.SourceLive, ObservedAt: at,
				Caveats: []stock.Caveat{stock.CaveatCountUnreliable}}}},
	}}
	rep := r.Alert(a)
	text := chat.PlainText(rep)
	for _, want := range []string{"@alice 有货了", "@bob 降价了", "2.18 元/卡时", "实时 · 1 分钟前", "西北B区", "空闲 3?", "矩池云接口的空闲数常不准"} {
		if !strings.Contains(text, want) {
			t.Errorf("alert lacks %q:\n%s", want, text)
		}
	}
	if len(rep.Mentions) != 2 {
		t.Errorf("mentions %v", rep.Mentions)
	}
	a.English = true
	if en := chat.PlainText(r.Alert(a)); !strings.Contains(en, "@alice: available") || !strings.Contains(en, "Northwest B") || strings.Contains(en, "，") {
		t.Errorf("English alert:\n%s", en)
	}
}
