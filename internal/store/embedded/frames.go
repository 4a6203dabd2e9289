package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Buckets of the conversation's frames (commands.FrameStore): key →
// expiry (8 bytes, Unix ns, big endian) then the frame's bytes; a list's
// value is its frames as a JSON array (newest first).
var (
	bucketFrames     = []byte("conversation_frames")
	bucketFrameLists = []byte("conversation_frame_lists")
)

// PutFrame keeps data under key for ttl, replacing what was there.
// Concurrent puts share a commit (bbolt's Batch); expired frames are
// pruned now and then.
func (s *Store) PutFrame(ctx context.Context, key string, data []byte, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: put frame %q: %w", key, err)
	}
	if key == "" || ttl <= 0 {
		return fmt.Errorf("embedded store: put frame %q for %v: empty key or ttl not positive", key, ttl)
	}
	err := s.db.Batch(func(tx *bolt.Tx) error {
		now := s.now()
		s.pruneFrames(tx, now)
		return tx.Bucket(bucketFrames).Put([]byte(key), expiryValue(now.Add(ttl), data))
	})
	if err != nil {
		return fmt.Errorf("embedded store: put frame %q: %w", key, err)
	}
	return nil
}

// Frame is what is kept under key; nil when nothing is or it expired.
func (s *Store) Frame(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embedded store: frame %q: %w", key, err)
	}
	var out []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		out = s.liveValue(tx.Bucket(bucketFrames).Get([]byte(key)))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("embedded store: frame %q: %w", key, err)
	}
	return out, nil
}

// liveValue is a copy of the data of a value written with expiryValue,
// nil when there is none or it expired.
func (s *Store) liveValue(v []byte) []byte {
	exp, data, ok := splitExpiry(v)
	if !ok || !s.now().Before(exp) {
		return nil
	}
	return bytes.Clone(data)
}

// TakeFrame is Frame and removes it in one transaction: of two callers
// at once, one gets it. A key that holds nothing costs a read only.
func (s *Store) TakeFrame(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embedded store: take frame %q: %w", key, err)
	}
	held := false
	if err := s.db.View(func(tx *bolt.Tx) error {
		held = tx.Bucket(bucketFrames).Get([]byte(key)) != nil
		return nil
	}); err != nil || !held {
		return nil, wrapErr("take frame", key, err)
	}
	var out []byte
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketFrames)
		out = s.liveValue(b.Get([]byte(key)))
		return b.Delete([]byte(key))
	})
	return out, wrapErr("take frame", key, err)
}

// wrapErr names the operation and key in err (nil stays nil).
func wrapErr(op, key string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("embedded store: %s %q: %w", op, key, err)
}

// PushFrame puts data first in the list under key, keeping the newest
// keep, and keeps the list ttl from now, in one transaction.
func (s *Store) PushFrame(ctx context.Context, key string, data []byte, keep int, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return wrapErr("push frame", key, err)
	}
	if key == "" || keep <= 0 || ttl <= 0 {
		return fmt.Errorf("embedded store: push frame %q (keep %d, %v): empty key, keep or ttl not positive", key, keep, ttl)
	}
	err := s.db.Batch(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketFrameLists)
		var list [][]byte
		if v := s.liveValue(b.Get([]byte(key))); v != nil {
			_ = json.Unmarshal(v, &list) // a list that does not decode starts afresh
		}
		list = append([][]byte{data}, list...)
		if len(list) > keep {
			list = list[:keep]
		}
		enc, err := json.Marshal(list)
		if err != nil {
			return err
		}
		return b.Put([]byte(key), expiryValue(s.now().Add(ttl), enc))
	})
	return wrapErr("push frame", key, err)
}

// Frames is the list under key, newest first; nil when there is none.
func (s *Store) Frames(ctx context.Context, key string) ([][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, wrapErr("frames", key, err)
	}
	var list [][]byte
	err := s.db.View(func(tx *bolt.Tx) error {
		if v := s.liveValue(tx.Bucket(bucketFrameLists).Get([]byte(key))); v != nil {
			return json.Unmarshal(v, &list)
		}
		return nil
	})
	return list, wrapErr("frames", key, err)
}

// pruneFrames deletes expired frames and lists, at most once per
// sweepEvery.
func (s *Store) pruneFrames(tx *bolt.Tx, now time.Time) {
	last := s.lastFrameSweep.Load()
	if now.UnixNano()-last < int64(sweepEvery) || !s.lastFrameSweep.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	for _, name := range [][]byte{bucketFrames, bucketFrameLists} {
		b := tx.Bucket(name)
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
}
