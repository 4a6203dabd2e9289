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

// TestAlertUnnamedMember: a subscriber whose name the chat never gave is
// mentioned by id (the channel's own mention, which shows the real
// name) and called "订阅的同学" in the text, never by an invented name.
func TestAlertUnnamedMember(t *testing.T) {
	r := renderer(t)
	at := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	offer := stock.Offer{Platform: "autodl", GPU: "RTX 4090", CNYPerGPUHour: 2.18, Free: stock.IntPtr(2), Source: stock.SourceLive, ObservedAt: at}
	cases := []struct {
		name, owner, ownerName string
		english                bool
		want                   string
		mentions               int
	}{
		{"Feishu id, no name", "ou_0c1e2b9a8f7d6c5b4a39281706f5e467d", "", false, "订阅的同学 有货了", 1},
		{"WeChat user name, no name", "@a1b2c3d4e5f60718293a4b5c6d7e8f90", "", false, "订阅的同学 有货了", 1},
		{"Feishu id, no name, English", "ou_0c1e2b9a8f7d6c5b4a39281706f5e467d", "", true, "Subscriber: available", 1},
		{"a name", "ou_0c1e2b9a8f7d6c5b4a39281706f5e467d", "张伟", false, "@张伟 有货了", 1},
		{"the command line", render.ConsoleOwner, "", false, "你订阅的 有货了", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := stock.Alert{Channel: "feishu", ChatID: "oc_lab", At: at, English: c.english, Items: []stock.AlertItem{
				{Subscription: stock.Subscription{OwnerID: c.owner, OwnerName: c.ownerName, GPUs: []string{"RTX 4090"}}, Reason: stock.ReasonAvailable, Offers: []stock.Offer{offer}}}}
			rep := r.Alert(a)
			text := chat.PlainText(rep)
			if !strings.Contains(text, c.want) {
				t.Errorf("alert lacks %q:\n%s", c.want, text)
			}
			if strings.Contains(text, "成员") || strings.Contains(text, "467d") || strings.Contains(text, "8f90") {
				t.Errorf("alert names the member by a made-up label or an id:\n%s", text)
			}
			if len(rep.Mentions) != c.mentions || c.mentions == 1 && rep.Mentions[0] != c.owner {
				t.Errorf("mentions %v; want the owner's id %d time(s)", rep.Mentions, c.mentions)
			}
		})
	}
}
