// Package dump is the store-neutral form of everything a store keeps,
// one Record per entry, for moving state from one store to another
// (`bot migrate`, a backup of the Redis store) and for counting it. The
// embedded and Redis stores each export their entries as Records and
// import Records in their own layout; Move copies one into the other and
// counts every kind before and after.
package dump

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Kind names what a Record is. Each store's Export says which of its
// buckets or keys gives each kind.
type Kind string

// The kinds of state, in the order Move writes them.
const (
	// Subscriptions: Key the subscription id, Value its JSON
	// (stock.Subscription).
	Subscriptions Kind = "subscriptions"
	// AlertRecords: Key the subscription id, Value the JSON of its
	// notification record (stock.NotifyRecord: what was last alerted).
	AlertRecords Kind = "alert_records"
	// Mutes: Key the chat key, Expires the end of the chat's mute.
	Mutes Kind = "mutes"
	// DigestChats: Key a chat key whose weekly digest is on.
	DigestChats Kind = "digest_chats"
	// DigestMarks: Key the chat key, Value where its scheduled digest
	// stands (jobs.Digest's mark, opaque text).
	DigestMarks Kind = "digest_marks"
	// Ledger: Key the lab, Value one ledger.StorageEvent's JSON; a lab's
	// events come in the order they were written.
	Ledger Kind = "ledger_events"
	// Blobs: Key the blob's name, Value its bytes (the WeChat login
	// state, the WeChat admin bindings).
	Blobs Kind = "blobs"
	// History: Key the availability history chunk's key, Value its bytes
	// (internal/history).
	History Kind = "history_chunks"
	// Snapshots: Key the provider, Value its last snapshot's JSON
	// (stock.ProviderSnapshot).
	Snapshots Kind = "snapshots"
	// Claims: Key the claim's key ("alert:…", "digest:…",
	// "feishu:msg:…"), Owner its owner ("" for a claim taken without one,
	// ClaimAlert), Expires its end.
	Claims Kind = "claims"
	// Delivered: Key a part an outbox delivered, Expires the mark's end.
	Delivered Kind = "delivered_parts"
	// Locks: Key the lock's name, Owner the replica holding it, Expires
	// its end. Counted, never moved: a lock belongs to a running process.
	Locks Kind = "locks"
)

// Kinds are every kind, in the order Move writes them.
var Kinds = []Kind{Subscriptions, AlertRecords, Mutes, DigestChats, DigestMarks, Ledger, Blobs, History, Snapshots, Claims, Delivered, Locks}

// Expiring reports whether entries of kind k end by themselves (an entry
// may expire between two counts).
func (k Kind) Expiring() bool {
	switch k {
	case Mutes, Claims, Delivered, Locks:
		return true
	}
	return false
}

// Record is one entry of a store.
type Record struct {
	Kind  Kind
	Key   string
	Value []byte
	// Owner is a claim's or a lock's owner.
	Owner string
	// Expires is when the entry ends (the expiring kinds); a store
	// exports only entries that have not.
	Expires time.Time
}

// Exporter emits every live entry of a store, one kind after the other
// in Kinds' order, a lab's ledger events in the order they were written.
// An error from emit stops the export and is returned.
type Exporter interface {
	Export(ctx context.Context, emit func(Record) error) error
}

// Importer writes records into a store in its own layout, replacing an
// entry of the same kind and key (a ledger event is appended). A record
// whose Expires has passed is skipped.
type Importer interface {
	Import(ctx context.Context, recs []Record) error
}

// Clearer deletes every entry a store holds (locks excepted).
type Clearer interface {
	Clear(ctx context.Context) error
}

// Target is a store Move writes into.
type Target interface {
	Exporter
	Importer
	Clearer
}

// Counts are entries per kind.
type Counts map[Kind]int

// Total is the number of entries of every kind.
func (c Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// Count counts the live entries of src per kind.
func Count(ctx context.Context, src Exporter) (Counts, error) {
	c := Counts{}
	err := src.Export(ctx, func(r Record) error {
		c[r.Kind]++
		return nil
	})
	return c, err
}

// ErrNotEmpty is Move's error when the target holds entries and force is
// off.
var ErrNotEmpty = errors.New("the target store is not empty")

// ErrCountsDiffer is Move's error when the target, counted after the
// move, does not hold what was written.
var ErrCountsDiffer = errors.New("the counts after the move differ")

// Report is what Move did, per kind: Source the entries read (one
// consistent read of the source), Moved those written, After the target's
// count afterwards; Before the target's count before (non-zero only with
// force, which cleared it).
type Report struct {
	Before, Source, Moved, After Counts
}

// batch is how many records Move hands to Import at once.
const batch = 512

// Move copies every entry of src into dst: it refuses a dst holding
// anything unless force, which clears it first; then it writes what src
// exports (locks excepted: they belong to running processes), counts dst
// again and fails with ErrCountsDiffer when a kind that does not expire
// has another count than was written (an expiring entry may end
// meanwhile).
func Move(ctx context.Context, src Exporter, dst Target, force bool) (Report, error) {
	rep := Report{Source: Counts{}, Moved: Counts{}}
	var err error
	if rep.Before, err = Count(ctx, dst); err != nil {
		return rep, fmt.Errorf("count the target: %w", err)
	}
	if n := rep.Before.Total() - rep.Before[Locks]; n > 0 {
		if !force {
			return rep, fmt.Errorf("%w: it holds %d entries (%s); move into an empty one, or pass --force to delete them first", ErrNotEmpty, n, rep.Before)
		}
		if err := dst.Clear(ctx); err != nil {
			return rep, fmt.Errorf("clear the target: %w", err)
		}
	}
	var pending []Record
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		if err := dst.Import(ctx, pending); err != nil {
			return fmt.Errorf("write %s: %w", pending[0].Kind, err)
		}
		for _, r := range pending {
			rep.Moved[r.Kind]++
		}
		pending = pending[:0]
		return nil
	}
	err = src.Export(ctx, func(r Record) error {
		rep.Source[r.Kind]++
		if r.Kind == Locks {
			return nil
		}
		pending = append(pending, r)
		if len(pending) == batch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return rep, err
	}
	if rep.After, err = Count(ctx, dst); err != nil {
		return rep, fmt.Errorf("count the target afterwards: %w", err)
	}
	return rep, rep.check()
}

// check compares what was written with what the target holds.
func (r Report) check() error {
	var bad []string
	for _, k := range Kinds {
		if k == Locks {
			continue
		}
		moved, after := r.Moved[k], r.After[k]
		if after == moved || (k.Expiring() && after < moved) {
			continue
		}
		bad = append(bad, fmt.Sprintf("%s: wrote %d, the target holds %d", k, moved, after))
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w: %v", ErrCountsDiffer, bad)
	}
	return nil
}

// String lists the non-zero counts, in Kinds' order ("subscriptions 3,
// ledger_events 12").
func (c Counts) String() string {
	s := ""
	for _, k := range Kinds {
		if c[k] == 0 {
			continue
		}
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("%s %d", k, c[k])
	}
	if s == "" {
		return "nothing"
	}
	return s
}
