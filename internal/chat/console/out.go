package console

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/retry"
)

// NewOut returns the console's chat.Outbox, named "console": it prints
// to w as plain text, one reply at a time; answers (sent with ReplyTo)
// right away, anything pushed (alerts for console subscriptions) after a
// blank line. The chat id is not used: there is one console.
func NewOut(w io.Writer) *chat.Outbox {
	return chat.NewOutbox("console", outWire{w}, chat.OutboxOptions{Retry: retry.Policy{Tries: 1}})
}

// outWire prints a reply whole: a terminal has no size limit.
type outWire struct{ w io.Writer }

func (o outWire) Parts(_ context.Context, _ string, r chat.Reply, so chat.SendOptions) ([]chat.Part, error) {
	lead := "\n"
	if so.ReplyTo != "" {
		lead = ""
	}
	return []chat.Part{{Kind: "text", Payload: lead + chat.PlainText(r)}}, nil
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
	return runWith(ctx, c.In, c.Out, c.Handler, c.Options, c.outbox())
}

// Send prints r after a blank line, never inside an answer: answers and
// alerts share the console's one outbox.
func (c *Channel) Send(ctx context.Context, chatID string, r chat.Reply, o chat.SendOptions) error {
	return c.outbox().Send(ctx, chatID, r, o)
}

func (c *Channel) outbox() *chat.Outbox {
	c.once.Do(func() { c.out = NewOut(c.Out) })
	return c.out
}

var _ chat.Channel = (*Channel)(nil)
