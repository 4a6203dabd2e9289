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
// errors. Claims are committed in groups (bolt's DB.Batch: concurrent
// claims share one commit), and each is indexed by its expiry
// (bucketClaimExpiry) so that expired claims are pruned without a scan.
func (s *Store) claim(ctx context.Context, key, owner string, ttl time.Duration, what string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("embedded store: %s %q: %w", what, key, err)
	}
	if key == "" {
		return false, fmt.Errorf("embedded store: %s: empty key", what)
	}
	if ttl <= 0 {
		return false, fmt.Errorf("embedded store: %s %q: ttl %v is not positive", what, key, ttl)
	}
	var won bool
	// Batch may run the function twice (again on its own when another of
	// the group fails), so it sets won from scratch.
	err := s.claims.Batch(func(tx *bolt.Tx) error {
		won = false
		now := s.now()
		b := tx.Bucket(bucketClaims)
		if v := b.Get([]byte(key)); v != nil {
			if exp, _, ok := decodeClaim(v); ok && now.Before(exp) {
				return nil
			}
		}
		exp := now.Add(ttl)
		var v []byte
		var err error
		if owner == "" {
			v, err = json.Marshal(exp)
		} else {
			v, err = json.Marshal(claimEntry{Owner: owner, Expires: exp})
		}
		if err != nil {
			return err
		}
		if err := b.Put([]byte(key), v); err != nil {
			return err
		}
		if err := tx.Bucket(bucketClaimExpiry).Put(expiryKey(exp, key), nil); err != nil {
			return err
		}
		won = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("embedded store: %s %q: %w", what, key, err)
	}
	s.maybeSweepClaims()
	return won, nil
}

// ClaimAs is ClaimAlert with the claim's owner recorded: it returns true
// for the first caller with key within ttl (whoever the owner) and false
// for every later one, the same owner included, until the claim expires or
// is released. ClaimOwner reads the owner back; ReleaseAs frees the claim
// only for its owner. owner must not be empty; ttl must be positive.
func (s *Store) ClaimAs(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if owner == "" {
		return false, fmt.Errorf("embedded store: claim %q: empty owner", key)
	}
	return s.claim(ctx, key, owner, ttl, "claim")
}

// ClaimOwner reports whether key is claimed and by whom: the owner given
// to ClaimAs, or "" for a claim taken by ClaimAlert. An expired claim is
// not held.
func (s *Store) ClaimOwner(ctx context.Context, key string) (owner string, held bool, err error) {
	if err := ctx.Err(); err != nil {
		return "", false, fmt.Errorf("embedded store: claim owner %q: %w", key, err)
	}
	err = s.claims.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketClaims).Get([]byte(key))
		if v == nil {
			return nil
		}
		if exp, o, ok := decodeClaim(v); ok && s.now().Before(exp) {
			owner, held = o, true
		}
		return nil
	})
	if err != nil {
		return "", false, fmt.Errorf("embedded store: claim owner %q: %w", key, err)
	}
	return owner, held, nil
}

// ReleaseAs frees key if owner holds it (compare and delete) and reports
// whether it did; a claim of another owner, or none, is left as it is.
func (s *Store) ReleaseAs(ctx context.Context, key, owner string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("embedded store: release %q: %w", key, err)
	}
	if owner == "" {
		return false, errors.New("embedded store: release: empty owner")
	}
	released := false
	err := s.claims.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketClaims)
		v := b.Get([]byte(key))
		if v == nil {
			return nil
		}
		// An expired claim of owner is deleted too: it is owner's.
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
