package embedded

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/labgpu/bot/internal/billing/ledger"
)

// AppendStorageEvents adds events to their labs' storage ledgers in one
// transaction (all or none). The ledger is append-only.
func (s *Store) AppendStorageEvents(ctx context.Context, events []ledger.StorageEvent) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: append storage events: %w", err)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		for _, e := range events {
			if err := appendEvent(tx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("embedded store: append storage events: %w", err)
	}
	return nil
}

// AppendStorageEventsIf adds events (each of lab) to lab's ledger when it
// still holds have events (what a StorageEvents(lab) read returned), in
// one transaction; otherwise it writes nothing and returns
// ledger.ErrLedgerChanged. A lab's ledger is append-only, so its length
// (the bucket's sequence) is its version.
func (s *Store) AppendStorageEventsIf(ctx context.Context, lab string, have int, events []ledger.StorageEvent) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: append storage events: %w", err)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		if lab == "" {
			return errors.New("an event without a lab")
		}
		var n uint64
		if b := tx.Bucket(bucketStorage).Bucket([]byte(lab)); b != nil {
			n = b.Sequence()
		}
		if have < 0 || n != uint64(have) {
			return ledger.ErrLedgerChanged
		}
		for _, e := range events {
			if e.Lab != lab {
				return fmt.Errorf("an event of lab %q in an append to lab %q", e.Lab, lab)
			}
			if err := appendEvent(tx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("embedded store: append storage events of %q: %w", lab, err)
	}
	return nil
}

// AddStorageDisk appends e, the add of a new disk, to e.Lab's ledger with
// its id allocated in the same transaction (ledger.NextDiskID over the
// lab's ledger; e.Disk is overwritten), and returns the id: concurrent
// registrations get distinct numbers.
func (s *Store) AddStorageDisk(ctx context.Context, e ledger.StorageEvent) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("embedded store: add disk: %w", err)
	}
	if e.Action != ledger.ActionAdd {
		return "", fmt.Errorf("embedded store: add disk: action %q, want add", e.Action)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		if e.Lab == "" {
			return errors.New("an event without a lab")
		}
		var disks []ledger.StorageEvent
		if b := tx.Bucket(bucketStorage).Bucket([]byte(e.Lab)); b != nil {
			err := b.ForEach(func(_, v []byte) error {
				var d struct{ Disk string }
				if json.Unmarshal(v, &d) == nil {
					disks = append(disks, ledger.StorageEvent{Disk: d.Disk})
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		e.Disk = ledger.NextDiskID(disks)
		return appendEvent(tx, e)
	})
	if err != nil {
		return "", fmt.Errorf("embedded store: add disk to %q: %w", e.Lab, err)
	}
	return e.Disk, nil
}

// appendEvent puts e under the next sequence number of its lab's bucket.
func appendEvent(tx *bolt.Tx, e ledger.StorageEvent) error {
	if e.Lab == "" {
		return errors.New("an event without a lab")
	}
	b, err := tx.Bucket(bucketStorage).CreateBucketIfNotExists([]byte(e.Lab))
	if err != nil {
		return err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	v, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return b.Put(binary.BigEndian.AppendUint64(nil, seq), v)
}

// StorageEvents returns a lab's ledger in the order it was written, or
// every lab's (lab by lab) when lab is "".
func (s *Store) StorageEvents(ctx context.Context, lab string) ([]ledger.StorageEvent, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embedded store: storage events: %w", err)
	}
	var out []ledger.StorageEvent
	read := func(b *bolt.Bucket) error {
		return b.ForEach(func(_, v []byte) error {
			var e ledger.StorageEvent
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("a ledger record does not decode: %w", err)
			}
			out = append(out, e)
			return nil
		})
	}
	err := s.db.View(func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketStorage)
		if lab != "" {
			if b := root.Bucket([]byte(lab)); b != nil {
				return read(b)
			}
			return nil
		}
		return root.ForEachBucket(func(k []byte) error { return read(root.Bucket(k)) })
	})
	if err != nil {
		return nil, fmt.Errorf("embedded store: storage events of %q: %w", lab, err)
	}
	return out, nil
}

// SetDigestChat turns the weekly digest on or off for a chat key.
func (s *Store) SetDigestChat(ctx context.Context, chatKey string, on bool) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: digest chat: %w", err)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDigest)
		if on {
			return b.Put([]byte(chatKey), []byte{1})
		}
		return b.Delete([]byte(chatKey))
	})
	if err != nil {
		return fmt.Errorf("embedded store: digest chat %q: %w", chatKey, err)
	}
	return nil
}

// DigestChats lists the chat keys with the weekly digest on, sorted.
func (s *Store) DigestChats(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embedded store: digest chats: %w", err)
	}
	var out []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketDigest).ForEach(func(k, _ []byte) error {
			out = append(out, string(k))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("embedded store: digest chats: %w", err)
	}
	return out, nil
}
