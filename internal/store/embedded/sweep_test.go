package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestSweep: expired claims, mutes and locks are pruned from the file by a
// later write, live ones are kept.
func TestSweep(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
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

// TestClaimSweepIndex: the claims sweep walks the expiry index: expired
// claims go, live ones stay, a claim taken again after it expired is kept
// (its old index entry dropped), a released one leaves no claim behind,
// and the index holds only live entries afterwards.
func TestClaimSweepIndex(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	claim := func(key string, ttl time.Duration) {
		t.Helper()
		if ok, err := s.ClaimAs(ctx, key, "o", ttl); err != nil || !ok {
			t.Fatalf("claim %s: %v, %v", key, ok, err)
		}
	}
	claim("old", time.Minute)
	claim("renewed", time.Minute)
	claim("released", time.Minute)
	claim("live", time.Hour)
	if ok, err := s.ReleaseAs(ctx, "released", "o"); err != nil || !ok {
		t.Fatalf("release: %v, %v", ok, err)
	}
	s.flushClaims()
	now = now.Add(2 * time.Minute)
	claim("renewed", time.Hour) // expired, taken again
	claim("trigger", time.Hour) // sweeps
	s.flushClaims()
	keys := func(bucket []byte) (out []string) {
		_ = s.claims.View(func(tx *bolt.Tx) error {
			return tx.Bucket(bucket).ForEach(func(k, _ []byte) error {
				if bytes.Equal(bucket, bucketClaimExpiry) {
					k = k[8:]
				}
				out = append(out, string(k))
				return nil
			})
		})
		sort.Strings(out)
		return out
	}
	want := []string{"live", "renewed", "trigger"}
	if got := keys(bucketClaims); !slices.Equal(got, want) {
		t.Errorf("claims %q, want %q", got, want)
	}
	if got := keys(bucketClaimExpiry); !slices.Equal(got, want) {
		t.Errorf("index %q, want %q", got, want)
	}
}

// TestClaimsDurable: batched claims are in the file after a restart, and
// a claims file written before the expiry index is indexed at Open (its
// expired claims then swept, its live ones kept).
func TestClaimsDurable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ok, err := s.ClaimAs(ctx, fmt.Sprintf("k%d", i), "a", time.Hour); err != nil || !ok {
				t.Errorf("claim k%d: %v, %v", i, ok, err)
			}
		}()
	}
	wg.Wait()
	s.flushClaims()
	// A file from before the index: drop it, and add an expired claim.
	err = s.claims.Update(func(tx *bolt.Tx) error {
		v, _ := json.Marshal(time.Now().Add(-time.Hour))
		if err := tx.Bucket(bucketClaims).Put([]byte("stale"), v); err != nil {
			return err
		}
		return tx.DeleteBucket(bucketClaimExpiry)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 64 {
		if ok, err := s.ClaimAs(ctx, fmt.Sprintf("k%d", i), "b", time.Hour); err != nil || ok {
			t.Errorf("k%d claimed again after a restart: %v, %v", i, ok, err)
		}
	}
	s.lastClaimSweep.Store(0)
	if ok, err := s.ClaimAs(ctx, "trigger", "b", time.Hour); err != nil || !ok {
		t.Fatalf("trigger: %v, %v", ok, err)
	}
	if _, held, _ := s.ClaimOwner(ctx, "stale"); held {
		t.Error("stale claim held")
	}
	s.flushClaims()
	_ = s.claims.View(func(tx *bolt.Tx) error {
		if n := tx.Bucket(bucketClaims).Stats().KeyN; n != 65 {
			t.Errorf("%d claims after the sweep, want 65", n)
		}
		return nil
	})
}

// TestClaimBatchOneWinner: concurrent claims of one key in shared commits:
// exactly one wins.
func TestClaimBatchOneWinner(t *testing.T) {
	s := openStore(t, t.TempDir())
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := s.ClaimAs(context.Background(), "same", fmt.Sprint(i), time.Hour)
			if err != nil {
				t.Error(err)
			}
			if ok {
				won.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := won.Load(); n != 1 {
		t.Errorf("%d winners, want 1", n)
	}
}

// TestClaimWriteBehind: ClaimAlert returns once its claim is in the file;
// a claim released before it was written leaves nothing in the file; a
// commit that fails fails the ClaimAlert waiting for it, unclaimed, while
// a ClaimAs stays held in memory and is written by the next commit.
func TestClaimWriteBehind(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	inFile := func(key string) bool {
		_, held, err := s.fileClaim(key, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return held
	}
	if ok, err := s.ClaimAlert(ctx, "alert", time.Hour); err != nil || !ok || !inFile("alert") {
		t.Fatalf("ClaimAlert = %v, %v; in the file: %v", ok, err, inFile("alert"))
	}
	// Hold the writer so that the claim and its release are both pending.
	s.cw.flushMu.Lock()
	if ok, err := s.ClaimAs(ctx, "gone", "o", time.Hour); err != nil || !ok {
		t.Fatalf("ClaimAs = %v, %v", ok, err)
	}
	if ok, err := s.ReleaseAs(ctx, "gone", "other"); err != nil || ok {
		t.Errorf("ReleaseAs by another owner = %v, %v", ok, err)
	}
	if ok, err := s.ReleaseAs(ctx, "gone", "o"); err != nil || !ok {
		t.Errorf("ReleaseAs = %v, %v", ok, err)
	}
	if ok, err := s.ClaimAs(ctx, "kept", "o", time.Hour); err != nil || !ok {
		t.Fatalf("ClaimAs = %v, %v", ok, err)
	}
	s.cw.flushMu.Unlock()
	s.flushClaims()
	if inFile("gone") || !inFile("kept") {
		t.Errorf("in the file: released %v, kept %v", inFile("gone"), inFile("kept"))
	}

	// A commit that fails (the file closed under the writer).
	s.cw.flushMu.Lock()
	if ok, err := s.ClaimAs(ctx, "held", "o", time.Hour); err != nil || !ok {
		t.Fatalf("ClaimAs = %v, %v", ok, err)
	}
	alert := make(chan error)
	go func() {
		_, err := s.ClaimAlert(ctx, "refused", time.Hour)
		alert <- err
	}()
	waitForWaiter(s)
	if err := s.claims.Close(); err != nil {
		t.Fatal(err)
	}
	s.cw.flushMu.Unlock()
	if err := <-alert; err == nil {
		t.Error("ClaimAlert succeeded although its commit failed")
	}
	s.cw.mu.Lock()
	_, refused := s.cw.pending["refused"]
	p, held := s.cw.pending["held"]
	s.cw.mu.Unlock()
	if refused || !held || p.del {
		t.Errorf("after a failed commit: alert claim pending %v, ClaimAs claim pending %v", refused, held)
	}
	// For claimRetry claims fail, so that the deduper falls back.
	if ok, err := s.ClaimAs(ctx, "during", "o", time.Hour); err == nil || ok {
		t.Errorf("ClaimAs after a failed commit = %v, %v; want the commit's error", ok, err)
	}
	// The file works again: the first claim after claimRetry is taken, and
	// the next commit writes it with the one kept through the failure.
	reopenClaims(t, s, dir)
	s.cw.mu.Lock()
	s.cw.failedUntil = time.Now()
	s.cw.mu.Unlock()
	if ok, err := s.ClaimAs(ctx, "after", "o", time.Hour); err != nil || !ok {
		t.Fatalf("ClaimAs after claimRetry = %v, %v", ok, err)
	}
	if err := s.flushClaims(); err != nil {
		t.Fatal(err)
	}
	if !inFile("held") || !inFile("after") || inFile("refused") {
		t.Errorf("in the file: kept %v, after %v, refused %v", inFile("held"), inFile("after"), inFile("refused"))
	}
}

// TestClaimAlertIgnoresCancel: a ClaimAlert whose context ends while its
// commit is under way still reports the claim it took, so that its caller
// sends (or releases) it rather than leaving the key held unsent.
func TestClaimAlertIgnoresCancel(t *testing.T) {
	s := openStore(t, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	s.cw.flushMu.Lock()
	res := make(chan bool)
	go func() {
		ok, err := s.ClaimAlert(ctx, "digest", time.Hour)
		res <- ok && err == nil
	}()
	waitForWaiter(s)
	cancel()
	s.cw.flushMu.Unlock()
	if !<-res {
		t.Error("ClaimAlert cancelled during its commit reported no claim")
	}
}

// TestCloseReportsUnwritten: Close says when pending claims could not be
// written.
func TestCloseReportsUnwritten(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s.cw.flushMu.Lock()
	if ok, err := s.ClaimAs(context.Background(), "k", "o", time.Hour); err != nil || !ok {
		t.Fatal(ok, err)
	}
	_ = s.claims.Close()
	s.cw.flushMu.Unlock()
	if err := s.Close(); err == nil || !strings.Contains(err.Error(), "not written") {
		t.Errorf("Close = %v, want the claims not written", err)
	}
}

// TestClaimKeyTooLong: a key the file cannot hold is refused at once, and
// later claims are still written.
func TestClaimKeyTooLong(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	long := strings.Repeat("k", bolt.MaxKeySize)
	if ok, err := s.ClaimAs(ctx, long, "o", time.Hour); err == nil || ok {
		t.Errorf("ClaimAs of a %d-byte key = %v, %v; want an error", len(long), ok, err)
	}
	if ok, err := s.ClaimAlert(ctx, "after", time.Hour); err != nil || !ok {
		t.Errorf("ClaimAlert after = %v, %v", ok, err)
	}
}

// TestClaimRaceWithCommits: claims of the same keys from many goroutines
// while the writer commits (some decided from the file outside the lock,
// some from what is pending): every key has exactly one winner.
func TestClaimRaceWithCommits(t *testing.T) {
	s := openStore(t, t.TempDir())
	const keys, workers, rounds = 40, 8, 30
	var won [keys]atomic.Int32
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			for r := range rounds {
				for k := range keys {
					key := fmt.Sprintf("r%d-k%d", r, (k+g*5)%keys)
					ok, err := s.ClaimAs(context.Background(), key, fmt.Sprint(g), time.Hour)
					if err != nil {
						t.Error(err)
						return
					}
					if ok {
						won[(k+g*5)%keys].Add(1)
					}
				}
				if g == 0 {
					time.Sleep(time.Millisecond) // let commits fall between the claims
				}
			}
		})
	}
	wg.Wait()
	for k := range keys {
		if n := won[k].Load(); n != rounds {
			t.Errorf("key %d: %d winners over %d rounds, want one a round", k, n, rounds)
		}
	}
}

// TestClaimDecidedAfterACommit: a claim of the same key taken and
// committed while another claim was reading the file outside the lock
// makes that one look again, and lose.
func TestClaimDecidedAfterACommit(t *testing.T) {
	s := openStore(t, t.TempDir())
	ctx := context.Background()
	var fired atomic.Bool
	s.afterFileRead = func(key string) {
		if fired.Swap(true) {
			return // the other claim's own read
		}
		if ok, err := s.ClaimAs(ctx, key, "other", time.Hour); err != nil || !ok {
			t.Errorf("the other claim: %v, %v", ok, err)
		}
		if err := s.flushClaims(); err != nil {
			t.Error(err)
		}
	}
	if ok, err := s.ClaimAs(ctx, "k", "first", time.Hour); err != nil || ok {
		t.Errorf("a claim whose key was claimed and committed while it read the file = %v, %v; want false", ok, err)
	}
	if owner, held, _ := s.ClaimOwner(ctx, "k"); !held || owner != "other" {
		t.Errorf("owner %q, held %v; want other", owner, held)
	}
}

// waitForWaiter returns once a ClaimAlert waits for its commit.
func waitForWaiter(s *Store) {
	for {
		s.cw.mu.Lock()
		n := len(s.cw.waiters)
		s.cw.mu.Unlock()
		if n == 1 {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestReleaseSurvivesADroppedClaim: a claim taken over a release not yet
// written, and dropped because its commit failed, leaves the release
// pending, so the released claim does not come back from the file.
func TestReleaseSurvivesADroppedClaim(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	s.cw.flushMu.Lock()
	if ok, err := s.ClaimAs(ctx, "k", "A", time.Hour); err != nil || !ok {
		t.Fatal(ok, err)
	}
	// A commit under way has written k(A); it is still pending.
	s.cw.mu.Lock()
	p := s.cw.pending["k"]
	s.cw.mu.Unlock()
	if err := s.claims.Update(func(tx *bolt.Tx) error { return writeClaims(tx, map[string]pendingClaim{"k": p}) }); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ReleaseAs(ctx, "k", "A"); err != nil || !ok {
		t.Fatalf("ReleaseAs = %v, %v", ok, err)
	}
	alert := make(chan error)
	go func() {
		_, err := s.ClaimAlert(ctx, "k", time.Minute)
		alert <- err
	}()
	waitForWaiter(s)
	_ = s.claims.Close() // the claim's commit fails
	s.cw.flushMu.Unlock()
	if err := <-alert; err == nil {
		t.Fatal("ClaimAlert succeeded although its commit failed")
	}
	reopenClaims(t, s, dir)
	if err := s.flushClaims(); err != nil {
		t.Fatal(err)
	}
	if owner, held, err := s.ClaimOwner(ctx, "k"); err != nil || held {
		t.Errorf("after the dropped claim: owner %q held %v (%v); want the release kept", owner, held, err)
	}
}

// TestReleaseAfterClose: a release after Close fails instead of
// reporting a release nothing will write.
func TestReleaseAfterClose(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ReleaseAs(context.Background(), "k", "A"); err == nil || ok {
		t.Errorf("ReleaseAs after Close = %v, %v", ok, err)
	}
	if err := s.ReleaseAlert(context.Background(), "k"); err == nil {
		t.Error("ReleaseAlert after Close: no error")
	}
}

// openStore opens a store in dir, closed when the test ends.
func openStore(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// reopenClaims opens the claims file in dir again under s, after a test
// closed it to make commits fail.
func reopenClaims(t *testing.T, s *Store, dir string) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, ClaimsFileName), 0o600, &bolt.Options{NoSync: true, NoFreelistSync: true})
	if err != nil {
		t.Fatal(err)
	}
	s.claims = db
}
