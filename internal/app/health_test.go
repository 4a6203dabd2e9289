package app_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/config"
)

// readyz fetches /readyz: its status code and body.
func readyz(t *testing.T, base string) (int, app.Readiness) {
	t.Helper()
	resp, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rd app.Readiness
	if err := json.NewDecoder(resp.Body).Decode(&rd); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, rd
}

// failing returns the failed checks' "name: detail".
func failing(rd app.Readiness) string {
	var out []string
	for _, c := range rd.Checks {
		if !c.OK {
			out = append(out, c.Name+": "+c.Detail)
		}
	}
	return strings.Join(out, "; ")
}

// TestReadyzProviderAge: serve polls once at start, so a working provider
// makes the bot ready at once; when its last success grows older than
// http.ready_provider_age, /readyz says 503 and why, /metrics says 0,
// while /healthz (liveness) stays ok.
func TestReadyzProviderAge(t *testing.T) {
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	on := true
	cfg.Stock.Providers.VastAI.Enabled = &on
	cfg.Stock.Providers.VastAI.BaseURL = slowVast(t, 0)
	cfg.Stock.Poll.Schedule = "@every 1h"
	cfg.Stock.Poll.Jitter = config.Dur(0)
	cfg.HTTP.ReadyProviderAge = config.Dur(1500 * time.Millisecond)
	_, base, stop := startServe(t, cfg)
	defer stop()

	waitFor(t, "ready after the start-up poll", func() bool {
		code, _ := readyz(t, base)
		return code == http.StatusOK
	})
	time.Sleep(1600 * time.Millisecond)
	code, rd := readyz(t, base)
	if code != http.StatusServiceUnavailable || rd.Ready || !strings.Contains(failing(rd), "provider vastai: last success") {
		t.Errorf("/readyz after the provider aged: %d %+v", code, rd)
	}
	if m := get(t, base+"/metrics"); !strings.Contains(m, "labgpu_ready 0") || !strings.Contains(m, `labgpu_ready_check{check="provider vastai"} 0`) {
		t.Error("/metrics does not show the provider check failing")
	}
	if h := get(t, base+"/healthz"); h != "ok\n" {
		t.Errorf("/healthz: %q", h)
	}
}
