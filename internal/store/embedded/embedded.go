// Package embedded is the default store: one bbolt file in the data
// directory, no server. It implements the persistence interfaces declared by
// the packages that use them (stock.SnapshotStore, stock.SubscriptionStore,
// stock.AlertStore, stock.Locker).
//
// bbolt allows one process per file, so claims and locks here only
// coordinate goroutines of that process; several replicas need the Redis
// store.
package embedded

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/labgpu/bot/internal/stock"
)

// FileName is the store's file inside the data directory.
const FileName = "labgpu.db"

// Buckets, one per kind. Values are JSON.
var (
	bucketSnapshots     = []byte("stock_snapshots")     // provider → stock.ProviderSnapshot
	bucketSubscriptions = []byte("stock_subscriptions") // id → stock.Subscription
	bucketNotify        = []byte("stock_notify")        // subscription id → stock.NotifyRecord
	bucketClaims        = []byte("alert_claims")        // key → expiry (time.Time), or claimEntry when owned
	bucketClaimExpiry   = []byte("claim_expiry")        // expiryKey(expiry, key) → nil: the claims in time order (claims file)
	bucketMutes         = []byte("chat_mutes")          // chat key → until (time.Time)
	bucketLocks         = []byte("locks")               // name → lockEntry
	bucketBlobs         = []byte("blobs")               // name → opaque bytes (the WeChat hot-login state)
	bucketStorage       = []byte("storage_ledger")      // lab → (sequence → ledger.StorageEvent)
	bucketDigest        = []byte("digest_chats")        // chat key → 1 (weekly digest on)
	bucketHistory       = []byte("stock_history")       // chunk key → history chunk (internal/history)
	allBuckets          = [][]byte{bucketSnapshots, bucketSubscriptions, bucketNotify, bucketClaims, bucketMutes, bucketLocks, bucketBlobs, bucketStorage, bucketDigest, bucketHistory,
		bucketDelivered, bucketDigestMarks, bucketInbox, bucketInboxLeases, bucketFrames, bucketFrameLists}
)

// Store is a bbolt-backed store. Safe for concurrent use.
type Store struct {
	db *bolt.DB
	// claims holds the dedup claims (ClaimAlert) in a second file written
	// without fsync: a claim is taken for every incoming Feishu event, and
	// an fsync each would cap the callback at a few hundred events a
	// second. Claims are decided in memory and written behind, many to a
	// commit (claimWriter), and indexed by expiry (bucketClaimExpiry), so
	// the sweep deletes only expired ones. A power cut may lose the newest
	// claims (a duplicate reply at worst); a crash of the process loses
	// the claims of the commit under way (see claimWriter), a restart
	// nothing (Close writes what is pending and syncs, and says when it
	// could not).
	claims *bolt.DB
	cw     *claimWriter
	// afterFileRead, set by tests, runs in decide between reading a claim
	// from the file and deciding.
	afterFileRead func(key string)
	now           func() time.Time

	// lastSweep (UnixNano) is when expired mutes and locks were last
	// pruned (sweep); lastClaimSweep, claims (maybeSweepClaims).
	lastSweep      atomic.Int64
	lastClaimSweep atomic.Int64
	// lastDeliveredSweep is when expired delivered marks were last
	// pruned (pruneDelivered).
	lastDeliveredSweep atomic.Int64
	// lastFrameSweep is when expired conversation frames were last
	// pruned (pruneFrames).
	lastFrameSweep atomic.Int64
}

// Open opens (creating if needed) the store in dir. It fails with
// ErrInUse when another process holds the file for more than a second,
// and with an error naming the user and the fix when it may not write
// there.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, dataDirError(dir, err)
	}
	path := filepath.Join(dir, FileName)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, openError(path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return fmt.Errorf("bucket %s: %w", b, err)
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("embedded store: init %q: %w", path, err)
	}
	cpath := filepath.Join(dir, ClaimsFileName)
	claims, err := bolt.Open(cpath, 0o600, &bolt.Options{Timeout: time.Second, NoSync: true, NoFreelistSync: true})
	if err != nil {
		db.Close()
		return nil, openError(cpath, err)
	}
	if err := claims.Update(func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(bucketClaims); err != nil {
			return err
		}
		if tx.Bucket(bucketClaimExpiry) == nil {
			return indexClaims(tx)
		}
		return nil
	}); err != nil {
		db.Close()
		claims.Close()
		return nil, fmt.Errorf("embedded store: init %q: %w", cpath, err)
	}
	s := &Store{db: db, claims: claims, now: time.Now, cw: newClaimWriter()}
	go s.runClaimWriter()
	return s, nil
}

// ErrInUse is Open's error when another process holds the store's file
// (bbolt lets one process open it): a running `bot serve` or console
// with the same data directory.
var ErrInUse = errors.New("in use by another bot process")

// openError explains a failed bolt.Open of path: the file is held by
// another process (ErrInUse), may not be written by this user, or else.
func openError(path string, err error) error {
	switch {
	case errors.Is(err, bolt.ErrTimeout):
		return fmt.Errorf("embedded store: %s is %w (bot serve or a console with the same BOT_DATA_DIR)", path, ErrInUse)
	case errors.Is(err, fs.ErrPermission):
		return permissionError(path, err)
	}
	return fmt.Errorf("embedded store: open %s: %w", path, err)
}

// dataDirError explains a data directory that cannot be created or
// written.
func dataDirError(dir string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return permissionError(dir, err)
	}
	return fmt.Errorf("embedded store: data dir %s: %w", dir, err)
}

// permissionError names the user this process runs as and how to give it
// the path.
func permissionError(path string, err error) error {
	uid, gid := os.Getuid(), os.Getgid()
	return fmt.Errorf("embedded store: %s: %w: this process runs as uid %d and may not write there; give the data directory to that user (chown -R %d:%d DIR), or in Docker use a named volume or a directory owned by uid %d (docs/deploy.md)",
		path, err, uid, uid, gid, uid)
}

// ClaimsFileName is the dedup-claims file beside FileName.
const ClaimsFileName = "labgpu-claims.db"

// Close closes the files (syncing the claims file first).
func (s *Store) Close() error {
	err := s.closeClaimWriter()
	if e := s.claims.Sync(); err == nil {
		err = e
	}
	if e := s.claims.Close(); err == nil {
		err = e
	}
	if e := s.db.Close(); err == nil {
		err = e
	}
	return err
}

// SaveProviderSnapshot replaces the provider's stored snapshot.
func (s *Store) SaveProviderSnapshot(ctx context.Context, ps stock.ProviderSnapshot) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.putJSON(bucketSnapshots, ps.Provider, ps, "snapshot", "save")
}

// LoadProviderSnapshots returns every stored snapshot. A record that does
// not decode is skipped and reported in the error, the others still load.
func (s *Store) LoadProviderSnapshots(ctx context.Context) ([]stock.ProviderSnapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out, bad, err := decodeAll[stock.ProviderSnapshot](s.db, bucketSnapshots, "snapshot")
	if err != nil {
		return out, fmt.Errorf("embedded store: load snapshots: %w", err)
	}
	return out, bad
}

// putJSON stores v as JSON under key in bucket. Errors name the record by
// its kind and key and say what failed: encode, or the verb (save, add).
func (s *Store) putJSON(bucket []byte, key string, v any, kind, verb string) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("embedded store: encode %s %q: %w", kind, key, err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucket).Put([]byte(key), b)
	})
	if err != nil {
		return fmt.Errorf("embedded store: %s %s %q: %w", verb, kind, key, err)
	}
	return nil
}

// deleteKey removes key from bucket; an empty key is nothing to remove and
// a missing one no error. Errors name the key after what (the operation).
func (s *Store) deleteKey(ctx context.Context, bucket []byte, key, what string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("embedded store: %s %q: %w", what, key, err)
	}
	if key == "" {
		return nil
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucket).Delete([]byte(key))
	})
	if err != nil {
		return fmt.Errorf("embedded store: %s %q: %w", what, key, err)
	}
	return nil
}

// decodeAll decodes every value of bucket, in key order. A value that does
// not decode is skipped and reported in bad (the last such), named by kind
// and key; err is the read's own failure.
func decodeAll[T any](db *bolt.DB, bucket []byte, kind string) (out []T, bad, err error) {
	err = db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucket).ForEach(func(k, v []byte) error {
			var x T
			if err := json.Unmarshal(v, &x); err != nil {
				bad = fmt.Errorf("embedded store: %s %q does not decode: %w", kind, k, err)
				return nil
			}
			out = append(out, x)
			return nil
		})
	})
	return out, bad, err
}
