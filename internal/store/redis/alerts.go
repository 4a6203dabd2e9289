package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/labgpu/bot/internal/stock"
)

// AddSubscription stores sub, replacing one with the same ID.
func (s *Store) AddSubscription(ctx context.Context, sub stock.Subscription) error {
	if sub.ID == "" {
		return errors.New("redis store: add subscription: empty id")
	}
	return s.putJSON(ctx, "subscriptions", sub.ID, sub, "subscription", "add")
}

// watchTries bounds the optimistic transactions (WATCH, read, decide,
// MULTI/EXEC) that another writer's change to the watched key makes
// start again.
const watchTries = 50

// watch runs fn in an optimistic transaction on key: fn reads through
// tx and writes in tx.TxPipelined; when another client changed key in
// between, EXEC writes nothing and fn runs again on what is there now,
// up to watchTries times.
func (s *Store) watch(ctx context.Context, key string, fn func(tx *goredis.Tx) error) error {
	for range watchTries {
		err := s.c.Watch(ctx, fn, key)
		if !errors.Is(err, goredis.TxFailedErr) {
			return err
		}
	}
	return fmt.Errorf("%s kept changing (%d tries)", key, watchTries)
}

// AddSubscriptionIf stores sub when check, given every stored
// subscription (oldest first), returns nil; otherwise it stores nothing
// and returns check's error (wrapped). The read, check and add are one
// optimistic transaction on the subscriptions hash (WATCH … MULTI/EXEC):
// when another replica changed the hash in between, nothing is written
// and check runs again on the new list, so a check ("no such
// subscription yet", "fewer than 20 of this member's") holds for what is
// stored. check must not keep state between runs.
func (s *Store) AddSubscriptionIf(ctx context.Context, sub stock.Subscription, check func([]stock.Subscription) error) error {
	if sub.ID == "" {
		return errors.New("redis store: add subscription: empty id")
	}
	v, err := json.Marshal(sub)
	if err != nil {
		return fmt.Errorf("redis store: encode subscription %q: %w", sub.ID, err)
	}
	key := s.key("subscriptions")
	err = s.watch(ctx, key, func(tx *goredis.Tx) error {
		m, err := tx.HGetAll(ctx, key).Result()
		if err != nil {
			return err
		}
		all := make([]stock.Subscription, 0, len(m))
		for _, raw := range m {
			var x stock.Subscription
			if json.Unmarshal([]byte(raw), &x) == nil { // one that does not decode is no match
				all = append(all, x)
			}
		}
		sortSubscriptions(all)
		if err := check(all); err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p goredis.Pipeliner) error {
			p.HSet(ctx, key, sub.ID, v)
			return nil
		})
		return err
	})
	if err != nil {
		return fmt.Errorf("redis store: add subscription %q: %w", sub.ID, err)
	}
	return nil
}

// sortSubscriptions orders subscriptions oldest first, then by ID.
func sortSubscriptions(subs []stock.Subscription) {
	sort.SliceStable(subs, func(i, j int) bool {
		if !subs[i].CreatedAt.Equal(subs[j].CreatedAt) {
			return subs[i].CreatedAt.Before(subs[j].CreatedAt)
		}
		return subs[i].ID < subs[j].ID
	})
}

// RemoveSubscription deletes the subscription; a missing id is no error.
// The subscription's notify record is not touched (DeleteNotifyRecord).
func (s *Store) RemoveSubscription(ctx context.Context, id string) error {
	if err := s.c.HDel(ctx, s.key("subscriptions"), id).Err(); err != nil {
		return fmt.Errorf("redis store: remove subscription %q: %w", id, err)
	}
	return nil
}

// Subscriptions lists every subscription, oldest first (then by ID). A
// record that does not decode is skipped and reported in the error, the
// others still load.
func (s *Store) Subscriptions(ctx context.Context) ([]stock.Subscription, error) {
	// A failed read leaves out nil; a record that does not decode, only
	// itself out.
	out, err := decodeHash[stock.Subscription](ctx, s, "subscriptions", "subscription", "list subscriptions")
	sortSubscriptions(out)
	return out, err
}

// NotifyRecords returns the records of the given subscriptions; one without
// a record is absent from the (never nil) map. A record that does not decode
// is left out and reported in the error.
func (s *Store) NotifyRecords(ctx context.Context, ids []string) (map[string]stock.NotifyRecord, error) {
	out := map[string]stock.NotifyRecord{}
	if len(ids) == 0 {
		return out, nil
	}
	vals, err := s.c.HMGet(ctx, s.key("notify"), ids...).Result()
	if err != nil {
		return out, fmt.Errorf("redis store: get notify records: %w", err)
	}
	var bad error
	for i, v := range vals {
		str, ok := v.(string)
		if !ok {
			continue // nil: no record
		}
		var rec stock.NotifyRecord
		if err := json.Unmarshal([]byte(str), &rec); err != nil {
			bad = fmt.Errorf("redis store: notify record %q does not decode: %w", ids[i], err)
			continue
		}
		out[ids[i]] = rec
	}
	return out, bad
}

// PutNotifyRecords stores recs in one command, replacing those with the
// same SubscriptionID.
func (s *Store) PutNotifyRecords(ctx context.Context, recs []stock.NotifyRecord) error {
	if len(recs) == 0 {
		return nil
	}
	args := make([]any, 0, 2*len(recs))
	for _, r := range recs {
		if r.SubscriptionID == "" {
			return errors.New("redis store: put notify records: record without subscription id")
		}
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("redis store: encode notify record %q: %w", r.SubscriptionID, err)
		}
		args = append(args, r.SubscriptionID, b)
	}
	if err := s.c.HSet(ctx, s.key("notify"), args...).Err(); err != nil {
		return fmt.Errorf("redis store: put notify records: %w", err)
	}
	return nil
}

// DeleteNotifyRecord removes a subscription's record; a missing one is no
// error.
func (s *Store) DeleteNotifyRecord(ctx context.Context, id string) error {
	if err := s.c.HDel(ctx, s.key("notify"), id).Err(); err != nil {
		return fmt.Errorf("redis store: delete notify record %q: %w", id, err)
	}
	return nil
}

// ClaimAlert returns true for the first caller with key within ttl and false
// for every later one until the claim expires (SET NX PX). ttl must be
// positive; it has millisecond resolution.
func (s *Store) ClaimAlert(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	if key == "" {
		return false, errors.New("redis store: claim alert: empty key")
	}
	if ttl <= 0 {
		return false, fmt.Errorf("redis store: claim alert %q: ttl %v is not positive", key, ttl)
	}
	ok, err := s.c.SetNX(ctx, s.key("claim:", key), "1", roundUpMs(ttl)).Result()
	if err != nil {
		return false, fmt.Errorf("redis store: claim alert %q: %w", key, err)
	}
	return ok, nil
}

// SetMute mutes the chat until the given time; a zero or past time unmutes.
// The key expires at until.
func (s *Store) SetMute(ctx context.Context, chatKey string, until time.Time) error {
	if chatKey == "" {
		return errors.New("redis store: set mute: empty chat key")
	}
	k := s.key("mute:", chatKey)
	if until.IsZero() || !until.After(time.Now()) {
		if err := s.c.Del(ctx, k).Err(); err != nil {
			return fmt.Errorf("redis store: unmute %q: %w", chatKey, err)
		}
		return nil
	}
	// PXAT with whole milliseconds, rounded up so the key never expires
	// before until.
	ms := until.UnixMilli()
	if time.UnixMilli(ms).Before(until) {
		ms++
	}
	err := s.c.SetArgs(ctx, k, until.UTC().Format(time.RFC3339Nano), goredis.SetArgs{ExpireAt: time.UnixMilli(ms)}).Err()
	if err != nil {
		return fmt.Errorf("redis store: set mute %q: %w", chatKey, err)
	}
	return nil
}

// MutedUntil returns when the chat's mute ends, or the zero time when it is
// not muted (never muted, unmuted or expired).
func (s *Store) MutedUntil(ctx context.Context, chatKey string) (time.Time, error) {
	v, err := s.c.Get(ctx, s.key("mute:", chatKey)).Result()
	if errors.Is(err, goredis.Nil) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("redis store: muted until %q: %w", chatKey, err)
	}
	until, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("redis store: muted until %q: value %q does not decode: %w", chatKey, v, err)
	}
	if !until.After(time.Now()) {
		// Redis has not expired it yet (clock skew between hosts).
		return time.Time{}, nil
	}
	return until, nil
}

// tryLockScript takes KEYS[1] for owner ARGV[1] for ARGV[2] ms if it is
// free (SET NX PX) or renews it if owner already holds it (compare and
// PEXPIRE). Returns 1 when owner holds it afterwards.
var tryLockScript = goredis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
	return 1
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
	return 1
end
return 0
`)

// unlockScript deletes KEYS[1] only if its value is ARGV[1].
var unlockScript = goredis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('DEL', KEYS[1])
end
return 0
`)

// TryLock takes the named lock for ttl if it is free or expired, or renews
// it to ttl from now if owner already holds it, and reports whether owner
// holds it now. ttl must be positive (millisecond resolution) and owner
// non-empty.
func (s *Store) TryLock(ctx context.Context, name, owner string, ttl time.Duration) (bool, error) {
	if name == "" || owner == "" {
		return false, fmt.Errorf("redis store: lock %q for %q: empty name or owner", name, owner)
	}
	if ttl <= 0 {
		return false, fmt.Errorf("redis store: lock %q: ttl %v is not positive", name, ttl)
	}
	n, err := tryLockScript.Run(ctx, s.c, []string{s.key("lock:", name)}, owner, roundUpMs(ttl).Milliseconds()).Int()
	if err != nil {
		return false, fmt.Errorf("redis store: lock %q: %w", name, err)
	}
	return n == 1, nil
}

// Unlock releases the named lock if owner holds it; otherwise it does
// nothing.
func (s *Store) Unlock(ctx context.Context, name, owner string) error {
	if err := unlockScript.Run(ctx, s.c, []string{s.key("lock:", name)}, owner).Err(); err != nil {
		return fmt.Errorf("redis store: unlock %q: %w", name, err)
	}
	return nil
}

// roundUpMs rounds d up to whole milliseconds (Redis's resolution).
func roundUpMs(d time.Duration) time.Duration {
	if r := d % time.Millisecond; r != 0 {
		d += time.Millisecond - r
	}
	return d
}

// ReleaseAlert frees a claim (after its send failed), so the alert can be
// claimed and sent again. Releasing a missing key is no error.
func (s *Store) ReleaseAlert(ctx context.Context, key string) error {
	if err := s.c.Del(ctx, s.key("claim:", key)).Err(); err != nil {
		return fmt.Errorf("redis store: release alert %q: %w", key, err)
	}
	return nil
}
