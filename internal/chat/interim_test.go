package chat_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
)

func TestAnswerWithInterim(t *testing.T) {
	cases := []struct {
		name        string
		after, work time.Duration
		interims    int32
	}{
		{"fast answer: no interim", 200 * time.Millisecond, 0, 0},
		{"slow answer: one interim first", 20 * time.Millisecond, 300 * time.Millisecond, 1},
		{"interim off", -1, 50 * time.Millisecond, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var n atomic.Int32
			var interimAt, answerAt atomic.Int64
			r := chat.AnswerWithInterim(context.Background(), c.after, func() chat.Reply {
				time.Sleep(c.work)
				answerAt.Store(time.Now().UnixNano())
				return chat.Reply{Title: "done"}
			}, func() {
				n.Add(1)
				interimAt.Store(time.Now().UnixNano())
			})
			if r.Title != "done" || n.Load() != c.interims {
				t.Errorf("reply %q, %d interims; want done, %d", r.Title, n.Load(), c.interims)
			}
			if c.interims > 0 && interimAt.Load() >= answerAt.Load() {
				t.Error("the interim came after the answer")
			}
		})
	}
}

func TestAnswerWithInterimPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a panic in the answer was swallowed")
		}
	}()
	chat.AnswerWithInterim(context.Background(), time.Second, func() chat.Reply { panic("boom") }, func() {})
}
