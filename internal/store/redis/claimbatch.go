package redis

import (
	"context"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// claimBatcher sends the claims that arrive while others are in flight
// together, as one pipeline (group commit): a callback under load makes
// one round trip — one write and one read — for many events instead of
// one each. A caller that finds no batch in flight starts a sender, which
// sends what is queued, batch after batch, until nothing is; the others
// wait for their answer or their context. When the latest batch has been
// in flight longer than claimStuckAfter (a stalled connection, a server
// busy with a long command), the next caller starts another sender, on
// another pooled connection, up to maxClaimSenders: one stuck connection
// does not hold every claim of the process, and in the normal case one
// sender batches the most (BenchmarkCallbackVsSDK: with four senders
// always allowed the callback reached 0.70× of the SDK's rate, with one
// 0.84×, both before claimGather).
type claimBatcher struct {
	mu      sync.Mutex
	pending []*claimReq
	senders int
	// sentAt is when the latest batch went out.
	sentAt time.Time
}

// maxClaimSenders is how many claim batches may be in flight at once;
// claimStuckAfter is how long the latest one may take before another is
// allowed (a claim's round trip is well under a millisecond on a LAN).
const (
	maxClaimSenders = 4
	claimStuckAfter = 25 * time.Millisecond
)

// claimGather is how long a sender waits after a batch of more than one
// claim (a sign of load) before it sends the next, so that batches are
// bigger: with 32 connections of new events, batches of about 5 claims
// instead of 4, and the callback's rate from 0.91–0.97× of the SDK's to
// 0.99–1.05× (BenchmarkCallbackVsSDK/redis), since Redis and the client
// spend most per round trip, not per claim. A lone claim never waits.
const claimGather = 200 * time.Microsecond

// claimReq is one ClaimAs waiting to be sent.
type claimReq struct {
	ctx        context.Context
	key, owner string
	ttl        time.Duration
	ok         bool
	err        error
	done       chan struct{}
}

// claim queues r and sends the queue when no batch is in flight; it
// returns when r is answered or r.ctx ends.
func (s *Store) claim(r *claimReq) (bool, error) {
	b := &s.claims
	b.mu.Lock()
	b.pending = append(b.pending, r)
	lead := b.senders == 0 || b.senders < maxClaimSenders && time.Since(b.sentAt) > claimStuckAfter
	if lead {
		b.senders++
		b.sentAt = time.Now() // its batch goes out now
	}
	b.mu.Unlock()
	if lead {
		// In its own goroutine: the batch outlives a caller that gives up.
		go s.sendClaims()
	}
	select {
	case <-r.done:
		return r.ok, r.err
	case <-r.ctx.Done():
		return false, r.ctx.Err()
	}
}

// sendClaims sends the queued claims, batch after batch, until the queue
// is empty.
func (s *Store) sendClaims() {
	b := &s.claims
	for {
		b.mu.Lock()
		reqs := b.pending
		b.pending = nil
		if len(reqs) == 0 {
			b.senders--
			b.mu.Unlock()
			return
		}
		b.sentAt = time.Now()
		b.mu.Unlock()
		s.sendBatch(reqs)
		if len(reqs) > 1 {
			// Under load: let the next batch gather.
			time.Sleep(claimGather)
		}
	}
}

// sendBatch sends one batch: a caller that has given up already is left
// out (its claim is never sent, so it cannot land after the caller
// decided without it); the batch is bounded by the latest of the callers'
// deadlines (DefaultClaimBatchTimeout without one).
func (s *Store) sendBatch(reqs []*claimReq) {
	live := reqs[:0]
	var deadline time.Time
	for _, r := range reqs {
		if err := r.ctx.Err(); err != nil {
			r.err = err
			close(r.done)
			continue
		}
		d, ok := r.ctx.Deadline()
		if !ok {
			d = time.Now().Add(DefaultClaimBatchTimeout)
		}
		if d.After(deadline) {
			deadline = d
		}
		live = append(live, r)
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	cmds := make([]*goredis.BoolCmd, len(live))
	if len(live) == 1 {
		cmds[0] = s.c.SetNX(ctx, s.key("claim:", live[0].key), live[0].owner, roundUpMs(live[0].ttl))
	} else {
		// Errors are per command (a failed write fails them all).
		_, _ = s.c.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for i, r := range live {
				cmds[i] = p.SetNX(ctx, s.key("claim:", r.key), r.owner, roundUpMs(r.ttl))
			}
			return nil
		})
	}
	for i, r := range live {
		r.ok, r.err = cmds[i].Result()
		close(r.done)
	}
}

// DefaultClaimBatchTimeout bounds a batch of claims none of whose callers
// set a deadline.
const DefaultClaimBatchTimeout = 3 * time.Second
