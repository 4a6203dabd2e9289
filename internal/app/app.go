// Package app wires the bot together: store, catalog, stock providers and
// board, command router. cmd/bot calls it; tests build it with a temporary
// data directory.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/feishu"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/store/embedded"
	redisstore "github.com/labgpu/bot/internal/store/redis"
)

// Store is everything the bot persists: snapshots, subscriptions, the
// notification log and locks. The embedded and Redis stores implement it.
type Store interface {
	stock.SnapshotStore
	stock.SubscriptionStore
	stock.AlertStore
	stock.Locker
	commands.Ledger
	DigestChats(ctx context.Context) ([]string, error)
	// Sends kept exact across restarts and replicas: where each chat's
	// scheduled digest stands, the parts the outboxes delivered and the
	// Feishu events acknowledged and not answered yet (the inbox).
	jobs.DigestMarks
	chat.DeliveryLog
	feishu.Inbox
	// The conversation's frames: a follow-up after a restart or on
	// another replica continues the answer it follows.
	commands.FrameStore
	Close() error
}

// App is a running bot's parts.
type App struct {
	Cfg    config.Config
	Cat    *catalog.Catalog
	Store  Store // nil when it could not be opened and was optional
	Board  *stock.Board
	Router *commands.Router
	// Render renders alerts (for every channel) with the catalog's names.
	Render  *render.Renderer
	Alerter *stock.Alerter
	// History is the availability history the poll records and the
	// availability answer reads (kept in the store when there is one).
	History  *history.Recorder
	Location *time.Location
	// WeChatTransport, when set, replaces the WeChat client's HTTP
	// transport (tests point it at a fake WeChat: openwechat hard-codes
	// its hosts).
	WeChatTransport http.RoundTripper

	// weChatStatus is the WeChat channel's state for /healthz (nil when
	// the channel is off; weChatUp when logged in).
	weChatStatus atomic.Pointer[string]
	// chans are the running channels by name, what alerts, digests and
	// notices go out through (chat key "<channel>/<chat id>"); filled
	// before anything sends (Serve, Console, PollOnce).
	chans chat.Channels
	// storeWatch records the store's reachability for /readyz.
	storeWatch storeWatch
	// replicaID names this process in store locks ("replica-<16 hex>").
	replicaID string
	Log       *slog.Logger
	now       func() time.Time
}

// Options tune New for tests and commands.
type Options struct {
	// Log receives the bot's logs (default: stderr at the configured level).
	Log *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// StoreOptional lets one-shot commands run without the store when it
	// cannot be opened (another bot process holds its lock): snapshots are
	// then not persisted, and a warning says so.
	StoreOptional bool
	// Catalog is the loaded catalog (LoadCatalog), when the caller has
	// loaded it already; nil loads it from the config.
	Catalog *catalog.Catalog
	// ThroughRunningBot: when a running bot holds the embedded store, use
	// it through that bot's admin listener (one-shot commands; never
	// serve).
	ThroughRunningBot bool
}

// LoadCatalog loads the embedded catalog, or the files in dir when set.
func LoadCatalog(dir string, fx float64) (*catalog.Catalog, error) {
	var fsys fs.FS = configs.FS
	if dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("catalog.dir: %q is not a directory", dir)
		}
		fsys = os.DirFS(dir)
	}
	c, err := catalog.Load(fsys)
	if err != nil {
		return nil, err
	}
	if fx > 0 {
		c.FXUSDCNY = fx
	}
	return c, nil
}

// ErrBadCatalog marks an error in the files of catalog.dir that New
// reads itself (a lab's advice.yaml): the command line exits with its
// usage status, as for a bad catalog.yaml.
var ErrBadCatalog = errors.New("catalog.dir")

// labAdvice reports whether the catalog directory has its own advice.yaml.
func labAdvice(dir string) bool {
	if dir == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, advice.File))
	return err == nil
}

// embeddedAdvice is the embedded knowledge base, loaded once per process
// when first asked for (its tests make sure it loads); in a process Warm
// prepared, without automata (advice.Scan).
var embeddedAdvice = sync.OnceValues(func() (*advice.Base, error) {
	if oneShot.Load() {
		return advice.Load(configs.FS, advice.Scan())
	}
	return advice.Load(configs.FS)
})

// oneShot is set by Warm: the process answers one question and exits.
var oneShot atomic.Bool

// Warm prepares a process that answers one question and exits (`bot ask`,
// `bot estimate`): what the answer needs and the catalog does not (the
// embedded knowledge base, the compiled intents and trained scorer, the
// terminal-width table) loads in the background while the catalog loads, so the answer waits
// for the slowest of them, not their sum; and the knowledge base and the
// concept lexicon are built without automata, as scanning one question
// for their words costs tens of microseconds and building the automata
// 60–80 ms. A lab's own advice.yaml trains the scorer from the YAML,
// after the catalog: nothing is warmed then.
func Warm(catalogDir string) {
	if labAdvice(catalogDir) {
		return
	}
	oneShot.Store(true)
	go embeddedAdvice() // kept by OnceValues; the first answer reads its error
	go commands.Preload()
}

// NewLogger returns a text logger on w at level ("debug", "info", …),
// its times in the default zone (render.DefaultTimeZone).
func NewLogger(w io.Writer, level string) *slog.Logger { return NewLoggerIn(w, level, nil) }

// NewLoggerIn is NewLogger with its times in loc (the config's timezone;
// nil: the default), so a log line and the output beside it (`bot poll
// --once`) tell the same time.
func NewLoggerIn(w io.Writer, level string, loc *time.Location) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	clock := render.Clock{Loc: loc}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l, ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && len(groups) == 0 && a.Value.Kind() == slog.KindTime {
			a.Value = slog.TimeValue(clock.In(a.Value.Time()))
		}
		return a
	}}))
}

// Clock prints times for users in the configured zone (config timezone).
func (a *App) Clock() render.Clock { return render.Clock{Loc: a.Location} }

// New builds the app from a validated config.
func New(ctx context.Context, cfg config.Config, o Options) (*App, error) {
	loc, err := cfg.Location()
	if err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = NewLoggerIn(os.Stderr, cfg.Log.Level, loc)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	cat := o.Catalog
	if cat == nil {
		var err error
		if cat, err = LoadCatalog(cfg.Catalog.Dir, cfg.Catalog.FXUSDCNY); err != nil {
			return nil, err
		}
	}
	// A lab's own advice.yaml is checked at start; the embedded one is
	// loaded with the first message.
	var kbOpt commands.Option
	if labAdvice(cfg.Catalog.Dir) {
		kb, err := advice.Load(os.DirFS(cfg.Catalog.Dir))
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadCatalog, err)
		}
		kbOpt = commands.WithAdvice(kb)
	} else {
		kbOpt = commands.WithAdviceLoader(embeddedAdvice)
	}
	a := &App{Cfg: cfg, Cat: cat, Log: o.Log, Location: loc, now: o.Now, chans: chat.Channels{}, replicaID: jobs.NewReplicaID()}
	var snapStore stock.SnapshotStore
	st, err := OpenStore(ctx, cfg)
	if errors.Is(err, embedded.ErrInUse) && o.ThroughRunningBot {
		st, err = a.throughRunningBot(ctx, err)
	}
	var down *redisstore.UnreachableError
	switch {
	case err == nil:
		a.Store, snapStore = st, st
	case errors.As(err, &down) && st != nil:
		// Start degraded: answers that need no store work at once; the
		// store, the event claims and polling come back with Redis.
		o.Log.Warn("Redis does not answer at start; running degraded until it does (/readyz says why)", "err", err)
		a.Store, snapStore = st, st
	case o.StoreOptional:
		o.Log.Warn("running without the store; snapshots and subscriptions are not available", "err", err)
	default:
		return nil, err
	}
	a.Board = stock.NewBoard(Providers(cfg, cat, o.Log, o.Now), stock.BoardOptions{
		Timeout: cfg.Stock.Timeout.D(), MaxAge: cfg.Stock.MaxAge.D(), Store: snapStore, Log: o.Log, Now: o.Now,
		Retries: cfg.Stock.Poll.Retries, Budget: cfg.Stock.AnswerBudget.D(),
		Breaker: stock.BreakerOptions{Failures: cfg.Stock.Breaker.Failures, OpenFor: cfg.Stock.Breaker.OpenFor.D()},
	})
	if err := a.Board.Restore(ctx); err != nil {
		o.Log.Warn("restoring stock snapshots", "err", err)
	}
	a.History = a.newHistory(ctx)
	if err := a.newRouter(kbOpt); err != nil {
		return nil, err
	}
	a.Render = &render.Renderer{Cat: cat, ListPriceMaxAge: cfg.Stock.ListPriceMaxAgeMonths, Clock: a.Clock()}
	return a, nil
}

// newRouter builds the command router over the app's parts (and, with
// the store, the alerter): the knowledge base by kbOpt, the lab's plan
// prices from the config.
func (a *App) newRouter(kbOpt commands.Option) error {
	cfg := a.Cfg
	policy := stock.Policy{Debounce: cfg.Alerts.Debounce, Cooldown: cfg.Alerts.Cooldown.D(), MinDrop: cfg.Alerts.MinDrop, SoldOutAgain: cfg.Alerts.SoldOutAgain}
	opts := []commands.Option{commands.WithClock(a.now), commands.WithLocation(a.Location), kbOpt, commands.WithLazyLoad(), commands.WithChatLanguage(cfg.Chat.Language),
		commands.WithListPriceMaxAge(cfg.Stock.ListPriceMaxAgeMonths)}
	lab, err := labPlans(a.Cat, cfg.Plans)
	if err != nil {
		return err
	}
	opts = append(opts, commands.WithPlans(lab), commands.WithAlertFacts(a.alertFacts()))
	if a.Store != nil {
		opts = append(opts, commands.WithAlerts(a.Store, a.Store, policy), commands.WithStorage(a.StorageOptions()), commands.WithFrames(a.Store))
		a.Alerter = &stock.Alerter{Subs: a.Store, Log: a.Store, Notifier: a.alerts(), Policy: policy, Quiet: quietHours(cfg.Alerts.QuietHours, a.Location), Logger: a.Log,
			SendTimeout: cfg.Alerts.SendTimeout.D()}
	}
	opts = append(opts, commands.WithHistory(a.History), commands.WithQueueRisk(queueRisk{a}))
	a.Router = commands.NewRouter(a.Cat, a.Board, opts...)
	return nil
}

// alertFacts are the poll interval and quiet hours the answers about how
// alerts work state ("提醒多久检查一次", "会不会半夜@我"): the schedule's
// interval (0 without a schedule), the configured windows.
func (a *App) alertFacts() commands.AlertFacts {
	f := commands.AlertFacts{QuietHours: a.Cfg.Alerts.QuietHours}
	if spec := a.Cfg.Stock.Poll.Schedule; spec != "" {
		if d, err := jobs.Interval(spec, a.now().In(a.Location)); err == nil {
			f.PollEvery = d
		}
	}
	return f
}

// StorageOptions are the storage commands' settings from the config.
func (a *App) StorageOptions() commands.StorageOptions {
	o := commands.StorageOptions{Price: ledger.CatalogStoragePrice(a.Cat, a.Cfg.Storage.Prices), Overrides: a.Cfg.Storage.Prices, Admins: a.Cfg.Storage.Admins,
		Labs: a.Cfg.Storage.LabOfChat(), DigestSchedule: a.Cfg.Storage.DigestSchedule}
	if a.Store != nil {
		o.Ledger = a.Store
	}
	if bs, ok := a.Store.(blobStore); ok {
		o.Blobs = bs // the WeChat admin bindings
	}
	return o
}

// Providers builds the configured stock providers: every line of the
// registry (provider.Registry) whose provider runs by its block.
func Providers(cfg config.Config, cat *catalog.Catalog, log *slog.Logger, now func() time.Time) []stock.Provider {
	var ps []stock.Provider
	for _, s := range provider.Registry() {
		if runs, _ := cfg.Stock.Providers.Runs(s); runs {
			ps = append(ps, s.New(cat, providerSettings(cfg, s.Name, cat, log, now)))
		}
	}
	return ps
}

// providerSettings are the settings of provider name: its block and
// what the app adds (the USD→CNY rate, how old a list price may be, the
// clock and the log).
func providerSettings(cfg config.Config, name string, cat *catalog.Catalog, log *slog.Logger, now func() time.Time) httpx.Settings {
	p := cfg.Stock.Providers[name]
	if p == nil {
		p = &config.ProviderConf{}
	}
	return httpx.Settings{BaseURL: p.BaseURL, Timeout: p.Timeout.D(), Token: p.Token, APIKey: p.APIKey, UserID: p.UserID,
		Regions: p.Regions, GPUs: p.GPUs, MachineList: p.MachineList, Limit: p.Limit, Dir: p.Dir,
		FXUSDCNY: cat.FXUSDCNY, ListPriceMaxAgeMonths: cfg.Stock.ListPriceMaxAgeMonths, Now: now, Log: log}
}

// OpenStore opens the configured store: the embedded bbolt file in
// data_dir, or Redis at store.redis_url. When Redis does not answer it
// returns the store all the same with a *redisstore.UnreachableError:
// the caller may run degraded until Redis is back.
func OpenStore(ctx context.Context, cfg config.Config) (Store, error) {
	if cfg.Store.Kind == "redis" {
		if len(cfg.Store.RedisAddrs) > 0 {
			return redisstore.OpenCluster(ctx, cfg.Store.RedisAddrs, cfg.Store.RedisMasterName, cfg.Store.RedisURL, cfg.Store.Prefix)
		}
		st, err := redisstore.Dial(ctx, cfg.Store.RedisURL, cfg.Store.Prefix)
		if st == nil {
			return nil, err // not a store at all (a bad URL)
		}
		return st, err // with an *redisstore.UnreachableError: usable once Redis answers
	}
	return embedded.Open(cfg.DataDir)
}

// quietHours builds the per-chat quiet-hours check from config ("*" is
// every chat).
func quietHours(windows map[string]string, loc *time.Location) stock.QuietHours {
	if len(windows) == 0 {
		return nil
	}
	return func(chat string, t time.Time) bool {
		w, ok := windows[chat]
		if !ok {
			w, ok = windows["*"]
		}
		if !ok {
			return false
		}
		start, end, err := config.ParseWindow(w)
		if err != nil {
			return false
		}
		lt := t.In(loc)
		m := lt.Hour()*60 + lt.Minute()
		if start <= end {
			return m >= start && m < end
		}
		return m >= start || m < end
	}
}

// Close ends the fetches still running and releases the store.
func (a *App) Close() error {
	if a.Board != nil {
		a.Board.Close()
	}
	if a.Store == nil {
		return nil
	}
	return a.Store.Close()
}
