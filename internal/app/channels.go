package app

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/claim"
	"github.com/labgpu/bot/internal/chat/feishu"
	"github.com/labgpu/bot/internal/chat/webhook"
	"github.com/labgpu/bot/internal/chat/wechat"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/stock"
)

// channelKinds are the chat channels `bot serve` runs, one line each: its
// name in chat keys ("<name>/<chat id>"), whether the config turns it on
// (and, for an error, what is missing),
// how bot serve builds it (counted in the metrics; chans are the channels
// built before it, where its admin notices go), and how a one-shot
// command builds it to send (nil: only bot serve reaches it). A new
// channel is its package under internal/chat, its block in the config
// (config.ChannelsConf) and a line here; everything else (answers,
// alerts, the digest, notices, /readyz, the HTTP routes of a chat.Router)
// reaches it by its name through chat.Channels.
var channelKinds = []channelKind{
	{Name: "feishu", Unset: "the Feishu app is not configured (FEISHU_APP_ID)", On: func(c config.Config) bool { return c.Feishu.AppID != "" },
		Detail: feishuDetail, Serve: (*App).serveFeishu, CommandLine: (*App).commandLineFeishu},
	{Name: "webhook", Unset: "no webhook is configured (webhooks)", On: func(c config.Config) bool { return len(c.Webhooks) > 0 },
		Detail: webhookDetail, Serve: (*App).serveWebhooks, CommandLine: (*App).commandLineWebhooks},
	{Name: "wechat", Unset: "WeChat is off (WECHAT_ENABLED)", On: func(c config.Config) bool { return c.WeChat.Enabled },
		Detail: func(c config.Config) string { return "personal account, " + sourceText(c, "wechat.enabled") }, Serve: (*App).serveWeChat},
}

// feishuDetail says how the Feishu app runs: its mode and open platform,
// and where its app id came from.
func feishuDetail(c config.Config) string {
	return fmt.Sprintf("%s, %s, app id %s", c.Feishu.Mode, c.Feishu.BaseURL, sourceText(c, "feishu.app_id"))
}

// webhookDetail names the webhooks and their kinds.
func webhookDetail(c config.Config) string {
	names := make([]string, len(c.Webhooks))
	for i, w := range c.Webhooks {
		names[i] = w.Name + " " + w.Kind
	}
	return strings.Join(names, ", ")
}

// sourceText says where a setting came from, "from the defaults" when
// neither the file nor the environment set it.
func sourceText(c config.Config, key string) string {
	if s := c.Source(key); s != "" {
		return "from " + s
	}
	return "from the defaults"
}

// channelKind is one line of channelKinds.
type channelKind struct {
	Name string
	// Unset says it is not configured, naming the setting; Detail what
	// it runs as when it is.
	Unset       string
	On          func(config.Config) bool
	Detail      func(config.Config) string
	Serve       func(a *App, ctx context.Context, m *Metrics, chans chat.Channels) (ch chat.Channel, send chat.Sender, err error)
	CommandLine func(a *App, ctx context.Context) (chat.Channel, error)
}

// startChannels builds and starts the configured channels (channelKinds)
// and adds each one's sender to a.chans: where answers come in and where
// alerts, admin notices and the digest go out. Their HTTP routes (a
// chat.Router's: Feishu's callback) are mounted on mux. stop closes them,
// last started first; it is never nil.
func (a *App) startChannels(ctx context.Context, m *Metrics, mux *http.ServeMux) (list []chat.Channel, stop func(), err error) {
	list, err = a.serveChannels(ctx, m)
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
		return list, stop, err
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
	return list, stop, nil
}

// serveChannels builds the channels the config turns on, in
// channelKinds' order, and adds their senders to a.chans.
func (a *App) serveChannels(ctx context.Context, m *Metrics) ([]chat.Channel, error) {
	var list []chat.Channel
	for _, k := range channelKinds {
		if !k.On(a.Cfg) {
			continue
		}
		ch, send, err := k.Serve(a, ctx, m, a.chans)
		if err != nil {
			return list, err
		}
		a.chans.Add(send)
		list = append(list, ch)
	}
	return list, nil
}

// commandLineChannels are the channels a one-shot command can send
// through for the given chat keys (channelKinds' CommandLine). The
// returned close releases them.
func (a *App) commandLineChannels(ctx context.Context, chatKeys []string) (chat.Channels, func(), error) {
	chans := chat.Channels{}
	var opened []chat.Channel
	closeAll := func() {
		for _, ch := range opened {
			if c, ok := ch.(interface{ Close() error }); ok {
				_ = c.Close()
			}
		}
	}
	for _, ck := range chatKeys {
		name, _, _ := strings.Cut(ck, "/")
		if chans[name] != nil {
			continue
		}
		k, ok := channelKindOf(name)
		switch {
		case !ok:
			continue // Channels.Send names it
		case k.CommandLine == nil:
			closeAll()
			return nil, nil, fmt.Errorf("%s: the %s channel cannot be reached from the command line (it needs bot serve's login)", ck, name)
		case !k.On(a.Cfg):
			closeAll()
			return nil, nil, fmt.Errorf("%s: %s", ck, k.Unset)
		}
		ch, err := k.CommandLine(a, ctx)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		chans.Add(ch)
		opened = append(opened, ch)
	}
	return chans, closeAll, nil
}

func channelKindOf(name string) (channelKind, bool) {
	for _, k := range channelKinds {
		if k.Name == name {
			return k, true
		}
	}
	return channelKind{}, false
}

// serveFeishu is the Feishu app, answering by HTTP callback or long
// connection; it counts its own sends, answers included (OnSend).
func (a *App) serveFeishu(ctx context.Context, m *Metrics, _ chat.Channels) (chat.Channel, chat.Sender, error) {
	fc := a.Cfg.Feishu
	dedup := claim.NewStoreDeduper(a.Store, claim.StoreDeduperOptions{Log: a.Log})
	m.Registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "labgpu_feishu_dedup_fallbacks_total",
		Help: "Feishu claims taken in the process because the store failed."}, func() float64 { return float64(dedup.Fallbacks()) }))
	bot, err := feishu.New(ctx, feishu.Options{AppID: fc.AppID, AppSecret: fc.AppSecret, VerificationToken: fc.VerificationToken,
		EncryptKey: fc.EncryptKey, AllowNoEncryptKey: fc.AllowNoEncryptKey, BaseURL: fc.BaseURL, Mode: fc.Mode,
		Started: time.Now(), Dedup: dedup, Handler: countingHandler{a: a, m: m}, InterimAfter: a.Cfg.Stock.InterimAfter.D(), Log: a.Log,
		OnSend: m.countSend("feishu"), DrainTimeout: a.Cfg.HTTP.ShutdownGrace.D(), Delivered: a.deliveryLog(),
		Inbox: a.inbox(), Replica: a.replicaID})
	if err != nil {
		return nil, nil, fmt.Errorf("feishu: %w", err)
	}
	m.Registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "labgpu_feishu_unkept_total",
		Help: "Feishu events acknowledged while the store was down, so kept in memory only, not in the inbox."}, func() float64 { return float64(bot.Unkept()) }))
	// labgpu_callback_rejected_total{reason}: the callback's refusals
	// (feishu.Reject*), read at each scrape.
	for _, r := range feishu.RejectReasons() {
		m.Registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "labgpu_callback_rejected_total",
			Help:        "Requests the Feishu callback refused, by reason: token, signature, encrypt_key, not_encrypted, timestamp, malformed.",
			ConstLabels: prometheus.Labels{"reason": r}}, func() float64 { return float64(bot.Rejections()[r]) }))
	}
	return bot, bot, nil
}

// commandLineFeishu is the Feishu app for sending only.
func (a *App) commandLineFeishu(ctx context.Context) (chat.Channel, error) {
	fc := a.Cfg.Feishu
	return feishu.New(ctx, feishu.Options{AppID: fc.AppID, AppSecret: fc.AppSecret, VerificationToken: fc.VerificationToken,
		EncryptKey: fc.EncryptKey, AllowNoEncryptKey: true, BaseURL: fc.BaseURL, Mode: fc.Mode, Handler: a.Router, Log: a.Log,
		Delivered: a.deliveryLog()})
}

// serveWebhooks are the push-only webhooks, one channel by name.
func (a *App) serveWebhooks(_ context.Context, m *Metrics, _ chat.Channels) (chat.Channel, chat.Sender, error) {
	hooks, err := a.webhooks()
	if err != nil {
		return nil, nil, err
	}
	return hooks, metered{hooks, m}, nil
}

func (a *App) commandLineWebhooks(context.Context) (chat.Channel, error) { return a.webhooks() }

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

// serveWeChat is the WeChat channel under the replica lock (newWeChat);
// its notices go to wechat.admin through chans.
func (a *App) serveWeChat(ctx context.Context, m *Metrics, chans chat.Channels) (chat.Channel, chat.Sender, error) {
	w, err := a.newWeChat(ctx, m, chans)
	if err != nil {
		return nil, nil, err
	}
	return w, metered{w, m}, nil
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

// alerts is the alerter's notifier: an alert rendered for its chat and
// sent through the running channel (a.chans) of its chat key, once per
// alert key. A channel that is not running is an error, so the alert is
// decided again at the next poll instead of being lost.
func (a *App) alerts() stock.Notifier {
	return stock.NotifierFunc(func(ctx context.Context, al stock.Alert) error {
		return a.chans.Send(ctx, al.Channel+"/"+al.ChatID, a.Render.Alert(al), chat.SendOptions{IdempotencyKey: "alert:" + al.Key})
	})
}

// sendTo is the scheduled jobs' send: r to a chat key through the
// running channels, with the job's idempotency key.
func sendTo(chans chat.Channels) jobs.SendFunc { return chans.Send }

// inbox is the store as where Feishu keeps the events it acknowledged
// until they are answered (nil without a store).
func (a *App) inbox() feishu.Inbox {
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
