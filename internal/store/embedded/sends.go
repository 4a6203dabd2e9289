package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Buckets of sends kept across restarts (storetest.SendStore).
var (
	// key → expiry (8 bytes, Unix ns, big endian): the parts an outbox
	// delivered (chat.DeliveryLog).
	bucketDelivered = []byte("delivered_parts")
	// chat key → the mark jobs.Digest keeps (opaque text).
	bucketDigestMarks = []byte("digest_marks")
)

// expiryValue is exp as a bucket value, followed by data.
func expiryValue(exp time.Time, data []byte) []byte {
	v := make([]byte, 8, 8+len(data))
	binary.BigEndian.PutUint64(v, uint64(exp.UnixNano()))
	return append(v, data...)
}

// splitExpiry reads a value written by expiryValue (ok false when it is
// too short to be one).
func splitExpiry(v []byte) (exp time.Time, data []byte, ok bool) {
	if len(v) < 8 {
		return time.Time{}, nil, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(v[:8]))), v[8:], true
}

// Delivered reports whether key was marked delivered and has not expired
// (chat.DeliveryLog).
func (s *Store) Delivered(ctx context.Context, key string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("embedded store: delivered %q: %w", key, err)
	}
	found := false
	err := s.db.View(func(tx *bolt.Tx) error {
		exp, _, ok := splitExpiry(tx.Bucket(bucketDelivered).Get([]byte(key)))
		found = ok && s.now().Before(exp)
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("embedded store: delivered %q: %w", key, err)
	}
	return found, nil
}

// MarkDelivered records that key was delivered, for ttl. Concurrent
// marks share a commit (bbolt's Batch); expired marks are pruned now and
// then.
func (s *Store) MarkDelivered(ctx context.Context, key string, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: mark delivered %q: %w", key, err)
	}
	if key == "" || ttl <= 0 {
		return fmt.Errorf("embedded store: mark delivered %q for %v: empty key or ttl not positive", key, ttl)
	}
	err := s.db.Batch(func(tx *bolt.Tx) error {
		now := s.now()
		b := tx.Bucket(bucketDelivered)
		s.pruneDelivered(b, now)
		return b.Put([]byte(key), expiryValue(now.Add(ttl), nil))
	})
	if err != nil {
		return fmt.Errorf("embedded store: mark delivered %q: %w", key, err)
	}
	return nil
}

// pruneDelivered deletes expired marks, at most once per sweepEvery.
func (s *Store) pruneDelivered(b *bolt.Bucket, now time.Time) {
	last := s.lastDeliveredSweep.Load()
	if now.UnixNano()-last < int64(sweepEvery) || !s.lastDeliveredSweep.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	var dead [][]byte
	_ = b.ForEach(func(k, v []byte) error {
		if exp, _, ok := splitExpiry(v); !ok || !now.Before(exp) {
			dead = append(dead, bytes.Clone(k))
		}
		return nil
	})
	for _, k := range dead {
		_ = b.Delete(k)
	}
}

// DigestMark is the chat's digest mark, "" when it has none
// (jobs.DigestMarks).
func (s *Store) DigestMark(ctx context.Context, chatKey string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("embedded store: digest mark %q: %w", chatKey, err)
	}
	var v string
	err := s.db.View(func(tx *bolt.Tx) error {
		v = string(tx.Bucket(bucketDigestMarks).Get([]byte(chatKey)))
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("embedded store: digest mark %q: %w", chatKey, err)
	}
	return v, nil
}

// SwapDigestMark sets the chat's mark to new when it is old ("" for none;
// new "" deletes it), in one transaction, and reports whether it did.
func (s *Store) SwapDigestMark(ctx context.Context, chatKey, old, new string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("embedded store: swap digest mark %q: %w", chatKey, err)
	}
	if chatKey == "" {
		return false, errors.New("embedded store: swap digest mark: empty chat key")
	}
	swapped := false
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDigestMarks)
		if string(b.Get([]byte(chatKey))) != old {
			return nil
		}
		swapped = true
		if new == "" {
			return b.Delete([]byte(chatKey))
		}
		return b.Put([]byte(chatKey), []byte(new))
	})
	if err != nil {
		return false, fmt.Errorf("embedded store: swap digest mark %q: %w", chatKey, err)
	}
	return swapped, nil
}
