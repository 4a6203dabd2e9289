package stock

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/sony/gobreaker/v2"
	"golang.org/x/sync/singleflight"

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
	// ProviderSnapshot.Absent) at most before it counts as gone, whatever
	// the number of answers (two whole answers without it end it sooner,
	// AbsenceOf): default
	// MaxAlertAge (24 h), the age past which a figure no longer moves an
	// alert anyway; negative: never carried.
	AbsentFor time.Duration
	// Budget is how long Snapshot (an answer) waits for the fetches it
	// started or joined before it answers from the last snapshot, naming
	// the late providers (ProviderSnapshot.Late); default DefaultBudget,
	// negative: wait for the fetches (each bounded by Timeout).
	Budget time.Duration
	// Breaker is each provider's circuit breaker.
	Breaker BreakerOptions
}

// DefaultBudget is how long an answer waits for a platform by default.
const DefaultBudget = 2 * time.Second

// BreakerOptions configure the circuit breaker every provider's fetches
// go through (sony/gobreaker): after Failures consecutive failed fetches
// (timeouts, network errors, 5xx, rate limits: not rejected credentials
// or unreadable answers, which are the platform answering) it opens, and
// for OpenFor no fetch is made: answers use the last snapshot and say the
// platform cannot be reached. Then one trial fetch (half-open) closes it
// again or reopens it.
type BreakerOptions struct {
	// Failures is how many consecutive failed fetches open the breaker
	// (default 5; negative: no breaker).
	Failures int
	// OpenFor is how long it stays open (default 1 minute).
	OpenFor time.Duration
}

// BreakerState is a provider's circuit breaker state.
type BreakerState string

const (
	BreakerClosed   BreakerState = "closed"
	BreakerHalfOpen BreakerState = "half-open"
	BreakerOpen     BreakerState = "open"
)

// Board holds the latest offers of every provider. A provider whose fetch
// fails keeps its previous offers, marked stale with their age; so does
// one that answers an empty list (ErrEmpty, ReasonEmpty): an empty answer
// is unknown, never an empty, "sold out" snapshot. Likewise a platform's
// GPU type that an otherwise good answer leaves out keeps its last
// figures, stale (ProviderSnapshot.Absent): a row missing for one poll is
// unknown, not sold out, so its return is no new "有货了". Left out of
// two whole answers in a row (or for longer than AbsentFor) it is sold out
// and dropped (AbsenceOf), so its return later alerts once.
//
// Each provider is fetched at most once at a time (single-flight): the
// poller's Refresh and every answer's Snapshot that need it while a fetch
// runs share that fetch. A fetch runs on the board's own context, under
// Timeout, whoever started it, so an answer that stops waiting (Budget)
// never cancels what the others wait for. Each provider's fetches go
// through its circuit breaker (BreakerOptions).
type Board struct {
	providers []Provider
	opt       BoardOptions

	mu   sync.Mutex
	last map[string]ProviderSnapshot
	// examples is the example-row count last skipped per provider.
	examples map[string]int

	flight singleflight.Group
	// running is when each fetch running now started (wall time: it is
	// set against the budget's timer).
	running  map[string]time.Time
	breakers map[string]*gobreaker.CircuitBreaker[[]Offer]
	// ctx bounds every fetch (Close cancels it).
	ctx    context.Context
	cancel context.CancelFunc
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
	if opt.Budget == 0 {
		opt.Budget = DefaultBudget
	}
	if opt.Breaker.Failures == 0 {
		opt.Breaker.Failures = 5
	}
	if opt.Breaker.OpenFor <= 0 {
		opt.Breaker.OpenFor = time.Minute
	}
	b := &Board{providers: providers, opt: opt, last: map[string]ProviderSnapshot{}, running: map[string]time.Time{},
		breakers: map[string]*gobreaker.CircuitBreaker[[]Offer]{}}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	if opt.Breaker.Failures > 0 {
		for _, p := range providers {
			b.breakers[p.Name()] = newBreaker(p.Name(), opt.Breaker, opt.Log)
		}
	}
	return b
}

// newBreaker is one provider's circuit breaker.
func newBreaker(name string, o BreakerOptions, log *slog.Logger) *gobreaker.CircuitBreaker[[]Offer] {
	return gobreaker.NewCircuitBreaker[[]Offer](gobreaker.Settings{
		Name:        name,
		MaxRequests: 1,
		Timeout:     o.OpenFor,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= uint32(o.Failures) },
		// The platform answered: rejected credentials, an unreadable or
		// empty answer, a partial one. Only not answering trips it.
		IsSuccessful: func(err error) bool { return err == nil || !transient(err) },
		// The board closing is nobody's failure.
		IsExcluded: func(err error) bool { return errors.Is(err, context.Canceled) },
		OnStateChange: func(name string, from, to gobreaker.State) {
			log.Warn("stock: circuit breaker", "provider", name, "from", from.String(), "to", to.String())
		},
	})
}

// Close cancels the fetches still running (at shutdown, before the store
// closes).
func (b *Board) Close() { b.cancel() }

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
			// The recording process's breaker and running fetch are not
			// this one's.
			s.Breaker, s.Late, s.RunningFor = "", false, 0
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
// and returns the combined snapshot. A provider whose fetch is already
// running (for an answer) is not fetched again: Refresh waits for that
// fetch. A provider whose breaker is open is not fetched: it keeps its
// last snapshot.
func (b *Board) Refresh(ctx context.Context) Snapshot {
	progress, _ := ctx.Value(progressKey{}).(Progress)
	results := make(chan ProviderSnapshot, len(b.providers))
	for _, p := range b.providers {
		ch := b.start(p)
		go func() { results <- (<-ch).Val.(ProviderSnapshot) }()
	}
	for range b.providers {
		select {
		case r := <-results:
			if progress != nil {
				progress(r)
			}
		case <-ctx.Done():
			// The fetches go on (bounded by Timeout) for whoever else
			// waits; this caller stops.
			return b.current()
		}
	}
	return b.current()
}

// start starts p's fetch, or joins the one running; the channel gets its
// ProviderSnapshot once the fetch is recorded.
func (b *Board) start(p Provider) <-chan singleflight.Result {
	name := p.Name()
	return b.flight.DoChan(name, func() (any, error) {
		b.mu.Lock()
		b.running[name] = time.Now()
		b.mu.Unlock()
		defer func() {
			b.mu.Lock()
			delete(b.running, name)
			b.mu.Unlock()
		}()
		return b.fetchAndRecord(p), nil
	})
}

// runningFor is how long the fetch of name now running has run (0 when
// none runs).
func (b *Board) runningFor(name string) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if at, ok := b.running[name]; ok {
		return time.Since(at)
	}
	return 0
}

// fetchAndRecord fetches p through its breaker and records the result
// (in memory, then in the store). An open breaker leaves the last
// snapshot as it was.
func (b *Board) fetchAndRecord(p Provider) ProviderSnapshot {
	name := p.Name()
	ps, skipped := b.fetchOne(b.ctx, p)
	if skipped {
		b.mu.Lock()
		prev, ok := b.last[name]
		b.mu.Unlock()
		if !ok {
			prev = ProviderSnapshot{Provider: name, Status: StatusError, Err: ps.Err, Reason: ReasonNetwork}
		}
		return prev
	}
	b.mu.Lock()
	b.last[name] = ps
	b.mu.Unlock()
	if b.opt.Store != nil && ps.Status != StatusNotConfigured {
		// Failures are saved too (a stale snapshot keeps the last good
		// offers), so the next process knows the provider is failing.
		// The breaker's state goes with it: readiness on every replica
		// reads the poller's recorded state (it is cleared on Restore: a
		// breaker is the process's own).
		saved := ps
		if st := b.breakerState(name); st != BreakerClosed {
			saved.Breaker = st
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(b.ctx), b.opt.Timeout)
		defer cancel()
		if err := b.opt.Store.SaveProviderSnapshot(ctx, saved); err != nil {
			b.opt.Log.Warn("stock: save snapshot", "provider", name, "err", err)
		}
	}
	return ps
}

// fetchOne fetches p under the timeout and its breaker; skipped reports
// a fetch the open breaker did not make (ps then only carries why).
func (b *Board) fetchOne(ctx context.Context, p Provider) (ps ProviderSnapshot, skipped bool) {
	name := p.Name()
	ctx, cancel := context.WithTimeout(ctx, b.opt.Timeout)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			ps = b.failed(name, fmt.Errorf("%s: provider panicked: %v", name, r))
		}
	}()
	start := time.Now()
	offers, err := b.fetchBreaking(ctx, p)
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return ProviderSnapshot{Provider: name, Err: err.Error()}, true
	}
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
		ps.Offers, ps.Absent = b.carryAbsent(name, offers, now, true)
		var pe *PartialError
		if errors.As(err, &pe) {
			ps.FailedPlatforms = pe.Platforms
		}
		return ps, false
	}
	if err != nil {
		if errors.Is(err, ErrNotConfigured) {
			return ProviderSnapshot{Provider: name, Status: StatusNotConfigured, Err: err.Error()}, false
		}
		b.opt.Log.Warn("stock: fetch failed", "provider", name, "err", err)
		return b.failed(name, err), false
	}
	now := b.opt.Now()
	ps = ProviderSnapshot{Provider: name, Status: StatusOK, FetchedAt: now}
	ps.Offers, ps.Absent = b.carryAbsent(name, offers, now, false)
	return ps, false
}

// carryAbsent appends to an answer's offers the last figures of each
// platform × GPU type the provider's previous snapshot had and this answer
// leaves out, marked Stale, with the list of those types: missing from one
// answer is unknown, not sold out. A type that whole (not partial) answers
// have left out twice in a row is sold out (AbsenceOf): it is dropped, so
// a subscription to it observes sold out (a transition, sending nothing)
// and its return alerts once. A type last listed more than AbsentFor
// before now is dropped too. partial says the answer is cut off (some of
// the provider's inputs failed): it carries what it leaves out without
// counting as a miss.
func (b *Board) carryAbsent(name string, offers []Offer, now time.Time, partial bool) ([]Offer, []Absent) {
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
	before := make(map[key]Absent, len(prev.Absent))
	for _, a := range prev.Absent {
		before[key{a.Platform, a.GPU}] = a
	}
	out := offers[:len(offers):len(offers)] // appends never write into the provider's slice
	var absent []Absent
	decided := map[key]bool{}
	for _, o := range prev.Offers {
		k := key{o.Platform, o.GPU}
		if o.Source == SourceCatalog || listed[k] {
			continue
		}
		a, carried := before[k]
		if !carried {
			a = Absent{Platform: k.platform, GPU: k.gpu, LastSeen: prev.FetchedAt} // listed in the previous answer
		}
		if _, done := decided[k]; !done {
			if !partial {
				a.Misses++
			}
			decided[k] = AbsenceOf(a.Misses, a.LastSeen, now, b.opt.AbsentFor) == Unknown
			if decided[k] {
				absent = append(absent, a)
			}
		}
		if !decided[k] {
			continue
		}
		o.Stale = true
		out = append(out, o)
	}
	return out, absent
}

// SoldOutAfterMisses is how many whole answers in a row must leave a GPU
// type out before it counts as sold out (see AbsenceOf).
const SoldOutAfterMisses = 2

// AbsenceOf is what a platform's GPU type is when the provider's latest
// answer left it out: misses is how many whole (not partial, not empty,
// successful) answers in a row have left it out, lastSeen when an answer
// last listed it. Unknown (its last figures are carried, stale) after one
// miss; SoldOut (dropped: the platform stopped listing it, delisted or
// sold out) after SoldOutAfterMisses, or when it was last seen more than
// absentFor before now (negative absentFor: never carried; a zero
// lastSeen: unknown when, so not carried).
func AbsenceOf(misses int, lastSeen, now time.Time, absentFor time.Duration) Available {
	switch {
	case absentFor < 0, lastSeen.IsZero(), now.Sub(lastSeen) > absentFor, misses >= SoldOutAfterMisses:
		return SoldOut
	}
	return Unknown
}

// fetchBreaking is fetchRetrying through p's circuit breaker.
func (b *Board) fetchBreaking(ctx context.Context, p Provider) ([]Offer, error) {
	cb := b.breakers[p.Name()]
	if cb == nil {
		return b.fetchRetrying(ctx, p)
	}
	return cb.Execute(func() ([]Offer, error) { return b.fetchRetrying(ctx, p) })
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

// Snapshot returns the current offers for an answer. Providers whose
// data is older than MaxAge (or missing, or failed) are fetched first —
// each through its one running fetch, shared with every other caller —
// but Snapshot waits at most Budget: a provider still fetching then is
// answered from its last snapshot, marked Late (its offers stale), and a
// Pending in ctx (WithPending) learns of it, to wait for the fresh data.
// A provider whose breaker is open is not fetched; it carries Breaker.
// Under WithoutRefresh nothing is fetched.
func (b *Board) Snapshot(ctx context.Context) Snapshot {
	pend := pendingFrom(ctx)
	if b.opt.MaxAge <= 0 || noRefresh(ctx) {
		return pend.note(b.current(), nil)
	}
	due := b.due()
	if len(due) == 0 {
		return pend.note(b.current(), nil)
	}
	done := make(map[string]<-chan struct{}, len(due))
	waited := time.Duration(0)
	for _, p := range due {
		done[p.Name()] = ended(b.start(p))
		// A fetch already running is waited for only what is left of
		// the budget since it started: one late beyond it is not waited
		// for again by every question after.
		waited = max(waited, b.runningFor(p.Name()))
	}
	late := b.await(ctx, done, b.opt.Budget-waited)
	snap := b.current()
	if len(late) == 0 {
		return pend.note(snap, nil)
	}
	for i, ps := range snap.Providers {
		if _, ok := late[ps.Provider]; ok {
			snap.Providers[i] = lateSnapshot(ps)
		}
	}
	for _, p := range b.providers {
		// Late without any earlier snapshot: unknown, and named.
		if _, ok := late[p.Name()]; ok && !hasProvider(snap, p.Name()) {
			snap.Providers = append(snap.Providers, ProviderSnapshot{Provider: p.Name(), Status: StatusError, Late: true})
		}
	}
	sort.SliceStable(snap.Providers, func(i, j int) bool { return snap.Providers[i].Provider < snap.Providers[j].Provider })
	return pend.note(snap, late)
}

// ended is closed once the fetch behind ch has answered.
func ended(ch <-chan singleflight.Result) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		<-ch
		close(done)
	}()
	return done
}

// await waits for the fetches in done for up to left (negative Budget:
// without limit), or until ctx ends, and returns those that had not
// answered, by provider.
func (b *Board) await(ctx context.Context, done map[string]<-chan struct{}, left time.Duration) map[string]<-chan struct{} {
	var budget <-chan time.Time
	if b.opt.Budget > 0 {
		t := time.NewTimer(max(left, 0))
		defer t.Stop()
		budget = t.C
	}
	for _, ch := range done {
		select {
		case <-ch:
			continue
		case <-budget:
		case <-ctx.Done():
		}
		// Out of time: this one and every other one not yet done is late.
		late := map[string]<-chan struct{}{}
		for n, c := range done {
			select {
			case <-c:
			default:
				late[n] = c
			}
		}
		return late
	}
	return nil
}

// lateSnapshot is ps while its fetch is late: its offers stale.
func lateSnapshot(ps ProviderSnapshot) ProviderSnapshot {
	ps.Late = true
	ps.Offers = staleCopy(ps.Offers)
	return ps
}

func hasProvider(s Snapshot, name string) bool {
	for _, p := range s.Providers {
		if p.Provider == name {
			return true
		}
	}
	return false
}

// staleCopy is offers, copied, each marked stale.
func staleCopy(in []Offer) []Offer {
	out := make([]Offer, len(in))
	copy(out, in)
	for i := range out {
		out[i].Stale = true
	}
	return out
}

// due lists the providers an answer should fetch first: never fetched,
// failed last time or older than MaxAge, and not behind an open breaker.
func (b *Board) due() []Provider {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.opt.Now()
	var out []Provider
	for _, p := range b.providers {
		s, ok := b.last[p.Name()]
		if ok && s.Status == StatusNotConfigured {
			continue
		}
		if ok && s.Status == StatusOK && now.Sub(s.FetchedAt) <= b.opt.MaxAge {
			continue
		}
		if b.breakerState(p.Name()) == BreakerOpen {
			continue
		}
		out = append(out, p)
	}
	return out
}

// breakerState is the provider's breaker state (closed without one).
func (b *Board) breakerState(name string) BreakerState {
	cb := b.breakers[name]
	if cb == nil {
		return BreakerClosed
	}
	switch cb.State() {
	case gobreaker.StateOpen:
		return BreakerOpen
	case gobreaker.StateHalfOpen:
		return BreakerHalfOpen
	}
	return BreakerClosed
}

// Health is every provider's last recorded state, with its breaker: what
// /readyz and /metrics read. It never fetches. A provider not fetched yet
// (its first fetch still running) is listed with an empty Status.
func (b *Board) Health() Snapshot {
	snap := b.current()
	if b.opt.Budget > 0 {
		for i, ps := range snap.Providers {
			if d := b.runningFor(ps.Provider); d > b.opt.Budget {
				snap.Providers[i].Late, snap.Providers[i].RunningFor = true, d
			}
		}
	}
	for _, p := range b.providers {
		if !hasProvider(snap, p.Name()) {
			ps := ProviderSnapshot{Provider: p.Name()}
			if d := b.runningFor(p.Name()); b.opt.Budget > 0 && d > b.opt.Budget {
				ps.Late, ps.RunningFor = true, d
			}
			if st := b.breakerState(p.Name()); st != BreakerClosed {
				ps.Breaker = st
			}
			snap.Providers = append(snap.Providers, ps)
		}
	}
	sort.SliceStable(snap.Providers, func(i, j int) bool { return snap.Providers[i].Provider < snap.Providers[j].Provider })
	return snap
}

func (b *Board) current() Snapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	snap := Snapshot{TakenAt: b.opt.Now()}
	for _, p := range b.providers {
		s, ok := b.last[p.Name()]
		if !ok {
			continue
		}
		if s.Status == StatusOK && !s.FetchedAt.IsZero() && b.opt.MaxAge > 0 && snap.TakenAt.Sub(s.FetchedAt) > 10*b.opt.MaxAge {
			// Restored from before a restart and not refreshed since.
			s.Status = StatusStale
		}
		if s.Status == StatusStale {
			s.Offers = staleCopy(s.Offers)
		}
		if st := b.breakerState(p.Name()); st != BreakerClosed {
			s.Breaker = st
		}
		snap.Providers = append(snap.Providers, s)
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
