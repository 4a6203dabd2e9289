package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math/big"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/labgpu/bot/internal/stock"
)

// Dispatcher routes alerts to the notifier of their channel ("console",
// "feishu", …). An alert for a channel that is not running is an error,
// so it is decided again at the next poll instead of being lost.
type Dispatcher struct {
	mu sync.RWMutex
	by map[string]stock.Notifier
}

// NewDispatcher returns a dispatcher without channels.
func NewDispatcher() *Dispatcher { return &Dispatcher{by: map[string]stock.Notifier{}} }

// Register sets the notifier of a channel.
func (d *Dispatcher) Register(channel string, n stock.Notifier) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.by[channel] = n
}

// Notify implements stock.Notifier.
func (d *Dispatcher) Notify(ctx context.Context, a stock.Alert) error {
	d.mu.RLock()
	n, ok := d.by[a.Channel]
	d.mu.RUnlock()
	if !ok {
		return fmt.Errorf("alerts: channel %q is not running", a.Channel)
	}
	return n.Notify(ctx, a)
}

// PollLock is the lock name that makes one replica poll at a time.
const PollLock = "poll"

// Poller runs one poll: refresh every provider, then decide and send
// alerts. With a Locker only the replica holding the lock polls.
type Poller struct {
	Board   *stock.Board
	Alerter *stock.Alerter
	Locker  stock.Locker
	// Owner identifies this replica for the lock (random when empty).
	Owner string
	// LockTTL is the lock's lifetime; the holder renews it every poll and
	// every TTL/3 while polling (default 3 min: a dead replica's lock
	// frees within 3 min).
	LockTTL time.Duration
	// Jitter delays each run by a random time up to it.
	Jitter time.Duration
	Log    *slog.Logger
	Now    func() time.Time
	// OnPoll, when set, sees every scheduled poll's result (metrics).
	OnPoll func(stock.Snapshot, stock.ProcessResult)
}

// RunOnce polls once. It returns false when another replica holds the
// lock. Alerts are decided at the poll's time.
func (p *Poller) RunOnce(ctx context.Context) (bool, stock.Snapshot, stock.ProcessResult, error) {
	var res stock.ProcessResult
	if p.Locker != nil {
		ttl := p.LockTTL
		if ttl <= 0 {
			ttl = 3 * time.Minute
		}
		held, err := p.Locker.TryLock(ctx, PollLock, p.owner(), ttl)
		if err != nil {
			return false, stock.Snapshot{}, res, fmt.Errorf("poll: lock: %w", err)
		}
		if !held {
			return false, stock.Snapshot{}, res, nil
		}
		// Renew while the poll runs, so a slow poll keeps the lock and a
		// dead replica loses it within one TTL.
		rctx, stop := context.WithCancel(ctx)
		defer stop()
		go func() {
			t := time.NewTicker(ttl / 3)
			defer t.Stop()
			for {
				select {
				case <-rctx.Done():
					return
				case <-t.C:
					if _, err := p.Locker.TryLock(rctx, PollLock, p.owner(), ttl); err != nil && rctx.Err() == nil {
						p.log().Warn("poll: renew lock", "err", err)
					}
				}
			}
		}()
	}
	snap := p.Board.Refresh(ctx)
	if p.Alerter == nil {
		return true, snap, res, nil
	}
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	res, err := p.Alerter.Process(ctx, snap, now())
	return true, snap, res, err
}

// Release gives up the poll lock (at shutdown, or after a one-shot poll),
// so another replica or the next run does not wait for it to expire.
func (p *Poller) Release(ctx context.Context) {
	if p.Locker == nil {
		return
	}
	if err := p.Locker.Unlock(ctx, PollLock, p.owner()); err != nil {
		p.log().Warn("poll: release lock", "err", err)
	}
}

func (p *Poller) owner() string {
	if p.Owner == "" {
		p.Owner = newReplicaID()
	}
	return p.Owner
}

// Start runs the poller on a cron schedule ("@every 2m", "*/2 * * * *") in
// loc, skipping a run while the previous one is still running and
// recovering from panics. Stop the returned cron to end it.
func (p *Poller) Start(ctx context.Context, spec string, loc *time.Location) (*cron.Cron, error) {
	c := newCron(loc, p.log())
	_, err := c.AddFunc(spec, func() {
		if p.Jitter > 0 {
			n, _ := rand.Int(rand.Reader, big.NewInt(int64(p.Jitter)))
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(n.Int64())):
			}
		}
		ran, snap, res, err := p.RunOnce(ctx)
		switch {
		case err != nil:
			p.log().Warn("poll failed", "err", err)
		case !ran:
			p.log().Debug("poll skipped: another replica holds the lock")
		default:
			p.log().Info("poll", "providers", len(snap.Providers), "offers", len(snap.Offers()), "subscriptions", res.Subscriptions, "alerts", res.Alerts, "held", res.Held)
		}
		if ran && p.OnPoll != nil {
			p.OnPoll(snap, res)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("stock.poll.schedule: %q: %w", spec, err)
	}
	c.Start()
	return c, nil
}

func (p *Poller) log() *slog.Logger {
	if p.Log != nil {
		return p.Log
	}
	return slog.Default()
}

// cronLogger adapts slog to cron.Logger: errors (recovered panics) at
// error level, the rest (skipped runs, schedule) at debug.
type cronLogger struct{ l *slog.Logger }

func (c cronLogger) Info(msg string, kv ...any) { c.l.Debug("cron: "+msg, kv...) }
func (c cronLogger) Error(err error, msg string, kv ...any) {
	c.l.Error("cron: "+msg, append(kv, "err", err)...)
}

// NewPoller builds the app's poller.
func (a *App) NewPoller() *Poller {
	p := &Poller{Board: a.Board, Alerter: a.Alerter, Jitter: a.Cfg.Stock.Poll.Jitter.D(), Log: a.Log, Now: a.now}
	if a.Store != nil {
		p.Locker = a.Store
	}
	return p
}

// LiveProviders reports whether any provider besides the catalog runs, so
// polling has something to watch.
func (a *App) LiveProviders() bool {
	p := a.Cfg.Stock.Providers
	return a.Cfg.AutoDLEnabled() || a.Cfg.VastAIEnabled() || p.Replay.Dir != "" ||
		p.GPUShare.On() && p.GPUShare.Token != "" || p.Matpool.On() && p.Matpool.Token != "" ||
		p.RunPod.On() && p.RunPod.Token != "" || p.Lambda.On() && p.Lambda.Token != ""
}

// newReplicaID is a random name for this process in store locks.
func newReplicaID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "replica-" + hex.EncodeToString(b)
}

// newCron is a cron in loc whose jobs recover from panics and skip a run
// while the previous one is still running, logging both.
func newCron(loc *time.Location, log *slog.Logger) *cron.Cron {
	logger := cronLogger{log}
	return cron.New(cron.WithLocation(loc), cron.WithChain(cron.Recover(logger), cron.SkipIfStillRunning(logger)))
}
