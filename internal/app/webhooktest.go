package app

import (
	"context"
	"errors"
	"fmt"
	"io"
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
// webhook called name, once, without retries (webhook.Try), and writes
// to w what happened: delivered and how long it took, or the platform's
// answer and its likely cause. It needs no store and starts nothing else.
func TestWebhook(ctx context.Context, cfg config.Config, name string, w io.Writer) error {
	for _, wc := range cfg.Webhooks {
		if wc.Name != name {
			continue
		}
		loc, _ := cfg.Location()
		l := i18n.Of(cfg.Chat.Language == "en")
		r := chat.Reply{Lines: []string{l.T("webhook.test", render.Clock{Loc: loc}.Minute(time.Now()))}, English: l.English()}
		shown, took, err := webhook.Try(ctx, wc.Kind, wc.URL, wc.Secret, r)
		if err != nil && shown == "" {
			return fmt.Errorf("webhook %s: %w", name, err) // its URL does not do
		}
		if err != nil {
			return fmt.Errorf("webhook %s (%s %s): not delivered after %s: %w; likely cause: %s", name, wc.Kind, shown, took, err, webhook.Hint(err))
		}
		_, err = fmt.Fprintf(w, "webhook %s (%s %s): delivered in %s; look for the test message in the group\n", name, wc.Kind, shown, took)
		return err
	}
	return fmt.Errorf("%w %q (%s)", ErrNoSuchWebhook, name, cfg.WebhookList())
}
