package redis

import (
	"context"
	"log"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// clientLogEvery is the most often go-redis's own log lines (a failed
// dial, a pool error) reach stderr: during an outage it prints one per
// command, thousands a minute; the bot reports outages itself (once per
// outage, and in /readyz).
const clientLogEvery = time.Minute

var quietOnce sync.Once

// quietClientLog makes go-redis print at most one line a minute, with a
// count of what it held back.
func quietClientLog() {
	quietOnce.Do(func() { goredis.SetLogger(&throttledLog{}) })
}

type throttledLog struct {
	mu      sync.Mutex
	last    time.Time
	dropped int
}

func (l *throttledLog) Printf(ctx context.Context, format string, v ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if time.Since(l.last) < clientLogEvery {
		l.dropped++
		return
	}
	if l.dropped > 0 {
		format += " (and %d similar go-redis messages in the last minute)"
		v = append(v, l.dropped)
	}
	l.last, l.dropped = time.Now(), 0
	log.Printf("redis: "+format, v...)
}
