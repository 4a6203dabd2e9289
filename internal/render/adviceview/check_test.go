package adviceview

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

func renderer(t *testing.T) *render.Renderer {
	t.Helper()
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return &render.Renderer{Cat: cat}
}

// TestCheckReply: the verdict first, the sourced value, what the claim
// said and how far off; the monthly-for-daily misreading only for a
// daily price that is wrong; nothing to check said as such.
func TestCheckReply(t *testing.T) {
	rd := renderer(t)
	disk := &CheckRow{Claim: "disk_price", Verdict: VerdictNo, Platform: "autodl", Claimed: "0.5", Actual: "0.0066-0.01", Source: "AutoDL 官方文档，2026-08", OffBy: 50}
	for _, c := range []struct {
		p    Check
		want string
	}{
		{Check{Check: disk}, "不对：AutoDL 数据盘价格是 0.0066-0.01 元/GB·天（AutoDL 官方文档，2026-08），说法里是 0.5 元/GB·天，差了约 50 倍。\n常见的误读：把“元/GB/月”当成了“元/GB/天”（差 30 倍）。\n价格会变，以平台页面为准。"},
		// A claim per GB-month is said and compared per GB-month.
		{Check{Check: disk, PerMonth: true, Lang: i18n.EN}, "No: AutoDL data-disk price is 0.0066-0.01 CNY per GB-day (about 0.2-0.3 CNY per GB-month) (AutoDL 官方文档，2026-08); the claim says 15 CNY per GB-month, off by about 50×.\nPrices change; the platform's page has the last word."},
		{Check{Check: &CheckRow{Claim: "granularity", Verdict: VerdictNo, Platform: "autodl", Claimed: "minute", Actual: "second", Source: "s"}},
			"不对：AutoDL 按量计费的粒度是 秒（s），说法里是 分钟。\n价格会变，以平台页面为准。"},
		{Check{Check: &CheckRow{Claim: "spot", Verdict: VerdictYes, Platform: "vastai", Claimed: "spot", Actual: "spot", Source: "s"}, Lang: i18n.EN},
			"Yes: vast.ai spot instances is offered (s).\nPrices change; the platform's page has the last word."},
		{Check{Check: &CheckRow{Claim: "other", Verdict: VerdictUnknown}}, "这个说法我没有可以核对的有出处的数据。\n能核对的："},
		{Check{Check: &CheckRow{Claim: "gpu_price", Verdict: VerdictUnknown, GPU: "RTX 4090"}, Lang: i18n.EN}, "RTX 4090 price: I have no sourced figure to check it against.\nI can check:"},
	} {
		if got := chat.PlainText(c.p.Reply(rd)); !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v:\n got %q\nwant %q", *c.p.Check, got, c.want)
		}
	}
}

func TestGranularity(t *testing.T) {
	for _, c := range []struct{ g, zh, en string }{{"", "未知", "unknown"}, {"second", "秒", "per second"}, {"hour", "小时", "per hour"}, {"day", "day", "per day"}} {
		if got := Granularity(c.g, i18n.ZH); got != c.zh {
			t.Errorf("%q: %q", c.g, got)
		}
		if got := Granularity(c.g, i18n.EN); got != c.en {
			t.Errorf("%q: %q", c.g, got)
		}
	}
}
