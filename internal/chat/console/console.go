// Package console is the terminal channel: it reads questions line by line
// and prints plain-text answers. `bot` with no arguments runs it.
package console

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// MaxLine is the longest input line accepted, in bytes; longer lines are
// answered with an error instead of being cut silently.
const MaxLine = 16 << 10

// MaxPaste is the longest pasted block accepted, in bytes.
const MaxPaste = 64 << 10

// Options tune RunWith.
type Options struct {
	// Prompt is printed before each question when non-empty.
	Prompt string
	// PasteWindow joins lines that arrive within it of each other into one
	// message, so a pasted traceback is one question, not one per line.
	// Zero answers every line on its own (piped input).
	PasteWindow time.Duration
	// InterimAfter: a slower answer is preceded by the Handler's
	// "查询中…" line (chat.Interimer); 0 chat.DefaultInterimAfter,
	// negative never.
	InterimAfter time.Duration
}

// Run reads lines from in until EOF, "exit"/"quit" or ctx ends, and writes
// each answer to out. prompt is printed before each line when non-empty.
func Run(ctx context.Context, in io.Reader, out io.Writer, h chat.Handler, prompt string) error {
	return RunWith(ctx, in, out, h, Options{Prompt: prompt})
}

// RunWith is Run with options.
func RunWith(ctx context.Context, in io.Reader, out io.Writer, h chat.Handler, o Options) error {
	return runWith(ctx, in, out, h, o, NewOut(out))
}

// runWith is RunWith with answers printed through the console's outbox
// (as every channel's answers go out); the prompt and input errors are
// written to out directly.
func runWith(ctx context.Context, in io.Reader, out io.Writer, h chat.Handler, o Options, answers *chat.Outbox) error {
	prompt := o.Prompt
	lines := readLines(ctx, in)
	n := 0
	for {
		if prompt != "" {
			fmt.Fprint(out, prompt)
		}
		var l inputLine
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
		pasted := false
		if o.PasteWindow > 0 && l.err == nil {
			l, pasted = joinPaste(lines, l, o.PasteWindow)
		}
		if l.err != nil && l.err != io.EOF {
			return fmt.Errorf("console: read: %w", l.err)
		}
		if text := strings.TrimSpace(l.text); !tooLong(out, l.text, pasted) && text != "" {
			if !pasted && slices.Contains(chat.ReadWords().ConsoleExit, strings.ToLower(text)) {
				return nil
			}
			n++
			if err := answer(ctx, answers, h, o, n, text); err != nil {
				return err
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

// readLines reads in line by line in its own goroutine, so that ctx
// (Ctrl-C) ends the console even while it waits for input; the channel
// closes after the line with an error (io.EOF at the end).
func readLines(ctx context.Context, in io.Reader) <-chan inputLine {
	lines := make(chan inputLine)
	go func() {
		defer close(lines)
		rd := bufio.NewReader(in)
		for {
			raw, err := rd.ReadString('\n')
			select {
			case lines <- inputLine{raw, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return lines
}

// tooLong tells out, in both languages, when a paste is over MaxPaste or
// a typed line over MaxLine, and reports whether it was.
func tooLong(out io.Writer, text string, pasted bool) bool {
	key, max := "console.input_too_long", MaxLine
	if pasted {
		key, max = "console.paste_too_long", MaxPaste
	}
	if len(text) <= max {
		return false
	}
	fmt.Fprintf(out, "%s %s\n\n", i18n.ZH.T(key, len(text), max), i18n.EN.T(key, len(text), max))
	return true
}

// answer has h answer the n-th question and prints the answer through
// the console's outbox, after a "查询中…" when it is slow.
func answer(ctx context.Context, answers *chat.Outbox, h chat.Handler, o Options, n int, text string) error {
	msg := chat.Message{Channel: "console", ID: fmt.Sprintf("console-%d", n), ChatID: "console", ChatType: chat.P2P,
		SenderID: "console", SenderName: i18n.ZH.T("console.sender_name"), Text: text, Time: time.Now()}
	var interim func()
	if ir, ok := h.(chat.Interimer); ok {
		interim = func() { _ = answers.Send(ctx, msg.ChatID, ir.Interim(msg), chat.SendOptions{ReplyTo: msg.ID}) }
	}
	r := chat.AnswerWithInterim(ctx, o.InterimAfter, func() chat.Reply { return h.Handle(ctx, msg) }, interim)
	if err := answers.Send(ctx, msg.ChatID, r, chat.SendOptions{ReplyTo: msg.ID}); err != nil {
		return fmt.Errorf("console: write: %w", err)
	}
	return nil
}

// inputLine is a line read from the input, with the read error after it.
type inputLine struct {
	text string
	err  error
}

// joinPaste appends to first the lines that follow it within window of
// each other (a paste), until MaxPaste bytes are passed. It reports whether
// it joined any; the result carries the last line's read error.
func joinPaste(lines <-chan inputLine, first inputLine, window time.Duration) (inputLine, bool) {
	joined := false
	t := time.NewTimer(window)
	defer t.Stop()
	for first.err == nil && len(first.text) <= MaxPaste {
		select {
		case l, ok := <-lines:
			if !ok {
				return first, joined
			}
			first.text += l.text
			first.err = l.err
			joined = true
			t.Reset(window)
		case <-t.C:
			return first, joined
		}
	}
	return first, joined
}
