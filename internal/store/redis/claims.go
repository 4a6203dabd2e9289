package redis

import (
	"context"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// ClaimAs is ClaimAlert with the claim's owner as the key's value: one SET
// NX PX, as ClaimAlert, sent with the other claims made meanwhile in one
// pipeline (see claimBatcher). It returns true for the first caller with key
// within ttl (whoever the owner) and false for every later one, the same
// owner included, until the claim expires or is released. When the call
// fails or times out the SET may still have been applied (or be applied
// later, by a paused server or a retry): ClaimOwner then tells whether the
// claim is the caller's, and ReleaseAs frees it only for its owner. owner
// must not be empty; ttl must be positive (millisecond resolution).
func (s *Store) ClaimAs(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if key == "" || owner == "" {
		return false, fmt.Errorf("redis store: claim %q for %q: empty key or owner", key, owner)
	}
	if ttl <= 0 {
		return false, fmt.Errorf("redis store: claim %q: ttl %v is not positive", key, ttl)
	}
	ok, err := s.claim(&claimReq{ctx: ctx, key: key, owner: owner, ttl: ttl, done: make(chan struct{})})
	if err != nil {
		return false, fmt.Errorf("redis store: claim %q: %w", key, err)
	}
	return ok, nil
}

// ClaimOwner reports whether key is claimed and by whom (GET): the owner
// given to ClaimAs, or "1" for a claim taken by ClaimAlert.
func (s *Store) ClaimOwner(ctx context.Context, key string) (owner string, held bool, err error) {
	v, err := s.c.Get(ctx, s.key("claim:", key)).Result()
	if errors.Is(err, goredis.Nil) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("redis store: claim owner %q: %w", key, err)
	}
	return v, true, nil
}

// ReleaseAs frees key if owner holds it (compare and delete, one script)
// and reports whether it did; a claim of another owner, or none, is left
// as it is.
func (s *Store) ReleaseAs(ctx context.Context, key, owner string) (bool, error) {
	if owner == "" {
		return false, fmt.Errorf("redis store: release %q: empty owner", key)
	}
	n, err := unlockScript.Run(ctx, s.c, []string{s.key("claim:", key)}, owner).Int()
	if err != nil {
		return false, fmt.Errorf("redis store: release %q: %w", key, err)
	}
	return n == 1, nil
}
