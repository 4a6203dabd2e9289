package config

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/labgpu/bot/internal/catalog"
)

// MarshalYAML writes a duration as the config takes it ("30m", "1h30m";
// "0s" for none), or a value that did not parse as it was written.
func (d Duration) MarshalYAML() (any, error) {
	if d.bad != "" {
		return d.bad, nil
	}
	return shortDuration(d.d), nil
}

// shortDuration is d without its zero units: "30m", "1h30m", "0s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Masked is what Effective shows for a secret that is set.
const Masked = "***"

// Effective is the configuration in effect, as the YAML file would write
// it: every key with its value (defaults included), secrets masked
// (tokens, keys and secrets as "***", a webhook's URL, which holds its
// key, down to its host, a Redis URL without its password), and a
// comment after each value saying where it came from: the environment
// ("# env FEISHU_APP_ID"), the file ("# bot.yaml:12") or the built-in
// default ("# default").
func (c Config) Effective() (string, error) {
	var root yaml.Node
	if err := root.Encode(c); err != nil {
		return "", fmt.Errorf("config: %w", err)
	}
	c.annotate(&root, "")
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return "", fmt.Errorf("config: %w", err)
	}
	_ = enc.Close()
	return b.String(), nil
}

// annotate masks the secrets under n (at path) and marks where each value
// came from.
func (c Config) annotate(n *yaml.Node, path string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			if v.Kind == yaml.ScalarNode {
				v.Value = maskSecret(p, v.Value)
				if v.Value == Masked || strings.HasSuffix(v.Value, "/"+Masked) {
					v.Style = 0
				}
				k.LineComment = c.sourceComment(p)
				if k.LineComment == "" {
					k.LineComment = defaultComment
				}
				if strings.HasPrefix(p, "stock.providers.") && strings.HasSuffix(p, ".enabled") && v.Value == "null" {
					k.LineComment += ": null means on when its credentials are set (vastai: only with enabled: true)"
				}
				if m, ok := zeroMeans[p]; ok && (v.Value == "" || v.Value == "0" || v.Value == "0s") {
					k.LineComment += ": " + v.Value + " means " + m
					if v.Value == "" {
						k.LineComment = strings.Replace(k.LineComment, ":  means", `: "" means`, 1)
					}
				}
				continue
			}
			cm := c.sourceComment(p)
			switch {
			case len(v.Content) == 0:
				// An empty list or map (written "[]", "{}"): nothing
				// below says where it came from, and the comment goes
				// after the value to be written at all.
				if cm == "" {
					cm = defaultComment
				}
				v.LineComment = cm
			case cm != "":
				k.LineComment = cm
			case v.Kind == yaml.SequenceNode:
				// A list's items carry no comment of their own.
				k.LineComment = defaultComment
			}
			c.annotate(v, p)
		}
	case yaml.SequenceNode:
		for i, e := range n.Content {
			c.annotate(e, fmt.Sprintf("%s[%d]", path, i))
		}
	}
}

// sourceComment says where key's value came from, as a comment: "env
// FEISHU_APP_ID", "bot.yaml:12" (the file as named), "" when neither set
// it (a default).
func (c Config) sourceComment(key string) string {
	if c.src == nil {
		return ""
	}
	if v := c.src.envOf(key); v != "" {
		return "env " + v
	}
	if n, ok := c.src.lines[key]; ok {
		file := c.src.file
		if file == "" {
			file = "line "
		} else {
			file += ":"
		}
		return fmt.Sprintf("%s%d", file, n)
	}
	return ""
}

// defaultComment marks a value no file line or variable set.
const defaultComment = "default"

// zeroMeans says what an empty or zero value of a key stands for, so the
// effective settings show the value in effect, not only "0".
var zeroMeans = map[string]string{
	"catalog.dir":                     "the built-in catalog",
	"catalog.fx_usd_cny":              "the catalog's USD→CNY rate",
	"stock.list_price_max_age_months": fmt.Sprintf("%d months", catalog.DefaultListPriceMaxAgeMonths),
	"stock.poll.timezone":             "the top-level timezone",
	"stock.poll.lock_ttl":             "the poll interval, at least 30s",
	"http.ready_provider_age":         "three poll intervals, at least 10m",
	"admin.token":                     "no admin listener (one-shot commands cannot reach a running bot's embedded store)",
	"wechat.qr_code_png":              "<data_dir>/wechat-qr.png",
	"feishu.verification_token":       "none (the websocket mode needs none; the webhook mode requires it)",
	"feishu.encrypt_key":              "none (the websocket mode needs none; the webhook mode requires it unless allow_no_encrypt_key)",
}

// secretKeys are the last parts of the keys whose values are secrets.
var secretKeys = map[string]bool{"app_secret": true, "verification_token": true, "encrypt_key": true, "secret": true, "token": true, "api_key": true}

// maskSecret is the value of key as Effective shows it.
func maskSecret(key, v string) string {
	if v == "" {
		return v
	}
	last := key[strings.LastIndexByte(key, '.')+1:]
	switch {
	case secretKeys[last]:
		return Masked
	case key == "store.redis_url":
		return RedactURL(v)
	case strings.HasPrefix(key, "webhooks[") && last == "url":
		// The URL holds the robot's key (WeCom) or hook id (Feishu).
		if u, err := url.Parse(v); err == nil && u.Host != "" {
			return u.Scheme + "://" + u.Host + "/" + Masked
		}
		return Masked
	}
	return v
}
