package embedded

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/labgpu/bot/internal/stock"
)

// sweepEvery is how often, at most, expired claims, mutes and locks are
// pruned from the file (each is also treated as absent once expired, so this
// only bounds the file's growth).
const sweepEvery = time.Minute

// lockEntry is a lock's value in bucketLocks.
type lockEntry struct {
	Owner   string    `json:"owner"`
	Expires time.Time `json:"expires"`
}

// AddSubscription stores sub, replacing one with the same ID.
func (s *Store) AddSubscription(ctx context.Context, sub stock.Subscription) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: add subscription %q: %w", sub.ID, err)
	}
	if sub.ID == "" {
		return errors.New("embedded store: add subscription: empty id")
	}
	return s.putJSON(bucketSubscriptions, sub.ID, sub, "subscription", "add")
}

// AddSubscriptionIf stores sub when check, given every stored
// subscription (oldest first) inside the same write transaction, returns
// nil; otherwise it stores nothing and returns check's error (wrapped).
// No other write comes between check's read and the add, so a check
// ("no such subscription yet", "fewer than 20 of this member's") holds
// for what is stored. check may run more than once; it must not keep
// state between runs.
func (s *Store) AddSubscriptionIf(ctx context.Context, sub stock.Subscription, check func([]stock.Subscription) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: add subscription %q: %w", sub.ID, err)
	}
	if sub.ID == "" {
		return errors.New("embedded store: add subscription: empty id")
	}
	v, err := json.Marshal(sub)
	if err != nil {
		return fmt.Errorf("embedded store: encode subscription %q: %w", sub.ID, err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSubscriptions)
		var all []stock.Subscription
		_ = b.ForEach(func(_, v []byte) error {
			var x stock.Subscription
			if json.Unmarshal(v, &x) == nil { // one that does not decode is no match
				all = append(all, x)
			}
			return nil
		})
		sortSubscriptions(all)
		if err := check(all); err != nil {
			return err
		}
		return b.Put([]byte(sub.ID), v)
	})
	if err != nil {
		return fmt.Errorf("embedded store: add subscription %q: %w", sub.ID, err)
	}
	return nil
}

// RemoveSubscription deletes the subscription; a missing id is no error.
// The subscription's notify record is not touched (DeleteNotifyRecord).
func (s *Store) RemoveSubscription(ctx context.Context, id string) error {
	return s.deleteKey(ctx, bucketSubscriptions, id, "remove subscription")
}

// Subscriptions lists every subscription, oldest first (then by ID). A
// record that does not decode is skipped and reported in the error, the
// others still load.
func (s *Store) Subscriptions(ctx context.Context) ([]stock.Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embedded store: list subscriptions: %w", err)
	}
	out, bad, err := decodeAll[stock.Subscription](s.db, bucketSubscriptions, "subscription")
	if err != nil {
		return nil, fmt.Errorf("embedded store: list subscriptions: %w", err)
	}
	sortSubscriptions(out)
	return out, bad
}

func sortSubscriptions(subs []stock.Subscription) {
	sort.SliceStable(subs, func(i, j int) bool {
		if !subs[i].CreatedAt.Equal(subs[j].CreatedAt) {
			return subs[i].CreatedAt.Before(subs[j].CreatedAt)
		}
		return subs[i].ID < subs[j].ID
	})
}

// NotifyRecords returns the records of the given subscriptions; one without
// a record is absent from the (never nil) map. A record that does not decode
// is left out and reported in the error.
func (s *Store) NotifyRecords(ctx context.Context, ids []string) (map[string]stock.NotifyRecord, error) {
	out := map[string]stock.NotifyRecord{}
	if err := ctx.Err(); err != nil {
		return out, fmt.Errorf("embedded store: get notify records: %w", err)
	}
	var bad error
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketNotify)
		for _, id := range ids {
			if id == "" {
				continue
			}
			v := b.Get([]byte(id))
			if v == nil {
				continue
			}
			var rec stock.NotifyRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				bad = fmt.Errorf("embedded store: notify record %q does not decode: %w", id, err)
				continue
			}
			out[id] = rec
		}
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("embedded store: get notify records: %w", err)
	}
	return out, bad
}

// PutNotifyRecords stores recs in one transaction, replacing those with the
// same SubscriptionID.
func (s *Store) PutNotifyRecords(ctx context.Context, recs []stock.NotifyRecord) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: put notify records: %w", err)
	}
	if len(recs) == 0 {
		return nil
	}
	enc := make([][]byte, len(recs))
	for i, r := range recs {
		if r.SubscriptionID == "" {
			return errors.New("embedded store: put notify records: record without subscription id")
		}
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("embedded store: encode notify record %q: %w", r.SubscriptionID, err)
		}
		enc[i] = b
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketNotify)
		for i, r := range recs {
			if err := b.Put([]byte(r.SubscriptionID), enc[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("embedded store: put notify records: %w", err)
	}
	return nil
}

// DeleteNotifyRecord removes a subscription's record; a missing one is no
// error.
func (s *Store) DeleteNotifyRecord(ctx context.Context, id string) error {
	return s.deleteKey(ctx, bucketNotify, id, "delete notify record")
}

// ClaimAlert returns true for the first caller with key within ttl and false
// for every later one until the claim expires. ttl must be positive.
func (s *Store) ClaimAlert(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	return s.claim(ctx, key, "", ttl, "claim alert", true)
}

// SetMute mutes the chat until the given time; a zero or past time unmutes.
func (s *Store) SetMute(ctx context.Context, chatKey string, until time.Time) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: set mute %q: %w", chatKey, err)
	}
	if chatKey == "" {
		return errors.New("embedded store: set mute: empty chat key")
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		now := s.now()
		s.sweep(tx, now)
		b := tx.Bucket(bucketMutes)
		if until.IsZero() || !until.After(now) {
			return b.Delete([]byte(chatKey))
		}
		v, err := json.Marshal(until)
		if err != nil {
			return err
		}
		return b.Put([]byte(chatKey), v)
	})
	if err != nil {
		return fmt.Errorf("embedded store: set mute %q: %w", chatKey, err)
	}
	return nil
}

// MutedUntil returns when the chat's mute ends, or the zero time when it is
// not muted (never muted, unmuted or expired).
func (s *Store) MutedUntil(ctx context.Context, chatKey string) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, fmt.Errorf("embedded store: muted until %q: %w", chatKey, err)
	}
	if chatKey == "" {
		return time.Time{}, nil
	}
	var until time.Time
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketMutes).Get([]byte(chatKey))
		if v == nil {
			return nil
		}
		if err := json.Unmarshal(v, &until); err != nil {
			return fmt.Errorf("value does not decode: %w", err)
		}
		return nil
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("embedded store: muted until %q: %w", chatKey, err)
	}
	if !until.After(s.now()) {
		return time.Time{}, nil
	}
	return until, nil
}

// TryLock takes the named lock for ttl if it is free, expired or already
// held by owner (which renews it to now+ttl), and reports whether owner
// holds it now. ttl must be positive and owner non-empty.
func (s *Store) TryLock(ctx context.Context, name, owner string, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("embedded store: lock %q: %w", name, err)
	}
	if name == "" || owner == "" {
		return false, fmt.Errorf("embedded store: lock %q for %q: empty name or owner", name, owner)
	}
	if ttl <= 0 {
		return false, fmt.Errorf("embedded store: lock %q: ttl %v is not positive", name, ttl)
	}
	held := false
	err := s.db.Update(func(tx *bolt.Tx) error {
		now := s.now()
		s.sweep(tx, now)
		b := tx.Bucket(bucketLocks)
		if v := b.Get([]byte(name)); v != nil {
			var e lockEntry
			// A value that does not decode counts as free.
			if json.Unmarshal(v, &e) == nil && e.Owner != owner && now.Before(e.Expires) {
				return nil
			}
		}
		v, err := json.Marshal(lockEntry{Owner: owner, Expires: now.Add(ttl)})
		if err != nil {
			return err
		}
		if err := b.Put([]byte(name), v); err != nil {
			return err
		}
		held = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("embedded store: lock %q: %w", name, err)
	}
	return held, nil
}

// Unlock releases the named lock if owner holds it; otherwise it does
// nothing.
func (s *Store) Unlock(ctx context.Context, name, owner string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: unlock %q: %w", name, err)
	}
	if name == "" {
		return nil
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketLocks)
		v := b.Get([]byte(name))
		if v == nil {
			return nil
		}
		var e lockEntry
		if json.Unmarshal(v, &e) == nil && e.Owner != owner {
			return nil
		}
		return b.Delete([]byte(name))
	})
	if err != nil {
		return fmt.Errorf("embedded store: unlock %q: %w", name, err)
	}
	return nil
}

// sweep prunes expired claims, mutes and locks, at most once per sweepEvery.
// It runs inside a write transaction; failures are ignored (the entries
// are treated as absent anyway and the next sweep retries).
func (s *Store) sweep(tx *bolt.Tx, now time.Time) {
	last := s.lastSweep.Load()
	if now.UnixNano()-last < int64(sweepEvery) || !s.lastSweep.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	prune := func(bucket []byte, expiry func(v []byte) (time.Time, bool)) {
		b := tx.Bucket(bucket)
		var dead [][]byte
		_ = b.ForEach(func(k, v []byte) error {
			if exp, ok := expiry(v); !ok || !now.Before(exp) {
				dead = append(dead, append([]byte(nil), k...))
			}
			return nil
		})
		for _, k := range dead {
			_ = b.Delete(k)
		}
	}
	timeValue := func(v []byte) (time.Time, bool) {
		var t time.Time
		return t, json.Unmarshal(v, &t) == nil
	}
	prune(bucketClaims, func(v []byte) (time.Time, bool) {
		exp, _, ok := decodeClaim(v)
		return exp, ok
	})
	prune(bucketMutes, timeValue)
	prune(bucketLocks, func(v []byte) (time.Time, bool) {
		var e lockEntry
		return e.Expires, json.Unmarshal(v, &e) == nil
	})
}

// ReleaseAlert frees a claim (after its send failed), so the alert can be
// claimed and sent again. Releasing a missing key is no error.
func (s *Store) ReleaseAlert(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: release alert %q: %w", key, err)
	}
	return s.releaseAny(key)
}
