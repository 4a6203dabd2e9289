package feishu

import (
	"context"
	"sync"
	"time"
)

// MemoryDeduper is a process-local Deduper: a map of keys to expiry times.
// It is what New uses when Options.Dedup is nil; it is not shared between
// replicas and forgets everything on restart, so production wiring passes
// the store (embedded or Redis) instead.
type MemoryDeduper struct {
	mu   sync.Mutex
	m    map[string]time.Time
	now  func() time.Time
	ops  int
	gcAt int
}

// NewMemoryDeduper returns an empty MemoryDeduper.
func NewMemoryDeduper() *MemoryDeduper {
	return &MemoryDeduper{m: make(map[string]time.Time), now: time.Now, gcAt: 1024}
}

// ClaimAlert returns true for the first caller with key within ttl and
// false for every later one until the claim expires.
func (d *MemoryDeduper) ClaimAlert(_ context.Context, key string, ttl time.Duration) (bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	if exp, ok := d.m[key]; ok && now.Before(exp) {
		return false, nil
	}
	d.m[key] = now.Add(ttl)
	// Sweep expired keys now and then, amortised over the insertions.
	if d.ops++; d.ops >= d.gcAt {
		for k, exp := range d.m {
			if !now.Before(exp) {
				delete(d.m, k)
			}
		}
		d.ops, d.gcAt = 0, max(1024, len(d.m))
	}
	return true, nil
}

// ReleaseAlert frees a claim.
func (d *MemoryDeduper) ReleaseAlert(_ context.Context, key string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.m, key)
	return nil
}

// held reports whether key has a live claim.
func (d *MemoryDeduper) held(key string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	exp, ok := d.m[key]
	return ok && d.now().Before(exp)
}

// Claim is one claim on an event or message id, as a Claimer took it.
type Claim struct {
	Key string
	// Held: the caller holds the claim and answers; false for a
	// duplicate.
	Held bool
	// Owner is the token the store holds for this claim ("" when the
	// store takes no tokens or the claim is Local); only a release with
	// it frees the claim.
	Owner string
	// Local: the store could not be used, the claim is in the process's
	// window (StoreDeduperOptions.Window).
	Local bool
}

// Claimer is how the callback claims event_id and message_id when
// Options.Dedup implements it (StoreDeduper does): each claim carries its
// own owner token, and Release frees only the caller's own claim. Other
// Dedupers are used through ClaimAlert and ReleaseAlert.
type Claimer interface {
	Claim(ctx context.Context, key string, ttl time.Duration) (Claim, error)
	// Release frees c, taken by Claim, when its work was not done (a
	// failed reply, a job dropped at shutdown), so Feishu's retry is
	// answered.
	Release(ctx context.Context, c Claim) error
}

// OwnerStore is a store whose claims carry an owner token; the embedded
// and Redis stores implement it. ClaimAs is SET NX with the owner as the
// value, ClaimOwner a GET, ReleaseAs a compare and delete.
type OwnerStore interface {
	ClaimAs(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	ClaimOwner(ctx context.Context, key string) (owner string, held bool, err error)
	ReleaseAs(ctx context.Context, key, owner string) (bool, error)
}

// claim claims key for DedupTTL through Options.Dedup.
func (b *Bot) claim(ctx context.Context, key string) (Claim, error) {
	if c, ok := b.opts.Dedup.(Claimer); ok {
		return c.Claim(ctx, key, DedupTTL)
	}
	held, err := b.opts.Dedup.ClaimAlert(ctx, key, DedupTTL)
	return Claim{Key: key, Held: held}, err
}

// releaseClaims frees claims whose work was not done; those of a Claimer
// only when they are the caller's own.
func (b *Bot) releaseClaims(cs ...Claim) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cl, owned := b.opts.Dedup.(Claimer)
	for _, c := range cs {
		if c.Key == "" {
			continue
		}
		var err error
		if owned {
			err = cl.Release(ctx, c)
		} else {
			err = b.opts.Dedup.ReleaseAlert(ctx, c.Key)
		}
		if err != nil {
			b.log.Warn("feishu: release dedup key", "key", c.Key, "err", err)
		}
	}
}
