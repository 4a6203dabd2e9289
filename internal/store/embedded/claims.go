package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// claimEntry is an owned claim's value in bucketClaims (ClaimAs). A claim
// taken by ClaimAlert is stored as its bare expiry (a JSON time), as files
// written before owned claims existed hold them.
type claimEntry struct {
	Owner   string    `json:"owner"`
	Expires time.Time `json:"expires"`
}

// decodeClaim reads a value of bucketClaims: its expiry and its owner (""
// for a ClaimAlert claim). ok is false when it does not decode; such a
// claim counts as expired.
func decodeClaim(v []byte) (exp time.Time, owner string, ok bool) {
	if bytes.HasPrefix(v, []byte("{")) {
		var e claimEntry
		if json.Unmarshal(v, &e) != nil {
			return time.Time{}, "", false
		}
		return e.Expires, e.Owner, true
	}
	return exp, "", json.Unmarshal(v, &exp) == nil
}

// claim takes key for ttl unless a live claim holds it; owner "" stores the
// bare expiry (ClaimAlert), otherwise a claimEntry. what names the call in
// errors. The claim is decided in memory and written behind (see
// claimWriter); wait makes the call wait for its commit and fail when the
// commit fails. Each claim is indexed by its expiry (bucketClaimExpiry) so
// that expired claims are pruned without a scan.
func (s *Store) claim(ctx context.Context, key, owner string, ttl time.Duration, what string, wait bool) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("embedded store: %s %q: %w", what, key, err)
	}
	if key == "" {
		return false, fmt.Errorf("embedded store: %s: empty key", what)
	}
	if ttl <= 0 {
		return false, fmt.Errorf("embedded store: %s %q: ttl %v is not positive", what, key, ttl)
	}
	if len(key) > maxClaimKey {
		// Written behind, it would fail every commit it is part of.
		return false, fmt.Errorf("embedded store: %s: key of %d bytes, more than %d", what, len(key), maxClaimKey)
	}
	w := s.cw
	now := s.now()
	held, err := s.decide(key, now)
	if err != nil || held {
		w.mu.Unlock()
		if err != nil {
			return false, fmt.Errorf("embedded store: %s %q: %w", what, key, err)
		}
		return false, nil
	}
	prev, pending := w.pending[key]
	w.put(key, pendingClaim{owner: owner, exp: now.Add(ttl), alert: wait, overDel: pending && prev.del})
	var done chan error
	if wait {
		done = make(chan error, 1)
		w.waiters = append(w.waiters, done)
	}
	w.mu.Unlock()
	s.maybeSweepClaims()
	if !wait {
		return true, nil
	}
	// Not bounded by ctx: the claim is in the commit under way, and a
	// caller told it failed would not release it (see claimWriter).
	if err := <-done; err != nil {
		return false, fmt.Errorf("embedded store: %s %q: %w", what, key, err)
	}
	return true, nil
}

// decide reports whether key is held at now, and returns with s.cw.mu
// held whatever it reports. A key with nothing pending is read from the
// file outside the lock (a read transaction that may fault in pages the
// writer just wrote; under the lock it would hold up every other claim),
// then decided under the lock unless a commit or a release changed the
// file meanwhile (w.gen), which makes it look again.
func (s *Store) decide(key string, now time.Time) (bool, error) {
	w := s.cw
	for {
		w.mu.Lock()
		if err := w.usable(); err != nil {
			return false, err
		}
		if p, ok := w.pending[key]; ok {
			return p.held(now), nil
		}
		gen := w.gen
		w.mu.Unlock()
		_, held, err := s.fileClaim(key, now)
		if s.afterFileRead != nil {
			s.afterFileRead(key)
		}
		w.mu.Lock()
		if w.gen != gen {
			w.mu.Unlock()
			continue
		}
		if err == nil {
			err = w.usable()
		}
		if p, ok := w.pending[key]; ok && err == nil {
			held = p.held(now) // claimed meanwhile
		}
		return held, err
	}
}

// usable is the error a claim fails with now (under mu): the store is
// closed, or a commit failed lately (refusal).
func (w *claimWriter) usable() error {
	if w.closed {
		return errStoreClosed
	}
	return w.refusal(time.Now())
}

// maxClaimKey is the longest claim key: bolt's limit less the expiry
// index's 8-byte prefix.
const maxClaimKey = bolt.MaxKeySize - 8

// ClaimAs is ClaimAlert with the claim's owner recorded: it returns true
// for the first caller with key within ttl (whoever the owner) and false
// for every later one, the same owner included, until the claim expires or
// is released. ClaimOwner reads the owner back; ReleaseAs frees the claim
// only for its owner. owner must not be empty; ttl must be positive. It
// returns before the claim is in the file (see claimWriter).
func (s *Store) ClaimAs(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if owner == "" {
		return false, fmt.Errorf("embedded store: claim %q: empty owner", key)
	}
	return s.claim(ctx, key, owner, ttl, "claim", false)
}

// ClaimOwner reports whether key is claimed and by whom: the owner given
// to ClaimAs, or "" for a claim taken by ClaimAlert. An expired claim is
// not held.
func (s *Store) ClaimOwner(ctx context.Context, key string) (owner string, held bool, err error) {
	if err := ctx.Err(); err != nil {
		return "", false, fmt.Errorf("embedded store: claim owner %q: %w", key, err)
	}
	s.cw.mu.Lock()
	owner, held, err = s.currentClaim(key, s.now())
	s.cw.mu.Unlock()
	if err != nil {
		return "", false, fmt.Errorf("embedded store: claim owner %q: %w", key, err)
	}
	return owner, held, nil
}

// ReleaseAs frees key if owner holds it (compare and delete) and reports
// whether it did; a claim of another owner, or none, is left as it is. An
// expired claim of owner is freed too.
func (s *Store) ReleaseAs(ctx context.Context, key, owner string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("embedded store: release %q: %w", key, err)
	}
	if owner == "" {
		return false, errors.New("embedded store: release: empty owner")
	}
	w := s.cw
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false, fmt.Errorf("embedded store: release %q: %w", key, errStoreClosed)
	}
	if p, ok := w.pending[key]; ok {
		if p.del || p.owner != owner {
			return false, nil
		}
		w.put(key, pendingClaim{owner: owner, del: true})
		return true, nil
	}
	released := false
	w.gen++ // the file changes under a claim deciding outside the lock
	err := s.claims.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketClaims)
		v := b.Get([]byte(key))
		if v == nil {
			return nil
		}
		if _, o, ok := decodeClaim(v); !ok || o != owner {
			return nil
		}
		released = true
		return b.Delete([]byte(key))
	})
	if err != nil {
		return false, fmt.Errorf("embedded store: release %q: %w", key, err)
	}
	return released, nil
}

// releaseAny frees key whoever holds it (ReleaseAlert).
func (s *Store) releaseAny(key string) error {
	w := s.cw
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return fmt.Errorf("embedded store: release alert %q: %w", key, errStoreClosed)
	}
	if _, ok := w.pending[key]; ok {
		w.put(key, pendingClaim{del: true})
		return nil
	}
	w.gen++
	return s.claims.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketClaims).Delete([]byte(key))
	})
}

// expiryKey is a claim's key in bucketClaimExpiry: its expiry in Unix
// nanoseconds, big-endian (so the bucket is in time order), then the
// claim's key.
func expiryKey(exp time.Time, key string) []byte {
	k := make([]byte, 8, 8+len(key))
	binary.BigEndian.PutUint64(k, uint64(exp.UnixNano()))
	return append(k, key...)
}

// maxSweep bounds the expired claims pruned in one transaction, so that
// a sweep after a long idle spell does not hold the writer for long; the
// next sweep goes on.
const maxSweep = 4096

// maybeSweepClaims prunes expired claims at most once per claimSweepEvery,
// in a transaction of its own, outside the claims' batches.
func (s *Store) maybeSweepClaims() {
	now := s.now()
	last := s.lastClaimSweep.Load()
	if now.UnixNano()-last < int64(claimSweepEvery) || !s.lastClaimSweep.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	_ = s.claims.Update(func(tx *bolt.Tx) error {
		if sweepClaims(tx, now) {
			// More are due: the next claim sweeps again.
			s.lastClaimSweep.Store(0)
		}
		return nil
	})
}

// claimSweepEvery is how often, at most, expired claims are pruned; a
// sweep reads only the claims it deletes, so it runs often and short.
const claimSweepEvery = time.Second

// sweepClaims deletes up to maxSweep claims that expired before now,
// walking bucketClaimExpiry from its oldest entry and stopping at the
// first live one: it reads only what it deletes. An index entry whose
// claim was renewed (claimed again after it expired) or released is
// dropped and the claim left as it is. more reports that expired entries
// remain. Failures are ignored (an expired claim is absent anyway; the
// next sweep retries).
func sweepClaims(tx *bolt.Tx, now time.Time) (more bool) {
	idx, b := tx.Bucket(bucketClaimExpiry), tx.Bucket(bucketClaims)
	c := idx.Cursor()
	for n, k := 0, firstKey(c); k != nil; n, k = n+1, firstKey(c) {
		if len(k) < 8 || int64(binary.BigEndian.Uint64(k[:8])) > now.UnixNano() {
			return false
		}
		if n == maxSweep {
			return true
		}
		key := k[8:]
		if v := b.Get(key); v != nil {
			if exp, _, ok := decodeClaim(v); !ok || !now.Before(exp) {
				_ = b.Delete(key)
			}
		}
		if c.Delete() != nil {
			return false
		}
	}
	return false
}

// firstKey is the cursor's first key (nil for an empty bucket).
func firstKey(c *bolt.Cursor) []byte {
	k, _ := c.First()
	return k
}

// indexClaims builds bucketClaimExpiry for a claims file written before
// it existed (one scan, at Open); a claim that does not decode is
// deleted.
func indexClaims(tx *bolt.Tx) error {
	b := tx.Bucket(bucketClaims)
	idx, err := tx.CreateBucket(bucketClaimExpiry)
	if err != nil {
		return err
	}
	var bad [][]byte
	err = b.ForEach(func(k, v []byte) error {
		exp, _, ok := decodeClaim(v)
		if !ok {
			bad = append(bad, append([]byte(nil), k...))
			return nil
		}
		return idx.Put(expiryKey(exp, string(k)), nil)
	})
	for _, k := range bad {
		if err == nil {
			err = b.Delete(k)
		}
	}
	return err
}
