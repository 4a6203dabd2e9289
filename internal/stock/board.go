package stock

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/retry"
)

// SnapshotStore keeps each provider's last snapshot across restarts.
// Implemented by the embedded and Redis stores.
type SnapshotStore interface {
	SaveProviderSnapshot(ctx context.Context, ps ProviderSnapshot) error
	LoadProviderSnapshots(ctx context.Context) ([]ProviderSnapshot, error)
}

// Identifier is implemented by providers whose configuration can change
// what they return (the replay directory).
type Identifier interface {
	Identity() string
}

func identity(p Provider) string {
	if i, ok := p.(Identifier); ok {
		return i.Identity()
	}
	return p.Name()
}

// MaxSanePrice is the highest CNY per GPU-hour an offer may carry; anything
// above (a unit error, a corrupt recording) is dropped with a warning. The
// dearest list price in the catalog is below 100.
const MaxSanePrice = 1000

// BoardOptions configures a Board.
type BoardOptions struct {
	// Timeout bounds one provider's fetch (default 15 s).
	Timeout time.Duration
	// MaxAge is how old a snapshot may be before Snapshot refreshes it on
	// demand (default 60 s; negative = never refresh on demand).
	MaxAge time.Duration
	Store  SnapshotStore
	Log    *slog.Logger
	Now    func() time.Time
	// Retries is how many times a failed fetch is tried again within its
	// timeout (rate limits, 5xx, network errors; not rejected credentials
	// or unreadable answers), with backoff starting at Backoff (200 ms)
	// and doubling.
	Retries int
	Backoff time.Duration
	// AbsentFor is how long a GPU type missing from a provider's answers
	// is carried forward as unknown (its last figures, stale, listed in
	// ProviderSnapshot.Absent) before it counts as gone: default
	// MaxAlertAge (24 h), the age past which a figure no longer moves an
	// alert anyway; negative: never carried.
	AbsentFor time.Duration
}

// Board holds the latest offers of every provider. A provider whose fetch
// fails keeps its previous offers, marked stale with their age; so does
// one that answers an empty list (ErrEmpty, ReasonEmpty): an empty answer
// is unknown, never an empty, "sold out" snapshot. Likewise a platform's
// GPU type that an otherwise good answer leaves out keeps its last
// figures, stale, for up to AbsentFor (ProviderSnapshot.Absent): a row
// missing for one poll is unknown, not sold out, so its return is no new
// "有货了".
type Board struct {
	providers []Provider
	opt       BoardOptions

	mu   sync.Mutex
	last map[string]ProviderSnapshot
	// examples is the example-row count last skipped per provider.
	examples map[string]int
	refresh  sync.Mutex
}

// NewBoard builds a board over providers.
func NewBoard(providers []Provider, opt BoardOptions) *Board {
	if opt.Timeout <= 0 {
		opt.Timeout = 15 * time.Second
	}
	if opt.MaxAge == 0 {
		opt.MaxAge = 60 * time.Second
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.AbsentFor == 0 {
		opt.AbsentFor = MaxAlertAge
	}
	return &Board{providers: providers, opt: opt, last: map[string]ProviderSnapshot{}}
}

// Restore loads persisted snapshots (from before a restart). Offers keep
// their original observation times, so answers show their true age.
func (b *Board) Restore(ctx context.Context) error {
	if b.opt.Store == nil {
		return nil
	}
	snaps, err := b.opt.Store.LoadProviderSnapshots(ctx)
	if err != nil {
		return fmt.Errorf("stock: restore snapshots: %w", err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	known := map[string]string{}
	for _, p := range b.providers {
		known[p.Name()] = identity(p)
	}
	for _, s := range snaps {
		if id, ok := known[s.Provider]; ok && (s.Identity == "" || s.Identity == id) {
			b.last[s.Provider] = s
		}
	}
	return nil
}

// progressKey carries a Progress in a context.
type progressKey struct{}

// Progress is told about each provider as its fetch ends (from the
// fetch's goroutine), like net/http/httptrace's hooks.
type Progress func(ps ProviderSnapshot)

// WithProgress returns a context under which Refresh reports each
// provider's result to fn as soon as it has one (bot poll --once prints
// them on a terminal).
func WithProgress(ctx context.Context, fn Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// Refresh fetches every provider in parallel, each under its own timeout,
// and returns the combined snapshot.
func (b *Board) Refresh(ctx context.Context) Snapshot {
	b.refresh.Lock()
	defer b.refresh.Unlock()
	progress, _ := ctx.Value(progressKey{}).(Progress)
	var wg sync.WaitGroup
	results := make([]ProviderSnapshot, len(b.providers))
	for i, p := range b.providers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = b.fetchOne(ctx, p)
			if progress != nil {
				progress(results[i])
			}
		}()
	}
	wg.Wait()
	b.mu.Lock()
	for _, r := range results {
		b.last[r.Provider] = r
	}
	b.mu.Unlock()
	if b.opt.Store != nil {
		// Failures are saved too (a stale snapshot keeps the last good
		// offers), so the next process knows the provider is failing.
		for _, r := range results {
			if r.Status == StatusNotConfigured {
				continue
			}
			if err := b.opt.Store.SaveProviderSnapshot(ctx, r); err != nil {
				b.opt.Log.Warn("stock: save snapshot", "provider", r.Provider, "err", err)
			}
		}
	}
	return b.current()
}

func (b *Board) fetchOne(ctx context.Context, p Provider) (ps ProviderSnapshot) {
	name := p.Name()
	ctx, cancel := context.WithTimeout(ctx, b.opt.Timeout)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			ps = b.failed(name, fmt.Errorf("%s: provider panicked: %v", name, r))
		}
	}()
	start := time.Now()
	offers, err := b.fetchRetrying(ctx, p)
	defer func() { ps.Latency = time.Since(start) }()
	offers, dropped := sane(offers)
	offers, examples := withoutPlaceholders(offers)
	if examples > 0 {
		if b.placeholdersChanged(name, examples) {
			// Once per provider and count, not at every poll.
			b.opt.Log.Warn("stock: skipped example rows of an API's documentation", "provider", name, "count", examples)
		}
		defer func() { ps.Placeholders = examples }()
	}
	if dropped > 0 {
		b.opt.Log.Warn("stock: dropped offers with impossible prices", "provider", name, "count", dropped)
		if err == nil {
			err = fmt.Errorf("%s: dropped %d offers priced above %d CNY/GPU-hour or below 0: %w", name, dropped, MaxSanePrice, ErrPartial)
		}
	}
	defer func() { ps.Identity = identity(p) }()
	if err != nil && errors.Is(err, ErrPartial) {
		// Some inputs failed but others answered: keep the offers and say
		// what failed.
		b.opt.Log.Warn("stock: partial fetch", "provider", name, "err", err)
		now := b.opt.Now()
		ps := ProviderSnapshot{Provider: name, Status: StatusOK, FetchedAt: now, Err: err.Error(), Reason: ReasonPartial}
		ps.Offers, ps.Absent = b.carryAbsent(name, offers, now)
		var pe *PartialError
		if errors.As(err, &pe) {
			ps.FailedPlatforms = pe.Platforms
		}
		return ps
	}
	if err != nil {
		if errors.Is(err, ErrNotConfigured) {
			return ProviderSnapshot{Provider: name, Status: StatusNotConfigured, Err: err.Error()}
		}
		b.opt.Log.Warn("stock: fetch failed", "provider", name, "err", err)
		return b.failed(name, err)
	}
	now := b.opt.Now()
	ps = ProviderSnapshot{Provider: name, Status: StatusOK, FetchedAt: now}
	ps.Offers, ps.Absent = b.carryAbsent(name, offers, now)
	return ps
}

// carryAbsent appends to a good answer's offers the last figures of each
// platform × GPU type the provider's previous snapshot had and this answer
// leaves out, marked Stale, with the list of those types: missing from one
// answer is unknown, not sold out. A type last listed more than AbsentFor
// before now is gone and dropped.
func (b *Board) carryAbsent(name string, offers []Offer, now time.Time) ([]Offer, []Absent) {
	b.mu.Lock()
	prev, ok := b.last[name]
	b.mu.Unlock()
	if !ok || len(prev.Offers) == 0 || b.opt.AbsentFor < 0 {
		return offers, nil
	}
	type key struct{ platform, gpu string }
	listed := make(map[key]bool, len(offers))
	for i := range offers {
		listed[key{offers[i].Platform, offers[i].GPU}] = true
	}
	since := make(map[key]time.Time, len(prev.Absent))
	for _, a := range prev.Absent {
		since[key{a.Platform, a.GPU}] = a.LastSeen
	}
	out := offers[:len(offers):len(offers)] // appends never write into the provider's slice
	var absent []Absent
	for _, o := range prev.Offers {
		k := key{o.Platform, o.GPU}
		if o.Source == SourceCatalog || listed[k] {
			continue
		}
		seen, carried := since[k]
		if !carried {
			seen = prev.FetchedAt // listed in the previous answer
		}
		if seen.IsZero() || now.Sub(seen) > b.opt.AbsentFor {
			continue
		}
		if !slices.ContainsFunc(absent, func(a Absent) bool { return a.Platform == k.platform && a.GPU == k.gpu }) {
			absent = append(absent, Absent{Platform: k.platform, GPU: k.gpu, LastSeen: seen})
		}
		o.Stale = true
		out = append(out, o)
	}
	return out, absent
}

func (b *Board) failed(name string, err error) ProviderSnapshot {
	b.mu.Lock()
	prev, ok := b.last[name]
	b.mu.Unlock()
	ps := ProviderSnapshot{Provider: name, Status: StatusError, Err: err.Error(), Failures: 1, Reason: Classify(err)}
	if ok {
		ps.Failures = prev.Failures + 1
		if len(prev.Offers) > 0 {
			ps.Status = StatusStale
			ps.Offers = prev.Offers
			ps.FetchedAt = prev.FetchedAt
			ps.Absent = prev.Absent
		}
	}
	return ps
}

// Snapshot returns the current offers, refreshing first when the newest
// data is older than MaxAge or missing.
func (b *Board) Snapshot(ctx context.Context) Snapshot {
	if b.opt.MaxAge > 0 && b.needsRefresh() {
		return b.Refresh(ctx)
	}
	return b.current()
}

func (b *Board) needsRefresh() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.opt.Now()
	for _, p := range b.providers {
		s, ok := b.last[p.Name()]
		if !ok || s.Status != StatusOK || now.Sub(s.FetchedAt) > b.opt.MaxAge {
			if ok && s.Status == StatusNotConfigured {
				continue
			}
			return true
		}
	}
	return false
}

func (b *Board) current() Snapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	snap := Snapshot{TakenAt: b.opt.Now()}
	for _, p := range b.providers {
		if s, ok := b.last[p.Name()]; ok {
			if s.Status == StatusOK && !s.FetchedAt.IsZero() && b.opt.MaxAge > 0 && snap.TakenAt.Sub(s.FetchedAt) > 10*b.opt.MaxAge {
				// Restored from before a restart and not refreshed since.
				s.Status = StatusStale
			}
			if s.Status == StatusStale {
				offers := make([]Offer, len(s.Offers))
				copy(offers, s.Offers)
				for i := range offers {
					offers[i].Stale = true
				}
				s.Offers = offers
			}
			snap.Providers = append(snap.Providers, s)
		}
	}
	sort.SliceStable(snap.Providers, func(i, j int) bool { return snap.Providers[i].Provider < snap.Providers[j].Provider })
	return snap
}

// sane drops offers with a negative, non-finite or absurd price.
func sane(offers []Offer) ([]Offer, int) {
	out := offers[:0:0]
	dropped := 0
	for _, o := range offers {
		if o.CNYPerGPUHour < 0 || o.CNYPerGPUHour > MaxSanePrice || math.IsNaN(o.CNYPerGPUHour) {
			dropped++
			continue
		}
		out = append(out, o)
	}
	return out, dropped
}

// placeholdersChanged records how many example rows a provider's fetch
// skipped and reports whether that differs from the last time.
func (b *Board) placeholdersChanged(provider string, n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.examples == nil {
		b.examples = map[string]int{}
	}
	changed := b.examples[provider] != n
	b.examples[provider] = n
	return changed
}

// withoutPlaceholders drops example rows (Placeholder).
func withoutPlaceholders(offers []Offer) ([]Offer, int) {
	out := offers[:0:0]
	for _, o := range offers {
		if !Placeholder(o) {
			out = append(out, o)
		}
	}
	return out, len(offers) - len(out)
}

// fetchRetrying calls p.Fetch under the bot's retry policy: transient
// failures are tried again (Retries times, backoff from Backoff), a 429's
// Retry-After is waited out, or ends the retries when it would outlast the
// fetch's timeout.
func (b *Board) fetchRetrying(ctx context.Context, p Provider) ([]Offer, error) {
	var offers []Offer
	var last error
	tries := 0
	err := retry.Do(ctx, retry.Policy{Tries: b.opt.Retries + 1, Initial: b.opt.Backoff}, func(ctx context.Context) error {
		if tries++; tries > 1 {
			b.opt.Log.Debug("stock: retrying", "provider", p.Name(), "attempt", tries, "err", last)
		}
		offers, last = p.Fetch(ctx)
		return last
	}, func(err error) retry.Verdict {
		return retry.Verdict{Retry: transient(err), After: RetryAfter(err)}
	})
	if err != nil && last != nil && ctx.Err() != nil {
		// The timeout ended a wait to retry: what failed is the last
		// answer (a 502, a rate limit), and that is what answers name.
		err = last
	}
	if err != nil && !errors.Is(err, ErrPartial) {
		return nil, err
	}
	return offers, err
}

// transient reports errors worth retrying: rate limits, server errors and
// network trouble, not rejected credentials, missing configuration, bad
// or empty answers or partial results.
func transient(err error) bool {
	switch {
	case errors.Is(err, ErrNotConfigured), errors.Is(err, ErrUnauthorized), errors.Is(err, ErrBadResponse), errors.Is(err, ErrEmpty), errors.Is(err, ErrPartial):
		return false
	case errors.Is(err, context.Canceled):
		return false
	}
	return true
}

// Providers returns the board's providers.
func (b *Board) Providers() []Provider { return b.providers }
