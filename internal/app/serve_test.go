package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/chat/feishu/feishutest"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/fixture"
	"github.com/labgpu/bot/internal/stock/provider"
)

// feishuFixtures are the recorded Feishu events and answers.
var feishuFixtures = fixture.Dir(fixture.Feishu)

const (
	encryptKey  = "labbot-encrypt-key-0001"
	verifyToken = "labbot-verify-token-0001"
	botOpenID   = "ou_b07a1c2d3e4f5a6b7c8d9e0f1a2b3c4d"
	groupChat   = "oc_5ad11d72b830411d72b836c20ad11d72"
)

func newFakeFeishu(t *testing.T) *feishutest.Server {
	f, err := feishutest.NewServer(feishuFixtures)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func groupEvent(t *testing.T, eventID, messageID, text string) []byte {
	b, err := feishutest.GroupEvent(feishuFixtures, eventID, messageID, text)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sealed(_ *testing.T, plain []byte, ts time.Time) ([]byte, map[string]string) {
	return feishutest.Seal(plain, encryptKey, ts)
}

func post(t *testing.T, url string, body []byte, headers map[string]string) int {
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestServeFeishu runs `bot serve`'s Serve against a fake Feishu: signed,
// encrypted group messages are answered once each; a subscription made in
// the group gets one alert in that chat when a recording shows stock.
func TestServeFeishu(t *testing.T) {
	needShared(t, feishuFixtures)
	fake := newFakeFeishu(t)
	rec := t.TempDir()
	cfg := feishuConfig(t, fake.URL, t.TempDir()) // polled by hand below
	cfg.Stock.Providers.Of("replay").Dir = rec
	copyRecording(t, filepath.Join(fixtures, "vastai-bundles.json"), rec) // 4090s, but not under 0.5 yuan
	recordedNow(t, rec)

	a, base, stop := startServe(t, cfg)
	defer stop()
	events := base + "/feishu/events"

	// A group message @bot, delivered 3 times: one reply, in that chat.
	body, hdr := sealed(t, groupEvent(t, "ev-1", "om_1", "哪家有4090"), time.Now())
	for i := 0; i < 3; i++ {
		if code := post(t, events, body, hdr); code != http.StatusOK {
			t.Fatalf("delivery %d: HTTP %d", i+1, code)
		}
	}
	waitFor(t, "the reply", func() bool { return len(fake.Messages()) >= 1 })
	time.Sleep(200 * time.Millisecond)
	if msgs := fake.Messages(); len(msgs) != 1 || !strings.Contains(msgs[0].Path, "om_1/reply") || !strings.Contains(msgs[0].Content, "RTX 4090") {
		t.Fatalf("replies: %+v", msgs)
	}

	// A bad signature and a stale timestamp are refused; nothing is posted.
	body2, hdr2 := sealed(t, groupEvent(t, "ev-2", "om_2", "哪家有3090"), time.Now())
	hdr2["X-Lark-Signature"] = strings.Repeat("0", 64)
	if code := post(t, events, body2, hdr2); code == http.StatusOK {
		t.Error("bad signature accepted")
	}
	body3, hdr3 := sealed(t, groupEvent(t, "ev-3", "om_3", "哪家有3090"), time.Now().Add(-10*time.Minute))
	if code := post(t, events, body3, hdr3); code == http.StatusOK {
		t.Error("stale timestamp accepted")
	}

	// A subscription in the group; the recording then shows stock: one
	// alert, posted to the group.
	body4, hdr4 := sealed(t, groupEvent(t, "ev-4", "om_4", "AutoDL 4090 有货了提醒我"), time.Now())
	post(t, events, body4, hdr4)
	waitFor(t, "the subscription reply", func() bool { return len(fake.Messages()) >= 2 })
	if m := fake.Messages()[1]; !strings.Contains(m.Content, "已订阅") {
		t.Fatalf("subscription reply: %+v", m)
	}
	copyRecording(t, filepath.Join(fixtures, "autodl-web-user-machine-list.json"), rec)
	for i := 0; i < 2; i++ {
		if _, _, _, err := a.NewPoller().RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	msgs := fake.Messages()
	if len(msgs) != 3 || msgs[2].ChatID != groupChat || !strings.Contains(msgs[2].Content, "库存提醒") || !strings.Contains(msgs[2].Content, botOpenID[:0]+"RTX 4090") {
		t.Fatalf("after two polls: %+v", msgs)
	}

	// Health and metrics.
	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	mb, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(mb), `labgpu_messages_handled_total{channel="feishu"} 2`) || !strings.Contains(string(mb), `labgpu_replies_sent_total{channel="feishu"} 3`) {
		t.Errorf("metrics lack message and alert counts:\n%s", grep(string(mb), "labgpu_"))
	}
}

func grep(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// startServe runs Serve for cfg until the returned stop is called.
func startServe(t *testing.T, cfg config.Config) (a *app.App, base string, stop func()) {
	t.Helper()
	a = openApp(t, cfg)
	base, stop = serve(t, a, true)
	return a, base, stop
}

// serve runs a.Serve on a free loopback port; stop ends it, reports its
// error and closes a. With ready, serve returns once the server accepts
// requests.
func serve(t *testing.T, a *app.App, ready bool) (base string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	opts := app.ServeOptions{Listener: ln}
	if ready {
		opts.Ready = make(chan struct{})
	}
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx, opts) }()
	if ready {
		<-opts.Ready
	}
	return "http://" + ln.Addr().String(), func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		a.Close()
	}
}

func feishuConfig(t *testing.T, fakeURL, dataDir string) config.Config {
	cfg := manualConfig(dataDir)
	cfg.Feishu = config.FeishuConf{AppID: fmt.Sprintf("cli_test_%d", time.Now().UnixNano()), AppSecret: "secret", VerificationToken: verifyToken,
		EncryptKey: encryptKey, Mode: "webhook", BaseURL: fakeURL}
	return cfg
}

// TestEventDedupAcrossRestart: an event redelivered after a restart gets
// no second reply (the dedup keys are in the store).
func TestEventDedupAcrossRestart(t *testing.T) {
	needShared(t, feishuFixtures)
	fake := newFakeFeishu(t)
	data := t.TempDir()
	body, hdr := sealed(t, groupEvent(t, "ev-r", "om_r", "哪家有4090"), time.Now())
	_, base, stop := startServe(t, feishuConfig(t, fake.URL, data))
	post(t, base+"/feishu/events", body, hdr)
	waitFor(t, "the reply", func() bool { return len(fake.Messages()) == 1 })
	stop()
	_, base, stop = startServe(t, feishuConfig(t, fake.URL, data))
	defer stop()
	// The same event again (Feishu retries with a fresh signature).
	body, hdr = sealed(t, groupEvent(t, "ev-r", "om_r", "哪家有4090"), time.Now())
	if code := post(t, base+"/feishu/events", body, hdr); code != http.StatusOK {
		t.Fatalf("redelivery: HTTP %d", code)
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(fake.Messages()); n != 1 {
		t.Fatalf("%d replies after a restart and a redelivery, want 1", n)
	}
}

// TestWebhookAlert: a subscription made for a configured WeCom robot gets
// its alert there.
func TestWebhookAlert(t *testing.T) {
	needShared(t, fixtures)
	wecom := newFakeWeCom(t)
	cfg, rec := replayConfig(t)
	cfg.Webhooks = []config.WebhookConf{{Name: "lab", Kind: "wecom", URL: wecom.url}}
	a, _, stop := startServe(t, cfg)
	defer stop()
	var out bytes.Buffer
	if err := a.AskIn(context.Background(), "webhook", "lab", "AutoDL 4090 有货了提醒我", app.FormatText, &out); err != nil {
		t.Fatal(err)
	}
	stockArrives(t, a, rec)
	if got := wecom.got(); len(got) != 1 || !strings.Contains(got[0], "4090") {
		t.Fatalf("WeCom got %q", got)
	}
}

// TestServeGatingAndHelp: @all alone is not answered; a private "/help"
// gets the generated help.
func TestServeGatingAndHelp(t *testing.T) {
	needShared(t, feishuFixtures)
	fake := newFakeFeishu(t)
	_, base, stop := startServe(t, feishuConfig(t, fake.URL, t.TempDir()))
	defer stop()
	// @all only: no mention of the bot.
	var ev map[string]any
	json.Unmarshal(groupEvent(t, "ev-all", "om_all", "哪家有4090"), &ev)
	msg := ev["event"].(map[string]any)["message"].(map[string]any)
	msg["mentions"] = []any{map[string]any{"key": "@_all", "id": map[string]any{"open_id": "", "union_id": "", "user_id": "all"}, "name": "所有人"}}
	msg["content"] = `{"text":"@_all 哪家有4090"}`
	plain, _ := json.Marshal(ev)
	body, hdr := sealed(t, plain, time.Now())
	if code := post(t, base+"/feishu/events", body, hdr); code != http.StatusOK {
		t.Fatalf("@all: HTTP %d", code)
	}
	// p2p "/help".
	b, err := os.ReadFile(filepath.Join(feishuFixtures, "event_im_message_receive_p2p.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &ev)
	now := fmt.Sprint(time.Now().UnixMilli())
	ev["header"].(map[string]any)["event_id"], ev["header"].(map[string]any)["create_time"] = "ev-help", now
	msg = ev["event"].(map[string]any)["message"].(map[string]any)
	msg["message_id"], msg["create_time"], msg["content"] = "om_help", now, `{"text":"/help"}`
	plain, _ = json.Marshal(ev)
	body, hdr = sealed(t, plain, time.Now())
	post(t, base+"/feishu/events", body, hdr)
	waitFor(t, "the help", func() bool { return len(fake.Messages()) >= 1 })
	time.Sleep(200 * time.Millisecond)
	msgs := fake.Messages()
	if len(msgs) != 1 || !strings.Contains(msgs[0].Path, "om_help") || !strings.Contains(msgs[0].Content, "有货提醒") {
		t.Fatalf("sent %+v; want only the help, in reply to om_help", msgs)
	}
}

// fakeWeCom is a WeCom group robot that records the bodies it gets.
type fakeWeCom struct {
	url    string
	mu     sync.Mutex
	bodies []string
}

func newFakeWeCom(t *testing.T) *fakeWeCom {
	f := &fakeWeCom{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.bodies = append(f.bodies, string(b))
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"errcode":0,"errmsg":"ok"}`))
	}))
	t.Cleanup(srv.Close)
	f.url = srv.URL + "/cgi-bin/webhook/send?key=test-key"
	return f
}

func (f *fakeWeCom) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.bodies...)
}

// replayConfig is a config with no schedule and only the replay provider,
// whose directory rec holds the vast.ai recording (no 4090 at AutoDL yet).
func replayConfig(t *testing.T) (cfg config.Config, rec string) {
	rec = t.TempDir()
	cfg = manualConfig(t.TempDir())
	cfg.Stock.Providers.Of("replay").Dir = rec
	copyRecording(t, filepath.Join(fixtures, "vastai-bundles.json"), rec)
	recordedNow(t, rec)
	return cfg, rec
}

// recordedNow dates every recording in dir to now (a RECORDED_AT file):
// recordings of unknown time never fire alerts.
func recordedNow(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, provider.RecordedAtFile), []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// stockArrives adds the AutoDL recording (4090s in stock) to rec and polls
// once, so subscriptions for an AutoDL 4090 fire.
func stockArrives(t *testing.T, a *app.App, rec string) {
	copyRecording(t, filepath.Join(fixtures, "autodl-web-user-machine-list.json"), rec)
	if _, _, _, err := a.NewPoller().RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
}
