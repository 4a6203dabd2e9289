package console

import (
	"context"
	"fmt"
	"io"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/retry"
)

// NewOut returns the console as a chat.Channel named "console": what is
// sent to it (alerts for console subscriptions) is printed to w as plain
// text, each after a blank line, through the one chat.Outbox (which keeps
// one reply at a time). The chat id is not used: there is one console.
func NewOut(w io.Writer) *chat.Outbox { return newOut(w, "\n") }

// newOut is the console's outbox printing each reply after lead.
func newOut(w io.Writer, lead string) *chat.Outbox {
	return chat.NewOutbox("console", outWire{w, lead}, chat.OutboxOptions{Retry: retry.Policy{Tries: 1}})
}

// outWire prints a reply whole, after lead: a terminal has no size limit.
type outWire struct {
	w    io.Writer
	lead string
}

func (o outWire) Parts(_ context.Context, _ string, r chat.Reply, _ chat.SendOptions) ([]chat.Part, error) {
	return []chat.Part{{Kind: "text", Payload: o.lead + chat.PlainText(r)}}, nil
}

func (o outWire) Post(_ context.Context, _ string, p chat.Part, _ chat.PostOptions) error {
	_, err := fmt.Fprintln(o.w, p.Payload)
	return err
}

// Retry: a failed write to the terminal is not worth repeating.
func (outWire) Retry(error) retry.Verdict { return retry.Verdict{} }
