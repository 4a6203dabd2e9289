package config

import (
	"fmt"
	"slices"
	"sort"
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
		return fmt.Errorf("line %d: a provider's settings are a mapping of keys", n.Line)
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

// applyEnv sets the keys the registry reads from the environment.
func (ps ProvidersConf) applyEnv(env Env) {
	for _, s := range provider.Registry() {
		for _, k := range s.Keys {
			if k.Env == "" {
				continue
			}
			if v, ok := env(k.Env); ok && v != "" {
				if t := ps.Of(s.Name).text(k.Name); t != nil {
					*t = v
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
func (ps ProvidersConf) validate() error {
	names := make([]string, 0, len(ps))
	for name := range ps {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		key := "stock.providers." + name
		s, ok := provider.Lookup(name)
		if !ok {
			var known []string
			for _, r := range provider.Registry() {
				known = append(known, r.Name)
			}
			return fmt.Errorf("%s: no such provider (the providers are %s)", key, strings.Join(known, ", "))
		}
		if err := ps[name].validate(key, s); err != nil {
			return err
		}
	}
	return nil
}

func (p *ProviderConf) validate(key string, s provider.Stock) error {
	allowed := s.AllKeys()
	written := make([]string, 0, len(p.keys))
	for k := range p.keys {
		written = append(written, k)
	}
	sort.Strings(written)
	for _, k := range written {
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("%s.%s: %s has no such setting (line %d; it takes %s)", key, k, s.Name, p.keys[k], strings.Join(allowed, ", "))
		}
	}
	if err := p.Timeout.check(key + ".timeout"); err != nil {
		return err
	}
	if p.Timeout.D() < 0 {
		return fmt.Errorf("%s.timeout: must not be negative", key)
	}
	if p.BaseURL != "" {
		if err := checkURL(key+".base_url", p.BaseURL); err != nil {
			return err
		}
	}
	if p.Limit < 0 || p.Limit > 1000 {
		return fmt.Errorf("%s.limit: %d is outside 1-1000", key, p.Limit)
	}
	return nil
}
