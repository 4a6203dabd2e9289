package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/webhook"
	"github.com/labgpu/bot/internal/config"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// ErrNoSuchWebhook is TestWebhook's error for a name no webhook has.
var ErrNoSuchWebhook = errors.New("no such webhook")

// TestWebhook posts a short test message (in chat.language) to the
// webhook called name, once, without retries, and writes to w what
// happened: delivered and how long it took, or the platform's answer and
// its likely cause. It needs no store and starts nothing else.
func TestWebhook(ctx context.Context, cfg config.Config, name string, w io.Writer) error {
	var wc *config.WebhookConf
	for i := range cfg.Webhooks {
		if cfg.Webhooks[i].Name == name {
			wc = &cfg.Webhooks[i]
		}
	}
	if wc == nil {
		return fmt.Errorf("%w %q (%s)", ErrNoSuchWebhook, name, webhookList(cfg))
	}
	opts := []webhook.Option{webhook.WithRetry(1, 0), webhook.WithChartPNG(chartPNG)}
	var hook interface {
		SendWith(context.Context, chat.Reply, chat.SendOptions) error
		String() string
	}
	var err error
	if wc.Kind == "feishu" {
		hook, err = webhook.NewFeishuBot(wc.URL, wc.Secret, opts...)
	} else {
		hook, err = webhook.NewWeCom(wc.URL, opts...)
	}
	if err != nil {
		return fmt.Errorf("webhook %s: %w", name, err)
	}
	loc, _ := cfg.Location()
	l := i18n.Of(cfg.Chat.Language == "en")
	r := chat.Reply{Lines: []string{l.T("webhook.test", render.Clock{Loc: loc}.Minute(time.Now()))}, English: l.English()}
	start := time.Now()
	err = hook.SendWith(ctx, r, chat.SendOptions{})
	took := time.Since(start).Round(time.Millisecond)
	if err != nil {
		return fmt.Errorf("webhook %s (%s %s): not delivered after %s: %w; %s", name, wc.Kind, hook, took, err, webhookHint(err))
	}
	fmt.Fprintf(w, "webhook %s (%s %s): delivered in %s; look for the test message in the group\n", name, wc.Kind, hook, took)
	return nil
}

// webhookList names the configured webhooks, for an error.
func webhookList(cfg config.Config) string {
	if len(cfg.Webhooks) == 0 {
		return "no webhooks are configured: add one under webhooks in the config"
	}
	names := make([]string, len(cfg.Webhooks))
	for i, w := range cfg.Webhooks {
		names[i] = w.Name
	}
	return "the webhooks are " + strings.Join(names, ", ")
}

// webhookHint is the likely cause of a failed post, and what to do.
func webhookHint(err error) string {
	var ae *webhook.APIError
	key := "ops.webhook_hint.other"
	switch {
	case !errors.As(err, &ae):
		key = "ops.webhook_hint.network"
	case ae.Platform == "wecom" && ae.Code == 93000:
		key = "ops.webhook_hint.wecom_key"
	case ae.Platform == "feishu" && ae.Code == webhook.FeishuCodeSignMismatch:
		key = "ops.webhook_hint.feishu_sign"
	case ae.Platform == "feishu" && ae.Code == webhook.FeishuCodeIPNotAllowed:
		key = "ops.webhook_hint.feishu_ip"
	case ae.Platform == "feishu" && ae.Code == webhook.FeishuCodeKeywordMissing:
		key = "ops.webhook_hint.feishu_keyword"
	case ae.Code == webhook.WeComCodeRateLimited || ae.Code == webhook.FeishuCodeRateLimited || ae.HTTPStatus == http.StatusTooManyRequests:
		key = "ops.webhook_hint.rate_limited"
	case ae.HTTPStatus == http.StatusNotFound:
		key = "ops.webhook_hint.not_found"
	case ae.HTTPStatus >= 500:
		key = "ops.webhook_hint.server"
	}
	return i18n.EN.T(key)
}
