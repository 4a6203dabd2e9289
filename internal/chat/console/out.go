package console

import (
	"context"
	"fmt"
	"io"
	"sync"

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

// Channel is the interactive console as a chat.Channel: Run reads
// questions from In and prints the Handler's answers to Out (RunWith);
// Send prints alerts for console subscriptions between them.
type Channel struct {
	In      io.Reader
	Out     io.Writer
	Handler chat.Handler
	Options Options

	once sync.Once
	out  *chat.Outbox
}

// Name is "console".
func (c *Channel) Name() string { return "console" }

// Run reads and answers until EOF, "exit" or ctx ends.
func (c *Channel) Run(ctx context.Context) error {
	return RunWith(ctx, c.In, c.Out, c.Handler, c.Options)
}

// Send prints r after a blank line.
func (c *Channel) Send(ctx context.Context, chatID string, r chat.Reply, o chat.SendOptions) error {
	c.once.Do(func() { c.out = NewOut(c.Out) })
	return c.out.Send(ctx, chatID, r, o)
}

var _ chat.Channel = (*Channel)(nil)
