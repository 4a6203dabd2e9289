package chat

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiters holds one token-bucket rate limiter per chat (golang.org/x/time/rate),
// so a busy chat cannot make the bot flood it. Limiters idle for ten
// minutes are forgotten once more than Max are held. Create with
// NewLimiters; safe for concurrent use.
type Limiters struct {
	limit rate.Limit
	burst int
	max   int

	mu sync.Mutex
	by map[string]*chatLimiter
}

type chatLimiter struct {
	lim  *rate.Limiter
	last time.Time
}

// NewLimiters returns per-chat limiters of limit events per second with
// the given burst, pruning idle ones beyond max chats.
func NewLimiters(limit rate.Limit, burst, max int) *Limiters {
	return &Limiters{limit: limit, burst: burst, max: max, by: map[string]*chatLimiter{}}
}

// For returns the limiter of the chat key.
func (l *Limiters) For(key string) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if len(l.by) > l.max {
		for k, c := range l.by {
			if now.Sub(c.last) > 10*time.Minute {
				delete(l.by, k)
			}
		}
	}
	c, ok := l.by[key]
	if !ok {
		c = &chatLimiter{lim: rate.NewLimiter(l.limit, l.burst)}
		l.by[key] = c
	}
	c.last = now
	return c.lim
}

// Len is the number of chats with a limiter.
func (l *Limiters) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.by)
}

// Wait blocks until the chat key's limiter allows one more message
// (Waiter).
func (l *Limiters) Wait(ctx context.Context, key string) error { return l.For(key).Wait(ctx) }
