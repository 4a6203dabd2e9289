package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

// OwnedClaimStore is the claims with an owner token that the Feishu
// callback takes (chat/claim.OwnerStore), beside stock.AlertStore's
// ClaimAlert and ReleaseAlert, in the same key space.
type OwnedClaimStore interface {
	stock.AlertStore
	ClaimAs(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	ClaimOwner(ctx context.Context, key string) (owner string, held bool, err error)
	ReleaseAs(ctx context.Context, key, owner string) (bool, error)
}

// OwnedClaims checks an OwnedClaimStore: the first ClaimAs wins whoever
// the owner and ClaimOwner names it; ReleaseAs frees a claim only for its
// owner; claims expire; owned claims and ClaimAlert's share their keys;
// concurrent claims have one winner, the one ClaimOwner names; bad
// arguments and a canceled context are errors.
func OwnedClaims(t *testing.T, s OwnedClaimStore) {
	t.Helper()
	t.Run("ClaimAndOwner", func(t *testing.T) { ownedClaim(t, s) })
	t.Run("ReleaseAs", func(t *testing.T) { releaseAs(t, s) })
	t.Run("Expiry", func(t *testing.T) { ownedExpiry(t, s) })
	t.Run("SharedWithAlerts", func(t *testing.T) { ownedShared(t, s) })
	t.Run("Concurrent", func(t *testing.T) { ownedConcurrent(t, s) })
	t.Run("Errors", func(t *testing.T) { ownedErrors(t, s) })
}

func ownedClaim(t *testing.T, s OwnedClaimStore) {
	ctx := context.Background()
	key, other := unique(t, "owned"), unique(t, "owned")
	if owner, held, err := s.ClaimOwner(ctx, key); err != nil || held || owner != "" {
		t.Fatalf("owner before any claim = %q, %v, %v; want free", owner, held, err)
	}
	if ok, err := s.ClaimAs(ctx, key, "replica-a/1", time.Hour); err != nil || !ok {
		t.Fatalf("first claim = %v, %v; want true", ok, err)
	}
	if owner, held, err := s.ClaimOwner(ctx, key); err != nil || !held || owner != "replica-a/1" {
		t.Errorf("owner = %q, %v, %v; want replica-a/1", owner, held, err)
	}
	// A second claim loses, by another owner and by the same one (a
	// retried call learns it is the owner from ClaimOwner).
	for _, o := range []string{"replica-b/1", "replica-a/1"} {
		if ok, err := s.ClaimAs(ctx, key, o, time.Hour); err != nil || ok {
			t.Errorf("claim again as %s = %v, %v; want false", o, ok, err)
		}
	}
	if owner, _, _ := s.ClaimOwner(ctx, key); owner != "replica-a/1" {
		t.Errorf("owner after losing claims = %q, want replica-a/1 unchanged", owner)
	}
	if ok, err := s.ClaimAs(ctx, other, "replica-b/1", time.Hour); err != nil || !ok {
		t.Errorf("claim of another key = %v, %v; want true", ok, err)
	}
}

func releaseAs(t *testing.T, s OwnedClaimStore) {
	ctx := context.Background()
	key := unique(t, "owned")
	if ok, err := s.ClaimAs(ctx, key, "a/1", time.Hour); err != nil || !ok {
		t.Fatalf("claim = %v, %v", ok, err)
	}
	if ok, err := s.ReleaseAs(ctx, key, "b/1"); err != nil || ok {
		t.Errorf("release by another owner = %v, %v; want false", ok, err)
	}
	if owner, held, err := s.ClaimOwner(ctx, key); err != nil || !held || owner != "a/1" {
		t.Fatalf("after another owner's release: %q, %v, %v; want still a/1", owner, held, err)
	}
	if ok, err := s.ReleaseAs(ctx, key, "a/1"); err != nil || !ok {
		t.Errorf("release by the owner = %v, %v; want true", ok, err)
	}
	if owner, held, err := s.ClaimOwner(ctx, key); err != nil || held {
		t.Errorf("after release: %q, %v, %v; want free", owner, held, err)
	}
	if ok, err := s.ReleaseAs(ctx, key, "a/1"); err != nil || ok {
		t.Errorf("release again = %v, %v; want false, nothing to release", ok, err)
	}
	if ok, err := s.ClaimAs(ctx, key, "b/1", time.Hour); err != nil || !ok {
		t.Errorf("claim after release = %v, %v; want true", ok, err)
	}
	// ReleaseAlert frees an owned claim whoever holds it.
	if err := s.ReleaseAlert(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, held, err := s.ClaimOwner(ctx, key); err != nil || held {
		t.Errorf("after ReleaseAlert: held %v, %v; want free", held, err)
	}
}

func ownedExpiry(t *testing.T, s OwnedClaimStore) {
	ctx := context.Background()
	key := unique(t, "owned")
	const ttl = 500 * time.Millisecond
	if ok, err := s.ClaimAs(ctx, key, "a/1", ttl); err != nil || !ok {
		t.Fatalf("claim = %v, %v", ok, err)
	}
	time.Sleep(ttl + 60*time.Millisecond)
	if owner, held, err := s.ClaimOwner(ctx, key); err != nil || held {
		t.Errorf("owner after expiry = %q, %v, %v; want free", owner, held, err)
	}
	if ok, err := s.ClaimAs(ctx, key, "b/1", time.Minute); err != nil || !ok {
		t.Errorf("claim after expiry = %v, %v; want true", ok, err)
	}
	if owner, _, _ := s.ClaimOwner(ctx, key); owner != "b/1" {
		t.Errorf("owner = %q, want b/1", owner)
	}
}

func ownedShared(t *testing.T, s OwnedClaimStore) {
	ctx := context.Background()
	key := unique(t, "owned")
	if ok, err := s.ClaimAs(ctx, key, "a/1", time.Hour); err != nil || !ok {
		t.Fatalf("claim = %v, %v", ok, err)
	}
	if ok, err := s.ClaimAlert(ctx, key, time.Hour); err != nil || ok {
		t.Errorf("ClaimAlert of an owned claim = %v, %v; want false", ok, err)
	}
	alert := unique(t, "alert")
	if ok, err := s.ClaimAlert(ctx, alert, time.Hour); err != nil || !ok {
		t.Fatalf("ClaimAlert = %v, %v", ok, err)
	}
	if ok, err := s.ClaimAs(ctx, alert, "a/1", time.Hour); err != nil || ok {
		t.Errorf("ClaimAs of an alert claim = %v, %v; want false", ok, err)
	}
	if owner, held, err := s.ClaimOwner(ctx, alert); err != nil || !held || owner == "a/1" {
		t.Errorf("owner of an alert claim = %q, %v, %v; want held, by no ClaimAs owner", owner, held, err)
	}
	if ok, err := s.ReleaseAs(ctx, alert, "a/1"); err != nil || ok {
		t.Errorf("ReleaseAs of an alert claim = %v, %v; want false", ok, err)
	}
}

func ownedConcurrent(t *testing.T, s OwnedClaimStore) {
	ctx := context.Background()
	key := unique(t, "owned")
	const n = 20
	var mu sync.Mutex
	var winner string
	won := Race(t, n, "claim", func(i int) (bool, error) {
		owner := fmt.Sprintf("r%d/%d", i%2, i)
		ok, err := s.ClaimAs(ctx, key, owner, time.Minute)
		if ok {
			mu.Lock()
			winner = owner
			mu.Unlock()
		}
		return ok, err
	})
	if won != 1 {
		t.Fatalf("%d of %d concurrent claims won, want exactly 1", won, n)
	}
	if owner, held, err := s.ClaimOwner(ctx, key); err != nil || !held || owner != winner {
		t.Errorf("owner = %q, %v, %v; want the winner %q", owner, held, err, winner)
	}
}

func ownedErrors(t *testing.T, s OwnedClaimStore) {
	ctx := context.Background()
	if _, err := s.ClaimAs(ctx, unique(t, "owned"), "", time.Minute); err == nil {
		t.Error("claim with an empty owner: no error")
	}
	if _, err := s.ClaimAs(ctx, "", "a/1", time.Minute); err == nil {
		t.Error("claim with an empty key: no error")
	}
	if _, err := s.ClaimAs(ctx, unique(t, "owned"), "a/1", 0); err == nil {
		t.Error("claim with zero ttl: no error")
	}
	if _, err := s.ReleaseAs(ctx, unique(t, "owned"), ""); err == nil {
		t.Error("release with an empty owner: no error")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if ok, err := s.ClaimAs(cctx, unique(t, "owned"), "a/1", time.Minute); err == nil || ok {
		t.Errorf("claim with a canceled context = %v, %v; want an error", ok, err)
	}
	if _, _, err := s.ClaimOwner(cctx, unique(t, "owned")); err == nil {
		t.Error("owner with a canceled context: no error")
	}
	if _, err := s.ReleaseAs(cctx, unique(t, "owned"), "a/1"); err == nil {
		t.Error("release with a canceled context: no error")
	}
}
