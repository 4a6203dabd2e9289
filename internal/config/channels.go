package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/i18n"
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
// drop to wechat.admin, a lab's digest; nil: it cannot).
type channelConf struct {
	name  string
	check func(r *report)
	env   []envString
	reach func(chatID string) error
}

// channels are the chat channels' lines.
func (c *Config) channels() []channelConf {
	f := &c.Feishu
	return []channelConf{
		{name: "feishu", check: c.validateFeishu, reach: c.feishuReach,
			env: []envString{{"FEISHU_APP_ID", "feishu.app_id", &f.AppID}, {"FEISHU_APP_SECRET", "feishu.app_secret", &f.AppSecret},
				{"FEISHU_VERIFICATION_TOKEN", "feishu.verification_token", &f.VerificationToken},
				{"FEISHU_ENCRYPT_KEY", "feishu.encrypt_key", &f.EncryptKey}, {"FEISHU_MODE", "feishu.mode", &f.Mode},
				{"FEISHU_BASE_URL", "feishu.base_url", &f.BaseURL}}},
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
func (c Config) validateChannels(r *report) {
	for _, l := range c.channels() {
		l.check(r)
	}
	c.validateWeChatAdmin(r)
}

// feishuReach: a Feishu chat needs the app.
func (c Config) feishuReach(string) error {
	if c.Feishu.AppID == "" {
		return errors.New("needs the Feishu app (FEISHU_APP_ID, feishu.app_id)")
	}
	return nil
}

// webhookReach: a webhook chat is a configured webhook's name.
func (c Config) webhookReach(name string) error {
	if !c.hasWebhook(name) {
		return fmt.Errorf("no webhook named %q (%s)", name, c.WebhookList())
	}
	return nil
}

// WebhookList says which webhooks are configured, for an error: "the
// webhooks are lab, ops" or that there are none.
func (c Config) WebhookList() string {
	if len(c.Webhooks) == 0 {
		return "no webhooks are configured: add one under webhooks"
	}
	names := make([]string, len(c.Webhooks))
	for i, w := range c.Webhooks {
		names[i] = w.Name
	}
	return "the webhooks are " + strings.Join(names, ", ")
}

// chatChannels are the channels a chat key may name: the channels' and
// the console's (the command line's own chat, "console/console").
func (c *Config) chatChannels() []string {
	out := []string{"console"}
	for _, l := range c.channels() {
		out = append(out, l.name)
	}
	return out
}

// CheckChatKey checks a chat key as storage.labs, alerts.quiet_hours and
// `bot ask --chat` take it: "<channel>/<chat id>" of a known channel, a
// webhook's by the name of a configured webhook.
func (c Config) CheckChatKey(key string) error {
	ch, id, ok := strings.Cut(key, "/")
	if !ok || ch == "" || id == "" {
		return fmt.Errorf("%q is not CHANNEL/CHAT_ID (e.g. feishu/oc_123, webhook/lab)", key)
	}
	if !slices.Contains(c.chatChannels(), ch) {
		return fmt.Errorf("%q: no channel %q (the channels are %s)", key, ch, strings.Join(c.chatChannels(), ", "))
	}
	if ch == "webhook" {
		if err := c.webhookReach(id); err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
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

// feishuCredentials are the Feishu app's settings that identify it, with
// their variables, in the order the app needs them.
func (c Config) feishuCredentials() []struct{ key, env, value string } {
	f := c.Feishu
	return []struct{ key, env, value string }{{"feishu.app_id", "FEISHU_APP_ID", f.AppID}, {"feishu.app_secret", "FEISHU_APP_SECRET", f.AppSecret},
		{"feishu.verification_token", "FEISHU_VERIFICATION_TOKEN", f.VerificationToken}, {"feishu.encrypt_key", "FEISHU_ENCRYPT_KEY", f.EncryptKey}}
}

// feishuWhere are the catalog's words on where each Feishu credential is
// found, naming the console's pages.
var feishuWhere = map[string]string{"feishu.app_id": "ops.feishu_where.app_id", "feishu.app_secret": "ops.feishu_where.app_secret",
	"feishu.verification_token": "ops.feishu_where.verification_token", "feishu.encrypt_key": "ops.feishu_where.encrypt_key"}

// feishuFix says where a Feishu credential is found.
func feishuFix(key string) string { return i18n.EN.T(feishuWhere[key]) }

// validateFeishu checks the Feishu app: off with none of its credentials,
// else all that its mode needs (a partial set is an error naming each
// missing variable, never a silently silent channel).
func (c Config) validateFeishu(r *report) {
	f := c.Feishu
	switch f.Mode {
	case "webhook", "websocket":
	default:
		r.add("feishu.mode", "%q is not webhook or websocket (FEISHU_MODE)", f.Mode)
	}
	var set []string
	for _, cr := range c.feishuCredentials() {
		if cr.value != "" {
			set = append(set, cr.env)
		}
	}
	if len(set) == 0 {
		return // Feishu off
	}
	needed := map[string]bool{"feishu.app_id": true, "feishu.app_secret": true}
	if f.Mode == "webhook" {
		needed["feishu.verification_token"] = true
		needed["feishu.encrypt_key"] = !f.AllowNoEncryptKey
	}
	for _, cr := range c.feishuCredentials() {
		if cr.value == "" && needed[cr.key] {
			why := "the Feishu app needs it"
			if cr.key == "feishu.verification_token" || cr.key == "feishu.encrypt_key" {
				why = "the HTTP callback (feishu.mode webhook) needs it"
			}
			verb := "is"
			if len(set) > 1 {
				verb = "are"
			}
			r.add(cr.key, "empty while %s %s set: %s. Set %s (%s), or unset the others to run without Feishu",
				strings.Join(set, ", "), verb, why, cr.env, feishuFix(cr.key))
		}
	}
	if f.AppID != "" && f.AppSecret != "" {
		if err := checkURL("feishu.base_url", f.BaseURL); err != nil {
			r.add("feishu.base_url", "%v (https://open.feishu.cn, or https://open.larksuite.com for Lark)", err)
		}
	}
}

// validateWebhooks checks the push-only webhooks: named once each, a known kind, a URL.
func (c Config) validateWebhooks(r *report) {
	seenHook := map[string]bool{}
	for i, w := range c.Webhooks {
		key := fmt.Sprintf("webhooks[%d]", i)
		switch {
		case w.Name == "":
			r.add(key+".name", "empty: name the webhook (chats reach it as webhook/<name>)")
		case seenHook[w.Name]:
			r.add(key+".name", "%q is used twice: give each webhook its own name", w.Name)
		}
		seenHook[w.Name] = true
		if w.Kind != "feishu" && w.Kind != "wecom" {
			r.add(key+".kind", "%q is not feishu (a Feishu custom bot) or wecom (a WeCom group robot)", w.Kind)
		}
		if err := checkURL(key+".url", w.URL); err != nil {
			r.add(key+".url", "not an http(s) URL (the robot's webhook address, e.g. https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…)")
		}
	}
}

// validateWeChat checks the WeChat groups and the QR code path.
func (c Config) validateWeChat(r *report) {
	for i, g := range c.WeChat.Groups {
		if strings.TrimSpace(g) == "" {
			r.add(fmt.Sprintf("wechat.groups[%d]", i), "empty group name (leave the list empty, or use \"*\", for all groups)")
		}
	}
	if c.WeChat.QRCodePNG != "" {
		if st, err := os.Stat(filepath.Dir(c.WeChat.QRCodePNG)); err != nil || !st.IsDir() {
			r.add("wechat.qr_code_png", "directory %s does not exist", filepath.Dir(c.WeChat.QRCodePNG))
		}
	}
}

// validateWeChatAdmin checks the chat WeChat notices go to.
func (c Config) validateWeChatAdmin(r *report) {
	a := c.WeChat.Admin
	if a == "" {
		return
	}
	ch, id, ok := strings.Cut(a, "/")
	if !ok || id == "" {
		r.add("wechat.admin", "%q is not <channel>/<chat id>, e.g. webhook/ops", a)
		return
	}
	for _, l := range c.channels() {
		if l.name == ch && l.reach != nil {
			if err := l.reach(id); err != nil {
				r.add("wechat.admin", "%q: %v", a, err)
			}
			return
		}
	}
	var names []string
	for _, l := range c.channels() {
		if l.reach != nil {
			names = append(names, l.name)
		}
	}
	r.add("wechat.admin", "channel %q cannot take notices (one of %s)", ch, strings.Join(names, ", "))
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
