package app_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/webhook"
	"github.com/labgpu/bot/internal/config"
)

// TestPreviewThenScheduledDigest: `bot digest --preview` on a Wednesday
// shows what Monday's scheduled digest sends the lab's WeCom robot — its
// period and the digest, without what asks for a reply — and sends,
// claims and moves nothing: asked twice, then the Monday run sends that
// period all the same, through the robot.
func TestPreviewThenScheduledDigest(t *testing.T) {
	wc := newRecorder(t, `{"errcode":0,"errmsg":"ok"}`)
	cfg := manualConfig(t.TempDir())
	cfg.Storage.Prices = map[string]float64{"autodl": 0.01}
	cfg.Storage.Labs = map[string][]string{"nlp": {"webhook/wc"}}
	cfg.Webhooks = []config.WebhookConf{{Name: "wc", Kind: "wecom", URL: wc.srv.URL + "/cgi-bin/webhook/send?key=k3y"}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	loc, _ := cfg.Location()
	wednesday := time.Date(2026, 12, 2, 10, 0, 0, 0, loc)
	a := openAppAt(t, cfg, func() time.Time { return wednesday })
	defer a.Close()
	ctx := context.Background()
	if err := a.Store.AppendStorageEvents(ctx, []ledger.StorageEvent{{Time: time.Date(2026, 11, 16, 0, 0, 0, 0, loc), Lab: "nlp",
		Owner: "ou_alice", Platform: "autodl", Disk: "1", Action: ledger.ActionAdd, SizeGB: 80}}); err != nil {
		t.Fatal(err)
	}
	if err := a.Store.SetDigestChat(ctx, "webhook/wc", true); err != nil {
		t.Fatal(err)
	}
	monday := time.Date(2026, 12, 7, 9, 0, 0, 0, loc)
	for range 2 {
		ps, err := a.PreviewDigest(ctx, "nlp")
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != 1 || ps[0].Chat != "webhook/wc" || !ps[0].On || !ps[0].Due || !ps[0].NextRun.Equal(monday) ||
			!ps[0].Period.From.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, loc)) || !ps[0].Period.To.Equal(time.Date(2026, 12, 7, 0, 0, 0, 0, loc)) {
			t.Fatalf("preview %+v", ps)
		}
		var out bytes.Buffer
		a.WritePreview(&out, ps)
		text := out.String()
		if !strings.Contains(text, "== webhook/wc (lab nlp) gets, at the next scheduled run, 2026-12-07 09:00") || !strings.Contains(text, "period 2026-11-30 to 2026-12-07") ||
			!strings.Contains(text, "存储花费") || strings.Contains(text, "详情") {
			t.Errorf("preview text:\n%s", text)
		}
	}
	if mark, err := a.Store.DigestMark(ctx, "webhook/wc"); err != nil || mark != "" || len(wc.got()) != 0 {
		t.Fatalf("the preview left mark %q (%v) and sent %d", mark, err, len(wc.got()))
	}
	hook, err := webhook.NewWeCom(wc.srv.URL + "/cgi-bin/webhook/send?key=k3y")
	if err != nil {
		t.Fatal(err)
	}
	chans := chat.Channels{"webhook": webhook.Set{"wc": hook}}
	var keys []string
	j := a.NewDigestJob(func(ctx context.Context, ck string, r chat.Reply, o chat.SendOptions) error {
		keys = append(keys, o.IdempotencyKey)
		return chans.Send(ctx, ck, r, o)
	})
	j.Now = func() time.Time { return monday }
	if n, err := j.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("the scheduled run sent %d: %v", n, err)
	}
	if want := "digest:nlp:2026-11-30T00:00:00+08:00/2026-12-07T00:00:00+08:00"; len(keys) != 1 || keys[0] != want {
		t.Errorf("scheduled %q, want the previewed period %s", keys, want)
	}
	got := wc.got()
	if len(got) == 0 || !strings.Contains(string(got[0]), "2026-W49") || bytes.Contains(got[0], []byte("详情")) {
		t.Errorf("the robot got %d posts: %s", len(got), got)
	}
}
