package app_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
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
// http.ready_provider_age, /readyz stays 200 but says "degraded" and
// names the provider and why, /metrics says so (labgpu_degraded 1, the
// check 0, labgpu_ready still 1), and /healthz (liveness) stays ok: one
// failing platform never takes the replica out.
func TestReadyzProviderAge(t *testing.T) {
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	on := true
	cfg.Stock.Providers.Of("vastai").Enabled = &on
	cfg.Stock.Providers.Of("vastai").BaseURL = slowVast(t, 0)
	cfg.Stock.Poll.Schedule = "@every 1h"
	cfg.Stock.Poll.Jitter = config.Dur(0)
	cfg.HTTP.ReadyProviderAge = config.Dur(1500 * time.Millisecond)
	_, base, stop := startServe(t, cfg)
	defer stop()

	waitFor(t, "ready after the start-up poll", func() bool {
		code, rd := readyz(t, base)
		return code == http.StatusOK && rd.Status == app.StatusReady
	})
	time.Sleep(1600 * time.Millisecond)
	code, rd := readyz(t, base)
	if code != http.StatusOK || !rd.Ready || rd.Status != app.StatusDegraded || strings.Join(rd.Degraded, ",") != "provider vastai" ||
		!strings.Contains(failing(rd), "provider vastai: last success") {
		t.Errorf("/readyz after the provider aged: %d %+v", code, rd)
	}
	m := get(t, base+"/metrics")
	for _, want := range []string{"labgpu_ready 1", "labgpu_degraded 1", `labgpu_ready_check{check="provider vastai"} 0`, `labgpu_provider_breaker_state{provider="vastai"} 0`} {
		if !strings.Contains(m, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, grep(m, "labgpu_"))
		}
	}
	if h := get(t, base+"/healthz"); h != "ok\n" {
		t.Errorf("/healthz: %q", h)
	}
}

// hungPlatform is a vast.ai API on loopback that accepts every request
// and never answers (for 30 s, or until the client gives up), counting
// requests and the most in flight at once.
type hungPlatform struct {
	url             string
	requests, maxIn atomic.Int64
	inFlight        atomic.Int64
}

func newHungPlatform(t *testing.T) *hungPlatform {
	h := &hungPlatform{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.requests.Add(1)
		// Read the query: only then does the server notice a client
		// that gave up (r.Context ends).
		_, _ = io.Copy(io.Discard, r.Body)
		n := h.inFlight.Add(1)
		defer h.inFlight.Add(-1)
		for m := h.maxIn.Load(); n > m && !h.maxIn.CompareAndSwap(m, n); m = h.maxIn.Load() {
		}
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

// TestReadyzWithHungPlatform: with vast.ai hung (30 s) while serve polls
// it, /readyz and /metrics answer at once — 200, degraded, vast.ai named —
// and never call the platform: it sees the poll's one request, however
// often they are asked. (The bound proves "did not wait for the hang";
// tools/hangload measures the latency against bot serve.)
func TestReadyzWithHungPlatform(t *testing.T) {
	hung := newHungPlatform(t)
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	on := true
	cfg.Stock.Providers.Of("vastai").Enabled = &on
	cfg.Stock.Providers.Of("vastai").BaseURL = hung.url
	cfg.Stock.Providers.Of("vastai").Timeout = config.Dur(time.Minute)
	cfg.Stock.Timeout = config.Dur(time.Minute)
	cfg.Stock.Poll.Schedule = "@every 1h"
	cfg.Stock.Poll.Jitter = config.Dur(0)
	_, base, stop := startServe(t, cfg)
	defer stop()
	waitFor(t, "the poll's request", func() bool { return hung.requests.Load() == 1 })
	for i := range 20 {
		start := time.Now()
		code, rd := readyz(t, base)
		m := get(t, base+"/metrics")
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("/readyz and /metrics took %v: they waited for the platform", took)
		}
		if code != http.StatusOK || rd.Status != app.StatusDegraded || strings.Join(rd.Degraded, ",") != "provider vastai" {
			t.Fatalf("/readyz %d: %d %+v", i, code, rd)
		}
		if !strings.Contains(m, "labgpu_degraded 1") || !strings.Contains(m, `labgpu_ready_check{check="provider vastai"} 0`) {
			t.Fatalf("/metrics:\n%s", grep(m, "labgpu_"))
		}
	}
	if n, m := hung.requests.Load(), hung.maxIn.Load(); n != 1 || m != 1 {
		t.Errorf("the platform saw %d requests, %d at once; want the poll's one", n, m)
	}
}

// TestBreakerInReadyzAndMetrics: a platform failing with 502s opens its
// breaker; /readyz is 200, degraded, naming the open breaker, and
// /metrics has the breaker gauge at 2 (open).
func TestBreakerInReadyzAndMetrics(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.Error(w, "bad gateway", http.StatusBadGateway)
	}))
	t.Cleanup(srv.Close)
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	on := true
	cfg.Stock.Providers.Of("vastai").Enabled = &on
	cfg.Stock.Providers.Of("vastai").BaseURL = srv.URL
	cfg.Stock.Poll.Schedule = "@every 1h"
	cfg.Stock.Poll.Jitter = config.Dur(0)
	cfg.Stock.Poll.Retries = 0
	cfg.Stock.Breaker = config.BreakerConf{Failures: 1, OpenFor: config.Dur(time.Hour)}
	_, base, stop := startServe(t, cfg)
	defer stop()
	waitFor(t, "the breaker to open", func() bool {
		_, rd := readyz(t, base)
		return strings.Contains(failing(rd), "provider vastai: circuit breaker open")
	})
	code, rd := readyz(t, base)
	if code != http.StatusOK || rd.Status != app.StatusDegraded {
		t.Errorf("/readyz %d %+v", code, rd)
	}
	if m := get(t, base+"/metrics"); !strings.Contains(m, `labgpu_provider_breaker_state{provider="vastai"} 2`) {
		t.Errorf("/metrics:\n%s", grep(m, "labgpu_provider"))
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("vast.ai saw %d requests; want the start-up poll's one", n)
	}
}

// TestReadyzStandby: two replicas on one Redis, the first polling (it
// holds the poll lock), the second standing by. The standby's /readyz
// reads the provider states the poller recorded in the store: ready once
// the poller's fetch is recorded (not "degraded" for want of fetches of
// its own), only the configured platform checked (the platforms that run
// without credentials never count), and degraded, naming the platform,
// once the recorded success is older than http.ready_provider_age.
func TestReadyzStandby(t *testing.T) {
	var requests atomic.Int64
	vast := slowVast(t, 0)
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.Redirect(w, r, vast+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	t.Cleanup(counting.Close)
	cfg := config.Default()
	storeConfigs[1].set(t, &cfg)
	on := true
	cfg.Stock.Providers.Of("vastai").Enabled = &on
	cfg.Stock.Providers.Of("vastai").BaseURL = counting.URL
	cfg.Stock.Poll.Schedule = "@every 1h"
	cfg.Stock.Poll.Jitter = config.Dur(0)
	cfg.HTTP.ReadyProviderAge = config.Dur(3 * time.Second)

	cfg.DataDir = t.TempDir()
	_, poller, stopPoller := startServe(t, cfg)
	defer stopPoller()
	waitFor(t, "the poller ready after its start-up poll", func() bool {
		code, rd := readyz(t, poller)
		return code == http.StatusOK && rd.Status == app.StatusReady
	})
	if n := requests.Load(); n != 1 {
		t.Fatalf("vast.ai saw %d requests before the standby started; want the poller's one", n)
	}

	cfg.DataDir = t.TempDir()
	_, standby, stopStandby := startServe(t, cfg)
	defer stopStandby()
	waitFor(t, "the standby ready from the poller's record", func() bool {
		code, rd := readyz(t, standby)
		return code == http.StatusOK && rd.Status == app.StatusReady
	})
	_, rd := readyz(t, standby)
	var providers []string
	for _, c := range rd.Checks {
		if strings.HasPrefix(c.Name, "provider ") {
			providers = append(providers, c.Name)
		}
	}
	if strings.Join(providers, ",") != "provider vastai" {
		t.Errorf("the standby checks %v; want only the configured vastai", providers)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("vast.ai saw %d requests; the standby must not fetch (want the poller's one)", n)
	}
	waitFor(t, "the standby degraded once the recorded success is too old", func() bool {
		code, rd := readyz(t, standby)
		return code == http.StatusOK && rd.Status == app.StatusDegraded && strings.Join(rd.Degraded, ",") == "provider vastai" &&
			strings.Contains(failing(rd), "provider vastai: last success")
	})
	if m := get(t, standby+"/metrics"); !strings.Contains(m, `labgpu_provider_last_success_age_seconds{provider="vastai"}`) ||
		strings.Contains(m, `labgpu_provider_breaker_state{provider="autodl"}`) {
		t.Errorf("standby /metrics:\n%s", grep(m, "labgpu_provider"))
	}
}
