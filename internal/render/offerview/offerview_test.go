package offerview_test

import (
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/offerview"
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

var at = time.Date(2026, 11, 29, 10, 5, 0, 0, time.UTC)

// liveRow is an AutoDL RTX 4090 seen live five minutes ago.
func liveRow() render.OfferRow {
	price, yes := 2.18, true
	return render.OfferRow{Platform: "autodl", GPU: "RTX 4090", PriceCNY: &price, Available: &yes, Free: stock.IntPtr(3),
		Source: string(stock.SourceLive), AgeSeconds: 300, Verified: true}
}

// TestStockReply: the verdict says who has the card, the cheapest and how
// fresh, or plainly that nothing is known; failed sources and a price
// ceiling nobody meets are said above the table; in both languages.
func TestStockReply(t *testing.T) {
	rd := renderer(t)
	ask := offerview.StockAsk{GPU: "RTX 4090", GPUs: []string{"RTX 4090"}, NamedGPUs: []string{"RTX 4090"}}
	live := []offerview.ProviderRow{{Provider: "autodl", Status: "ok"}}
	failed := []offerview.ProviderRow{{Provider: "vastai", Status: "error", Reason: stock.ReasonTimeout}}
	capped := ask
	capped.MaxPriceCNY = 1.5
	cases := []struct {
		name  string
		s     offerview.Stock
		title string
		lines []string
	}{
		{"live", offerview.Stock{Ask: ask, Offers: []render.OfferRow{liveRow()}, Providers: live, Now: at},
			"RTX 4090 有货：1 个平台，最便宜 AutoDL 2.18 元/卡时，空闲 3（实时 · 5 分钟前）。", nil},
		{"live en", offerview.Stock{Lang: i18n.EN, Ask: ask, Offers: []render.OfferRow{liveRow()}, Providers: live, Now: at},
			"RTX 4090 is available on 1 platforms; cheapest AutoDL at 2.18 CNY/GPU-h, 3 free (live · 5 min ago).", nil},
		{"nothing", offerview.Stock{Ask: ask, Providers: failed, Now: at},
			"RTX 4090：没有报价或目录标价。", nil},
		{"failed source", offerview.Stock{Ask: ask, Offers: []render.OfferRow{liveRow()}, Providers: append(live, failed...), Now: at},
			"RTX 4090 有货：1 个平台，最便宜 AutoDL 2.18 元/卡时，空闲 3（实时 · 5 分钟前）。", []string{"⚠ vast.ai 数据获取失败：超时，它的库存未知。"}},
		{"above the ceiling", offerview.Stock{Ask: capped, Offers: []render.OfferRow{liveRow()}, Providers: live, AboveCap: true, Now: at},
			"没有 1.5 元/卡时以内的；下面是已知最便宜的。", []string{"RTX 4090 有货：1 个平台，最便宜 AutoDL 2.18 元/卡时，空闲 3（实时 · 5 分钟前）。"}},
		{"unknown card", offerview.Stock{Ask: offerview.StockAsk{UnknownGPU: "RTX 9090"}, Now: at},
			"目录里没有“RTX 9090”这张卡，查不到它的库存和价格。", []string{"可以问的卡："}},
	}
	for _, c := range cases {
		rep := c.s.Reply(rd)
		if rep.Title != c.title {
			t.Errorf("%s: title\n%s\nwant\n%s", c.name, rep.Title, c.title)
		}
		for i, want := range c.lines {
			if i >= len(rep.Lines) || !strings.HasPrefix(rep.Lines[i], want) {
				t.Errorf("%s: lines %q, want %q first", c.name, rep.Lines, c.lines)
			}
		}
		if len(c.s.Offers) > 0 && (rep.Table == nil || rep.Table.Rows[0][0] != rd.PlatformName("autodl", c.s.Lang.English())) {
			t.Errorf("%s: table %+v", c.name, rep.Table)
		}
	}
}

// TestPricesReply: the no-GPU mode, one platform's short form with its
// card behind 详情, and the overview come from the payload and the
// catalog's rules.
func TestPricesReply(t *testing.T) {
	rd := renderer(t)
	low := 2.0
	row := render.OfferRow{Platform: "autodl", GPU: "RTX 4090", PriceCNY: &low, Source: "catalog", AsOf: "2026-08-21", AgeSeconds: -1, Verified: true, Cite: "AutoDL 官方文档，2026-08-21"}
	one := offerview.Prices{Ask: offerview.PricesAsk{Platforms: []string{"autodl"}, Named: []string{"autodl"}}, Offers: []render.OfferRow{row}}
	rep := one.Reply(rd)
	if !strings.HasPrefix(rep.Title, "AutoDL：") || !strings.Contains(rep.Title, "RTX 4090 2.00") || rep.Full == nil ||
		!strings.HasPrefix(rep.Full.Title, "AutoDL 计费规则和目录标价") || rep.Table == nil || rep.Table.Rows[0][2] != row.AsOf ||
		!strings.Contains(chat.PlainText(*rep.Full), row.Cite) {
		t.Errorf("one platform:\n%s", chat.PlainText(rep))
	}
	en := offerview.Prices{Lang: i18n.EN, Ask: one.Ask, Offers: one.Offers}.Reply(rd)
	if !strings.HasSuffix(en.Full.Notes[len(en.Full.Notes)-1], "These are catalog list prices, not live stock.") {
		t.Errorf("English card's last note: %q", en.Full.Notes)
	}
	nc := offerview.Prices{Ask: offerview.PricesAsk{NoCardMode: true}, NoCard: []offerview.NoCardRow{{Platform: "autodl", Available: true}, {Platform: "vastai"}}}.Reply(rd)
	if !strings.HasPrefix(nc.Title, "无卡模式（不带 GPU 开机，配环境、传数据用）：") || len(nc.Table.Rows) != 2 || nc.Table.Rows[0][2] != "价格未查到" || nc.Table.Rows[1][1] != "没有" {
		t.Errorf("no-GPU mode:\n%s", chat.PlainText(nc))
	}
	if ov := (offerview.Prices{}).Reply(rd); ov.Title != "各平台计费概览（目录数据）" || len(ov.Table.Rows) != len(rd.Cat.Platforms) {
		t.Errorf("overview:\n%s", chat.PlainText(ov))
	}
}

// TestCompareReply: fewer than two recognised asks which two; two cards
// get a verdict with the training ratio when there is one; Finish puts
// the verdict or the question into the JSON.
func TestCompareReply(t *testing.T) {
	rd := renderer(t)
	back := offerview.Compare{AskBack: true, NamedGPUs: []string{"RTX 3090"}}
	rep := back.Reply(rd)
	back.Finish(rd)
	if back.Question != rep.Title || !strings.HasPrefix(rep.Title, "比较哪两个？") || len(rep.Lines) != 1 || !strings.HasPrefix(rep.Lines[0], "只认出了：RTX 3090（") {
		t.Errorf("ask back %q:\n%s", back.Question, chat.PlainText(rep))
	}
	cards := []offerview.CardCompare{
		{CardRow: offerview.CardRow{GPU: "RTX 3090", Platform: "autodl", PriceCNY: 1.32, Source: "catalog", Verified: true}, TensorTFLOPS: 71},
		{CardRow: offerview.CardRow{GPU: "RTX 4090", Platform: "autodl", PriceCNY: 2.18, Source: "live", Verified: true}, TensorTFLOPS: 165},
	}
	for _, c := range []struct {
		ratio *offerview.TrainingRatio
		end   string
	}{
		{nil, "TFLOPS）。"},
		{&offerview.TrainingRatio{Fast: "RTX 4090", Slow: "RTX 3090", Low: 1.8, High: 2.3}, "RTX 4090 比 RTX 3090 约快 1.8–2.3 倍（规格比不等于提速）。"},
	} {
		cmp := offerview.Compare{Result: offerview.CompareResult{Cards: cards}, Ratio: c.ratio}
		rep := cmp.Reply(rd)
		cmp.Finish(rd)
		if !strings.HasPrefix(rep.Title, "按总价 RTX 4090 更划算") || !strings.HasSuffix(rep.Title, c.end) || cmp.Result.Verdict != rep.Title || len(rep.Table.Rows) != 2 {
			t.Errorf("cards (ratio %v):\n%s", c.ratio, chat.PlainText(rep))
		}
	}
	plats := offerview.Compare{Compared: []string{"autodl", "hengyuan"}, Result: offerview.CompareResult{Prices: []offerview.PlatformPrice{{GPU: "RTX 4090",
		Quotes: map[string]estimator.PriceQuote{
			"autodl":   {Platform: "autodl", CNYPerGPUHour: 2.18, Low: 2.18, High: 2.18, Source: "live", AsOf: "5 分钟前", Verified: true},
			"hengyuan": {Platform: "hengyuan", CNYPerGPUHour: 2.6, Low: 2.6, High: 2.6, Source: "catalog", AsOf: "2026", Verified: true}},
		Cheaper: "autodl", SavingPct: 16}}}}
	if rep := plats.Reply(rd); rep.Title != "AutoDL 更便宜：RTX 4090 上低 16%（每卡时少 0.42 元）。" || rep.Table.Rows[0][3] != "AutoDL 低 16%" {
		t.Errorf("platforms:\n%s", chat.PlainText(rep))
	}
}
