package claim

import (
	"context"
	"sync"
	"time"
)

// MemoryDeduper is a process-local Deduper: a map of keys to expiry times.
// It is what the Feishu bot's New uses when Options.Dedup is nil; it is
// not shared between replicas and forgets everything on restart, so
// production wiring passes the store (embedded or Redis) instead.
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
