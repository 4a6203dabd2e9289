package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/store/dump"
)

// dumpBuckets are the main file's buckets and the kind each holds, in
// dump.Kinds' order; decode turns a key and value into a record (ok false:
// expired or unreadable, left out). The claims live in the claims file
// (exportClaims).
var dumpBuckets = []struct {
	bucket []byte
	kind   dump.Kind
	decode func(k, v []byte, now time.Time) (dump.Record, bool)
}{
	{bucketSubscriptions, dump.Subscriptions, plain},
	{bucketNotify, dump.AlertRecords, plain},
	{bucketMutes, dump.Mutes, decodeMute},
	{bucketDigest, dump.DigestChats, func(k, _ []byte, _ time.Time) (dump.Record, bool) { return dump.Record{Key: string(k)}, true }},
	{bucketDigestMarks, dump.DigestMarks, plain},
	{bucketStorage, dump.Ledger, nil}, // a sub-bucket per lab (exportLedger)
	{bucketBlobs, dump.Blobs, plain},
	{bucketHistory, dump.History, plain},
	{bucketSnapshots, dump.Snapshots, plain},
	{bucketDelivered, dump.Delivered, decodeExpiring},
	{bucketLocks, dump.Locks, decodeLock},
}

// notDumped are the main file's buckets no kind comes from, and why.
var notDumped = map[string]string{
	string(bucketClaims): "claims written before they moved to the claims file; no version reads them",
	// Conversation frames live ten minutes (the reply links a day): a
	// move starts the conversations afresh, as a restart without the
	// store would.
	string(bucketFrames):     "conversation frames: minutes of state, not carried over",
	string(bucketFrameLists): "the bot messages a reply can continue: a day of state, not carried over",
	// The inbox holds events for seconds, until their answer is sent; a
	// move is made with the bot stopped, after its inbox was answered.
	string(bucketInbox):       "the Feishu inbox: events acknowledged and not answered yet, seconds of state, not carried over",
	string(bucketInboxLeases): "the inbox owners' leases: belong to running processes, like locks",
}

func plain(k, v []byte, _ time.Time) (dump.Record, bool) {
	return dump.Record{Key: string(k), Value: bytes.Clone(v)}, true
}

func decodeMute(k, v []byte, now time.Time) (dump.Record, bool) {
	var until time.Time
	if json.Unmarshal(v, &until) != nil || !now.Before(until) {
		return dump.Record{}, false
	}
	return dump.Record{Key: string(k), Expires: until}, true
}

func decodeExpiring(k, v []byte, now time.Time) (dump.Record, bool) {
	exp, data, ok := splitExpiry(v)
	if !ok || !now.Before(exp) {
		return dump.Record{}, false
	}
	r := dump.Record{Key: string(k), Expires: exp}
	if len(data) > 0 {
		r.Value = bytes.Clone(data)
	}
	return r, true
}

func decodeLock(k, v []byte, now time.Time) (dump.Record, bool) {
	var e lockEntry
	if json.Unmarshal(v, &e) != nil || !now.Before(e.Expires) {
		return dump.Record{}, false
	}
	return dump.Record{Key: string(k), Owner: e.Owner, Expires: e.Expires}, true
}

// Export emits every live entry (dump.Exporter): the main file's in one
// read transaction, so they are one consistent state, then the claims
// (those still being written behind are written first).
func (s *Store) Export(ctx context.Context, emit func(dump.Record) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: export: %w", err)
	}
	now := s.now()
	err := s.db.View(func(tx *bolt.Tx) error {
		for _, d := range dumpBuckets {
			if d.decode == nil {
				if err := exportLedger(tx, emit); err != nil {
					return err
				}
				continue
			}
			err := tx.Bucket(d.bucket).ForEach(func(k, v []byte) error {
				r, ok := d.decode(k, v, now)
				if !ok {
					return nil
				}
				r.Kind = d.kind
				return emit(r)
			})
			if err != nil {
				return err
			}
			if d.kind == dump.Snapshots {
				// Claims come between snapshots and delivered parts
				// (dump.Kinds' order).
				if err := s.exportClaims(now, emit); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("embedded store: export: %w", err)
	}
	return nil
}

// exportLedger emits every lab's events in write order.
func exportLedger(tx *bolt.Tx, emit func(dump.Record) error) error {
	root := tx.Bucket(bucketStorage)
	return root.ForEachBucket(func(lab []byte) error {
		return root.Bucket(lab).ForEach(func(_, v []byte) error {
			return emit(dump.Record{Kind: dump.Ledger, Key: string(lab), Value: bytes.Clone(v)})
		})
	})
}

// exportClaims emits the live claims of the claims file, after writing
// those still pending.
func (s *Store) exportClaims(now time.Time, emit func(dump.Record) error) error {
	if err := s.flushClaims(); err != nil {
		return fmt.Errorf("claims file: %w", err)
	}
	return s.claims.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketClaims).ForEach(func(k, v []byte) error {
			exp, owner, ok := decodeClaim(v)
			if !ok || !now.Before(exp) {
				return nil
			}
			return emit(dump.Record{Kind: dump.Claims, Key: string(k), Owner: owner, Expires: exp})
		})
	})
}

// Import writes records in the store's layout (dump.Importer): the
// claims into the claims file, everything else in one transaction of
// the main file. Expired records and locks are skipped.
func (s *Store) Import(ctx context.Context, recs []dump.Record) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: import: %w", err)
	}
	now := s.now()
	claims := map[string]pendingClaim{}
	err := s.db.Update(func(tx *bolt.Tx) error {
		for _, r := range recs {
			if (r.Kind.Expiring() && !now.Before(r.Expires)) || r.Kind == dump.Locks {
				continue
			}
			if r.Kind == dump.Claims {
				claims[r.Key] = pendingClaim{owner: r.Owner, exp: r.Expires}
				continue
			}
			if err := importRecord(tx, r); err != nil {
				return fmt.Errorf("%s %q: %w", r.Kind, r.Key, err)
			}
		}
		return nil
	})
	if err == nil && len(claims) > 0 {
		err = s.importClaims(claims)
	}
	if err != nil {
		return fmt.Errorf("embedded store: import: %w", err)
	}
	return nil
}

// importRecord puts one record in its bucket.
func importRecord(tx *bolt.Tx, r dump.Record) error {
	key := []byte(r.Key)
	switch r.Kind {
	case dump.Ledger:
		var e ledger.StorageEvent
		if err := json.Unmarshal(r.Value, &e); err != nil {
			return err
		}
		e.Lab = r.Key
		return appendEvent(tx, e)
	case dump.Mutes:
		v, err := json.Marshal(r.Expires)
		if err != nil {
			return err
		}
		return tx.Bucket(bucketMutes).Put(key, v)
	case dump.DigestChats:
		return tx.Bucket(bucketDigest).Put(key, []byte{1})
	case dump.Delivered:
		return tx.Bucket(bucketOf(r.Kind)).Put(key, expiryValue(r.Expires, r.Value))
	}
	b := bucketOf(r.Kind)
	if b == nil {
		return fmt.Errorf("no bucket holds %s", r.Kind)
	}
	return tx.Bucket(b).Put(key, r.Value)
}

// bucketOf is the bucket holding kind k (nil for none).
func bucketOf(k dump.Kind) []byte {
	for _, d := range dumpBuckets {
		if d.kind == k {
			return d.bucket
		}
	}
	return nil
}

// importClaims writes claims into the claims file at once.
func (s *Store) importClaims(claims map[string]pendingClaim) error {
	w := s.cw
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errStoreClosed
	}
	w.gen++ // the file changes under a claim deciding outside the lock
	return s.claims.Update(func(tx *bolt.Tx) error { return writeClaims(tx, claims) })
}

// Clear deletes every entry but the locks (dump.Clearer), in one
// transaction of each file.
func (s *Store) Clear(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: clear: %w", err)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		for _, d := range dumpBuckets {
			if d.kind == dump.Locks {
				continue
			}
			if err := tx.DeleteBucket(d.bucket); err != nil {
				return err
			}
			if _, err := tx.CreateBucket(d.bucket); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		err = s.clearClaims()
	}
	if err != nil {
		return fmt.Errorf("embedded store: clear: %w", err)
	}
	return nil
}

// clearClaims empties the claims file, what is pending included.
func (s *Store) clearClaims() error {
	if err := s.flushClaims(); err != nil {
		return err
	}
	w := s.cw
	w.mu.Lock()
	defer w.mu.Unlock()
	w.gen++
	return s.claims.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketClaims, bucketClaimExpiry} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
			if _, err := tx.CreateBucket(b); err != nil {
				return err
			}
		}
		return nil
	})
}
