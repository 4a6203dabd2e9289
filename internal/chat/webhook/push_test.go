package webhook

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// asksToWrite finds a sentence that asks the reader to write to the bot:
// a command to send in quotes, "回 1 或 2", "say …".
var asksToWrite = regexp.MustCompile(`(发|说|问|回复|私聊里)“|回 1|^“[^”]+”|。“[^”]+”(暂停|不再|停止)|\b([Ss]ay|[Aa]sk|[Rr]eply)\b[^.]*“|“[^”]+” (pauses|stops)`)

// answersOnly are the catalog's sentences that ask the reader to write to
// the bot and only ever appear in answers (a chat the reader can write
// in), never in what is pushed: alerts, digests, budget notices, release
// warnings and WeChat notices.
var answersOnly = []string{
	"stock.verdict.sold_out", "prices.gpu.ask_stock", "prices.overview.hint", "prices.short.not_stock", "compare.cards.note",
	"estimate.short.assumed_inference", "estimate.short.assumed_training", "estimate.assumed.inference", "estimate.assumed.training",
	"estimate.stack.tuned_speedup", "advice.stock.live", "advice.stock.alert", "meta.chitchat.greeting", "meta.clarify.how",
	"meta.unknown.help", "explain.mute", "subscribe.list.none", "subscribe.list.muted_now", "subscribe.mute.longer", "subscribe.cancel.which", "subscribe.how", "digest.on_hint", "explain.digest_off", "explain.alerts.night", "explain.alerts.night_quiet", "explain.storage_remove", "explain.storage_start", "explain.storage_stop", "digest.info_on", "digest.info_off", "digest.info_unknown", "release.list.check",
	"release.list.note", "release.list.plans", "storage.add.hint", "storage.list.none", "storage.list.disk_monthly_at", "storage.change.no_disk",
	"storage.admin.not_private", "meta.unknown.operate", "meta.unknown.account", "meta.unknown.email", "meta.unknown.wipe", "storage.list.state_running", "storage.list.state_stopped", "storage.list.backup", "storage.list.idle_drop", "storage.admin.no_code", "storage.admin.expired", "storage.admin.spent",
	"storage.admin.code_issued", "storage.admin.no_such", "help.short_first", "help.areas_hint", "help.topics_note",
	"advice.oom.costs", "advice.follow.paste", "advice.follow.check", "advice.follow.next", "advice.follow.exhausted", "estimate.too_many_gpus", "prices.full.not_stock", "subscribe.list.cancel_hint", "meta.clarify.title",
	"workload.change.detection", "workload.change.generate", "workload.change.lora", "workload.change.own_data",
	"workload.change.samples", "workload.change.train", "workload.change.two_stage", "workload.change.infer", "workload.change.audio", "workload.change.clips",
	"ids.group_hint", "ids.wechat_bind", "ids.wechat_remark", "router.confirm.how", "meta.clarify.how_one", "meta.clarify.one", "router.figure.currency_cny",
	// Quoted words that ask nothing (a legend, a name).
	"advice.card.enough_note", "estimate.disk_unknown", "plan.hourly_times_note", "storage.admin.unbound",
	// Words for the operator, in logs and the command line, not chats.
	"storage.admin.console", "app.wechat.digest_stays", "config.admin_not_open_id", "cli.console_banner", "cli.ask.example",
}

// TestPushWordsCoverCatalog: every sentence of the catalog that asks the
// reader to write to the bot is either reworded for a push-only webhook
// (pushWords) or one that is never pushed (answersOnly); each reworded
// one's replacement uses only its arguments.
func TestPushWordsCoverCatalog(t *testing.T) {
	zh, en := i18n.Embedded()[0], i18n.Embedded()[1]
	texts, _ := zh.Keys()
	slices.Sort(texts)
	pushed := map[string]string{}
	for _, w := range pushWords {
		pushed[w.key] = w.push
	}
	for _, k := range texts {
		z, _ := zh.Text(k)
		e, _ := en.Text(k)
		if !asksToWrite.MatchString(z) && !asksToWrite.MatchString(e) {
			continue
		}
		if _, ok := pushed[k]; !ok && !slices.Contains(answersOnly, k) && k != "chat.more_hint" {
			t.Errorf("%s asks the reader to write to the bot (%q): reword it in pushWords if it is pushed, else list it in answersOnly", k, z)
		}
	}
	for key, push := range pushed {
		if push == "" {
			continue
		}
		for _, c := range []*i18n.Catalog{zh, en} {
			from, _ := c.Text(key)
			to, ok := c.Text(push)
			if !ok || i18n.Args(to) > i18n.Args(from) {
				t.Errorf("%s → %s: %q takes arguments %q does not have", key, push, to, from)
			}
			if asksToWrite.MatchString(to) {
				t.Errorf("%s still asks to write: %q", push, to)
			}
		}
	}
}

// TestPushOnlyOnTheWire: what a webhook posts of an alert, a budget
// notice and a release warning keeps their news and drops what asks the
// reader to write ("静音 2小时", "问“本周存储花费”", "发“详情”"), in
// either language, on both webhooks.
func TestPushOnlyOnTheWire(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		io.WriteString(w, `{"code":0,"errcode":0,"msg":"ok","errmsg":"ok"}`)
	}))
	defer srv.Close()
	fs, err := NewFeishuBot(srv.URL+"/open-apis/bot/v2/hook/h", "")
	if err != nil {
		t.Fatal(err)
	}
	wc, err := NewWeCom(srv.URL + "/cgi-bin/webhook/send?key=k")
	if err != nil {
		t.Fatal(err)
	}
	replies := []chat.Reply{
		{Title: i18n.ZH.T("alert.title"), Lines: []string{"你订阅的 RTX 4090 有货了"}, Notes: []string{i18n.ZH.T("alert.footer")}, Full: &chat.Reply{Lines: []string{"全部"}}},
		{Title: "Stock alert", Lines: []string{"RTX 4090 is available"}, Notes: []string{i18n.EN.T("alert.footer")}, English: true},
		{Title: "预算", Lines: []string{i18n.ZH.T("jobs.budget.reached", 80), i18n.EN.T("jobs.budget.reached", 80)}},
		{Title: "释放", Lines: []string{"盘 #3"}, Notes: []string{i18n.ZH.T("release.warning.counted", "11-27 08:00", "3")}},
		{Title: "周报", Lines: []string{i18n.ZH.T("digest.start")}},
	}
	for _, s := range []interface {
		SendWith(context.Context, chat.Reply, chat.SendOptions) error
	}{fs, wc} {
		for _, r := range replies {
			if err := s.SendWith(context.Background(), r, chat.SendOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	all := strings.Join(bodies, "\n")
	for _, gone := range []string{"静音", "取消订阅", "mute 2h", "unsubscribe", "本周存储花费", "storage spend this week", "详情", "存储 3 开机", "登记存储"} {
		if strings.Contains(all, gone) {
			t.Errorf("a webhook was told %q:\n%s", gone, all)
		}
	}
	for _, kept := range []string{"库存变化很快，以平台页面为准。", "Stock changes fast; check the platform.", "本月存储花费已达到预算的 80%。",
		"reached 80% of the budget.", "按账本记的关机时间（11-27 08:00）算", "有货了"} {
		if strings.Count(all, kept) != 2 {
			t.Errorf("want %q once on each webhook:\n%s", kept, all)
		}
	}
}
