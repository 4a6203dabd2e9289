package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"sync"
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

// HistoryRecorder keeps every poll's observations
// (*history.Recorder): at most one store write per provider per poll.
type HistoryRecorder interface {
	Record(ctx context.Context, snap stock.Snapshot) error
}

// Poller runs one poll: refresh every provider, then decide and send
// alerts. With a Locker only the replica holding the lock polls.
type Poller struct {
	Board   Refresher
	Alerter AlertProcessor // nil: no alerts
	Locker  stock.Locker   // nil: no lock (one process)
	// Owner identifies this replica for the lock (random when empty).
	Owner string
	// LockTTL is the lock's lifetime (default DefaultLockTTL). The holder
	// renews it every TTL/3 for as long as it runs, between polls too, so
	// it keeps polling; a replica that dies frees it within one TTL, and
	// another replica takes over at its next run after that. With the
	// TTL at most the poll interval, the next poll comes within two
	// intervals of the holder's death.
	LockTTL time.Duration
	Log     *slog.Logger
	Now     func() time.Time
	// OnPoll, when set, sees every scheduled poll's result (metrics).
	OnPoll func(stock.Snapshot, stock.ProcessResult)
	// History, when set, records every poll this replica ran.
	History HistoryRecorder

	mu    sync.Mutex
	renew context.CancelFunc // the running renewer, nil when not holding
}

// DefaultLockTTL is the poll lock's lifetime when LockTTL is not set.
const DefaultLockTTL = 2 * time.Minute

// RunOnce polls once. It returns false when another replica holds the
// lock. Alerts are decided at the poll's time.
func (p *Poller) RunOnce(ctx context.Context) (bool, stock.Snapshot, stock.ProcessResult, error) {
	var res stock.ProcessResult
	if p.Locker != nil {
		held, err := p.hold(ctx)
		if err != nil || !held {
			return false, stock.Snapshot{}, res, err
		}
	}
	snap := p.Board.Refresh(ctx)
	if p.Alerter == nil {
		return true, snap, res, nil
	}
	res, err := p.Alerter.Process(ctx, snap, clock(p.Now))
	return true, snap, res, err
}

func (p *Poller) ttl() time.Duration {
	if p.LockTTL > 0 {
		return p.LockTTL
	}
	return DefaultLockTTL
}

// hold takes (or renews) the poll lock and keeps a renewer running until
// Release, so this replica keeps the lock between polls; when another
// replica holds it, a renewer of ours is stopped.
func (p *Poller) hold(ctx context.Context) (bool, error) {
	held, err := p.Locker.TryLock(ctx, PollLock, p.owner(), p.ttl())
	if err != nil {
		return false, fmt.Errorf("poll: lock: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case !held && p.renew != nil:
		p.renew()
		p.renew = nil
	case held && p.renew == nil:
		rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		p.renew = cancel
		go p.renewing(rctx)
	}
	return held, nil
}

// renewing renews the lock every TTL/3 until ctx ends or the lock is
// lost (another replica took it after a stall: logged, and the next run
// tries again).
func (p *Poller) renewing(ctx context.Context) {
	ttl := p.ttl()
	t := time.NewTicker(ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, ttl/3)
		held, err := p.Locker.TryLock(rctx, PollLock, p.owner(), ttl)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			p.log().Warn("poll: renew lock", "err", err)
		case !held:
			p.log().Warn("poll: another replica took the poll lock; this one stands by")
			p.mu.Lock()
			if p.renew != nil {
				p.renew()
				p.renew = nil
			}
			p.mu.Unlock()
			return
		}
	}
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
		p.log().Info("poll", "providers", len(snap.Providers), "offers", len(snap.Offers()), "subscriptions", res.Subscriptions, "alerts", res.Alerts, "held", res.Held,
			"fetched", FetchedText(snap))
	}
	if ran && p.History != nil {
		if err := p.History.Record(ctx, snap); err != nil {
			p.log().Warn("poll: history", "err", err)
		}
	}
	if ran && p.OnPoll != nil {
		p.OnPoll(snap, res)
	}
}

// FetchedText says what a poll decided on, per provider: its status,
// for a good fetch the time it was fetched (RFC 3339, UTC), and a breaker
// that is not closed, space-separated in the snapshot's order:
//
//	catalog:ok@2025-06-01T10:00:00.12Z runpod:ok@2025-06-01T10:00:00.3Z vastai:stale/open
//
// It is the "poll" log line's fetched attribute, so that an operator (or
// tools/soak) can tell which answer of each platform an alert, or its
// absence, came from.
func FetchedText(s stock.Snapshot) string {
	var b strings.Builder
	for i, ps := range s.Providers {
		if i > 0 {
			b.WriteByte(' ')
		}
		st := string(ps.Status)
		if st == "" {
			st = "none"
		}
		b.WriteString(ps.Provider + ":" + st)
		if ps.Status == stock.StatusOK && !ps.FetchedAt.IsZero() {
			b.WriteString("@" + ps.FetchedAt.UTC().Format(time.RFC3339Nano))
		}
		if ps.Breaker != "" && ps.Breaker != stock.BreakerClosed {
			b.WriteString("/" + string(ps.Breaker))
		}
	}
	return b.String()
}

// Release gives up the poll lock (at shutdown, or after a one-shot poll),
// so another replica or the next run does not wait for it to expire.
func (p *Poller) Release(ctx context.Context) {
	if p.Locker == nil {
		return
	}
	p.mu.Lock()
	if p.renew != nil {
		p.renew()
		p.renew = nil
	}
	p.mu.Unlock()
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
