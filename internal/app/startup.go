package app

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/buildinfo"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/stock/provider"
	"github.com/labgpu/bot/internal/store/embedded"
)

// Summary is what a bot process runs with, in words: the build, the
// config file, the store (a Redis address without its password), the
// channels on or off and why, the stock providers. `bot serve` logs it in
// one line at start; `bot config check` prints it.
type Summary struct {
	Version   string
	Config    string
	Store     string
	Channels  []ChannelState
	Providers string
}

// ChannelState is one channel: on or off, and what it runs as or why it
// is off (naming the setting).
type ChannelState struct {
	Name string
	On   bool
	Why  string
}

// Describe is the summary of cfg; it starts nothing and calls nobody.
func Describe(cfg config.Config) Summary {
	s := Summary{Version: buildinfo.Read().String(), Config: cfg.File(), Store: storeText(cfg), Providers: providersText(cfg)}
	if s.Config == "" {
		s.Config = "none (built-in defaults and the environment)"
	}
	for _, k := range channelKinds {
		st := ChannelState{Name: k.Name, On: k.On(cfg), Why: k.Unset}
		if st.On {
			st.Why = k.Detail(cfg)
		}
		s.Channels = append(s.Channels, st)
	}
	return s
}

// ChannelsText is the channels in one line: "feishu on: websocket,
// https://open.feishu.cn, …; webhook off: no webhook is configured …".
func (s Summary) ChannelsText() string {
	parts := make([]string, len(s.Channels))
	for i, c := range s.Channels {
		parts[i] = c.String()
	}
	return strings.Join(parts, "; ")
}

// String is "feishu on: <how>" or "wechat off: <why>".
func (c ChannelState) String() string {
	if c.On {
		return c.Name + " on: " + c.Why
	}
	return c.Name + " off: " + c.Why
}

// LogArgs are the summary as the start-up log line's attributes.
func (s Summary) LogArgs() []any {
	return []any{"version", s.Version, "config", s.Config, "store", s.Store, "channels", s.ChannelsText(), "providers", s.Providers}
}

// String is the summary on a few lines, for `bot config check`.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "version:   %s\nconfig:    %s\nstore:     %s\nproviders: %s\n", s.Version, s.Config, s.Store, s.Providers)
	for _, c := range s.Channels {
		fmt.Fprintf(&b, "channel:   %s\n", c)
	}
	return b.String()
}

// storeText names the store: the embedded files, or Redis's address,
// database and prefix without the password.
func storeText(cfg config.Config) string {
	if cfg.Store.Kind != "redis" {
		return fmt.Sprintf("embedded %s and %s", filepath.Join(cfg.DataDir, embedded.FileName), filepath.Join(cfg.DataDir, embedded.ClaimsFileName))
	}
	where := ""
	if u, err := url.Parse(cfg.Store.RedisURL); err == nil && cfg.Store.RedisURL != "" {
		where = u.Scheme + "://" + u.Host + u.Path
		if _, set := u.User.Password(); set {
			where += " (password set)"
		}
	}
	switch {
	case len(cfg.Store.RedisAddrs) > 0 && cfg.Store.RedisMasterName != "":
		where = fmt.Sprintf("sentinel %s, master %s", strings.Join(cfg.Store.RedisAddrs, ","), cfg.Store.RedisMasterName)
	case len(cfg.Store.RedisAddrs) > 0:
		where = "cluster " + strings.Join(cfg.Store.RedisAddrs, ",")
	}
	return fmt.Sprintf("redis %s, prefix %q", where, cfg.Store.Prefix)
}

// providersText lists the stock providers that run, "(live)" after those
// with credentials: "catalog, autodl (live), replay (live)".
func providersText(cfg config.Config) string {
	var out []string
	for _, s := range provider.Registry() {
		runs, live := cfg.Stock.Providers.Runs(s)
		switch {
		case live:
			out = append(out, s.Name+" (live)")
		case runs:
			out = append(out, s.Name)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// CheckConfig checks what the config names beyond its own values,
// starting nothing: the catalog directory's files (catalog.dir, a lab's
// advice.yaml) and, when plans is set (the config's own values passed),
// the lab's plan prices against the catalog.
func CheckConfig(cfg config.Config, plans bool) config.Problems {
	cat, err := LoadCatalog(cfg.Catalog.Dir, cfg.Catalog.FXUSDCNY)
	if err != nil {
		return config.Problems{{Key: "catalog.dir", Msg: err.Error(), Source: cfg.Source("catalog.dir")}}
	}
	var ps config.Problems
	if labAdvice(cfg.Catalog.Dir) {
		if _, err := advice.Load(os.DirFS(cfg.Catalog.Dir)); err != nil {
			ps = append(ps, config.Problem{Key: "catalog.dir", Msg: err.Error(), Source: cfg.Source("catalog.dir")})
		}
	}
	if plans {
		if _, err := labPlans(cat, cfg.Plans); err != nil {
			key, msg, _ := strings.Cut(err.Error(), ": ")
			ps = append(ps, config.Problem{Key: key, Msg: msg, Source: cfg.Source(key)})
		}
	}
	return ps
}
