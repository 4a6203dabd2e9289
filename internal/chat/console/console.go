// Package console is the terminal channel: it reads questions line by line
// and prints plain-text answers. `bot` with no arguments runs it.
package console

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
)

// Handler answers a message (commands.Router implements it).
type Handler interface {
	Handle(ctx context.Context, msg chat.Message) chat.Reply
}

// MaxLine is the longest input line accepted, in bytes; longer lines are
// answered with an error instead of being cut silently.
const MaxLine = 16 << 10

// Run reads lines from in until EOF, "exit"/"quit" or ctx ends, and writes
// each answer to out. prompt is printed before each line when non-empty.
func Run(ctx context.Context, in io.Reader, out io.Writer, h Handler, prompt string) error {
	rd := bufio.NewReader(in)
	n := 0
	for {
		if prompt != "" {
			fmt.Fprint(out, prompt)
		}
		raw, err := rd.ReadString('\n')
		if err != nil && err != io.EOF {
			return fmt.Errorf("console: read: %w", err)
		}
		if ctx.Err() != nil {
			return nil
		}
		if len(raw) > MaxLine {
			fmt.Fprintf(out, "输入太长（%d 字节，上限 %d），请缩短后再问。Input too long.\n\n", len(raw), MaxLine)
		} else {
			line := strings.TrimSpace(raw)
			switch strings.ToLower(line) {
			case "":
			case "exit", "quit", "退出", "/exit", "/quit":
				return nil
			default:
				n++
				msg := chat.Message{Channel: "console", ID: fmt.Sprintf("console-%d", n), ChatID: "console", ChatType: chat.P2P,
					SenderID: "console", SenderName: "you", Text: line, Time: time.Now()}
				fmt.Fprintln(out, chat.PlainText(h.Handle(ctx, msg)))
			}
		}
		if err == io.EOF {
			if prompt != "" {
				fmt.Fprintln(out)
			}
			return nil
		}
	}
}
