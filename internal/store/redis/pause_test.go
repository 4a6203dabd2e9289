package redis_test

import (
	"context"
	"testing"
	"time"

	redisstore "github.com/labgpu/bot/internal/store/redis"
	"github.com/labgpu/bot/internal/store/storetest"
)

// TestClaimAppliedAfterTimeout reproduces what owner tokens are for: a
// claim sent to a paused server times out in the caller (the context's
// deadline bounds the command), yet the server applies it once it runs
// again. ClaimOwner then names the caller's token, and ReleaseAs frees it
// while another owner's release does not.
func TestClaimAppliedAfterTimeout(t *testing.T) {
	srv, s := ownServer(t)
	ctx := context.Background()

	srv.Pause()
	cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	start := time.Now()
	ok, err := s.ClaimAs(cctx, "feishu:event:ev-1", "replica-a/1", time.Hour)
	cancel()
	if err == nil {
		srv.Resume()
		t.Fatalf("claim on a paused server = %v, nil; want a timeout", ok)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("claim took %v; the context's 300 ms deadline should bound it", d)
	}
	srv.Resume()

	deadline := time.Now().Add(5 * time.Second)
	for {
		owner, held, err := s.ClaimOwner(ctx, "feishu:event:ev-1")
		if err == nil && held {
			if owner != "replica-a/1" {
				t.Fatalf("owner = %q, want the timed-out caller's token", owner)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the timed-out claim never landed (owner %q, held %v, err %v); "+
				"this test expects the server to apply it after SIGCONT", owner, held, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ok, err := s.ReleaseAs(ctx, "feishu:event:ev-1", "replica-b/9"); err != nil || ok {
		t.Errorf("release by another owner = %v, %v; want false", ok, err)
	}
	if ok, err := s.ReleaseAs(ctx, "feishu:event:ev-1", "replica-a/1"); err != nil || !ok {
		t.Errorf("release by the owner = %v, %v; want true", ok, err)
	}
	if ok, err := s.ClaimAs(ctx, "feishu:event:ev-1", "replica-b/9", time.Hour); err != nil || !ok {
		t.Errorf("redelivery's claim = %v, %v; want true", ok, err)
	}
}

// ownServer starts a redis-server of the test's own (one it may pause)
// and opens a store on it with a connection already made, so that a
// command is written before a pause shows; both end with the test.
func ownServer(t *testing.T) (*storetest.RedisServer, *redisstore.Store) {
	t.Helper()
	srv := storetest.StartRedis(t)
	ctx := context.Background()
	s, err := redisstore.Open(ctx, srv.URL(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, _, err := s.ClaimOwner(ctx, "warm"); err != nil {
		t.Fatal(err)
	}
	return srv, s
}
