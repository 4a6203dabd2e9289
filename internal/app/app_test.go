package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/fixture"
)

// fixtures is the recordings directory (testdata/stock of the repository).
var fixtures = fixture.Dir(fixture.Stock)

func newApp(t *testing.T, dataDir, replayDir string) *app.App {
	return newAppAt(t, dataDir, replayDir, time.Now)
}

func newAppAt(t *testing.T, dataDir, replayDir string, now func() time.Time) *app.App {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = dataDir
	cfg.Stock.Providers.Of("replay").Dir = replayDir
	a := openAppAt(t, cfg, now)
	t.Cleanup(func() { a.Close() })
	return a
}

// openApp builds the app for cfg, logging only errors, to nowhere; the
// caller closes it.
func openApp(t *testing.T, cfg config.Config) *app.App { return openAppAt(t, cfg, nil) }

// openAppAt is openApp on the clock now (nil: time.Now).
func openAppAt(t *testing.T, cfg config.Config, now func() time.Time) *app.App {
	t.Helper()
	a, err := app.New(context.Background(), cfg, app.Options{Log: app.NewLogger(io.Discard, "error"), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// manualConfig is the default config on dataDir with no poll schedule:
// tests poll by hand.
func manualConfig(dataDir string) config.Config {
	cfg := config.Default()
	cfg.DataDir = dataDir
	cfg.Stock.Poll.Schedule = ""
	return cfg
}

// copyRecording copies the recording at src into the replay directory dir.
func copyRecording(t *testing.T, src, dir string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

type askJSON struct {
	Intent string `json:"intent"`
	GPU    string `json:"gpu"`
	Offers []struct {
		Platform  string  `json:"platform"`
		GPU       string  `json:"gpu"`
		Price     float64 `json:"price_cny_per_hour"`
		Available *bool   `json:"available"`
		Source    string  `json:"source"`
		AsOf      string  `json:"as_of"`
		Stale     bool    `json:"stale"`
	} `json:"offers"`
}

// TestAskReplay is the "done when": with the replay directory set to
// the shared recordings, `ask --format json "哪家有4090"` lists offers from
// several platforms with prices and sources, AutoDL and vast.ai as replay.
func TestAskReplay(t *testing.T) {
	needShared(t, fixtures)
	// The shared recordings carry no time; a copy with RECORDED_AT does.
	rec := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(fixtures, "*.json"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(rec, filepath.Base(f)), b, 0o600)
	}
	os.WriteFile(filepath.Join(rec, "RECORDED_AT"), []byte("2026-11-01T08:00:00Z\n"), 0o600)
	a := newApp(t, t.TempDir(), rec)
	var out bytes.Buffer
	if err := a.Ask(context.Background(), "哪家有4090", app.FormatJSON, &out); err != nil {
		t.Fatal(err)
	}
	var got askJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out.String())
	}
	if got.Intent != "stock" || got.GPU != "RTX 4090" {
		t.Fatalf("intent %q gpu %q", got.Intent, got.GPU)
	}
	platforms := map[string]bool{}
	replay := map[string]bool{}
	for _, o := range got.Offers {
		platforms[o.Platform] = true
		if o.GPU != "RTX 4090" {
			t.Errorf("offer for %s in a 4090 answer", o.GPU)
		}
		if o.Source == "" || o.AsOf == "" {
			t.Errorf("offer without source or as_of: %+v", o)
		}
		if o.Source == "replay" {
			replay[o.Platform] = true
		}
	}
	if len(platforms) < 3 || !replay["autodl"] || !replay["vastai"] {
		t.Errorf("platforms %v, replay %v: want several platforms and autodl+vastai replay offers", platforms, replay)
	}
}

// TestSnapshotSurvivesRestart: offers fetched before a restart are shown
// after it, marked stale, when the provider now fails.
func TestSnapshotSurvivesRestart(t *testing.T) {
	needShared(t, fixtures)
	data := t.TempDir()
	rec := filepath.Join(t.TempDir(), "rec")
	if err := os.Mkdir(rec, 0o700); err != nil {
		t.Fatal(err)
	}
	copyRecording(t, filepath.Join(fixtures, "vastai-bundles.json"), rec)

	a := newApp(t, data, rec)
	if err := a.PollOnce(context.Background(), app.FormatJSON, io.Discard); err != nil {
		t.Fatal(err)
	}
	a.Close()

	os.RemoveAll(rec) // the provider fails after the restart
	later := func() time.Time { return time.Now().Add(10 * time.Minute) }
	a2 := newAppAt(t, data, rec, later)
	var out bytes.Buffer
	if err := a2.Ask(context.Background(), "哪家有4090", app.FormatJSON, &out); err != nil {
		t.Fatal(err)
	}
	var got askJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, o := range got.Offers {
		if o.Source == "replay" {
			n++
			if !o.Stale {
				t.Errorf("restored offer not marked stale: %+v", o)
			}
		}
	}
	if n == 0 {
		t.Fatalf("no restored replay offers after restart:\n%s", out.String())
	}
	var text bytes.Buffer
	a2.Ask(context.Background(), "哪家有4090", app.FormatText, &text)
	if !strings.Contains(text.String(), "旧数据") || !strings.Contains(text.String(), "获取失败") || !strings.Contains(text.String(), "10 分钟前") {
		t.Errorf("text answer does not say the data is stale:\n%s", text.String())
	}
}

// TestConsole drives the console with scripted input.
func TestConsole(t *testing.T) {
	a := newApp(t, t.TempDir(), "")
	in := strings.NewReader("哪家有4090\n\n" + strings.Repeat("x", 20000) + "\nhow much would 7B LoRA cost\nexit\n帮助\n")
	var out bytes.Buffer
	if err := a.Console(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"RTX 4090", "目录标价", "输入太长", "7B model", "cheapest", "say “more”"} {
		if !strings.Contains(s, want) {
			t.Errorf("console output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "我能帮实验室") {
		t.Error("input after exit was answered")
	}
}

// TestSubscribeThenPoll: a subscription made with `bot ask` is announced
// by `bot poll --once` when a recording shows stock, and only once.
func TestSubscribeThenPoll(t *testing.T) {
	needShared(t, fixtures)
	rec := t.TempDir()
	data := t.TempDir()
	copyRecording(t, filepath.Join(fixtures, "autodl-web-user-machine-list.json"), rec)
	recordedNow(t, rec)
	a := newApp(t, data, rec)
	var out bytes.Buffer
	if err := a.Ask(context.Background(), "3090 有货了提醒我", app.FormatText, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "已订阅") {
		t.Fatalf("subscribe: %s", out.String())
	}
	a.Close()
	copyRecording(t, fixture.File(fixture.StockVerbatim, "vastai-bundles-2.json"), rec)
	for i, want := range []int{1, 0} {
		a := newApp(t, data, rec)
		out.Reset()
		if err := a.PollOnce(context.Background(), app.FormatText, &out); err != nil {
			t.Fatal(err)
		}
		a.Close()
		if got := strings.Count(out.String(), "库存提醒"); got != want {
			t.Fatalf("poll %d: %d alerts, want %d:\n%s", i+1, got, want, out.String())
		}
	}
}

// needShared fails the test when a recordings directory of the
// repository's testdata/ is missing (it is part of every clone).
func needShared(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		t.Fatal("the repository's recordings are missing:", err)
	}
}

// TestUntimedRecordingNoAlert: a recording whose time is unknown answers
// questions, labelled, but is no news: subscribing does not call it stock
// "now" and a poll fires no alert (TestSubscribeThenPoll: a dated one does).
func TestUntimedRecordingNoAlert(t *testing.T) {
	needShared(t, fixtures)
	rec, data := t.TempDir(), t.TempDir()
	copyRecording(t, filepath.Join(fixtures, "autodl-web-user-machine-list.json"), rec)
	a := newApp(t, data, rec)
	var sub, poll, answer bytes.Buffer
	if err := a.Ask(context.Background(), "4090 有货了提醒我", app.FormatText, &sub); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sub.String(), "已订阅") || strings.Contains(sub.String(), "现在就有") {
		t.Errorf("subscribing on an untimed recording:\n%s", sub.String())
	}
	if err := a.PollOnce(context.Background(), app.FormatText, &poll); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(poll.String(), "库存提醒") {
		t.Errorf("an alert fired on a recording of unknown time:\n%s", poll.String())
	}
	if err := a.Ask(context.Background(), "哪家有4090", app.FormatText, &answer); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(answer.String(), "录下时间未知") {
		t.Errorf("the recording does not answer questions, labelled:\n%s", answer.String())
	}
}
