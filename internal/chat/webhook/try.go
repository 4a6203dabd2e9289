package webhook

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// Try posts r once, without retries, to the webhook of kind ("feishu": a
// Feishu custom bot with its signing secret, if any; "wecom": a WeCom
// group robot) at url (`bot webhook test`). It returns the webhook as it
// may be shown (its key masked) and how long the post took; a failure's
// likely cause is Hint's.
func Try(ctx context.Context, kind, url, secret string, r chat.Reply) (shown string, took time.Duration, err error) {
	var hook interface {
		SendWith(context.Context, chat.Reply, chat.SendOptions) error
		String() string
	}
	if kind == "feishu" {
		hook, err = NewFeishuBot(url, secret, WithRetry(1, 0))
	} else {
		hook, err = NewWeCom(url, WithRetry(1, 0))
	}
	if err != nil {
		return "", 0, err
	}
	start := time.Now()
	err = hook.SendWith(ctx, r, chat.SendOptions{})
	return hook.String(), time.Since(start).Round(time.Millisecond), err
}

// Hint is the likely cause of a failed post, and what to do, from the
// platform's answer (English, for whoever runs the bot).
func Hint(err error) string {
	var ae *APIError
	key := "ops.webhook_hint.other"
	switch {
	case !errors.As(err, &ae):
		key = "ops.webhook_hint.network"
	case ae.Platform == "wecom" && ae.Code == WeComCodeInvalidURL:
		key = "ops.webhook_hint.wecom_key"
	case ae.Platform == "feishu" && ae.Code == FeishuCodeSignMismatch:
		key = "ops.webhook_hint.feishu_sign"
	case ae.Platform == "feishu" && ae.Code == FeishuCodeIPNotAllowed:
		key = "ops.webhook_hint.feishu_ip"
	case ae.Platform == "feishu" && ae.Code == FeishuCodeKeywordMissing:
		key = "ops.webhook_hint.feishu_keyword"
	case ae.Code == WeComCodeRateLimited || ae.Code == FeishuCodeRateLimited || ae.HTTPStatus == http.StatusTooManyRequests:
		key = "ops.webhook_hint.rate_limited"
	case ae.HTTPStatus == http.StatusNotFound:
		key = "ops.webhook_hint.not_found"
	case ae.HTTPStatus >= 500:
		key = "ops.webhook_hint.server"
	}
	return i18n.EN.T(key)
}
