package stock

import (
	"context"
	"sort"
	"sync"
)

// Pending is what one answer read from the Board: the providers that were
// late (their fetch still running after the budget) or behind an open
// breaker, as the answer showed them, and how to wait for the late ones'
// fresh data. A channel that can edit its answer waits (Wait) and answers
// again. Safe for concurrent use.
type Pending struct {
	mu sync.Mutex
	// seen are the late or unreachable providers, by name, as read.
	seen map[string]ProviderSnapshot
	// waits end when each late provider's fetch has answered.
	waits map[string]<-chan struct{}
}

type pendingKey struct{}

// WithPending returns a context under which Board.Snapshot records what
// it could not wait for into the returned Pending.
func WithPending(ctx context.Context) (context.Context, *Pending) {
	p := &Pending{seen: map[string]ProviderSnapshot{}, waits: map[string]<-chan struct{}{}}
	return context.WithValue(ctx, pendingKey{}, p), p
}

// PendingFrom is the Pending of ctx (nil without one; a nil Pending
// reports nothing).
func PendingFrom(ctx context.Context) *Pending { return pendingFrom(ctx) }

func pendingFrom(ctx context.Context) *Pending {
	p, _ := ctx.Value(pendingKey{}).(*Pending)
	return p
}

// note records snap's late and unreachable providers (late: the fetches
// still running) and returns snap.
func (p *Pending) note(snap Snapshot, late map[string]<-chan struct{}) Snapshot {
	if p == nil {
		return snap
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ps := range snap.Providers {
		if ps.Late || ps.Breaker == BreakerOpen {
			p.seen[ps.Provider] = ps
		}
	}
	for name, ch := range late {
		p.waits[name] = ch
	}
	return snap
}

// Providers are the late or unreachable providers the answer read, by
// name (each as read: its age, its breaker).
func (p *Pending) Providers() []ProviderSnapshot {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]ProviderSnapshot, 0, len(p.seen))
	for _, ps := range p.seen {
		out = append(out, ps)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider < out[j].Provider })
	return out
}

// Late reports whether a fetch the answer did not wait for is still to
// answer: fresher data will come.
func (p *Pending) Late() bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.waits) > 0
}

// Wait waits until every late fetch has answered (each is bounded by the
// Board's Timeout), or ctx ends.
func (p *Pending) Wait(ctx context.Context) error {
	p.mu.Lock()
	waits := make([]<-chan struct{}, 0, len(p.waits))
	for _, ch := range p.waits {
		waits = append(waits, ch)
	}
	p.mu.Unlock()
	for _, ch := range waits {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

type noRefreshKey struct{}

// WithoutRefresh returns a context under which Board.Snapshot fetches
// nothing and returns what it has (an answer given again once the late
// data came).
func WithoutRefresh(ctx context.Context) context.Context {
	return context.WithValue(ctx, noRefreshKey{}, true)
}

func noRefresh(ctx context.Context) bool {
	v, _ := ctx.Value(noRefreshKey{}).(bool)
	return v
}
