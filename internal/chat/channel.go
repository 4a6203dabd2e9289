package chat

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Handler answers a message (commands.Router implements it). Every channel
// hands its messages to one.
type Handler interface {
	Handle(ctx context.Context, msg Message) Reply
}

// SendOptions tune one Channel.Send.
type SendOptions struct {
	// ReplyTo is the message being answered (Feishu message_id), if any.
	ReplyTo string
	// IdempotencyKey makes a retried send deliver once ("alert:<key>");
	// empty means a fresh one.
	IdempotencyKey string
	// Remember is how long the delivered parts of a keyed send are
	// remembered (a repeated send within it skips them); zero: the
	// outbox's OutboxOptions.Remember. A scheduled send retried at a
	// later run (a digest, a budget notice) keeps it that long.
	Remember time.Duration
	// Mergeable lets the outbox merge this reply with others waiting for
	// the same chat when they pile up (OutboxOptions.MergeAt): answers to
	// questions, not alerts or digests.
	Mergeable bool
	// Sent, when set, is told the id of each message that carried the
	// reply, as the platform gave it (Feishu message_id; a Wire that
	// learns none says nothing). A reply merged into another's message is
	// not told.
	Sent func(messageID string)
}

// Sender is what goes out: something that delivers a Reply to one of its
// chats. Every Channel is one; so is a channel's Outbox alone (the
// console's alerts while `bot poll --once` prints them).
type Sender interface {
	// Name is the channel's id in chat keys ("feishu", "wechat",
	// "webhook", "console").
	Name() string
	// Send delivers r to chatID (a Feishu chat_id, a WeChat group or
	// friend name, a webhook's name).
	Send(ctx context.Context, chatID string, r Reply, o SendOptions) error
}

// Channel is a chat channel as the rest of the bot sees it: it runs (takes
// its platform's messages to its Handler until ctx ends; a push-only
// webhook only waits) and sends. The console, Feishu, WeChat and the
// push-only webhooks implement it; answers, alerts, admin notices and the
// weekly digest all go out through its Send, which passes through the
// channel's Outbox.
type Channel interface {
	Sender
	// Run receives until ctx ends; it returns nil then, or the error
	// that stopped it.
	Run(ctx context.Context) error
}

// Router is a Channel whose events arrive over HTTP (Feishu's event
// callback): its handlers are mounted on the bot's server by path.
type Router interface {
	Routes() map[string]http.Handler
}

// Channels are the running channels' senders by name.
type Channels map[string]Sender

// Add registers ch under its name.
func (cs Channels) Add(ch Sender) { cs[ch.Name()] = ch }

// Send delivers r to a chat key "<channel>/<chat id>" ("feishu/oc_1",
// "webhook/lab").
func (cs Channels) Send(ctx context.Context, chatKey string, r Reply, o SendOptions) error {
	name, id, ok := strings.Cut(chatKey, "/")
	if !ok || id == "" {
		return fmt.Errorf("chat %q is not <channel>/<chat id>", chatKey)
	}
	ch, found := cs[name]
	if !found {
		return fmt.Errorf("chat %q: channel %q is not running", chatKey, name)
	}
	return ch.Send(ctx, id, r, o)
}
