package app_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/config"
)

// TestHungWebhookDelaysNoOtherChat: two labs subscribed through two WeCom
// robots; one robot hangs (takes the request, never answers). The other
// chat's alert arrives at once, and the poll ends when the hung chat's
// send runs out of alerts.send_timeout, its alert held; once the robot
// answers again, the next poll sends it. What the robots get says
// nothing a reader of a push-only robot cannot do ("静音 2小时" …).
func TestHungWebhookDelaysNoOtherChat(t *testing.T) {
	needShared(t, fixtures)
	ok := newFakeWeCom(t)
	var hanging atomic.Bool
	hanging.Store(true)
	var hungRequests atomic.Int64
	var mu sync.Mutex
	var hungBodies []string
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hungRequests.Add(1)
		b, _ := io.ReadAll(r.Body)
		if hanging.Load() {
			<-r.Context().Done() // until the bot gives up
			return
		}
		mu.Lock()
		hungBodies = append(hungBodies, string(b))
		mu.Unlock()
		w.Write([]byte(`{"errcode":0,"errmsg":"ok"}`))
	}))
	defer hung.Close()
	cfg, rec := replayConfig(t)
	cfg.Webhooks = []config.WebhookConf{{Name: "hung", Kind: "wecom", URL: hung.URL + "/cgi-bin/webhook/send?key=k1"},
		{Name: "ok", Kind: "wecom", URL: ok.url}}
	cfg.Alerts.SendTimeout = config.Dur(1500 * time.Millisecond)
	a, _, stop := startServe(t, cfg)
	defer stop()
	for _, chat := range []string{"hung", "ok"} {
		var out bytes.Buffer
		if err := a.AskIn(context.Background(), "webhook", chat, "AutoDL 4090 有货了提醒我", app.FormatText, &out); err != nil {
			t.Fatal(err)
		}
	}
	copyRecording(t, filepath.Join(fixtures, "autodl-web-user-machine-list.json"), rec)
	poller := a.NewPoller()
	defer poller.Release(context.Background())
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		_, _, res, err := poller.RunOnce(context.Background())
		if err == nil && (res.Alerts != 1 || res.Held != 1) {
			t.Errorf("first poll: %+v, want one alert sent and one held", res)
		}
		done <- err
	}()
	waitFor(t, "the other chat's alert", func() bool { return len(ok.got()) == 1 })
	if d := time.Since(start); d > time.Second {
		t.Errorf("the other chat's alert took %v (the hung robot had %d requests): it waited for the hung one", d, hungRequests.Load())
	}
	// The hung robot was sent to as well (at once, or just after).
	waitFor(t, "the hung robot's request", func() bool { return hungRequests.Load() > 0 })
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the poll is held by the hung robot past alerts.send_timeout")
	}
	if d := time.Since(start); d < 1500*time.Millisecond || d > 4*time.Second {
		t.Errorf("the poll took %v; want about alerts.send_timeout (1.5s)", d)
	}
	hanging.Store(false)
	if _, _, res, err := poller.RunOnce(context.Background()); err != nil || res.Alerts != 1 {
		t.Fatalf("second poll: %+v %v; want the held alert sent", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(hungBodies) != 1 || len(ok.got()) != 1 {
		t.Errorf("the hung robot got %d, the other %d; want one each", len(hungBodies), len(ok.got()))
	}
	for _, b := range append(hungBodies, ok.got()...) {
		if !strings.Contains(b, "4090") || strings.Contains(b, "静音") || strings.Contains(b, "取消订阅") {
			t.Errorf("a robot got %s", b)
		}
	}
}
