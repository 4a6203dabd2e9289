package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/stock"
)

// Check is one readiness fact: what was checked, whether it is fine and,
// when not, why. A failed critical check (the store, a channel) means the
// replica cannot serve; a failed other one (a platform) that it serves
// degraded.
type Check struct {
	Name     string `json:"name"`
	OK       bool   `json:"ok"`
	Critical bool   `json:"critical"`
	Detail   string `json:"detail,omitempty"`
}

// Readiness is /readyz's body. Status is "ready", "degraded" (serving;
// Degraded names what fails, such as a platform) or "not_ready" (503).
type Readiness struct {
	Ready    bool     `json:"ready"`
	Status   string   `json:"status"`
	Degraded []string `json:"degraded,omitempty"`
	Checks   []Check  `json:"checks"`
}

// Readiness statuses.
const (
	StatusReady    = "ready"
	StatusDegraded = "degraded"
	StatusNotReady = "not_ready"
)

// readyProbeTimeout bounds one store probe (storeWatch).
const readyProbeTimeout = 2 * time.Second

// storeProbeEvery is how often the store is probed in the background.
const storeProbeEvery = time.Second

// defaultReadyStoreGrace is http.ready_store_grace's default.
const defaultReadyStoreGrace = 30 * time.Second

// healthz answers /healthz, the liveness probe: the process serves HTTP.
// It says nothing about dependencies (that is /readyz), so a restart is
// never triggered by a platform or Redis outage the bot rides out.
func (a *App) healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "ok")
}

// readyz answers /readyz, the readiness probe, from recorded state only
// (it calls nobody, so it answers in milliseconds whatever the store,
// Feishu or the platforms do): 503 when the replica cannot serve (the
// store unreachable past http.ready_store_grace, a channel disconnected
// or refusing every event), else 200, "degraded" with the failing
// platforms named.
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

// Readiness decides readiness from what the store watch, the channels and
// the board recorded. It calls nobody.
func (a *App) Readiness(_ context.Context, chans []chat.Channel) Readiness {
	in := healthIn{now: a.now(), store: a.storeState(), storeGrace: a.readyStoreGrace()}
	for _, ch := range chans {
		in.channels = append(in.channels, channelChecks(ch)...)
	}
	if a.Cfg.Stock.Poll.Schedule != "" && a.Board != nil {
		in.polling, in.providers, in.providerAge = true, a.Board.Health().Providers, a.readyProviderAge()
	}
	return decideReadiness(in)
}

// healthIn is what readiness is decided from, all of it recorded.
type healthIn struct {
	now        time.Time
	store      storeState
	storeGrace time.Duration
	channels   []Check
	// providers are the board's recorded states (polling on only).
	polling     bool
	providers   []stock.ProviderSnapshot
	providerAge time.Duration
}

// decideReadiness: not ready when a critical check fails (the store
// unreachable for longer than the grace, a channel); degraded when a
// platform fails (its breaker open, its last fetch failed, or its last
// success older than the allowed age).
func decideReadiness(in healthIn) Readiness {
	checks := []Check{storeCheck(in.now, in.store, in.storeGrace)}
	checks = append(checks, in.channels...)
	if in.polling {
		checks = append(checks, providerChecks(in.now, in.providers, in.providerAge)...)
	}
	rd := Readiness{Ready: true, Checks: checks}
	for _, c := range checks {
		switch {
		case c.OK:
		case c.Critical:
			rd.Ready = false
		default:
			rd.Degraded = append(rd.Degraded, c.Name)
		}
	}
	switch {
	case !rd.Ready:
		rd.Status = StatusNotReady
	case len(rd.Degraded) > 0:
		rd.Status = StatusDegraded
	default:
		rd.Status = StatusReady
	}
	return rd
}

// storeState is what the store watch recorded.
type storeState struct {
	// open: there is a store at all.
	open bool
	// failingSince is the first failed probe since the last good one
	// (zero while it answers); err the last failure.
	failingSince time.Time
	err          string
}

func storeCheck(now time.Time, s storeState, grace time.Duration) Check {
	c := Check{Name: "store", OK: true, Critical: true}
	switch {
	case !s.open:
		c.OK, c.Detail = false, "not open"
	case s.failingSince.IsZero():
	case now.Sub(s.failingSince) > grace:
		c.OK = false
		c.Detail = fmt.Sprintf("unreachable for %s (allowed %s): %s", now.Sub(s.failingSince).Round(time.Second), grace, s.err)
	default:
		c.Detail = fmt.Sprintf("not answering for %s (not ready after %s): %s", now.Sub(s.failingSince).Round(time.Second), grace, s.err)
	}
	return c
}

// storeWatch probes the store in the background and records the outcome
// for /readyz and /metrics.
type storeWatch struct {
	mu    sync.Mutex
	state storeState
}

func (w *storeWatch) record(now time.Time, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err == nil {
		w.state.failingSince, w.state.err = time.Time{}, ""
		return
	}
	if w.state.failingSince.IsZero() {
		w.state.failingSince = now
	}
	w.state.err = err.Error()
}

// storeState is the store watch's record (a store that is not open, or
// one with nothing to probe, as such).
func (a *App) storeState() storeState {
	if a.Store == nil {
		return storeState{}
	}
	a.storeWatch.mu.Lock()
	defer a.storeWatch.mu.Unlock()
	s := a.storeWatch.state
	s.open = true
	return s
}

// watchStore probes the store (one blob read: a round trip to Redis, a
// read of the bbolt file) now and every storeProbeEvery until ctx ends.
func (a *App) watchStore(ctx context.Context) {
	bs, ok := a.Store.(blobStore)
	if !ok {
		return
	}
	t := time.NewTicker(storeProbeEvery)
	defer t.Stop()
	for {
		pctx, cancel := context.WithTimeout(ctx, readyProbeTimeout)
		_, err := bs.GetBlob(pctx, "readyz-probe")
		cancel()
		if ctx.Err() != nil {
			return
		}
		a.storeWatch.record(a.now(), err)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// readyStoreGrace is http.ready_store_grace (default 30 s).
func (a *App) readyStoreGrace() time.Duration {
	if d := a.Cfg.HTTP.ReadyStoreGrace.D(); d > 0 {
		return d
	}
	return defaultReadyStoreGrace
}

// readier is a channel that can say whether it is connected from what it
// recorded (Feishu: its token, its long connection and its callback;
// WeChat: logged in).
type readier interface{ Ready() error }

// degrader is a channel that can say it serves but something reaching it
// is refused (Feishu: its callback refusing requests for a wrong token,
// signature or Encrypt Key, with the likely cause).
type degrader interface{ Degraded() error }

// channelChecks are a channel's checks: "channel <name>" (critical:
// connected), and for a degrader "channel <name> callback" (not
// critical: the replica serves degraded).
func channelChecks(ch chat.Channel) []Check {
	c := Check{Name: "channel " + ch.Name(), OK: true, Critical: true}
	if r, ok := ch.(readier); ok {
		if err := r.Ready(); err != nil {
			c.OK, c.Detail = false, err.Error()
		}
	}
	out := []Check{c}
	if d, ok := ch.(degrader); ok {
		cb := Check{Name: "channel " + ch.Name() + " callback", OK: true}
		if err := d.Degraded(); err != nil {
			cb.OK, cb.Detail = false, err.Error()
		}
		out = append(out, cb)
	}
	return out
}

// providerChecks: each configured provider's recorded state. A provider
// fails when its breaker is open, when its running fetch has gone longer
// than the answer budget without an answer, when it never fetched or its last fetch
// failed, or when its last success is older than maxAge. Providers that
// are not configured (no credentials) and the catalog's list prices are
// not checked.
func providerChecks(now time.Time, providers []stock.ProviderSnapshot, maxAge time.Duration) []Check {
	var out []Check
	for _, p := range providers {
		if p.Status == stock.StatusNotConfigured || p.Provider == string(stock.SourceCatalog) {
			// Not configured, or the catalog's own list prices: no
			// platform to fail.
			continue
		}
		c := Check{Name: "provider " + p.Provider, OK: true}
		switch {
		case p.Breaker == stock.BreakerOpen:
			c.OK, c.Detail = false, "circuit breaker open (no fetch for now)"
			if !p.FetchedAt.IsZero() {
				c.Detail += fmt.Sprintf("; last success %s ago", now.Sub(p.FetchedAt).Round(time.Second))
			}
			if p.Err != "" {
				c.Detail += ": " + p.Err
			}
		case p.Late:
			c.OK, c.Detail = false, fmt.Sprintf("its fetch has gone %s without an answer", p.RunningFor.Round(time.Second))
			if !p.FetchedAt.IsZero() {
				c.Detail += fmt.Sprintf("; last success %s ago", now.Sub(p.FetchedAt).Round(time.Second))
			}
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
		case p.Status != stock.StatusOK && p.Err != "":
			c.OK = false
			c.Detail = fmt.Sprintf("last fetch failed: %s (last success %s ago)", p.Err, now.Sub(p.FetchedAt).Round(time.Second))
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

// readyCollector exports, at every scrape, what /readyz decides (from
// recorded state, calling nobody): labgpu_ready (1 or 0), labgpu_degraded
// (1 while a platform fails), labgpu_ready_check{check} per check; and
// per provider its breaker state and the age of its last success.
type readyCollector struct {
	a     *App
	chans []chat.Channel
}

var (
	readyDesc        = prometheus.NewDesc("labgpu_ready", "1 when /readyz reports ready (serving, degraded or not).", nil, nil)
	degradedDesc     = prometheus.NewDesc("labgpu_degraded", "1 when the replica serves degraded: a platform fails (see labgpu_ready_check).", nil, nil)
	readyCheckDesc   = prometheus.NewDesc("labgpu_ready_check", "1 when the readiness check passes (store, channel …, provider …).", []string{"check"}, nil)
	breakerDesc      = prometheus.NewDesc("labgpu_provider_breaker_state", "The provider's circuit breaker: 0 closed, 1 half-open (one trial fetch), 2 open (no fetch for now).", []string{"provider"}, nil)
	successAgeDesc   = prometheus.NewDesc("labgpu_provider_last_success_age_seconds", "Seconds since the provider's last successful fetch (absent before the first).", []string{"provider"}, nil)
	breakerStateCode = map[stock.BreakerState]float64{"": 0, stock.BreakerClosed: 0, stock.BreakerHalfOpen: 1, stock.BreakerOpen: 2}
)

func (c readyCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{readyDesc, degradedDesc, readyCheckDesc, breakerDesc, successAgeDesc} {
		ch <- d
	}
}

func (c readyCollector) Collect(ch chan<- prometheus.Metric) {
	rd := c.a.Readiness(context.Background(), c.chans)
	ch <- prometheus.MustNewConstMetric(readyDesc, prometheus.GaugeValue, boolValue(rd.Ready))
	ch <- prometheus.MustNewConstMetric(degradedDesc, prometheus.GaugeValue, boolValue(len(rd.Degraded) > 0))
	for _, k := range rd.Checks {
		ch <- prometheus.MustNewConstMetric(readyCheckDesc, prometheus.GaugeValue, boolValue(k.OK), k.Name)
	}
	if c.a.Board == nil {
		return
	}
	now := c.a.now()
	for _, p := range c.a.Board.Health().Providers {
		if p.Status == stock.StatusNotConfigured || p.Provider == string(stock.SourceCatalog) {
			continue
		}
		ch <- prometheus.MustNewConstMetric(breakerDesc, prometheus.GaugeValue, breakerStateCode[p.Breaker], p.Provider)
		if !p.FetchedAt.IsZero() {
			ch <- prometheus.MustNewConstMetric(successAgeDesc, prometheus.GaugeValue, now.Sub(p.FetchedAt).Seconds(), p.Provider)
		}
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
