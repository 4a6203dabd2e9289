package chat

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"
)

// DefaultInterimAfter is how long a chat waits for a slow answer before it
// gets a short "查询中…" (Interimer).
const DefaultInterimAfter = 600 * time.Millisecond

// Interimer is implemented by handlers that can say, in the asker's
// language, that a slow answer is on its way ("查询中…").
type Interimer interface {
	Interim(msg Message) Reply
}

// AnswerWithInterim returns answer()'s reply. When it has not returned
// after the given wait (DefaultInterimAfter when 0; never when negative),
// interim is called once, while answer goes on, so the channel can send
// "查询中…" at once; the caller then sends (or updates it with) the reply.
// A panic in answer is re-raised in the caller's goroutine.
func AnswerWithInterim(ctx context.Context, after time.Duration, answer func() Reply, interim func()) Reply {
	if after < 0 || interim == nil {
		return answer()
	}
	if after == 0 {
		after = DefaultInterimAfter
	}
	type result struct {
		r     Reply
		panic any
	}
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() {
			if p := recover(); p != nil {
				// Keep where it happened: the caller re-raises it.
				res.panic = fmt.Sprintf("%v\n%s", p, debug.Stack())
			}
			done <- res
		}()
		res.r = answer()
	}()
	t := time.NewTimer(after)
	defer t.Stop()
	var res result
	select {
	case res = <-done:
	case <-t.C:
		interim()
		res = <-done
	case <-ctx.Done():
		// The answer is bounded by the same ctx; wait for it.
		res = <-done
	}
	if res.panic != nil {
		panic(res.panic)
	}
	return res.r
}
