package webhook

import (
	"context"
	"fmt"

	"github.com/labgpu/bot/internal/chat"
)

// Sender is one push-only webhook (a Feishu custom bot or a WeCom group
// robot).
type Sender interface {
	SendWith(ctx context.Context, r chat.Reply, o chat.SendOptions) error
}

// Set is the configured webhooks by name, as one chat.Channel named
// "webhook": a chat id is a webhook's name ("webhook/lab").
type Set map[string]Sender

// Name is "webhook".
func (Set) Name() string { return "webhook" }

// Send posts r to the webhook named name. The platforms have no
// idempotency keys; o's key still keeps the webhook's outbox from posting
// a part twice.
func (s Set) Send(ctx context.Context, name string, r chat.Reply, o chat.SendOptions) error {
	h, ok := s[name]
	if !ok {
		return fmt.Errorf("webhook %q is not configured", name)
	}
	return h.SendWith(ctx, r, o)
}

var _ chat.Channel = Set(nil)

// Run waits for ctx: push-only webhooks receive nothing (chat.Channel).
func (Set) Run(ctx context.Context) error {
	<-ctx.Done()
	return nil
}
