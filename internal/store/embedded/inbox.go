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

// Buckets of the Feishu inbox (feishu.Inbox): the events acknowledged and
// not answered yet, and the leases of the processes answering them.
// Transient (minutes of state): not dumped, so bot migrate does not carry
// them (a move is made with the bot stopped, its inbox answered).
var (
	// key → inboxValue: expiry, suspicion, owner, the entry's bytes.
	bucketInbox = []byte("inbox")
	// owner → expiry (8 bytes, Unix ns).
	bucketInboxLeases = []byte("inbox_leases")
)

// inboxEntry is a stored inbox entry.
type inboxEntry struct {
	exp, suspect time.Time // suspect: when its owner's lease was first seen gone (zero: not)
	owner        string
	data         []byte
}

func (e inboxEntry) encode() []byte {
	v := make([]byte, 18, 18+len(e.owner)+len(e.data))
	binary.BigEndian.PutUint64(v[0:8], uint64(e.exp.UnixNano()))
	var sus int64
	if !e.suspect.IsZero() {
		sus = e.suspect.UnixNano()
	}
	binary.BigEndian.PutUint64(v[8:16], uint64(sus))
	binary.BigEndian.PutUint16(v[16:18], uint16(len(e.owner)))
	v = append(v, e.owner...)
	return append(v, e.data...)
}

func decodeInboxEntry(v []byte) (inboxEntry, bool) {
	if len(v) < 18 {
		return inboxEntry{}, false
	}
	n := int(binary.BigEndian.Uint16(v[16:18]))
	if len(v) < 18+n {
		return inboxEntry{}, false
	}
	e := inboxEntry{exp: time.Unix(0, int64(binary.BigEndian.Uint64(v[0:8]))), owner: string(v[18 : 18+n]), data: bytes.Clone(v[18+n:])}
	if sus := int64(binary.BigEndian.Uint64(v[8:16])); sus != 0 {
		e.suspect = time.Unix(0, sus)
	}
	return e, true
}

// PutInbox writes the entry under key, owned by owner ("" for nobody: any
// live replica takes it at once), for ttl, replacing one under the same
// key; one transaction, committed (fsync) before it returns
// (feishu.Inbox).
func (s *Store) PutInbox(ctx context.Context, key, owner string, data []byte, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: put inbox %q: %w", key, err)
	}
	if key == "" || ttl <= 0 || len(owner) > 0xffff {
		return fmt.Errorf("embedded store: put inbox %q for %v: empty key, ttl not positive or owner too long", key, ttl)
	}
	err := s.db.Batch(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketInbox).Put([]byte(key), inboxEntry{exp: s.now().Add(ttl), owner: owner, data: data}.encode())
	})
	if err != nil {
		return fmt.Errorf("embedded store: put inbox %q: %w", key, err)
	}
	return nil
}

// DropInbox removes the entry under key (none is fine).
func (s *Store) DropInbox(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: drop inbox %q: %w", key, err)
	}
	err := s.db.Batch(func(tx *bolt.Tx) error { return tx.Bucket(bucketInbox).Delete([]byte(key)) })
	if err != nil {
		return fmt.Errorf("embedded store: drop inbox %q: %w", key, err)
	}
	return nil
}

// RenewInboxLease keeps owner's lease for ttl: its inbox entries are not
// taken over while it lasts.
func (s *Store) RenewInboxLease(ctx context.Context, owner string, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: renew inbox lease %q: %w", owner, err)
	}
	if owner == "" || ttl <= 0 {
		return errors.New("embedded store: renew inbox lease: empty owner or ttl not positive")
	}
	err := s.db.Batch(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketInboxLeases).Put([]byte(owner), expiryValue(s.now().Add(ttl), nil))
	})
	if err != nil {
		return fmt.Errorf("embedded store: renew inbox lease %q: %w", owner, err)
	}
	return nil
}

// ClaimInbox takes, for taker, the entries under prefix whose owner is
// gone, in one transaction (two takers never get the same entry), and
// returns their bytes by key: an entry of no owner at once; one whose
// owner's lease has ended once the lease was seen gone at least confirm
// ago (the first look only notes it, so that an owner whose lease lapsed
// while the store was unreachable renews it before anyone takes over).
// Taken entries are owned by taker; expired entries and leases are
// deleted.
func (s *Store) ClaimInbox(ctx context.Context, prefix, taker string, confirm time.Duration) (map[string][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embedded store: claim inbox: %w", err)
	}
	if taker == "" {
		return nil, errors.New("embedded store: claim inbox: empty taker")
	}
	out := map[string][]byte{}
	err := s.db.Update(func(tx *bolt.Tx) error {
		now := s.now()
		leases := tx.Bucket(bucketInboxLeases)
		live := func(owner string) bool {
			exp, _, ok := splitExpiry(leases.Get([]byte(owner)))
			return ok && now.Before(exp)
		}
		b := tx.Bucket(bucketInbox)
		type put struct {
			k []byte
			e inboxEntry
		}
		var dead [][]byte
		var puts []put
		c := b.Cursor()
		for k, v := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, v = c.Next() {
			e, ok := decodeInboxEntry(v)
			switch {
			case !ok || !now.Before(e.exp):
				dead = append(dead, bytes.Clone(k))
			case e.owner == taker:
			case e.owner != "" && live(e.owner):
				if !e.suspect.IsZero() {
					e.suspect = time.Time{}
					puts = append(puts, put{bytes.Clone(k), e})
				}
			case e.owner == "" || !e.suspect.IsZero() && now.Sub(e.suspect) >= confirm:
				e.owner, e.suspect = taker, time.Time{}
				puts = append(puts, put{bytes.Clone(k), e})
				out[string(k)] = e.data
			case e.suspect.IsZero():
				e.suspect = now
				puts = append(puts, put{bytes.Clone(k), e})
			}
		}
		for _, k := range dead {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		for _, p := range puts {
			if err := b.Put(p.k, p.e.encode()); err != nil {
				return err
			}
		}
		var ended [][]byte
		_ = leases.ForEach(func(k, v []byte) error {
			if exp, _, ok := splitExpiry(v); !ok || !now.Before(exp) {
				ended = append(ended, bytes.Clone(k))
			}
			return nil
		})
		for _, k := range ended {
			if err := leases.Delete(k); err != nil {
				return err
			}
		}
		if live(taker) {
			return nil
		}
		// The taker is alive: it holds what it took from now on.
		return leases.Put([]byte(taker), expiryValue(now.Add(takerLease), nil))
	})
	if err != nil {
		return nil, fmt.Errorf("embedded store: claim inbox: %w", err)
	}
	return out, nil
}

// takerLease is the lease ClaimInbox gives a taker that had none: it
// renews its own after.
const takerLease = 10 * time.Second
