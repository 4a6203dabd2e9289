package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/chat/wechat"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/feishu"
	"github.com/labgpu/bot/internal/chat/webhook"
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
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	return m
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
	m := NewMetrics()
	mux := http.NewServeMux()
	chans, running, stopChannels, err := a.startChannels(ctx, m, mux)
	// At shutdown, channels drain their queues before the store closes.
	defer stopChannels()
	if err != nil {
		return err
	}
	for _, ch := range chans {
		a.Notifier.Register(ch.Name(), a.alertsTo(ch))
	}
	// /readyz and /metrics read what this watch and the poller record.
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go a.watchStore(wctx)
	mux.HandleFunc("/healthz", a.healthz)
	mux.Handle("/readyz", a.readyz(running))
	m.Registry.MustRegister(readyCollector{a, running})
	mux.Handle("/metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}))
	stopJobs, err := a.startJobs(ctx, chans, m)
	defer stopJobs()
	if err != nil {
		return err
	}
	defer settled().Stop()
	return a.serveHTTP(ctx, ln, mux, o.Ready)
}

// startChannels starts the configured channels (Feishu by callback on mux
// or by long connection, the push-only webhooks, WeChat). The running
// channels are where answers come in and where alerts, admin notices and
// the weekly digest go out, by chat key "<channel>/<chat id>". stop
// closes them, last started first; it is never nil.
func (a *App) startChannels(ctx context.Context, m *Metrics, mux *http.ServeMux) (chans chat.Channels, list []chat.Channel, stop func(), err error) {
	chans = chat.Channels{}
	list, err = a.channels(ctx, m, chans)
	runCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	stop = func() {
		// Runs end first (WeChat drains its queued answers), then the
		// channels close, last started first.
		cancel()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(max(a.Cfg.HTTP.ShutdownGrace.D(), wechat.DrainTimeout) + 5*time.Second):
		}
		for i := len(list) - 1; i >= 0; i-- {
			if c, ok := list[i].(interface{ Close() error }); ok {
				_ = c.Close()
			}
		}
		// Closed, a late Run returns: wait for it, so that what it holds
		// (the WeChat replica lock) is given back before the store closes.
		<-done
	}
	if err != nil {
		return chans, list, stop, err
	}
	for _, ch := range list {
		if r, ok := ch.(chat.Router); ok {
			for path, h := range r.Routes() {
				mux.Handle(path, h)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := ch.Run(runCtx); err != nil && runCtx.Err() == nil {
				a.Log.Error(ch.Name()+" channel stopped", "err", err)
			}
		}()
		a.Log.Info(ch.Name() + " channel running")
	}
	return chans, list, stop, nil
}

// channels builds the configured channels (Feishu, the push-only
// webhooks, WeChat) and registers each one's sender in chans, counted in
// the metrics (Feishu counts its own sends, answers included, through
// OnSend).
func (a *App) channels(ctx context.Context, m *Metrics, chans chat.Channels) ([]chat.Channel, error) {
	var list []chat.Channel
	if fc := a.Cfg.Feishu; fc.AppID != "" {
		dedup := feishu.NewStoreDeduper(a.Store, feishu.StoreDeduperOptions{Log: a.Log})
		m.Registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "labgpu_feishu_dedup_fallbacks_total",
			Help: "Feishu claims taken in the process because the store failed."}, func() float64 { return float64(dedup.Fallbacks()) }))
		bot, err := feishu.New(ctx, feishu.Options{AppID: fc.AppID, AppSecret: fc.AppSecret, VerificationToken: fc.VerificationToken,
			EncryptKey: fc.EncryptKey, AllowNoEncryptKey: fc.AllowNoEncryptKey, BaseURL: fc.BaseURL, Mode: fc.Mode,
			Started: time.Now(), Dedup: dedup, Handler: countingHandler{a: a, m: m}, InterimAfter: a.Cfg.Stock.InterimAfter.D(), Log: a.Log,
			OnSend: m.countSend("feishu"), DrainTimeout: a.Cfg.HTTP.ShutdownGrace.D(), Delivered: a.deliveryLog(),
			Parking: a.parking()})
		if err != nil {
			return list, fmt.Errorf("feishu: %w", err)
		}
		chans.Add(bot)
		list = append(list, bot)
	}
	if len(a.Cfg.Webhooks) > 0 {
		hooks, err := a.webhooks()
		if err != nil {
			return list, err
		}
		chans.Add(metered{hooks, m})
		list = append(list, hooks)
	}
	if a.Cfg.WeChat.Enabled {
		w, err := a.newWeChat(ctx, m, chans)
		if err != nil {
			return list, err
		}
		chans.Add(metered{w, m})
		list = append(list, w)
	}
	return list, nil
}

// startJobs schedules the stock poll, the weekly digest, the release
// warnings and the hourly budget check, sending through chans. stop stops them (waiting for
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
		poller.OnPoll = m.observePoll
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
	if len(a.Cfg.Storage.Budgets) > 0 && a.Store != nil {
		if err := s.Add(ctx, "@hourly", a.NewBudgetJob(sendTo(chans)).Run); err != nil {
			return stop, err
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

// metered counts a channel's sends in the metrics (Feishu counts its own,
// answers included, through OnSend).
type metered struct {
	chat.Sender
	m *Metrics
}

func (c metered) Send(ctx context.Context, chatID string, r chat.Reply, o chat.SendOptions) error {
	err := c.Sender.Send(ctx, chatID, r, o)
	c.m.countSend(c.Name())(err)
	return err
}

// alertsTo is the alert notifier of a channel: the alert rendered for its
// chat, sent once per alert key.
func (a *App) alertsTo(ch chat.Sender) stock.Notifier {
	return stock.NotifierFunc(func(ctx context.Context, al stock.Alert) error {
		return ch.Send(ctx, al.ChatID, a.Render.Alert(al), chat.SendOptions{IdempotencyKey: "alert:" + al.Key})
	})
}

// sendTo is the scheduled jobs' send: r to a chat key through the
// running channels, with the job's idempotency key.
func sendTo(chans chat.Channels) jobs.SendFunc { return chans.Send }

// parking is the store as where Feishu keeps the answers a shutdown cut
// off (nil without a store).
func (a *App) parking() feishu.Parking {
	if a.Store == nil {
		return nil
	}
	return a.Store
}

// deliveryLog is the store as the outboxes' record of delivered parts
// (nil without a store).
func (a *App) deliveryLog() chat.DeliveryLog {
	if a.Store == nil {
		return nil
	}
	return a.Store
}

// webhooks builds the configured push-only webhooks by name.
func (a *App) webhooks() (webhook.Set, error) {
	hooks := webhook.Set{}
	for _, w := range a.Cfg.Webhooks {
		var err error
		switch w.Kind {
		case "feishu":
			hooks[w.Name], err = webhook.NewFeishuBot(w.URL, w.Secret, webhook.WithDeliveryLog(a.deliveryLog()))
		default:
			hooks[w.Name], err = webhook.NewWeCom(w.URL, webhook.WithChartPNG(chartPNG), webhook.WithDeliveryLog(a.deliveryLog()))
		}
		if err != nil {
			return nil, fmt.Errorf("webhooks %s: %w", w.Name, err)
		}
	}
	return hooks, nil
}
