package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/labgpu/bot/internal/app/health"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
)

// Readiness is /readyz's body (health.Readiness); Check one of its facts.
type (
	Readiness = health.Readiness
	Check     = health.Check
)

// Readiness statuses.
const (
	StatusReady    = health.StatusReady
	StatusDegraded = health.StatusDegraded
	StatusNotReady = health.StatusNotReady
)

// readyProbeTimeout bounds one store probe (storeWatch).
const readyProbeTimeout = 2 * time.Second

// storeProbeEvery is how often the store is probed in the background.
const storeProbeEvery = time.Second

// providerReadEvery is how often the provider states the polling replica
// recorded are read from the store (for /readyz and /metrics).
const providerReadEvery = 2 * time.Second

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
	in := health.In{Now: a.now(), Store: a.storeState(), StoreGrace: a.readyStoreGrace()}
	for _, ch := range chans {
		in.Channels = append(in.Channels, health.ChannelChecks(ch)...)
	}
	if a.Cfg.Stock.Poll.Schedule != "" && a.Board != nil {
		in.Polling, in.Providers, in.ProviderAge = true, a.providerStates(), a.readyProviderAge()
	}
	return health.Decide(in)
}

// providerStates are the configured providers' states readiness and the
// metrics read: as the polling replica recorded them in the store (read
// by the store watch), so every replica, the one polling or a standby,
// says the same; without a store, this process's board.
func (a *App) providerStates() []stock.ProviderSnapshot {
	configured := configuredProviders(a.Cfg)
	if a.Store == nil {
		return health.Recorded(a.Board.Health().Providers, configured)
	}
	a.storeWatch.mu.Lock()
	defer a.storeWatch.mu.Unlock()
	return health.Recorded(a.storeWatch.providers, configured)
}

// configuredProviders are the providers whose health counts: those that
// run live (set up, or switched on), not the catalog's list prices and
// not a platform without its credentials.
func configuredProviders(cfg config.Config) []string {
	var out []string
	for _, s := range provider.Registry() {
		if _, live := cfg.Stock.Providers.Runs(s); live {
			out = append(out, s.Name)
		}
	}
	return out
}

// storeWatch probes the store in the background and records the outcome
// for /readyz and /metrics.
type storeWatch struct {
	mu    sync.Mutex
	state health.StoreState
	// providers are the provider states last read from the store, or
	// recorded by this replica's poll at polledAt (their offers left out).
	providers []stock.ProviderSnapshot
	polledAt  time.Time
}

// recordProviders keeps the provider states read from the store by a
// read that started at readAt; a read that started before this replica's
// own poll recorded its states is older than them and dropped.
func (w *storeWatch) recordProviders(snaps []stock.ProviderSnapshot, readAt time.Time) {
	snaps = withoutOffers(snaps)
	w.mu.Lock()
	defer w.mu.Unlock()
	if readAt.Before(w.polledAt) {
		return
	}
	w.providers = snaps
}

// polled keeps the provider states this replica's poll just recorded in
// the store (so the poller reads its own poll at once, not at the next
// read).
func (w *storeWatch) polled(snaps []stock.ProviderSnapshot) {
	snaps = withoutOffers(snaps)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.providers, w.polledAt = snaps, time.Now()
}

// withoutOffers copies provider states without their offers.
func withoutOffers(snaps []stock.ProviderSnapshot) []stock.ProviderSnapshot {
	out := make([]stock.ProviderSnapshot, len(snaps))
	for i, s := range snaps {
		s.Offers, s.Absent = nil, nil
		out[i] = s
	}
	return out
}

func (w *storeWatch) record(now time.Time, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err == nil {
		w.state.FailingSince, w.state.Err = time.Time{}, ""
		return
	}
	if w.state.FailingSince.IsZero() {
		w.state.FailingSince = now
	}
	w.state.Err = err.Error()
}

// storeState is the store watch's record (a store that is not open, or
// one with nothing to probe, as such).
func (a *App) storeState() health.StoreState {
	if a.Store == nil {
		return health.StoreState{}
	}
	a.storeWatch.mu.Lock()
	defer a.storeWatch.mu.Unlock()
	s := a.storeWatch.state
	s.Open = true
	return s
}

// watchStore probes the store (one blob read: a round trip to Redis, a
// read of the bbolt file) now and every storeProbeEvery until ctx ends,
// and, when the bot polls, reads the provider states the polling replica
// recorded every providerReadEvery.
func (a *App) watchStore(ctx context.Context) {
	bs, _ := a.Store.(blobStore)
	polling := a.Cfg.Stock.Poll.Schedule != "" && a.Store != nil
	if bs == nil && !polling {
		return
	}
	t := time.NewTicker(storeProbeEvery)
	defer t.Stop()
	var lastRead time.Time
	for {
		if bs != nil {
			pctx, cancel := context.WithTimeout(ctx, readyProbeTimeout)
			_, err := bs.GetBlob(pctx, "readyz-probe")
			cancel()
			if ctx.Err() != nil {
				return
			}
			a.storeWatch.record(a.now(), err)
		}
		if polling && time.Since(lastRead) >= providerReadEvery {
			readAt := time.Now()
			pctx, cancel := context.WithTimeout(ctx, readyProbeTimeout)
			snaps, err := a.Store.LoadProviderSnapshots(pctx)
			cancel()
			if ctx.Err() != nil {
				return
			}
			if err == nil {
				// On failure the last states read stay, ageing: the
				// store check says the store is failing.
				a.storeWatch.recordProviders(snaps, readAt)
				lastRead = readAt
			}
		}
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
	configured := configuredProviders(c.a.Cfg)
	for _, p := range c.a.Board.Health().Providers {
		if !slices.Contains(configured, p.Provider) {
			continue
		}
		// This process's breaker: a standby's only moves with the
		// fetches its answers make.
		ch <- prometheus.MustNewConstMetric(breakerDesc, prometheus.GaugeValue, breakerStateCode[p.Breaker], p.Provider)
	}
	for _, p := range c.a.providerStates() {
		// The last success as recorded by whichever replica polls.
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

// Probe asks a running bot at base for /healthz (or /readyz when ready)
// and writes its answer to w (health.Probe).
func Probe(ctx context.Context, base string, ready bool, w io.Writer) error {
	return health.Probe(ctx, base, ready, w)
}
