package app_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chart"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/render/ledgerview"
)

// demoLedger is the README's demo lab: 8 members on AutoDL, 恒源云 and
// 矩池云 over six weeks (2026-W43 to W48).
const demoLedger = "../../docs/digest-demo.csv"

// importDemo imports the demo ledger into lab and builds its W48 digest.
func importDemo(t *testing.T, a *app.App, lab string) ledger.Digest {
	t.Helper()
	f, err := os.Open(demoLedger)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := a.ImportStorage(context.Background(), lab, f); err != nil {
		t.Fatal(err)
	}
	d, err := a.BuildDigest(context.Background(), lab, "2026-W48")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkPNG decodes a chart image: a PNG 1080 px wide (a phone screen at
// 2×) and 720 high.
func checkPNG(t *testing.T, what string, data []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: not a PNG (%d bytes): %v", what, len(data), err)
	}
	if b := img.Bounds(); b.Dx() != 1080 || b.Dy() != 720 {
		t.Errorf("%s: %v, want 1080×720", what, b)
	}
}

// recorder is a webhook server on loopback that keeps every body and
// answers ok.
type recorder struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

func newRecorder(t *testing.T, ok string) *recorder {
	rec := &recorder{}
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.bodies = append(rec.bodies, b)
		rec.mu.Unlock()
		io.WriteString(w, ok)
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

func (r *recorder) got() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.bodies...)
}

// TestDigestChartReachesWebhooks: `bot digest --send` to a lab with a
// Feishu custom bot and a WeCom robot: Feishu gets one card whose chart
// element has the weekly bars (the digest's weeks, its total last); WeCom
// gets the text, then the chart as an image message whose base64 is a
// 1080×720 PNG with the right MD5.
func TestDigestChartReachesWebhooks(t *testing.T) {
	fs := newRecorder(t, `{"code":0,"msg":"success"}`)
	wc := newRecorder(t, `{"errcode":0,"errmsg":"ok"}`)
	cfg := manualConfig(t.TempDir())
	cfg.Storage.Labs = map[string][]string{"nlp": {"webhook/fs", "webhook/wc"}}
	cfg.Webhooks = []config.WebhookConf{
		{Name: "fs", Kind: "feishu", URL: fs.srv.URL + "/open-apis/bot/v2/hook/h00k"},
		{Name: "wc", Kind: "wecom", URL: wc.srv.URL + "/cgi-bin/webhook/send?key=k3y"},
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a := openApp(t, cfg)
	defer a.Close()
	d := importDemo(t, a, "nlp")
	if sent, err := a.SendDigest(context.Background(), "nlp", d); err != nil || len(sent) != 2 {
		t.Fatalf("sent %v: %v", sent, err)
	}

	cards := fs.got()
	if len(cards) != 1 {
		t.Fatalf("Feishu got %d messages", len(cards))
	}
	var card struct {
		MsgType string `json:"msg_type"`
		Card    struct {
			Body struct {
				Elements []struct {
					Tag       string `json:"tag"`
					ChartSpec struct {
						Type string `json:"type"`
						Data []struct {
							Values []struct {
								X string  `json:"x"`
								Y float64 `json:"y"`
							} `json:"values"`
						} `json:"data"`
					} `json:"chart_spec"`
				} `json:"elements"`
			} `json:"body"`
		} `json:"card"`
	}
	if err := json.Unmarshal(cards[0], &card); err != nil || card.MsgType != "interactive" {
		t.Fatalf("Feishu body %s: %v", cards[0], err)
	}
	var weeks []string
	var last float64
	for _, e := range card.Card.Body.Elements {
		if e.Tag == "chart" && e.ChartSpec.Type == "bar" {
			for _, v := range e.ChartSpec.Data[0].Values {
				weeks, last = append(weeks, v.X), v.Y
			}
		}
	}
	if strings.Join(weeks, " ") != "10-19 10-26 11-02 11-09 11-16 11-23" || last != float64(int(d.TotalCNY*100+0.5))/100 {
		t.Errorf("Feishu chart weeks %v, last %v (total %v)", weeks, last, d.TotalCNY)
	}

	msgs := wc.got()
	if len(msgs) < 2 {
		t.Fatalf("WeCom got %d messages", len(msgs))
	}
	var img struct {
		MsgType string `json:"msgtype"`
		Image   struct {
			Base64 string `json:"base64"`
			MD5    string `json:"md5"`
		} `json:"image"`
	}
	if err := json.Unmarshal(msgs[len(msgs)-1], &img); err != nil || img.MsgType != "image" {
		t.Fatalf("WeCom's last message is not an image: %.200s", msgs[len(msgs)-1])
	}
	data, err := base64.StdEncoding.DecodeString(img.Image.Base64)
	if err != nil {
		t.Fatal(err)
	}
	if sum := md5.Sum(data); img.Image.MD5 != hex.EncodeToString(sum[:]) {
		t.Errorf("md5 %s does not match the image", img.Image.MD5)
	}
	checkPNG(t, "WeCom image", data)
}

// TestDigestChartReachesWeChat: the digest asked for in a WeChat group
// comes as text, then the chart uploaded as a 1080×720 PNG and sent to
// the same group as an image.
func TestDigestChartReachesWeChat(t *testing.T) {
	wx := newMiniWeChat(t)
	cfg := manualConfig(t.TempDir())
	cfg.WeChat = config.WeChatConf{Enabled: true, Groups: []string{"Lab Group"}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	startWeChatServe(t, cfg, wx, func(a *app.App) { importDemo(t, a, "wechat/Lab Group") })
	wx.say("@LabBot\u2005存储周报 2026-W48")
	waitFor(t, "the chart image", func() bool {
		wx.mu.Lock()
		defer wx.mu.Unlock()
		return len(wx.images) > 0
	})
	wx.mu.Lock()
	uploads, images := wx.uploads, wx.images
	wx.mu.Unlock()
	if s := wx.sends(); len(s) == 0 || !strings.HasPrefix(s[0], "@@lab ") || !strings.Contains(s[0], "2026-W48") {
		t.Errorf("text %q", s)
	}
	if len(uploads) != 1 || len(images) != 1 || images[0] != "@@lab @media-1" {
		t.Fatalf("uploads %d, images %q", len(uploads), images)
	}
	checkPNG(t, "WeChat image", uploads[0])
}

// TestDigestChartPNG: `bot digest --png` writes the chart the chats get;
// the bundled font has every character of the digest chart's title and
// labels in both languages (no empty boxes); a lab without history gets
// an error, not an empty chart.
func TestDigestChartPNG(t *testing.T) {
	a := openApp(t, manualConfig(t.TempDir()))
	defer a.Close()
	d := importDemo(t, a, "nlp")
	path := filepath.Join(t.TempDir(), "chart.png")
	if err := a.WriteDigestPNG(d, path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, "--png", data)
	for _, en := range []bool{false, true} {
		c := ledgerview.Digest(d, en, func(id string, _ bool) string { return id }).Chart
		if c == nil {
			t.Fatalf("en %v: the digest has no chart", en)
		}
		if m := chart.Missing(c.Title + strings.Join(c.Labels, "")); len(m) > 0 {
			t.Errorf("en %v: the chart font lacks %q of %q: add them to internal/chart/fonts/glyphs.txt", en, string(m), c.Title)
		}
	}
	empty, err := a.BuildDigest(context.Background(), "nobody", "2026-W48")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.WriteDigestPNG(empty, path); err == nil || !strings.Contains(err.Error(), "no weekly chart") {
		t.Errorf("a lab without history: %v", err)
	}
}

// TestDigestChartReachesFeishuApp: `bot digest --send` to a Feishu chat
// through the Feishu app posts one card with the weekly bars as a chart
// element (value labels on).
func TestDigestChartReachesFeishuApp(t *testing.T) {
	needShared(t, feishuFixtures)
	fake := newFakeFeishu(t)
	cfg := feishuConfig(t, fake.URL, t.TempDir())
	a := openApp(t, cfg)
	defer a.Close()
	d := importDemo(t, a, "feishu/oc_lab")
	if _, err := a.SendDigest(context.Background(), "feishu/oc_lab", d); err != nil {
		t.Fatal(err)
	}
	msgs := fake.Messages()
	if len(msgs) != 1 || msgs[0].MsgType != "interactive" {
		t.Fatalf("Feishu got %+v", msgs)
	}
	var card struct {
		Body struct {
			Elements []struct {
				Tag       string `json:"tag"`
				ChartSpec struct {
					Type  string `json:"type"`
					Label struct {
						Visible bool `json:"visible"`
					} `json:"label"`
					Data []struct {
						Values []map[string]any `json:"values"`
					} `json:"data"`
				} `json:"chart_spec"`
			} `json:"elements"`
		} `json:"body"`
	}
	if err := json.Unmarshal([]byte(msgs[0].Content), &card); err != nil {
		t.Fatal(err)
	}
	charts := 0
	for _, e := range card.Body.Elements {
		if e.Tag == "chart" {
			charts++
			if e.ChartSpec.Type != "bar" || !e.ChartSpec.Label.Visible || len(e.ChartSpec.Data[0].Values) != 6 {
				t.Errorf("chart spec %+v", e.ChartSpec)
			}
		}
	}
	if charts != 1 {
		t.Errorf("%d chart elements in %s", charts, msgs[0].Content)
	}
}
