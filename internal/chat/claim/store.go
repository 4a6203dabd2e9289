package claim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of StoreDeduperOptions.
const (
	// DefaultFallbackWindow is how long a claim taken in the process,
	// while the store fails, is remembered.
	DefaultFallbackWindow = 10 * time.Minute
	// DefaultClaimTimeout bounds one claim in the store; with the
	// resolution after a timeout the callback still answers within
	// Feishu's 3 s.
	DefaultClaimTimeout = time.Second
	// DefaultProbeEvery is how often, during an outage, a claim tries the
	// store; the others go straight to the process's window.
	DefaultProbeEvery = time.Second
)

const (
	// resolveAttempts is how many times a failed claim asks the store
	// whose the claim is, each bounded by a quarter of ClaimTimeout,
	// after resolveBackoff, doubling.
	resolveAttempts = 3
	resolveBackoff  = 50 * time.Millisecond
	// releaseFor is how long a claim that may have landed in the store
	// after its call failed is released in the background.
	releaseFor = 2 * time.Minute
)

// StoreDeduperOptions configures a StoreDeduper; the zero value is the
// production setting.
type StoreDeduperOptions struct {
	// Replica names this process in owner tokens; default host name and
	// process id.
	Replica string
	// Window is how long claims taken in the process while the store
	// fails are remembered; default DefaultFallbackWindow. Negative: no
	// fallback, a store failure is returned (the callback answers 503 and
	// Feishu retries).
	Window time.Duration
	// ClaimTimeout bounds a claim in the store; default
	// DefaultClaimTimeout.
	ClaimTimeout time.Duration
	// ProbeEvery: during an outage one claim per ProbeEvery tries the
	// store; default DefaultProbeEvery.
	ProbeEvery time.Duration
	// Log receives one line when an outage starts and one when the store
	// answers again; default slog.Default().
	Log *slog.Logger
}

// StoreDeduper is the Feishu callback's Deduper over the bot's store
// (embedded or Redis); it implements Claimer. `bot serve` passes one as
// the Feishu bot's Options.Dedup.
//
// Owner tokens: when the store is an OwnerStore, every claim is a SET NX
// whose value is a token of its own (replica, a random nonce per process,
// a sequence number) — one round trip, as before. A claim that fails or
// times out may still be applied by the store (a Redis paused for 19 s
// applies it when it runs again, and the client may have retried it), so
// before deciding the deduper asks whose the claim is: a GET compared
// with the token, each with a fresh short context, a few times with
// backoff. Its own token: held. Another: a duplicate. None: the SET has
// not landed, so it claims again with the same token (a late landing of
// the first then finds the key taken). A lost SET NX is checked the same
// way, since it may be the client's retry of a SET that had landed. When
// nothing answers, the claim counts as not taken by this process and is
// released in the background (compare and delete, until the store
// answers, for up to releaseFor), so a redelivery is answered rather than
// taken for a duplicate.
//
// Fallback: while the store fails, claims are taken in a MemoryDeduper
// for Window (10 minutes): events are answered, deduplicated within this
// process, and counted (Fallbacks). One line is logged when the outage
// starts and one when the store answers again; during the outage one
// claim per ProbeEvery tries the store. Once it answers, claims go to the
// store again; a key claimed in the window stays a duplicate there until
// the window ends.
type StoreDeduper struct {
	store Deduper
	owned OwnerStore // nil when store takes no owner tokens
	opts  StoreDeduperOptions
	log   *slog.Logger

	prefix []byte // Replica + "/" + nonce + "."
	seq    atomic.Uint64

	local       *MemoryDeduper
	localUntil  atomic.Int64 // UnixNano until which local may hold claims
	down        atomic.Bool
	downSince   atomic.Int64
	nextProbe   atomic.Int64
	fallbacks   atomic.Uint64
	outageStart atomic.Uint64 // fallbacks when the outage began

	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex // guards closed and wg.Add
	closed bool
	wg     sync.WaitGroup
}

// NewStoreDeduper returns a StoreDeduper over store, which is usually the
// bot's store; owner tokens are used when it implements OwnerStore. A nil
// store is a MemoryDeduper (what the Feishu bot's New uses without
// Options.Dedup).
func NewStoreDeduper(store Deduper, opts StoreDeduperOptions) *StoreDeduper {
	if store == nil {
		store = NewMemoryDeduper()
	}
	if opts.Replica == "" {
		host, _ := os.Hostname()
		opts.Replica = host + "-" + strconv.Itoa(os.Getpid())
	}
	if opts.Window == 0 {
		opts.Window = DefaultFallbackWindow
	}
	if opts.ClaimTimeout <= 0 {
		opts.ClaimTimeout = DefaultClaimTimeout
	}
	if opts.ProbeEvery <= 0 {
		opts.ProbeEvery = DefaultProbeEvery
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	var nonce [6]byte
	_, _ = rand.Read(nonce[:])
	d := &StoreDeduper{store: store, opts: opts, log: opts.Log, local: NewMemoryDeduper(),
		prefix: []byte(opts.Replica + "/" + hex.EncodeToString(nonce[:]) + ".")}
	d.owned, _ = store.(OwnerStore)
	d.ctx, d.cancel = context.WithCancel(context.Background())
	return d
}

// Fallbacks counts the claims taken in the process because the store
// failed or was being skipped during an outage (for a metric).
func (d *StoreDeduper) Fallbacks() uint64 { return d.fallbacks.Load() }

// Degraded reports whether claims currently go to the process's window.
func (d *StoreDeduper) Degraded() bool { return d.down.Load() }

// Close stops the background releases and waits for them.
func (d *StoreDeduper) Close() error {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	d.cancel()
	d.wg.Wait()
	return nil
}

// token returns a new owner token, unique per claim call.
func (d *StoreDeduper) token() string {
	return string(strconv.AppendUint(append([]byte(nil), d.prefix...), d.seq.Add(1), 36))
}

// Claim claims key for ttl: in the store, or in the process's window when
// the store fails (see StoreDeduper). It returns an error only when there
// is no window (Window < 0) and the store's answer could not be had.
func (d *StoreDeduper) Claim(ctx context.Context, key string, ttl time.Duration) (Claim, error) {
	if d.inWindow(key) {
		return Claim{Key: key}, nil
	}
	if d.skipStore() {
		return d.claimLocal(key), nil
	}
	held, owner, err := d.claimStore(ctx, key, ttl)
	if err == nil {
		d.storeUp()
		return Claim{Key: key, Held: held, Owner: owner}, nil
	}
	if d.opts.Window < 0 {
		return Claim{Key: key}, err
	}
	d.storeDown(err)
	return d.claimLocal(key), nil
}

// Release frees c if it is the caller's: in the window, or in the store
// by its owner token (compare and delete; when the store does not answer
// the release goes on in the background and the error says so).
func (d *StoreDeduper) Release(ctx context.Context, c Claim) error {
	switch {
	case c.Local:
		if c.Held {
			return d.local.ReleaseAlert(ctx, c.Key)
		}
		return nil
	case c.Owner != "" && d.owned != nil:
		rctx, cancel := context.WithTimeout(ctx, d.opts.ClaimTimeout)
		defer cancel()
		if _, err := d.owned.ReleaseAs(rctx, c.Key, c.Owner); err != nil {
			d.releaseLater(c.Key, c.Owner)
			return fmt.Errorf("feishu dedup: release %q (retrying in the background): %w", c.Key, err)
		}
		return nil
	case c.Held:
		rctx, cancel := context.WithTimeout(ctx, d.opts.ClaimTimeout)
		defer cancel()
		return d.store.ReleaseAlert(rctx, c.Key)
	}
	return nil
}

// ClaimAlert is Claim without the token (Deduper).
func (d *StoreDeduper) ClaimAlert(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	c, err := d.Claim(ctx, key, ttl)
	return c.Held, err
}

// ReleaseAlert frees key in the window and in the store, whoever holds it
// (Deduper); the callback uses Release.
func (d *StoreDeduper) ReleaseAlert(ctx context.Context, key string) error {
	_ = d.local.ReleaseAlert(ctx, key)
	return d.store.ReleaseAlert(ctx, key)
}

// claimStore claims key in the store; see StoreDeduper for a claim that
// fails or is lost.
func (d *StoreDeduper) claimStore(ctx context.Context, key string, ttl time.Duration) (held bool, owner string, err error) {
	cctx, cancel := context.WithTimeout(ctx, d.opts.ClaimTimeout)
	defer cancel()
	if d.owned == nil {
		held, err = d.store.ClaimAlert(cctx, key, ttl)
		return held, "", err
	}
	owner = d.token()
	ok, err := d.owned.ClaimAs(cctx, key, owner, ttl)
	if err == nil && ok {
		return true, owner, nil
	}
	held, rerr := d.resolve(key, owner, ttl)
	switch {
	case rerr == nil:
		return held, owner, nil
	case err == nil:
		// The store said no and then did not answer: a duplicate.
		return false, owner, nil
	}
	// Not known to be ours: ours is freed when it lands.
	d.releaseLater(key, owner)
	return false, "", fmt.Errorf("feishu dedup: claim %q failed and its owner is unknown: %w (then %v)", key, err, rerr)
}

// resolve finds out whether key is held by owner, with fresh short
// contexts, retried with backoff; a free key is claimed again with the
// same token.
func (d *StoreDeduper) resolve(key, owner string, ttl time.Duration) (bool, error) {
	var last error
	wait := resolveBackoff
	for i := range resolveAttempts {
		if i > 0 {
			if !d.sleep(wait) {
				break
			}
			wait *= 2
		}
		held, err := d.resolveOnce(key, owner, ttl)
		if err == nil {
			return held, nil
		}
		last = err
	}
	return false, last
}

var errFree = errors.New("claim free after a lost claim")

func (d *StoreDeduper) resolveOnce(key, owner string, ttl time.Duration) (bool, error) {
	ctx, cancel := context.WithTimeout(d.ctx, d.opts.ClaimTimeout/4)
	defer cancel()
	holder, held, err := d.owned.ClaimOwner(ctx, key)
	if err != nil {
		return false, err
	}
	if held {
		return holder == owner, nil
	}
	// Free: the first SET has not landed; one landing later finds this.
	ok, err := d.owned.ClaimAs(ctx, key, owner, ttl)
	switch {
	case err != nil:
		return false, err
	case ok:
		return true, nil
	}
	return false, errFree // taken meanwhile: look again
}

// releaseLater frees owner's claim on key in the background: a compare
// and delete until it deletes, or until two in a row, on a store that
// answers, find nothing of owner's (a SET held back by a paused server
// has landed by the second), or releaseFor passes.
func (d *StoreDeduper) releaseLater(key, owner string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || d.owned == nil {
		return
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		deadline := time.Now().Add(releaseFor)
		wait, misses := resolveBackoff, 0
		for {
			ctx, cancel := context.WithTimeout(d.ctx, d.opts.ClaimTimeout)
			released, err := d.owned.ReleaseAs(ctx, key, owner)
			cancel()
			switch {
			case err == nil && released:
				d.log.Info("feishu dedup: released a claim whose outcome was unknown", "key", key)
				return
			case err == nil:
				if misses++; misses >= 2 {
					return
				}
			}
			if time.Now().After(deadline) {
				d.log.Warn("feishu dedup: could not release a claim whose outcome was unknown; a redelivery may be taken for a duplicate",
					"key", key, "err", err)
				return
			}
			if !d.sleep(wait) {
				return
			}
			wait = min(2*wait, 5*time.Second)
		}
	}()
}

// sleep waits for d, or returns false when the deduper is closed.
func (d *StoreDeduper) sleep(wait time.Duration) bool {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-d.ctx.Done():
		return false
	}
}

// inWindow reports whether key was claimed in the process's window.
func (d *StoreDeduper) inWindow(key string) bool {
	return time.Now().UnixNano() < d.localUntil.Load() && d.local.held(key)
}

// claimLocal claims key in the window.
func (d *StoreDeduper) claimLocal(key string) Claim {
	d.fallbacks.Add(1)
	now := time.Now()
	d.localUntil.Store(now.Add(d.opts.Window).UnixNano())
	held, _ := d.local.ClaimAlert(context.Background(), key, d.opts.Window)
	return Claim{Key: key, Held: held, Local: true}
}

// skipStore reports whether a claim goes straight to the window: during
// an outage, all but one claim per ProbeEvery.
func (d *StoreDeduper) skipStore() bool {
	if !d.down.Load() {
		return false
	}
	now := time.Now().UnixNano()
	next := d.nextProbe.Load()
	return now < next || !d.nextProbe.CompareAndSwap(next, now+int64(d.opts.ProbeEvery))
}

// storeDown notes a failed claim; the first of an outage is logged.
func (d *StoreDeduper) storeDown(err error) {
	now := time.Now()
	d.nextProbe.Store(now.Add(d.opts.ProbeEvery).UnixNano())
	if d.down.CompareAndSwap(false, true) {
		d.downSince.Store(now.UnixNano())
		d.outageStart.Store(d.fallbacks.Load())
		d.log.Warn("feishu dedup: store unavailable; answering with claims deduplicated in this process until it is back",
			"window", d.opts.Window, "err", err)
	}
}

// storeUp notes a claim the store answered; the first after an outage is
// logged.
func (d *StoreDeduper) storeUp() {
	if d.down.Load() && d.down.CompareAndSwap(true, false) {
		d.log.Info("feishu dedup: store is back; claims go to the store again",
			"outage", time.Since(time.Unix(0, d.downSince.Load())).Round(time.Millisecond),
			"claims_in_process", d.fallbacks.Load()-d.outageStart.Load())
	}
}

var (
	_ Deduper = (*StoreDeduper)(nil)
	_ Claimer = (*StoreDeduper)(nil)
)
