package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/stock"
)

// Check is one readiness fact: what was checked, whether it is fine and,
// when not, why.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// Readiness is /readyz's body.
type Readiness struct {
	Ready  bool    `json:"ready"`
	Checks []Check `json:"checks"`
}

// readyProbeTimeout bounds the store round trip of a readiness check.
const readyProbeTimeout = 2 * time.Second

// healthz answers /healthz, the liveness probe: the process serves HTTP.
// It says nothing about dependencies (that is /readyz), so a restart is
// never triggered by a platform or Redis outage the bot rides out.
func (a *App) healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "ok")
}

// readyz answers /readyz, the readiness probe: 200 with {"ready":true,…}
// when the store answers, every configured channel is connected and every
// configured provider fetched successfully within http.ready_provider_age;
// otherwise 503 with each failed check's reason.
func (a *App) readyz(chans []chat.Channel) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rd := a.Readiness(r.Context(), chans)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if !rd.Ready {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rd)
	}
}

// Readiness runs the readiness checks: the store, the channels, the
// providers.
func (a *App) Readiness(ctx context.Context, chans []chat.Channel) Readiness {
	checks := []Check{a.storeCheck(ctx)}
	for _, ch := range chans {
		checks = append(checks, channelCheck(ch))
	}
	checks = append(checks, a.providerChecks(ctx)...)
	rd := Readiness{Ready: true, Checks: checks}
	for _, c := range checks {
		rd.Ready = rd.Ready && c.OK
	}
	return rd
}

// storeCheck reads a blob (one round trip to Redis; a read of the bbolt
// file) under a short timeout.
func (a *App) storeCheck(ctx context.Context) Check {
	c := Check{Name: "store", OK: true}
	bs, ok := a.Store.(blobStore)
	if !ok {
		if a.Store == nil {
			return Check{Name: "store", Detail: "not open"}
		}
		return c
	}
	ctx, cancel := context.WithTimeout(ctx, readyProbeTimeout)
	defer cancel()
	if _, err := bs.GetBlob(ctx, "readyz-probe"); err != nil {
		c.OK, c.Detail = false, "unreachable: "+err.Error()
	}
	return c
}

// readier is a channel that can say whether it is connected (Feishu: its
// token; WeChat: logged in).
type readier interface{ Ready() error }

func channelCheck(ch chat.Channel) Check {
	c := Check{Name: "channel " + ch.Name(), OK: true}
	if r, ok := ch.(readier); ok {
		if err := r.Ready(); err != nil {
			c.OK, c.Detail = false, err.Error()
		}
	}
	return c
}

// providerChecks: each configured provider's last successful fetch is
// younger than the allowed age. Providers that are not configured (no
// credentials) are not checked, nor any when polling is off (providers
// are then fetched only when asked).
func (a *App) providerChecks(ctx context.Context) []Check {
	if a.Cfg.Stock.Poll.Schedule == "" {
		return nil
	}
	snap := a.Board.Snapshot(ctx)
	maxAge := a.readyProviderAge()
	now := a.now()
	var out []Check
	for _, p := range snap.Providers {
		if p.Status == stock.StatusNotConfigured {
			continue
		}
		c := Check{Name: "provider " + p.Provider, OK: true}
		switch {
		case p.FetchedAt.IsZero() && p.Status == stock.StatusError:
			c.OK, c.Detail = false, "no successful fetch since start: "+p.Err
		case p.FetchedAt.IsZero():
			c.OK, c.Detail = false, "not fetched yet"
		case now.Sub(p.FetchedAt) > maxAge:
			c.OK = false
			c.Detail = fmt.Sprintf("last success %s ago (allowed %s)", now.Sub(p.FetchedAt).Round(time.Second), maxAge)
			if p.Err != "" {
				c.Detail += ": " + p.Err
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// readyProviderAge is http.ready_provider_age, or three poll intervals
// (at least 10 minutes).
func (a *App) readyProviderAge() time.Duration {
	if d := a.Cfg.HTTP.ReadyProviderAge.D(); d > 0 {
		return d
	}
	age := 10 * time.Minute
	if spec := a.Cfg.Stock.Poll.Schedule; spec != "" {
		if iv, err := jobs.Interval(spec, a.now().In(a.Location)); err == nil {
			age = max(age, 3*iv)
		}
	}
	return age
}

// readyCollector exports the readiness checks at every scrape:
// labgpu_ready (1 or 0) and labgpu_ready_check{check} per check.
type readyCollector struct {
	a     *App
	chans []chat.Channel
}

var (
	readyDesc      = prometheus.NewDesc("labgpu_ready", "1 when /readyz reports ready.", nil, nil)
	readyCheckDesc = prometheus.NewDesc("labgpu_ready_check", "1 when the readiness check passes (store, channel …, provider …).", []string{"check"}, nil)
)

func (c readyCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- readyDesc
	ch <- readyCheckDesc
}

func (c readyCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*readyProbeTimeout)
	defer cancel()
	rd := c.a.Readiness(ctx, c.chans)
	ch <- prometheus.MustNewConstMetric(readyDesc, prometheus.GaugeValue, boolValue(rd.Ready))
	for _, k := range rd.Checks {
		ch <- prometheus.MustNewConstMetric(readyCheckDesc, prometheus.GaugeValue, boolValue(k.OK), k.Name)
	}
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// probeTimeout bounds `bot health`.
const probeTimeout = 5 * time.Second

// Probe asks a running bot at base for /healthz (or /readyz when ready)
// and writes its answer to w; it fails unless the answer is 200.
func Probe(ctx context.Context, base string, ready bool, w io.Writer) error {
	path := "/healthz"
	if ready {
		path = "/readyz"
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+path, nil)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_, _ = w.Write(body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s answered %s", path, resp.Status)
	}
	return nil
}
