package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/labgpu/bot/internal/buildinfo"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/stock"
)

// Metrics are the counters `bot serve` exposes at /metrics.
type Metrics struct {
	Registry       *prometheus.Registry
	Messages       *prometheus.CounterVec   // by channel
	Replies        *prometheus.CounterVec   // by channel
	SendErrors     *prometheus.CounterVec   // by channel
	PollLatency    *prometheus.HistogramVec // seconds, by provider
	PollFailures   *prometheus.CounterVec   // by provider
	AlertsSent     prometheus.Counter
	AlertsHeld     prometheus.Counter
	ProviderStatus *prometheus.GaugeVec // 1 ok, 0 otherwise, by provider
	ChannelUp      *prometheus.GaugeVec // 1 logged in and answering, by channel (wechat)
}

// NewMetrics registers the bot's metrics on a fresh registry (plus the Go
// runtime and process collectors).
func NewMetrics() *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{
		Registry:       r,
		Messages:       prometheus.NewCounterVec(prometheus.CounterOpts{Name: "labgpu_messages_handled_total", Help: "Chat messages answered, by channel."}, []string{"channel"}),
		Replies:        prometheus.NewCounterVec(prometheus.CounterOpts{Name: "labgpu_replies_sent_total", Help: "Replies and pushes delivered, by channel."}, []string{"channel"}),
		SendErrors:     prometheus.NewCounterVec(prometheus.CounterOpts{Name: "labgpu_send_errors_total", Help: "Failed sends, by channel."}, []string{"channel"}),
		PollLatency:    prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "labgpu_provider_poll_seconds", Help: "Provider fetch time, retries included.", Buckets: prometheus.ExponentialBuckets(0.05, 2, 10)}, []string{"provider"}),
		PollFailures:   prometheus.NewCounterVec(prometheus.CounterOpts{Name: "labgpu_provider_poll_failures_total", Help: "Failed provider fetches."}, []string{"provider"}),
		AlertsSent:     prometheus.NewCounter(prometheus.CounterOpts{Name: "labgpu_alerts_sent_total", Help: "Stock alert messages sent."}),
		AlertsHeld:     prometheus.NewCounter(prometheus.CounterOpts{Name: "labgpu_alerts_held_total", Help: "Alert items held (muted, quiet hours, claimed elsewhere, failed)."}),
		ProviderStatus: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "labgpu_provider_up", Help: "1 when the provider's last fetch succeeded."}, []string{"provider"}),
		ChannelUp:      prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "labgpu_channel_up", Help: "1 when the chat channel is logged in and answering (wechat)."}, []string{"channel"}),
	}
	r.MustRegister(m.Messages, m.Replies, m.SendErrors, m.PollLatency, m.PollFailures, m.AlertsSent, m.AlertsHeld, m.ProviderStatus, m.ChannelUp,
		buildInfoGauge(), prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	return m
}

// buildInfoGauge is labgpu_build_info{version,revision,goversion} 1: which
// build a replica runs (buildinfo, as `bot version` prints it).
func buildInfoGauge() prometheus.Collector {
	bi := buildinfo.Read()
	rev := bi.ShortRevision()
	if bi.Modified {
		rev += "-modified"
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "labgpu_build_info", Help: "1, labelled with the running build: module version, VCS revision, Go version.",
		ConstLabels: prometheus.Labels{"version": bi.Version, "revision": rev, "goversion": bi.GoVersion}})
	g.Set(1)
	return g
}

// countSend counts one channel's sends as replies or send errors (for a
// channel's OnSend).
func (m *Metrics) countSend(channel string) func(error) {
	return func(err error) {
		if err != nil {
			m.SendErrors.WithLabelValues(channel).Inc()
		} else {
			m.Replies.WithLabelValues(channel).Inc()
		}
	}
}

// observePoll records a poll's provider latencies and failures.
func (m *Metrics) observePoll(s stock.Snapshot, r stock.ProcessResult) {
	for _, p := range s.Providers {
		if p.Status == stock.StatusNotConfigured {
			continue
		}
		m.PollLatency.WithLabelValues(p.Provider).Observe(p.Latency.Seconds())
		up := 0.0
		if p.Status == stock.StatusOK {
			up = 1
		} else {
			m.PollFailures.WithLabelValues(p.Provider).Inc()
		}
		m.ProviderStatus.WithLabelValues(p.Provider).Set(up)
	}
	m.AlertsSent.Add(float64(r.Alerts))
	m.AlertsHeld.Add(float64(r.Held))
}

// countingHandler counts the messages a channel hands to the router.
type countingHandler struct {
	a *App
	m *Metrics
}

func (h countingHandler) Handle(ctx context.Context, msg chat.Message) chat.Reply {
	h.m.Messages.WithLabelValues(msg.Channel).Inc()
	return h.a.Router.Handle(ctx, msg)
}

// HandleUpdatable answers like Handle, with the answer again once a late
// platform answers (chat.Updater: Feishu updates its card in place).
func (h countingHandler) HandleUpdatable(ctx context.Context, msg chat.Message) (chat.Reply, chat.Later) {
	h.m.Messages.WithLabelValues(msg.Channel).Inc()
	return h.a.Router.HandleUpdatable(ctx, msg)
}

// Interim is the router's "查询中…" for a slow answer.
func (h countingHandler) Interim(msg chat.Message) chat.Reply { return h.a.Router.Interim(msg) }

// ServeOptions tune Serve for tests.
type ServeOptions struct {
	// Listener replaces listening on cfg.HTTP.Addr.
	Listener net.Listener
	// Ready is closed once the server accepts requests.
	Ready chan struct{}
}

// Serve runs the configured channels (Feishu by callback or long
// connection, push-only webhooks), the poller and the HTTP server with
// /feishu/events, /healthz and /metrics, until ctx ends; then it shuts
// down gracefully.
func (a *App) Serve(ctx context.Context, o ServeOptions) error {
	if a.Store == nil {
		return errors.New("serve: the store is not open")
	}
	// Listen first: a bad or busy address fails before any channel starts.
	ln := o.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", a.Cfg.HTTP.Addr); err != nil {
			return fmt.Errorf("http.addr: %w", err)
		}
	}
	defer ln.Close() // for the early returns; Shutdown closes it otherwise
	a.Log.Info("labgpu bot starting", Describe(a.Cfg).LogArgs()...)
	m := NewMetrics()
	mux := http.NewServeMux()
	running, stopChannels, err := a.startChannels(ctx, m, mux)
	// At shutdown, channels drain their queues before the store closes.
	defer stopChannels()
	if err != nil {
		return err
	}
	// /readyz and /metrics read what this watch and the poller record.
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go a.watchStore(wctx)
	mux.HandleFunc("/healthz", a.healthz)
	mux.Handle("/readyz", a.readyz(running))
	m.Registry.MustRegister(readyCollector{a, running})
	mux.Handle("/metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}))
	stopAdmin, err := a.startAdmin(ctx)
	defer stopAdmin()
	if err != nil {
		return err
	}
	stopJobs, err := a.startJobs(ctx, a.chans, m)
	defer stopJobs()
	if err != nil {
		return err
	}
	defer settled().Stop()
	return a.serveHTTP(ctx, ln, mux, o.Ready)
}

// startJobs schedules the stock poll, the digest, the release warnings
// and the budget check (each on its config schedule), sending through
// chans. stop stops them (waiting for
// running ones) and gives up the poll lock; it is never nil.
func (a *App) startJobs(ctx context.Context, chans chat.Channels, m *Metrics) (stop func(), err error) {
	s := jobs.NewScheduler(a.Location, a.Log)
	var poller *jobs.Poller
	stop = func() {
		s.Stop()
		if poller != nil {
			poller.Release(context.Background())
		}
	}
	if spec := a.Cfg.Stock.Poll.Schedule; spec != "" {
		poller = a.NewPoller()
		poller.OnPoll = func(s stock.Snapshot, r stock.ProcessResult) {
			m.observePoll(s, r)
			a.storeWatch.polled(s.Providers) // what the poll saved in the store
		}
		if err := s.AddNow(ctx, spec, poller.Run, jobs.Jitter(ctx, a.Cfg.Stock.Poll.Jitter.D())); err != nil {
			return stop, fmt.Errorf("stock.poll.schedule: %w", err)
		}
	}
	// The digest and the budgets read the store; without it (serve runs
	// on when the store could not be opened) they do not run.
	if spec := a.Cfg.Storage.DigestSchedule; spec != "" && a.Store != nil {
		if err := s.Add(ctx, spec, a.NewDigestJob(sendTo(chans)).Run); err != nil {
			return stop, fmt.Errorf("storage.digest_schedule: %w", err)
		}
	}
	if spec := a.Cfg.Storage.ReleaseWarnings.Schedule; spec != "" && a.Store != nil {
		if err := s.Add(ctx, spec, a.NewReleaseJob(chans).Run); err != nil {
			return stop, fmt.Errorf("storage.release_warnings.schedule: %w", err)
		}
	}
	if spec := a.Cfg.Storage.BudgetSchedule; spec != "" && len(a.Cfg.Storage.Budgets) > 0 && a.Store != nil {
		if err := s.Add(ctx, spec, a.NewBudgetJob(sendTo(chans)).Run); err != nil {
			return stop, fmt.Errorf("storage.budget_schedule: %w", err)
		}
	}
	s.Start()
	return stop, nil
}

// serveHTTP serves mux on ln until ctx ends, then shuts down within 10 s.
func (a *App) serveHTTP(ctx context.Context, ln net.Listener, mux *http.ServeMux, ready chan struct{}) error {
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	a.Log.Info("serving", "addr", ln.Addr().String())
	if ready != nil {
		close(ready)
	}
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	a.Log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if e := srv.Shutdown(sctx); e != nil && err == nil {
		err = e
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
