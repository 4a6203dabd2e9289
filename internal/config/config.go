// Package config loads the bot's configuration: built-in defaults, then an
// optional YAML file (--config or BOT_CONFIG), then environment variables.
// Secrets (tokens, API keys) should come from the environment; a config file
// may hold them but they are never logged or printed.
package config

import (
	"bytes"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/admin"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/strictyaml"

	"github.com/labgpu/bot/internal/jobs"
)

// Config is the whole configuration. configs/config.example.yaml documents
// every key.
type Config struct {
	// DataDir is the embedded store's directory (BOT_DATA_DIR; default ./data).
	DataDir string `yaml:"data_dir"`
	// Timezone is the bot's one time zone (BOT_TIMEZONE; default
	// DefaultTimezone): every time it prints (answers, alerts, the digest,
	// the console, `bot poll --once` and its log), the digest's weeks,
	// the clock times questions name ("静音到8点"), quiet hours and the
	// schedules. See Location.
	Timezone string      `yaml:"timezone"`
	Store    StoreConf   `yaml:"store"`
	Catalog  CatalogConf `yaml:"catalog"`
	Stock    StockConf   `yaml:"stock"`
	Alerts   AlertsConf  `yaml:"alerts"`
	HTTP     HTTPConf    `yaml:"http"`
	Admin    AdminConf   `yaml:"admin"`
	// ChannelsConf are the chat channels' blocks (feishu, webhooks,
	// wechat), at the top level.
	ChannelsConf `yaml:",inline"`
	Storage      StorageConf `yaml:"storage"`
	Chat         ChatConf    `yaml:"chat"`
	Log          LogConf     `yaml:"log"`
	// Plans are the lab's own observed plan prices (see PlanConf).
	Plans []PlanConf `yaml:"plans"`

	// src is where each setting came from (Load).
	src *sources
}

// ChatConf is how the bot talks in the lab's chats.
type ChatConf struct {
	// Language answers a bare paste (an error with no words of the
	// asker's own): "zh" (the default), "en", or "auto" (a paste of
	// English program output in English, anything else without words of
	// its language in Chinese). Questions are answered in their own
	// language.
	Language string `yaml:"language"`
}

// HTTPConf is `bot serve`'s HTTP server: /feishu/events, /healthz, /metrics.
type HTTPConf struct {
	// Addr is the listen address (BOT_HTTP_ADDR; default ":8080").
	Addr string `yaml:"addr"`
	// ReadyProviderAge is how old a provider's last successful fetch may
	// be before /readyz reports the bot not ready (default: three poll
	// intervals, at least 10m).
	ReadyProviderAge Duration `yaml:"ready_provider_age"`
	// ShutdownGrace is how long `bot serve` lets queued answers finish at
	// SIGTERM; the Feishu answers still unsent then are kept in the store
	// and sent at the next start (default 10s).
	ShutdownGrace Duration `yaml:"shutdown_grace"`
	// ReadyStoreGrace is how long the store may stay unreachable before
	// /readyz reports the replica not ready (default 30s); a failing
	// platform only makes it degraded.
	ReadyStoreGrace Duration `yaml:"ready_store_grace"`
}

// StorageConf is the labs' storage ledger and weekly digest.
type StorageConf struct {
	// Prices override the catalog's data disk price per platform id, in
	// CNY per GB-day (e.g. a lab's negotiated or member price).
	Prices map[string]float64 `yaml:"prices"`
	// Labs groups chats into labs: lab name → chat keys
	// ("feishu/oc_…", "wechat/Lab Group"). A chat not listed is its own lab.
	Labs map[string][]string `yaml:"labs"`
	// Admins are sender ids (Feishu open_id "ou_…", "console") allowed to
	// change or remove any entry of their lab. WeChat nicknames are
	// refused: WeChat admins are bound in a private chat ("绑定管理员").
	Admins []string `yaml:"admins"`
	// DigestSchedule is when `bot serve` posts the storage digest to the
	// chats that turned it on: a cron spec in the config's timezone
	// (default "0 9 * * 1", Monday 09:00); empty turns it off. Each run
	// covers, per chat, the days since its last scheduled digest (the
	// first: the previous ISO week; jobs.NextPeriod).
	DigestSchedule string `yaml:"digest_schedule"`
	// Budgets are monthly storage budgets in CNY per lab (a storage.labs
	// name or a chat key); the lab's chats are told once a month at 50%,
	// 80% and 100%, as BudgetSchedule's check finds the month's spend past
	// them.
	Budgets map[string]float64 `yaml:"budgets"`
	// BudgetSchedule is when `bot serve` checks the budgets: a cron spec
	// in the config's timezone (default "@hourly"); empty turns the check
	// off. A threshold crossed between two checks is told at the second.
	BudgetSchedule string `yaml:"budget_schedule"`
	// ReleaseWarnings are the warnings before a platform deletes a
	// stopped disk (see ReleaseWarnConf).
	ReleaseWarnings ReleaseWarnConf `yaml:"release_warnings"`
}

// LabOfChat maps each configured chat key to its lab.
func (s StorageConf) LabOfChat() map[string]string {
	m := map[string]string{}
	for lab, chats := range s.Labs {
		for _, c := range chats {
			m[c] = lab
		}
	}
	return m
}

// StoreConf chooses where subscriptions, the notification log and
// snapshots live.
type StoreConf struct {
	// Kind is "embedded" (default: a bbolt file in data_dir) or "redis"
	// (needed for several replicas).
	Kind string `yaml:"kind"`
	// RedisURL is the server (REDIS_URL), needed with kind redis (no
	// default: a missing address is an error, never a silent
	// 127.0.0.1); the password goes in the URL or the environment, never
	// in logs.
	RedisURL string `yaml:"redis_url"`
	// Prefix namespaces the keys (default "labgpu:").
	Prefix string `yaml:"prefix"`
	// RedisAddrs lists Sentinel or Cluster nodes ("host:port"); with them
	// redis_url only supplies the password and database.
	RedisAddrs []string `yaml:"redis_addrs"`
	// RedisMasterName is the Sentinel master's name (Sentinel mode).
	RedisMasterName string `yaml:"redis_master_name"`
}

// AlertsConf is how stock alerts are decided (stock.Policy).
type AlertsConf struct {
	// Debounce: polls a state must hold before it counts (default 1).
	Debounce int `yaml:"debounce"`
	// Cooldown between two alerts of one subscription (default 30m).
	Cooldown Duration `yaml:"cooldown"`
	// MinDrop is the fraction a price must fall for a second alert
	// (default 0.05).
	MinDrop float64 `yaml:"min_drop"`
	// SoldOutAgain also announces stock that is gone (default false).
	SoldOutAgain bool `yaml:"sold_out_again"`
	// QuietHours maps a chat ("console/console", "feishu/oc_xxx", or "*"
	// for every chat) to a daily window "23:00-08:00" in the config's timezone.
	QuietHours map[string]string `yaml:"quiet_hours"`
	// SendTimeout bounds one chat's alert send, retries included (default
	// 30s): a chat whose webhook hangs or fails is left for the next poll,
	// and the other chats' alerts, sent at the same time, never wait for
	// it.
	SendTimeout Duration `yaml:"send_timeout"`
}

// CatalogConf points at reference data overriding the embedded files.
type CatalogConf struct {
	// Dir holds catalog.yaml, gpus.yaml and models.yaml; empty = built in.
	Dir string `yaml:"dir"`
	// FXUSDCNY overrides the catalog's USD→CNY rate (0 = catalog's).
	FXUSDCNY float64 `yaml:"fx_usd_cny"`
}

// StockConf configures the stock providers.
type StockConf struct {
	// Timeout bounds each provider's fetch.
	Timeout Duration `yaml:"timeout"`
	// MaxAge: answers refresh data older than this before answering.
	MaxAge    Duration      `yaml:"max_age"`
	Providers ProvidersConf `yaml:"providers"`
	Poll      PollConf      `yaml:"poll"`
	// ListPriceMaxAgeMonths is how many months after its date a catalog
	// list price is marked stale in answers and ranked after fresh ones
	// (default 12; negative: never).
	ListPriceMaxAgeMonths int `yaml:"list_price_max_age_months"`
	// InterimAfter is how long a chat waits for an answer that needs
	// fresh data before it gets a short "查询中…" (default 600ms; negative:
	// never).
	InterimAfter Duration `yaml:"interim_after"`
	// AnswerBudget is how long an answer waits for a platform's fetch
	// before it answers from the last snapshot, naming the platform as
	// late (default 2s; negative: wait for the fetch, up to timeout).
	// Feishu then updates the answer in place when the data comes.
	AnswerBudget Duration `yaml:"answer_budget"`
	// Breaker is each platform's circuit breaker.
	Breaker BreakerConf `yaml:"breaker"`
}

// BreakerConf is the circuit breaker every platform's fetches go
// through: after Failures consecutive failed fetches (timeouts, network
// errors, 5xx, rate limits) no fetch is made for OpenFor; answers use the
// last snapshot and say the platform cannot be reached; then one trial
// fetch.
type BreakerConf struct {
	// Failures opens the breaker (default 5; negative: no breaker).
	Failures int `yaml:"failures"`
	// OpenFor is how long it stays open (default 1m).
	OpenFor Duration `yaml:"open_for"`
}

// PollConf schedules stock polling (robfig/cron).
type PollConf struct {
	// Schedule is a cron spec ("*/2 * * * *") or "@every 2m"; empty turns
	// polling off.
	Schedule string `yaml:"schedule"`
	// Timezone is the older name of the top-level timezone, read when
	// that is left at its default (Config.Location).
	Timezone string `yaml:"timezone"`
	// Jitter delays each run by a random time up to this (default 10s).
	Jitter Duration `yaml:"jitter"`
	// Retries of a failed provider fetch within its timeout (default 2).
	Retries int `yaml:"retries"`
	// LockTTL is how long the replica that polls holds the poll lock
	// without renewing it (it renews every third of it while running).
	// Default: the schedule's interval, at least 30s, so another replica
	// takes over within two intervals of the holder's death.
	LockTTL Duration `yaml:"lock_ttl"`
}

// LogConf configures logging.
type LogConf struct {
	// Level: debug, info, warn, error.
	Level string `yaml:"level"`
}

// Duration is a time.Duration written as "15s" or "2m" in YAML. A value
// that does not parse is kept and reported by Validate with its key.
type Duration struct {
	d   time.Duration
	bad string
}

// Dur returns a Duration of d.
func Dur(d time.Duration) Duration { return Duration{d: d} }

// UnmarshalYAML parses a Go duration string; a bad one is reported by
// validation, with the key it is under.
func (d *Duration) UnmarshalYAML(n *strictyaml.Node) error {
	if n.Kind != strictyaml.ScalarNode {
		return strictyaml.Invalid(n, "a list or a mapping is not a duration such as 15s or 2m")
	}
	s := strings.TrimSpace(n.Value)
	v, err := time.ParseDuration(s)
	if err != nil {
		*d = Duration{bad: s}
		return nil
	}
	*d = Duration{d: v}
	return nil
}

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return d.d }

// check reports a value that did not parse, naming its key; it says
// whether the value parsed.
func (d Duration) check(r *report, key string) bool {
	if d.bad != "" {
		r.add(key, "%q is not a duration such as 15s, 2m or 1h30m (units ms, s, m, h)", d.bad)
		return false
	}
	return true
}

// Default returns the built-in defaults: embedded store in ./data, catalog
// list prices, no live provider, no replay.
func Default() Config {
	return Config{
		DataDir:  "./data",
		Timezone: DefaultTimezone,
		Store:    StoreConf{Kind: "embedded", Prefix: "labgpu:"},
		Alerts:   AlertsConf{Debounce: 1, Cooldown: Dur(30 * time.Minute), MinDrop: 0.05, SendTimeout: Dur(30 * time.Second)},
		Stock: StockConf{
			Timeout: Dur(15 * time.Second),
			MaxAge:  Dur(60 * time.Second),
			// chat.DefaultInterimAfter
			InterimAfter: Dur(600 * time.Millisecond),
			AnswerBudget: Dur(2 * time.Second),
			Breaker:      BreakerConf{Failures: 5, OpenFor: Dur(time.Minute)},
			Poll:         PollConf{Schedule: "@every 2m", Jitter: Dur(10 * time.Second), Retries: 2},
			// Each provider's defaults (base URL, timeout, limit) are its
			// package's.
			Providers: ProvidersConf{},
		},
		HTTP:         HTTPConf{Addr: ":8080", ShutdownGrace: Dur(10 * time.Second), ReadyStoreGrace: Dur(30 * time.Second)},
		Admin:        AdminConf{Addr: admin.DefaultAddr},
		ChannelsConf: ChannelsConf{Feishu: FeishuConf{Mode: "websocket", BaseURL: "https://open.feishu.cn"}},
		Storage:      StorageConf{DigestSchedule: "0 9 * * 1", BudgetSchedule: "@hourly", ReleaseWarnings: DefaultReleaseWarnings()},
		Log:          LogConf{Level: "info"},
		Chat:         ChatConf{Language: "zh"},
	}
}

// Env is the environment lookup Load uses (os.LookupEnv in production).
type Env func(key string) (string, bool)

// Load reads the file at path (empty = none) over the defaults, applies the
// environment and validates. Its error is Problems: every problem found,
// each naming the key, where its value came from (the file and line, or
// the environment variable) and the fix; a file that does not parse at
// all stops there.
func Load(path string, env Env) (Config, error) {
	if env == nil {
		env = os.LookupEnv
	}
	cfg := Default()
	cfg.src = &sources{file: path}
	var ps Problems
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return cfg, Problems{{Msg: err.Error() + " (--config or BOT_CONFIG names the file)"}}
		}
		// Editors on Windows save UTF-8 with a byte-order mark; it is not
		// part of the first key.
		b = bytes.TrimPrefix(b, []byte("\ufeff"))
		if hasContent(b) {
			cfg.src.lines = strictyaml.Lines(b)
			if err := strictyaml.Decode(b, &cfg); err != nil {
				ps = cfg.src.fromYAML(err)
				if cfg.src.lines == nil {
					return cfg, ps // not YAML: nothing more to say
				}
			}
		}
	}
	ps = append(ps, cfg.applyEnv(env)...)
	if err := cfg.Validate(); err != nil {
		ps = append(ps, err.(Problems)...)
	}
	if len(ps) > 0 {
		return cfg, cfg.src.ordered(ps)
	}
	return cfg, nil
}

// applyEnv sets what the environment sets, recording each variable as its
// keys' source. Every variable counts when set and not empty. REDIS_URL
// also picks the redis store; the string settings, disjoint from it, come
// first, the providers' (provider.Registry) last.
func (cfg *Config) applyEnv(env Env) Problems {
	var ps Problems
	for _, e := range append(cfg.stringEnv(), cfg.channelEnv()...) {
		if v, ok := env(e.name); ok && v != "" {
			*e.dst = v
			cfg.src.setBy(e.key, e.name)
		}
	}
	if v, ok := env("REDIS_URL"); ok && v != "" {
		cfg.Store.RedisURL, cfg.Store.Kind = v, "redis"
		cfg.src.setBy("store.redis_url", "REDIS_URL")
		cfg.src.setBy("store.kind", "REDIS_URL")
	}
	if v, ok := env("WECHAT_ENABLED"); ok && v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			ps = append(ps, Problem{Key: "wechat.enabled", Source: "environment variable WECHAT_ENABLED", Msg: fmt.Sprintf("%q is not true or false", v)})
		} else {
			cfg.WeChat.Enabled = b
			cfg.src.setBy("wechat.enabled", "WECHAT_ENABLED")
		}
	}
	cfg.Stock.Providers.applyEnv(env, cfg.src)
	return ps
}

// envString is an environment variable that replaces a string setting:
// its name, the setting's key and where it is kept.
type envString struct {
	name, key string
	dst       *string
}

// stringEnv lists the variables that replace one string setting of cfg each.
func (cfg *Config) stringEnv() []envString {
	return []envString{{"BOT_DATA_DIR", "data_dir", &cfg.DataDir}, {"BOT_TIMEZONE", "timezone", &cfg.Timezone},
		{"BOT_HTTP_ADDR", "http.addr", &cfg.HTTP.Addr}, {"BOT_ADMIN_ADDR", "admin.addr", &cfg.Admin.Addr}, {"BOT_ADMIN_TOKEN", "admin.token", &cfg.Admin.Token}}
}

// File is the config file the settings were read from ("" when none:
// defaults and environment only).
func (c Config) File() string {
	if c.src == nil {
		return ""
	}
	return c.src.file
}

// Source is where key's value came from: "<file> line N", "environment
// variable NAME", or "" for a built-in default.
func (c Config) Source(key string) string { return c.src.of(key) }

// hasContent reports whether a YAML file has anything besides blank lines
// and comments; an empty file means "no settings".
func hasContent(b []byte) bool {
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") && l != "---" {
			return true
		}
	}
	return false
}

// DefaultTimezone is the zone of a config that names none.
const DefaultTimezone = "Asia/Shanghai"

// Location is the configured time zone: timezone, or its older name
// stock.poll.timezone when only that one is changed from the default.
// The error names the key.
func (c Config) Location() (*time.Location, error) {
	loc, key, msg := c.location()
	if msg != "" {
		return nil, fmt.Errorf("%s: %s", key, msg)
	}
	return loc, nil
}

// location is Location with its problem as a key and a message.
func (c Config) location() (loc *time.Location, key, msg string) {
	key, name := "timezone", c.Timezone
	old := c.Stock.Poll.Timezone
	switch {
	case old != "" && (name == "" || name == DefaultTimezone):
		key, name = "stock.poll.timezone", old
	case old != "" && old != name:
		return nil, "timezone", fmt.Sprintf("%q and stock.poll.timezone %q differ: set timezone only", name, old)
	case name == "":
		name = DefaultTimezone
	}
	loc, err := time.LoadLocation(name)
	if err != nil || strings.EqualFold(name, "local") {
		// "Local" is the machine's zone, which this setting pins down.
		return nil, key, fmt.Sprintf("%q is not a time zone such as Asia/Shanghai (an IANA name: Asia/Shanghai, Europe/Berlin, UTC)", name)
	}
	return loc, key, ""
}

// Validate checks every value and returns every problem (Problems, each
// naming its key, the source of its value and the fix), or nil.
func (c Config) Validate() error {
	var r report
	for _, check := range []func(*report){c.validateBasics, c.validateChannels, c.validateSchedules, c.validateStorage,
		c.validateStore, c.validateAlerts, c.validateStock, c.validateLogAndChat, c.validatePlans, c.validateAdmin} {
		check(&r)
	}
	if len(r.ps) == 0 {
		return nil
	}
	return c.src.sourced(r.ps)
}

// validateBasics checks data_dir, the catalog and the HTTP address.
func (c Config) validateBasics(r *report) {
	if strings.TrimSpace(c.DataDir) == "" {
		r.add("data_dir", "must not be empty (the embedded store's directory, e.g. ./data; BOT_DATA_DIR)")
	}
	if c.Catalog.FXUSDCNY < 0 {
		r.add("catalog.fx_usd_cny", "%v is negative: write the USD→CNY rate (e.g. 7.2), or 0 for the catalog's", c.Catalog.FXUSDCNY)
	}
	if _, _, err := net.SplitHostPort(c.HTTP.Addr); err != nil {
		r.add("http.addr", "%q is not host:port (e.g. :8080 or 127.0.0.1:8080)", c.HTTP.Addr)
	}
}

// validateSchedules checks the poll, digest and budget schedules (through jobs).
func (c Config) validateSchedules(r *report) {
	if sc := c.Stock.Poll.Schedule; sc != "" {
		// The platforms ask for gentle polling (stock-apis.md: at least
		// 30 s per platform); cron specs are at least a minute apart.
		if err := jobs.ValidateSchedule(sc, jobs.MinInterval); err != nil {
			r.add("stock.poll.schedule", "%v (e.g. \"*/2 * * * *\" or \"@every 2m\"; faster polling is rate-limited by the platforms; \"\" turns polling off)", err)
		}
	}
	if sc := c.Storage.DigestSchedule; sc != "" {
		if err := jobs.ValidateSchedule(sc, 0); err != nil {
			r.add("storage.digest_schedule", "%v (a cron spec: minute hour day month weekday, e.g. \"0 9 * * 1\" for Monday 09:00; \"\" turns it off)", err)
		}
	}
	if sc := c.Storage.BudgetSchedule; sc != "" {
		if err := jobs.ValidateSchedule(sc, 0); err != nil {
			r.add("storage.budget_schedule", "%v (e.g. \"@hourly\" or \"0 * * * *\"; \"\" turns it off)", err)
		}
	}
	c.Storage.ReleaseWarnings.validate(r)
}

// validateStorage checks the storage budgets, prices, labs and admins.
func (c Config) validateStorage(r *report) {
	for _, lab := range sortedKeys(c.Storage.Budgets) {
		if v := c.Storage.Budgets[lab]; !(v > 0) || v > 1e7 {
			r.add("storage.budgets."+lab, "%v is not a monthly budget in CNY above 0 (e.g. 300)", v)
		}
	}
	for _, p := range sortedKeys(c.Storage.Prices) {
		if v := c.Storage.Prices[p]; !(v >= 0) || v > 10 {
			r.add("storage.prices."+p, "%v is not a price between 0 and 10 CNY per GB-day (e.g. 0.0066)", v)
		}
	}
	seenChat := map[string]string{}
	for _, lab := range sortedKeys(c.Storage.Labs) {
		for i, ch := range c.Storage.Labs[lab] {
			key := fmt.Sprintf("storage.labs.%s[%d]", lab, i)
			if err := c.CheckChatKey(ch); err != nil {
				r.add(key, "%v", err)
				continue
			}
			if other, dup := seenChat[ch]; dup && other != lab {
				r.add(key, "chat %q is in both %s and %s: a chat belongs to one lab", ch, other, lab)
			}
			seenChat[ch] = lab
		}
	}
	for i, a := range c.Storage.Admins {
		if a != "console" && !strings.HasPrefix(a, "ou_") {
			r.add(fmt.Sprintf("storage.admins[%d]", i), "%s", i18n.EN.T("config.admin_not_open_id", a))
		}
	}
}

// validateStore checks the store: a known kind, and Redis with an
// address (never a silent 127.0.0.1).
func (c Config) validateStore(r *report) {
	switch c.Store.Kind {
	case "embedded":
	case "redis":
		if c.Store.RedisURL == "" && len(c.Store.RedisAddrs) == 0 {
			r.add("store.kind", "redis needs the server's address: set REDIS_URL (e.g. redis://:PASSWORD@10.0.0.5:6379/0) or store.redis_url, or use store.kind: embedded")
			return
		}
		if c.Store.RedisURL != "" {
			if u, err := url.Parse(c.Store.RedisURL); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" && len(c.Store.RedisAddrs) == 0 {
				r.add("store.redis_url", "%q is not a redis:// URL such as redis://:PASSWORD@10.0.0.5:6379/0", RedactURL(c.Store.RedisURL))
			}
		}
	default:
		r.add("store.kind", "%q is not embedded or redis", c.Store.Kind)
	}
}

// validateAlerts checks the time zone, retries and the alert policy.
func (c Config) validateAlerts(r *report) {
	if _, key, msg := c.location(); msg != "" {
		r.add(key, "%s", msg)
	}
	if c.Stock.Poll.Retries < 0 || c.Stock.Poll.Retries > 5 {
		r.add("stock.poll.retries", "%d is outside 0-5 (default 2)", c.Stock.Poll.Retries)
	}
	if c.Alerts.Debounce < 1 || c.Alerts.Debounce > 100 {
		r.add("alerts.debounce", "%d is outside 1-100 (polls a state must hold; default 1)", c.Alerts.Debounce)
	}
	if c.Alerts.MinDrop < 0 || c.Alerts.MinDrop >= 1 {
		r.add("alerts.min_drop", "%v is outside 0-1 (a fraction: 0.05 is 5%%)", c.Alerts.MinDrop)
	}
	for _, chat := range sortedKeys(c.Alerts.QuietHours) {
		key := "alerts.quiet_hours." + chat
		if chat != "*" {
			if err := c.CheckChatKey(chat); err != nil {
				r.add(key, "the key %v; use \"*\" for every chat", err)
				continue
			}
		}
		if _, _, err := ParseWindow(c.Alerts.QuietHours[chat]); err != nil {
			r.add(key, "%v", err)
		}
	}
}

// durationRule is a duration setting and what it may be.
type durationRule struct {
	key string
	d   Duration
	// negative: a negative value means something (never, wait).
	negative bool
	// example is the value the fix suggests.
	example string
}

// durations are the duration settings besides the providers' and the
// release warnings'.
func (c Config) durations() []durationRule {
	return []durationRule{{"stock.timeout", c.Stock.Timeout, false, "15s"}, {"stock.max_age", c.Stock.MaxAge, false, "60s"},
		{"stock.interim_after", c.Stock.InterimAfter, true, "600ms"}, {"stock.answer_budget", c.Stock.AnswerBudget, true, "2s"},
		{"stock.breaker.open_for", c.Stock.Breaker.OpenFor, false, "1m"}, {"stock.poll.jitter", c.Stock.Poll.Jitter, false, "10s"},
		{"stock.poll.lock_ttl", c.Stock.Poll.LockTTL, false, "2m"}, {"http.ready_store_grace", c.HTTP.ReadyStoreGrace, false, "30s"},
		{"http.ready_provider_age", c.HTTP.ReadyProviderAge, false, "10m"}, {"http.shutdown_grace", c.HTTP.ShutdownGrace, false, "10s"},
		{"alerts.cooldown", c.Alerts.Cooldown, false, "30m"}, {"alerts.send_timeout", c.Alerts.SendTimeout, false, "30s"}}
}

// validateStock checks the durations, timeouts and provider URLs.
func (c Config) validateStock(r *report) {
	for _, d := range c.durations() {
		switch {
		case !d.d.check(r, d.key):
		case d.d.D() < 0 && !d.negative:
			r.add(d.key, "%v is negative: write a duration of 0s or more, e.g. %s", d.d.D(), d.example)
		}
	}
	if d := c.Stock.Poll.LockTTL.D(); d > 0 && d < 3*time.Second {
		r.add("stock.poll.lock_ttl", "%v is too short (at least 3s; it is renewed every third of it; \"\" for the poll interval)", d)
	}
	if c.Stock.Timeout.bad == "" && c.Stock.Timeout.D() == 0 {
		r.add("stock.timeout", "must be positive (each platform's fetch is cancelled after it; e.g. 15s)")
	}
	if c.Stock.Breaker.Failures == 0 {
		r.add("stock.breaker.failures", "0 would open the breaker before any fetch (a positive count such as 5, or negative for no breaker)")
	}
	c.Stock.Providers.validate(r)
}

// validateLogAndChat checks the log level and the chat language.
func (c Config) validateLogAndChat(r *report) {
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		r.add("log.level", "%q is not debug, info, warn or error", c.Log.Level)
	}
	switch c.Chat.Language {
	case "auto", "zh", "en":
	default:
		r.add("chat.language", "%q is not auto, zh or en", c.Chat.Language)
	}
}

// RedactURL is a URL with its password (and any user) masked, for logs
// and errors: "redis://:***@10.0.0.5:6379/0". A text that is no URL is
// kept only up to its scheme.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		if i := strings.Index(s, "://"); i >= 0 {
			return s[:i+3] + "***"
		}
		return "***"
	}
	if u.User == nil {
		return u.String()
	}
	u.User = nil
	scheme, rest, _ := strings.Cut(u.String(), "://")
	return scheme + "://:***@" + rest
}

func checkURL(key, s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s: %q is not an http(s) URL", key, s)
	}
	return nil
}

// ParseWindow parses a daily window "23:00-08:00" into minutes after
// midnight; the end may be before the start (across midnight).
func ParseWindow(s string) (start, end int, err error) {
	var h1, m1, h2, m2 int
	if _, err := fmt.Sscanf(strings.TrimSpace(s), "%d:%d-%d:%d", &h1, &m1, &h2, &m2); err != nil ||
		h1 < 0 || h1 > 23 || h2 < 0 || h2 > 24 || m1 < 0 || m1 > 59 || m2 < 0 || m2 > 59 {
		return 0, 0, fmt.Errorf("%q is not a window such as 23:00-08:00", s)
	}
	return h1*60 + m1, h2*60 + m2, nil
}
