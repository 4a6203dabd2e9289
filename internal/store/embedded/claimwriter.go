package embedded

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// claimWriter decides claims in memory and writes them to the claims file
// behind the caller (write-behind group commit). bbolt allows one process
// per file, so the process holding the store is the only one claiming:
// a claim is decided under mu against the claims not yet written
// (pending) and, for a key with none, the file (a read transaction, which
// never waits for the writer). One goroutine (run) writes whatever is
// pending in one transaction as soon as the previous one is done, so
// under load a commit carries every claim that arrived during the last.
//
// ClaimAs returns without waiting for the commit: the Feishu callback
// acknowledges an event as soon as it is claimed, and a crash before the
// commit (claimGather and one commit later) loses the claim together
// with the event it was taken for, which was only in the process's queue,
// so Feishu's redelivery is rightly answered. ClaimAlert, used for alerts
// and digests that are sent after the claim, waits for its commit (as
// bolt's Batch did, whatever its context: the wait is one local commit)
// and fails, unclaimed, when the commit fails.
//
// A failed commit: the claims of ClaimAs stay pending (held, and written
// by the next commit; expired ones are dropped), and for claimRetry every
// claim fails with the commit's error, so that the Feishu deduper falls
// back to its in-process window and says so, as when the store fails at
// once; the first claim after that tries the file again.
type claimWriter struct {
	flushMu sync.Mutex // one flush at a time, so none writes an older batch over a newer
	mu      sync.Mutex
	pending map[string]pendingClaim
	seq     uint64
	waiters []chan error // ClaimAlert callers waiting for the next commit
	closed  bool
	// gen counts the times the file changed for a key that may have no
	// pending claim: a commit (whose claims then leave pending), a
	// release written at once (see decide).
	gen uint64
	// failed is the latest commit's error (nil when it succeeded);
	// claims fail with it until failedUntil.
	failed      error
	failedUntil time.Time

	kick     chan struct{} // buffered 1: something is pending
	stop     chan struct{}
	done     chan struct{}
	closeErr error // the last commit's, at close
}

// pendingClaim is a claim, or a release (del), not yet in the file.
type pendingClaim struct {
	owner string // "" for ClaimAlert
	exp   time.Time
	del   bool
	alert bool // taken by ClaimAlert, whose caller learns the commit's outcome
	// overDel: the claim replaced a release not yet written, which comes
	// back if the claim is dropped unwritten (dropped).
	overDel bool
	seq     uint64
}

// held reports whether p holds its key at now (a release holds nothing).
func (p pendingClaim) held(now time.Time) bool { return !p.del && now.Before(p.exp) }

// dropped is what stays pending of p when it is dropped unwritten (a
// ClaimAlert whose commit failed, a claim that expired while commits
// failed): the release it replaced, or nothing.
func (p pendingClaim) dropped() (pendingClaim, bool) {
	if p.overDel {
		return pendingClaim{del: true, seq: p.seq}, true
	}
	return pendingClaim{}, false
}

var errStoreClosed = errors.New("store closed")

func newClaimWriter() *claimWriter {
	return &claimWriter{pending: map[string]pendingClaim{}, kick: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
}

// put records p for key (under mu) and wakes the writer.
func (w *claimWriter) put(key string, p pendingClaim) {
	w.seq++
	p.seq = w.seq
	w.pending[key] = p
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// runClaimWriter writes pending claims until close, then the rest.
func (s *Store) runClaimWriter() {
	w := s.cw
	defer close(w.done)
	for {
		select {
		case <-w.kick:
			// Let claims gather: nobody but a ClaimAlert waits for the
			// commit, and its cost is mostly per commit, not per claim.
			select {
			case <-time.After(claimGather):
			case <-w.stop:
			}
			_ = s.flushClaims() // its error fails the claims that follow (refusal)
		case <-w.stop:
			w.closeErr = s.flushClaims()
			return
		}
	}
}

// claimRetry is how long claims fail after a failed commit.
const claimRetry = time.Second

// refusal is the error a claim fails with after a failed commit, or nil
// (under w.mu).
func (w *claimWriter) refusal(now time.Time) error {
	if w.failed != nil && now.Before(w.failedUntil) {
		return fmt.Errorf("claims file: %w", w.failed)
	}
	return nil
}

// claimGather is how long the writer lets claims gather before a commit.
// At 15,000 claims a second (BenchmarkCallbackVsSDK) a commit carries
// about 75, and a crash loses at most claimGather's claims with their
// events (see claimWriter).
const claimGather = 5 * time.Millisecond

// flushClaims writes what is pending in one transaction, then answers the
// ClaimAlert callers waiting for it. On failure, claims taken by ClaimAs
// stay pending (and held) for the next commit; those of ClaimAlert are
// dropped, as their callers are told they did not claim. Tests call it to
// see the file as it will be; a second waits for the first. It returns
// the commit's error.
func (s *Store) flushClaims() error {
	w := s.cw
	w.flushMu.Lock()
	defer w.flushMu.Unlock()
	w.mu.Lock()
	var now time.Time
	if w.failed != nil {
		now = s.now() // claims kept through failed commits may have expired
	}
	batch := make(map[string]pendingClaim, len(w.pending))
	for k, p := range w.pending {
		if !now.IsZero() && !p.del && !p.exp.After(now) {
			if rel, ok := p.dropped(); ok {
				w.pending[k], batch[k] = rel, rel
			} else {
				delete(w.pending, k)
			}
			continue
		}
		batch[k] = p
	}
	waiters := w.waiters
	w.waiters = nil
	w.mu.Unlock()
	if len(batch) == 0 && len(waiters) == 0 {
		return nil
	}
	err := s.claims.Update(func(tx *bolt.Tx) error { return writeClaims(tx, batch) })
	w.mu.Lock()
	w.gen++
	for k, p := range batch {
		cur, ok := w.pending[k]
		switch {
		case !ok || cur.seq != p.seq:
		case err == nil:
			delete(w.pending, k)
		case p.alert:
			if rel, keep := p.dropped(); keep {
				w.pending[k] = rel
			} else {
				delete(w.pending, k)
			}
		}
	}
	w.failed = err
	if err != nil {
		w.failedUntil = time.Now().Add(claimRetry)
	}
	w.mu.Unlock()
	for _, ch := range waiters {
		ch <- err
	}
	return err
}

// writeClaims puts every claim of batch with its expiry index entry and
// deletes every release.
func writeClaims(tx *bolt.Tx, batch map[string]pendingClaim) error {
	b := tx.Bucket(bucketClaims)
	idx, err := tx.CreateBucketIfNotExists(bucketClaimExpiry)
	if err != nil {
		return err
	}
	for k, p := range batch {
		if p.del {
			if err := b.Delete([]byte(k)); err != nil {
				return err
			}
			continue
		}
		var v []byte
		var err error
		if p.owner == "" {
			v, err = json.Marshal(p.exp)
		} else {
			v, err = json.Marshal(claimEntry{Owner: p.owner, Expires: p.exp})
		}
		if err != nil {
			return err
		}
		if err := b.Put([]byte(k), v); err != nil {
			return err
		}
		if err := idx.Put(expiryKey(p.exp, k), nil); err != nil {
			return err
		}
	}
	return nil
}

// closeClaimWriter writes what is pending and stops the writer; later
// claims fail. It returns the last commit's error: claims it could not
// write are lost.
func (s *Store) closeClaimWriter() error {
	w := s.cw
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	close(w.stop)
	<-w.done
	if w.closeErr != nil {
		return fmt.Errorf("embedded store: claims not written at close: %w", w.closeErr)
	}
	return nil
}

// fileClaim reads key's claim from the file: its owner, and whether it is
// held at now.
func (s *Store) fileClaim(key string, now time.Time) (owner string, held bool, err error) {
	err = s.claims.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketClaims).Get([]byte(key))
		if v == nil {
			return nil
		}
		if exp, o, ok := decodeClaim(v); ok && now.Before(exp) {
			owner, held = o, true
		}
		return nil
	})
	return owner, held, err
}

// currentClaim is key's claim as the writer sees it (under w.mu): pending,
// or else in the file.
func (s *Store) currentClaim(key string, now time.Time) (owner string, held bool, err error) {
	if p, ok := s.cw.pending[key]; ok {
		return p.owner, p.held(now), nil
	}
	return s.fileClaim(key, now)
}
