package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
)

// TestOneTimeZone: one instant prints the same way in the storage list,
// the digest, a stock answer (its offers' and providers' times) and `bot
// poll --once` (tables, JSON and log), in the configured zone, whatever
// the machine's zone; the same bot configured for UTC prints UTC
// everywhere instead.
func TestOneTimeZone(t *testing.T) {
	needShared(t, fixtures)
	at := time.Date(2026, 12, 1, 13, 12, 0, 0, time.UTC)
	rec := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(fixtures, "*.json"))
	for _, f := range files {
		copyRecording(t, f, rec)
	}
	os.WriteFile(filepath.Join(rec, "RECORDED_AT"), []byte(at.Format(time.RFC3339)+"\n"), 0o600)
	cases := []struct {
		zone                 string
		minute, second, json string // how `at` prints
		other                string // how it prints in the other zone
	}{
		{"Asia/Shanghai", "12-01 21:12", "2026-12-01 21:12:00", "2026-12-01T21:12:00+08:00", "12-01 13:12"},
		{"UTC", "12-01 13:12", "2026-12-01 13:12:00", "2026-12-01T13:12:00Z", "12-01 21:12"},
	}
	for _, c := range cases {
		t.Run(c.zone, func(t *testing.T) {
			cfg := manualConfig(t.TempDir())
			cfg.Timezone = c.zone
			cfg.Stock.Providers.Of("replay").Dir = rec
			a := openAppAt(t, cfg, func() time.Time { return at })
			defer a.Close()
			ask := func(q, format string) string {
				var b bytes.Buffer
				if err := a.Ask(context.Background(), q, format, &b); err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			ask("登记存储 AutoDL 数据盘 80G 实验数据", app.FormatText)
			for _, q := range []string{"存储列表", "本周存储花费"} {
				if out := ask(q, app.FormatText); !strings.Contains(out, c.minute) || strings.Contains(out, c.other) {
					t.Errorf("%s: want %s, never %s:\n%s", q, c.minute, c.other, out)
				}
			}
			var stock struct {
				Offers []struct {
					Source string `json:"source"`
					AsOf   string `json:"as_of"`
				} `json:"offers"`
				Providers []struct {
					FetchedAt string `json:"fetched_at"`
				} `json:"providers"`
			}
			if err := json.Unmarshal([]byte(ask("哪家有4090", app.FormatJSON)), &stock); err != nil {
				t.Fatal(err)
			}
			seen := 0
			for _, o := range stock.Offers {
				if o.Source == "replay" {
					seen++
					if o.AsOf != c.json {
						t.Errorf("stock answer: offer as_of %q, want %q", o.AsOf, c.json)
					}
				}
			}
			for _, p := range stock.Providers {
				if p.FetchedAt != "" && p.FetchedAt != c.json {
					t.Errorf("stock answer: provider fetched_at %q, want %q", p.FetchedAt, c.json)
				}
			}
			if seen == 0 {
				t.Fatal("no replay offer in the stock answer")
			}
			var poll bytes.Buffer
			if err := a.PollOnce(context.Background(), app.FormatText, &poll); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(poll.String(), c.second) || !strings.Contains(poll.String(), "2026-"+c.minute) || strings.Contains(poll.String(), c.other) {
				t.Errorf("poll --once: want %s and %s:\n%s", c.second, c.minute, poll.String())
			}
			poll.Reset()
			if err := a.PollOnce(context.Background(), app.FormatJSON, &poll); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(poll.String(), `"taken_at": "`+c.json) || !strings.Contains(poll.String(), `"as_of": "`+c.json) {
				t.Errorf("poll --once --format json: want times as %s:\n%.600s", c.json, poll.String())
			}
		})
	}
}

// TestLogTimesInZone: the log beside `bot poll --once` tells the time in
// the configured zone too.
func TestLogTimesInZone(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Skip(err)
	}
	var b bytes.Buffer
	app.NewLoggerIn(&b, "info", loc).Info("poll")
	if !strings.Contains(b.String(), "+08:00") {
		t.Errorf("log line not in Asia/Shanghai: %s", b.String())
	}
	b.Reset()
	app.NewLogger(&b, "info").Info("poll")
	if !strings.Contains(b.String(), "+08:00") {
		t.Errorf("default log line not in the default zone: %s", b.String())
	}
}
