package embedded

import (
	"context"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestSweep: expired claims, mutes and locks are pruned from the file by a
// later write, live ones are kept.
func TestSweep(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	if _, err := s.ClaimAlert(ctx, "old", time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClaimAlert(ctx, "new", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMute(ctx, "feishu/old", now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TryLock(ctx, "old", "a", time.Minute); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Minute)
	// Claims live in their own file and are swept by claims; mutes and
	// locks by the other writes.
	if _, err := s.ClaimAlert(ctx, "trigger", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMute(ctx, "feishu/trigger", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	countIn := func(db *bolt.DB, bucket []byte) int {
		n := 0
		_ = db.View(func(tx *bolt.Tx) error {
			n = tx.Bucket(bucket).Stats().KeyN
			return nil
		})
		return n
	}
	count := func(bucket []byte) int { return countIn(s.db, bucket) }
	if n := countIn(s.claims, bucketClaims); n != 2 {
		t.Errorf("%d claims left, want 2 (new, trigger)", n)
	}
	if n := count(bucketMutes); n != 1 {
		t.Errorf("%d mutes left, want 1 (trigger)", n)
	}
	if n := count(bucketLocks); n != 0 {
		t.Errorf("%d locks left, want 0", n)
	}
}
