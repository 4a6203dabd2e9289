package config

import (
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/stock/provider"
	"github.com/labgpu/bot/internal/strictyaml"
)

// ProvidersConf are the stock providers' blocks (stock.providers) by
// provider name: the registry's (provider.Registry: catalog, autodl,
// vastai, gpushare, matpool, runpod, lambda, replay). A provider without
// a block has its defaults.
type ProvidersConf map[string]*ProviderConf

// ProviderConf is one provider's block: enabled and the keys its
// registry line names (provider.Stock.AllKeys; a key of another provider
// is refused). Credentials should come from the environment variables
// the registry names (AUTODL_TOKEN, …).
type ProviderConf struct {
	// Enabled switches it on or off; unset, the registry line's Switch
	// decides.
	Enabled *bool `yaml:"enabled"`
	// BaseURL (empty: the provider's default) and Timeout (zero: the
	// provider's default, 10s) of a platform's API.
	BaseURL string   `yaml:"base_url"`
	Timeout Duration `yaml:"timeout"`
	// Token or API key (AUTODL_TOKEN, GPUSHARE_TOKEN, MATPOOL_TOKEN,
	// RUNPOD_API_KEY, LAMBDA_API_KEY); APIKey is vast.ai's optional key
	// (VASTAI_API_KEY); UserID 矩池云's (MATPOOL_USER_ID).
	Token  string `yaml:"token"`
	APIKey string `yaml:"api_key"`
	UserID string `yaml:"user_id"`
	// Regions are AutoDL's region signs (ESD: westDC2, beijingDC1, …;
	// with MachineList web signs); empty: the global stock endpoint.
	Regions []string `yaml:"regions"`
	// MachineList reads AutoDL's web console machine list (prices per
	// machine; an undocumented API) instead of the stock endpoints.
	MachineList bool `yaml:"machine_list"`
	// GPUs limit vast.ai's search to these names (empty: all); Limit is
	// the offers it asks for (0: 100).
	GPUs  []string `yaml:"gpus"`
	Limit int      `yaml:"limit"`
	// Dir holds the replay's recordings, named by platform prefix
	// (autodl-*.json, vastai-*.json, …; BOT_REPLAY_DIR).
	Dir string `yaml:"dir"`

	// keys are the keys the file wrote, with their lines.
	keys map[string]int
}

// UnmarshalYAML decodes a block and remembers which keys it wrote, so
// that validation refuses a key its provider does not take.
func (p *ProviderConf) UnmarshalYAML(n *strictyaml.Node) error {
	if n.Kind != strictyaml.MappingNode {
		return strictyaml.Invalid(n, "a provider's settings are a mapping of keys (enabled, base_url, …)")
	}
	type plain ProviderConf
	var v plain
	if err := n.Decode(&v); err != nil {
		return err
	}
	v.keys = map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		v.keys[n.Content[i].Value] = n.Content[i].Line
	}
	*p = ProviderConf(v)
	return nil
}

// Of is name's block, made empty when the config has none.
func (ps ProvidersConf) Of(name string) *ProviderConf {
	if p := ps[name]; p != nil {
		return p
	}
	p := &ProviderConf{}
	ps[name] = p
	return p
}

// text is the string setting of key (nil for a key that is no string).
func (p *ProviderConf) text(key string) *string {
	switch key {
	case "base_url":
		return &p.BaseURL
	case "token":
		return &p.Token
	case "api_key":
		return &p.APIKey
	case "user_id":
		return &p.UserID
	case "dir":
		return &p.Dir
	}
	return nil
}

// needed reports whether every key s cannot fetch without is set.
func (p *ProviderConf) needed(s provider.Stock) bool {
	for _, k := range s.Keys {
		if t := p.text(k.Name); k.Needed && (t == nil || strings.TrimSpace(*t) == "") {
			return false
		}
	}
	return true
}

// applyEnv sets the keys the registry reads from the environment,
// recording the variables in src.
func (ps ProvidersConf) applyEnv(env Env, src *sources) {
	for _, s := range provider.Registry() {
		for _, k := range s.Keys {
			if k.Env == "" {
				continue
			}
			if v, ok := env(k.Env); ok && v != "" {
				if t := ps.Of(s.Name).text(k.Name); t != nil {
					*t = v
					src.setBy("stock.providers."+s.Name+"."+k.Name, k.Env)
				}
			}
		}
	}
}

// Runs reports whether the provider of line s runs and whether it is live
// (provider.Stock.Runs) by its block.
func (ps ProvidersConf) Runs(s provider.Stock) (runs, live bool) {
	p := ps[s.Name]
	if p == nil {
		p = &ProviderConf{}
	}
	return s.Runs(p.Enabled, p.needed(s))
}

// Live reports whether any provider besides the catalog's list prices
// runs set up, so polling has something to watch.
func (ps ProvidersConf) Live() bool {
	for _, s := range provider.Registry() {
		if _, live := ps.Runs(s); live {
			return true
		}
	}
	return false
}

// validate checks each block: a provider of the registry, only its keys,
// a base URL, a timeout that parses and is not negative, a limit.
func (ps ProvidersConf) validate(r *report) {
	for _, name := range sortedKeys(ps) {
		key := "stock.providers." + name
		s, ok := provider.Lookup(name)
		if !ok {
			var known []string
			for _, reg := range provider.Registry() {
				known = append(known, reg.Name)
				if reg.PlatformID() == name {
					// The catalog's platform id is not the block's name
					// (恒源云: platform hengyuan, provider gpushare).
					r.add(key, "no such provider: %q is the platform's id in the catalog; its provider block is stock.providers.%s", name, reg.Name)
					known = nil
					break
				}
			}
			if known != nil {
				r.add(key, "no such provider (the providers are %s)", strings.Join(known, ", "))
			}
			continue
		}
		ps[name].validate(r, key, s)
	}
}

func (p *ProviderConf) validate(r *report, key string, s provider.Stock) {
	allowed := s.AllKeys()
	for _, k := range sortedKeys(p.keys) {
		if !slices.Contains(allowed, k) {
			r.add(key+"."+k, "%s has no such setting (it takes %s)", s.Name, strings.Join(allowed, ", "))
		}
	}
	if p.Timeout.check(r, key+".timeout") && p.Timeout.D() < 0 {
		r.add(key+".timeout", "%v is negative: write a duration of 0s or more, e.g. 10s (0s: the provider's default)", p.Timeout.D())
	}
	if p.BaseURL != "" {
		if err := checkURL(key+".base_url", p.BaseURL); err != nil {
			r.add(key+".base_url", "%v (empty for the platform's own)", err)
		}
	}
	if p.Limit < 0 || p.Limit > 1000 {
		r.add(key+".limit", "%d is outside 1-1000 (0: 100)", p.Limit)
	}
}
