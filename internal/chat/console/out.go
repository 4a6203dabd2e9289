package console

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/labgpu/bot/internal/chat"
)

// Out is the console as a chat.Channel named "console": what is sent to
// it (alerts for console subscriptions) is printed as plain text, each
// after a blank line. It is safe for concurrent use.
type Out struct {
	mu sync.Mutex
	W  io.Writer
}

// Name is "console".
func (*Out) Name() string { return "console" }

// Send prints r; the chat id and options are not used (there is one
// console).
func (o *Out) Send(_ context.Context, _ string, r chat.Reply, _ chat.SendOptions) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, err := fmt.Fprintln(o.W, "\n"+chat.PlainText(r))
	return err
}

var _ chat.Channel = (*Out)(nil)
