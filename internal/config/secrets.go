package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/labgpu/bot/internal/stock/provider"
)

// SecretInFile is a secret the config file writes (not the environment):
// its key, the file's line, and the environment variable that could set
// it instead ("" when none can: a webhook's URL and signing secret).
type SecretInFile struct {
	Key  string
	Line int
	Env  string
}

// SecretsInFile lists the secrets whose values come from the config
// file: tokens, keys and secrets, a webhook's URL (it holds the robot's
// key) and a Redis URL with a password. Values the environment set are
// not listed.
func (c Config) SecretsInFile() []SecretInFile {
	if c.src == nil || c.src.file == "" {
		return nil
	}
	var root yaml.Node
	if err := root.Encode(c); err != nil {
		return nil
	}
	envs := c.secretEnv()
	var out []SecretInFile
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := n.Content[i].Value
				if path != "" {
					p = path + "." + p
				}
				walk(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, e := range n.Content {
				walk(e, fmt.Sprintf("%s[%d]", path, i))
			}
		case yaml.ScalarNode:
			if n.Value == "" || !isSecret(path, n.Value) || c.src.envOf(path) != "" {
				return
			}
			if line := c.src.lineOf(path); line > 0 {
				out = append(out, SecretInFile{Key: path, Line: line, Env: envs[path]})
			}
		}
	}
	walk(&root, "")
	slices.SortStableFunc(out, func(a, b SecretInFile) int { return a.Line - b.Line })
	return out
}

// isSecret reports whether key's value v is a secret.
func isSecret(key, v string) bool {
	last := key[strings.LastIndexByte(key, '.')+1:]
	switch {
	case secretKeys[last]:
		return true
	case key == "store.redis_url":
		u, err := url.Parse(v)
		if err != nil {
			return false
		}
		_, hasPassword := u.User.Password()
		return hasPassword
	case strings.HasPrefix(key, "webhooks[") && last == "url":
		return true
	}
	return false
}

// secretEnv maps each key an environment variable can set to it.
func (c *Config) secretEnv() map[string]string {
	m := map[string]string{"store.redis_url": "REDIS_URL"}
	for _, e := range append(c.stringEnv(), c.channelEnv()...) {
		m[e.key] = e.name
	}
	for _, s := range provider.Registry() {
		for _, k := range s.Keys {
			if k.Env != "" {
				m["stock.providers."+s.Name+"."+k.Name] = k.Env
			}
		}
	}
	return m
}

// lineOf is the file line that wrote key, or the nearest key above it
// (a flow mapping); 0 when the file did not.
func (s *sources) lineOf(key string) int {
	for k := key; k != ""; k = parentKey(k) {
		if n, ok := s.lines[k]; ok {
			return n
		}
	}
	return 0
}
