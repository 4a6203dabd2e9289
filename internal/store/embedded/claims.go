package embedded

import (
	"bytes"
	"context"
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
// errors.
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
	won := false
	err := s.claims.Update(func(tx *bolt.Tx) error {
		now := s.now()
		s.sweepClaims(tx, now)
		b := tx.Bucket(bucketClaims)
		if v := b.Get([]byte(key)); v != nil {
			if exp, _, ok := decodeClaim(v); ok && now.Before(exp) {
				return nil
			}
		}
		var v []byte
		var err error
		if owner == "" {
			v, err = json.Marshal(now.Add(ttl))
		} else {
			v, err = json.Marshal(claimEntry{Owner: owner, Expires: now.Add(ttl)})
		}
		if err != nil {
			return err
		}
		if err := b.Put([]byte(key), v); err != nil {
			return err
		}
		won = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("embedded store: %s %q: %w", what, key, err)
	}
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
