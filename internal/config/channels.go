package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ChannelsConf are the chat channels' blocks, each a top-level key of the
// file. A new channel is its block here and its line in channels (and
// its line in the app's channel registry).
type ChannelsConf struct {
	Feishu   FeishuConf    `yaml:"feishu"`
	Webhooks []WebhookConf `yaml:"webhooks"`
	WeChat   WeChatConf    `yaml:"wechat"`
}

// channelConf is one channel's line: its name in chat keys, the check of
// its block, the environment variables that set its strings, and whether
// one of its chats can be told things from another channel (a WeChat
// drop to wechat.admin; nil: it cannot).
type channelConf struct {
	name  string
	check func() error
	env   []envString
	reach func(chatID string) error
}

// channels are the chat channels' lines.
func (c *Config) channels() []channelConf {
	f := &c.Feishu
	return []channelConf{
		{name: "feishu", check: c.validateFeishu, reach: c.feishuReach,
			env: []envString{{"FEISHU_APP_ID", &f.AppID}, {"FEISHU_APP_SECRET", &f.AppSecret}, {"FEISHU_VERIFICATION_TOKEN", &f.VerificationToken},
				{"FEISHU_ENCRYPT_KEY", &f.EncryptKey}, {"FEISHU_MODE", &f.Mode}, {"FEISHU_BASE_URL", &f.BaseURL}}},
		{name: "webhook", check: c.validateWebhooks, reach: c.webhookReach},
		{name: "wechat", check: c.validateWeChat}, // WECHAT_ENABLED: Load
	}
}

// channelEnv are the channels' string variables.
func (c *Config) channelEnv() []envString {
	var out []envString
	for _, l := range c.channels() {
		out = append(out, l.env...)
	}
	return out
}

// validateChannels checks every channel's block, then wechat.admin.
func (c Config) validateChannels() error {
	for _, l := range c.channels() {
		if err := l.check(); err != nil {
			return err
		}
	}
	return c.validateWeChatAdmin()
}

// feishuReach: a Feishu chat needs the app.
func (c Config) feishuReach(string) error {
	if c.Feishu.AppID == "" {
		return errors.New("needs the Feishu app (feishu.app_id)")
	}
	return nil
}

// webhookReach: a webhook chat is a configured webhook's name.
func (c Config) webhookReach(name string) error {
	if !c.hasWebhook(name) {
		return fmt.Errorf("no webhook named %q", name)
	}
	return nil
}

// FeishuConf is the Feishu (Lark) app. It runs when an app id is set.
type FeishuConf struct {
	// AppID and AppSecret (FEISHU_APP_ID, FEISHU_APP_SECRET).
	AppID     string `yaml:"app_id"`
	AppSecret string `yaml:"app_secret"`
	// VerificationToken and EncryptKey from the app's event settings
	// (FEISHU_VERIFICATION_TOKEN, FEISHU_ENCRYPT_KEY).
	VerificationToken string `yaml:"verification_token"`
	EncryptKey        string `yaml:"encrypt_key"`
	// AllowNoEncryptKey lets the HTTP callback run without an Encrypt Key
	// (then requests are not signed; not recommended).
	AllowNoEncryptKey bool `yaml:"allow_no_encrypt_key"`
	// Mode is "webhook" (HTTP callback at /feishu/events; needs a public
	// URL) or "websocket" (long connection; works behind NAT)
	// (FEISHU_MODE; default websocket).
	Mode string `yaml:"mode"`
	// BaseURL is the open platform (FEISHU_BASE_URL; default
	// https://open.feishu.cn; https://open.larksuite.com for Lark).
	BaseURL string `yaml:"base_url"`
}

// WebhookConf is a push-only chat: a Feishu custom bot or a WeCom group
// robot. Alerts of subscriptions made for chat "webhook/<name>" (bot ask
// --chat webhook/<name>) go to it.
type WebhookConf struct {
	Name string `yaml:"name"`
	// Kind is "feishu" or "wecom".
	Kind string `yaml:"kind"`
	// URL is the webhook address (it contains the key: keep it secret).
	URL string `yaml:"url"`
	// Secret is the Feishu custom bot's signing secret (optional).
	Secret string `yaml:"secret"`
}

// WeChatConf is the personal-WeChat channel (openwechat, Desktop mode).
// It is best effort: see the README's WeChat section for the ban risk.
type WeChatConf struct {
	// Enabled starts the channel in `bot serve` (WECHAT_ENABLED=true).
	Enabled bool `yaml:"enabled"`
	// Groups is the allow-list of group names the bot answers in; empty or
	// ["*"] allows every group. Private messages from friends are answered.
	Groups []string `yaml:"groups"`
	// QRCodePNG is where the login QR code is saved when a scan is needed
	// (default <data_dir>/wechat-qr.png).
	QRCodePNG string `yaml:"qr_code_png"`
	// Admin is the chat told when the WeChat session drops (and about
	// friends who write privately without a remark name of their own), as
	// "<channel>/<chat id>": "webhook/<name>" (a configured webhook) or
	// "feishu/<chat_id>". Empty: the drop is only logged.
	Admin string `yaml:"admin"`
}

// validateFeishu checks the Feishu app.
func (c Config) validateFeishu() error {
	switch c.Feishu.Mode {
	case "webhook", "websocket":
	default:
		return fmt.Errorf("feishu.mode: %q is not webhook or websocket", c.Feishu.Mode)
	}
	if c.Feishu.AppID != "" {
		if c.Feishu.AppSecret == "" {
			return errors.New("feishu.app_secret: empty (set FEISHU_APP_SECRET)")
		}
		if err := checkURL("feishu.base_url", c.Feishu.BaseURL); err != nil {
			return err
		}
		if c.Feishu.Mode == "webhook" && c.Feishu.EncryptKey == "" && !c.Feishu.AllowNoEncryptKey {
			return errors.New("feishu.encrypt_key: the HTTP callback needs an Encrypt Key (FEISHU_ENCRYPT_KEY); set feishu.allow_no_encrypt_key: true to run without one")
		}
		if c.Feishu.Mode == "webhook" && c.Feishu.VerificationToken == "" {
			return errors.New("feishu.verification_token: empty (set FEISHU_VERIFICATION_TOKEN)")
		}
	}
	return nil
}

// validateWebhooks checks the push-only webhooks: named once each, a known kind, a URL.
func (c Config) validateWebhooks() error {
	seenHook := map[string]bool{}
	for i, w := range c.Webhooks {
		key := fmt.Sprintf("webhooks[%d]", i)
		if w.Name == "" || seenHook[w.Name] {
			return fmt.Errorf("%s.name: empty or repeated", key)
		}
		seenHook[w.Name] = true
		if w.Kind != "feishu" && w.Kind != "wecom" {
			return fmt.Errorf("%s.kind: %q is not feishu or wecom", key, w.Kind)
		}
		if err := checkURL(key+".url", w.URL); err != nil {
			return fmt.Errorf("%s.url: not an http(s) URL", key)
		}
	}
	return nil
}

// validateWeChat checks the WeChat groups and the QR code path.
func (c Config) validateWeChat() error {
	for i, g := range c.WeChat.Groups {
		if strings.TrimSpace(g) == "" {
			return fmt.Errorf("wechat.groups[%d]: empty group name (leave the list empty, or use \"*\", for all groups)", i)
		}
	}
	if c.WeChat.QRCodePNG != "" {
		if st, err := os.Stat(filepath.Dir(c.WeChat.QRCodePNG)); err != nil || !st.IsDir() {
			return fmt.Errorf("wechat.qr_code_png: directory %s does not exist", filepath.Dir(c.WeChat.QRCodePNG))
		}
	}
	return nil
}

// validateWeChatAdmin checks the chat WeChat notices go to.
func (c Config) validateWeChatAdmin() error {
	if a := c.WeChat.Admin; a != "" {
		ch, id, ok := strings.Cut(a, "/")
		switch {
		case !ok || id == "":
			return fmt.Errorf("wechat.admin: %q is not <channel>/<chat id>, e.g. webhook/ops", a)
		}
		for _, l := range c.channels() {
			if l.name == ch && l.reach != nil {
				if err := l.reach(id); err != nil {
					return fmt.Errorf("wechat.admin: %q: %w", a, err)
				}
				return nil
			}
		}
		var names []string
		for _, l := range c.channels() {
			if l.reach != nil {
				names = append(names, l.name)
			}
		}
		return fmt.Errorf("wechat.admin: channel %q cannot take notices (one of %s)", ch, strings.Join(names, ", "))
	}
	return nil
}

// hasWebhook reports whether a webhook of that name is configured.
func (c Config) hasWebhook(name string) bool {
	for _, w := range c.Webhooks {
		if w.Name == name {
			return true
		}
	}
	return false
}
