package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

// PollLock is the lock name that makes one replica poll at a time.
const PollLock = "poll"

// Refresher fetches every provider once (*stock.Board).
type Refresher interface {
	Refresh(ctx context.Context) stock.Snapshot
}

// AlertProcessor decides and sends the alerts of a snapshot
// (*stock.Alerter).
type AlertProcessor interface {
	Process(ctx context.Context, snap stock.Snapshot, now time.Time) (stock.ProcessResult, error)
}

// Poller runs one poll: refresh every provider, then decide and send
// alerts. With a Locker only the replica holding the lock polls.
type Poller struct {
	Board   Refresher
	Alerter AlertProcessor // nil: no alerts
	Locker  stock.Locker   // nil: no lock (one process)
	// Owner identifies this replica for the lock (random when empty).
	Owner string
	// LockTTL is the lock's lifetime; the holder renews it every poll and
	// every TTL/3 while polling (default 3 min: a dead replica's lock
	// frees within 3 min).
	LockTTL time.Duration
	Log     *slog.Logger
	Now     func() time.Time
	// OnPoll, when set, sees every scheduled poll's result (metrics).
	OnPoll func(stock.Snapshot, stock.ProcessResult)
}

// RunOnce polls once. It returns false when another replica holds the
// lock. Alerts are decided at the poll's time.
func (p *Poller) RunOnce(ctx context.Context) (bool, stock.Snapshot, stock.ProcessResult, error) {
	var res stock.ProcessResult
	if p.Locker != nil {
		held, stop, err := p.hold(ctx)
		if err != nil || !held {
			return false, stock.Snapshot{}, res, err
		}
		defer stop()
	}
	snap := p.Board.Refresh(ctx)
	if p.Alerter == nil {
		return true, snap, res, nil
	}
	res, err := p.Alerter.Process(ctx, snap, clock(p.Now))
	return true, snap, res, err
}

// hold takes the poll lock and renews it every TTL/3 until stop, so a
// slow poll keeps the lock and a dead replica loses it within one TTL.
func (p *Poller) hold(ctx context.Context) (held bool, stop func(), err error) {
	ttl := p.LockTTL
	if ttl <= 0 {
		ttl = 3 * time.Minute
	}
	held, err = p.Locker.TryLock(ctx, PollLock, p.owner(), ttl)
	if err != nil {
		return false, nil, fmt.Errorf("poll: lock: %w", err)
	}
	if !held {
		return false, nil, nil
	}
	rctx, cancel := context.WithCancel(ctx)
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
	return true, cancel, nil
}

// Run is the scheduled poll: RunOnce, logged, and OnPoll told.
func (p *Poller) Run(ctx context.Context) {
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
		p.Owner = NewReplicaID()
	}
	return p.Owner
}

func (p *Poller) log() *slog.Logger { return logger(p.Log) }

// NewReplicaID is a random name for this process in store locks.
func NewReplicaID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "replica-" + hex.EncodeToString(b)
}
