package provider

import (
	"slices"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/autodl"
	"github.com/labgpu/bot/internal/stock/provider/gpushare"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/lambda"
	"github.com/labgpu/bot/internal/stock/provider/matpool"
	"github.com/labgpu/bot/internal/stock/provider/runpod"
	"github.com/labgpu/bot/internal/stock/provider/vastai"
)

// Platforms are the platforms' APIs, one line each: its name (its block
// stock.providers.<name> in the config and the prefix of its recordings'
// file names, <name>-*.json), its catalog platform id when that differs,
// when it runs, the keys of its block besides enabled, base_url and
// timeout (with the environment variables that set them), the kinds of
// its recordings and its constructor. A new platform is its package (New,
// Build, Recordings, Parse…) and a line here: the config, the app, the
// poll and the replay read this list.
var Platforms = []Stock{
	{Name: "autodl", Keys: []Key{Need("token", autodl.TokenEnv), Set("regions"), Set("machine_list")}, Replay: autodl.Recordings, New: autodl.Build},
	{Name: "vastai", Switch: OptIn, Keys: []Key{Env("api_key", vastai.APIKeyEnv), Set("gpus"), Set("limit")}, Replay: vastai.Recordings, New: vastai.Build},
	{Name: "gpushare", Platform: gpushare.Platform, Keys: []Key{Need("token", gpushare.TokenEnv)}, Replay: gpushare.Recordings, New: gpushare.Build},
	{Name: "matpool", Keys: []Key{Need("token", matpool.TokenEnv), Need("user_id", matpool.UserIDEnv)}, Replay: matpool.Recordings, New: matpool.Build},
	{Name: "runpod", Keys: []Key{Need("token", runpod.APIKeyEnv)}, Replay: runpod.Recordings, New: runpod.Build},
	{Name: "lambda", Keys: []Key{Need("token", lambda.APIKeyEnv)}, Replay: lambda.Recordings, New: lambda.Build},
}

// The providers that are no platform's API: the catalog's list prices
// (on unless switched off, never live) and the replay of a directory of
// recordings (on when its directory is set).
var (
	listPrices = Stock{Name: "catalog", Local: true, Offline: true, New: buildCatalog}
	replayed   = Stock{Name: "replay", Local: true, Switch: WhenSet, Keys: []Key{Need("dir", "BOT_REPLAY_DIR")}, New: buildReplay}
)

// Registry is every stock provider in the order the board lists them:
// the list prices, the platforms, the replay.
func Registry() []Stock { return slices.Concat([]Stock{listPrices}, Platforms, []Stock{replayed}) }

// Lookup is the registry line of name.
func Lookup(name string) (Stock, bool) {
	for _, s := range Registry() {
		if s.Name == name {
			return s, true
		}
	}
	return Stock{}, false
}

// Stock is one stock provider's registry line.
type Stock struct {
	// Name is its block in the config (stock.providers.<name>) and, for
	// a platform, the prefix of its recordings' file names.
	Name string
	// Platform is the catalog platform id of its offers; "" for Name.
	Platform string
	// Switch is when it runs.
	Switch Switch
	// Keys are its block's keys besides enabled (and, unless Local,
	// base_url and timeout).
	Keys []Key
	// Local: it calls no API (no base_url, no timeout).
	Local bool
	// Offline: its offers are never live, so polling has nothing to
	// watch in it (the list prices).
	Offline bool
	// Replay are the kinds of its recordings, most specific prefix
	// first.
	Replay []httpx.Recording
	// New builds it.
	New func(c *catalog.Catalog, s httpx.Settings) stock.Provider
}

// Key is one key of a provider's block.
type Key struct {
	// Name is the key ("token").
	Name string
	// Env is the environment variable that sets it ("AUTODL_TOKEN"); ""
	// for none.
	Env string
	// Needed: the provider cannot fetch without it (a credential).
	Needed bool
}

// Need is a key the provider cannot fetch without, set by env.
func Need(name, env string) Key { return Key{Name: name, Env: env, Needed: true} }

// Env is an optional key that env sets too.
func Env(name, env string) Key { return Key{Name: name, Env: env} }

// Set is an optional key of the config file only.
func Set(name string) Key { return Key{Name: name} }

// Switch is when a provider runs.
type Switch int

const (
	// OnUnlessOff runs unless its block says enabled: false (without its
	// credentials it reports "not configured").
	OnUnlessOff Switch = iota
	// OptIn runs only when its block says enabled: true.
	OptIn
	// WhenSet runs when its needed keys are set, unless enabled: false.
	WhenSet
)

// PlatformID is the catalog platform id of its offers.
func (s Stock) PlatformID() string {
	if s.Platform != "" {
		return s.Platform
	}
	return s.Name
}

// Keys are every key its block may hold: enabled, base_url and timeout
// (unless Local), then its own.
func (s Stock) AllKeys() []string {
	keys := []string{"enabled"}
	if !s.Local {
		keys = append(keys, "base_url", "timeout")
	}
	for _, k := range s.Keys {
		keys = append(keys, k.Name)
	}
	return keys
}

// Runs reports whether the provider runs, given its block's enabled
// (nil: not written) and whether every needed key is set, and whether it
// is live: running, not Offline, and either set up or explicitly enabled
// (polling then has something to watch).
func (s Stock) Runs(enabled *bool, needed bool) (runs, live bool) {
	switch {
	case enabled != nil:
		runs = *enabled
	case s.Switch == OptIn:
		runs = false
	case s.Switch == WhenSet:
		runs = needed
	default:
		runs = true
	}
	live = runs && !s.Offline && (needed || enabled != nil && *enabled)
	return runs, live
}

func buildCatalog(c *catalog.Catalog, s httpx.Settings) stock.Provider {
	return NewCatalog(c, CatalogOptions{MaxAgeMonths: s.ListPriceMaxAgeMonths, Now: s.Now})
}

func buildReplay(c *catalog.Catalog, s httpx.Settings) stock.Provider {
	return NewReplay(c, s.Dir, s.FXUSDCNY, s.Log)
}
