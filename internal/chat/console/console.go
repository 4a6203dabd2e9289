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
	type line struct {
		text string
		err  error
	}
	lines := make(chan line)
	// Lines are read in their own goroutine so that ctx (Ctrl-C) ends the
	// console even while it waits for input.
	go func() {
		defer close(lines)
		rd := bufio.NewReader(in)
		for {
			raw, err := rd.ReadString('\n')
			select {
			case lines <- line{raw, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	n := 0
	for {
		if prompt != "" {
			fmt.Fprint(out, prompt)
		}
		var l line
		var ok bool
		select {
		case <-ctx.Done():
			fmt.Fprintln(out)
			return nil
		case l, ok = <-lines:
			if !ok {
				return nil
			}
		}
		if l.err != nil && l.err != io.EOF {
			return fmt.Errorf("console: read: %w", l.err)
		}
		if len(l.text) > MaxLine {
			fmt.Fprintf(out, "输入太长（%d 字节，上限 %d），请缩短后再问。Input too long.\n\n", len(l.text), MaxLine)
		} else {
			text := strings.TrimSpace(l.text)
			switch strings.ToLower(text) {
			case "":
			case "exit", "quit", "退出", "/exit", "/quit":
				return nil
			default:
				n++
				msg := chat.Message{Channel: "console", ID: fmt.Sprintf("console-%d", n), ChatID: "console", ChatType: chat.P2P,
					SenderID: "console", SenderName: "you", Text: text, Time: time.Now()}
				fmt.Fprintln(out, chat.PlainText(h.Handle(ctx, msg)))
			}
		}
		if l.err == io.EOF {
			if prompt != "" {
				fmt.Fprintln(out)
			}
			return nil
		}
	}
}
