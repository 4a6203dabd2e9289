package console_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/console"
)

type echo struct{ got []string }

func (e *echo) Handle(_ context.Context, m chat.Message) chat.Reply {
	e.got = append(e.got, m.Text)
	return chat.Reply{Title: "re: " + m.Text}
}

func TestLinesExitAndLimits(t *testing.T) {
	h := &echo{}
	var out bytes.Buffer
	in := strings.NewReader("  hello \n\n" + strings.Repeat("x", console.MaxLine+1) + "\nsecond\r\nquit\nafter\n")
	if err := console.Run(context.Background(), in, &out, h, ""); err != nil {
		t.Fatal(err)
	}
	if strings.Join(h.got, "|") != "hello|second" {
		t.Errorf("handled %q", h.got)
	}
	if !strings.Contains(out.String(), "输入太长") || !strings.Contains(out.String(), "re: second") {
		t.Errorf("output %q", out.String())
	}
}

// TestCancelWhileWaiting: Ctrl-C (a cancelled context) ends the console
// even while it waits for a line that never comes.
func TestCancelWhileWaiting(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- console.Run(ctx, r, io.Discard, &echo{}, "> ") }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("console did not stop after cancel")
	}
}

// TestPasteIsOneQuestion: with a paste window, lines that arrive together
// are one message (a traceback); a line typed later is the next one.
func TestPasteIsOneQuestion(t *testing.T) {
	h := &echo{}
	r, w := io.Pipe()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- console.RunWith(context.Background(), r, &out, h, console.Options{PasteWindow: 200 * time.Millisecond})
	}()
	// One write, as a terminal delivers a paste.
	if _, err := io.WriteString(w, "Traceback (most recent call last):\n  File \"x.py\", line 1\nexit\nRuntimeError: CUDA out of memory\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond)
	if _, err := io.WriteString(w, "哪家有4090\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond)
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(h.got) != 2 || strings.Count(h.got[0], "\n") != 3 || h.got[1] != "哪家有4090" {
		t.Fatalf("messages %q", h.got)
	}
}
