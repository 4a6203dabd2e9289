package redis_test

import (
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// roundTrips counts the client's round trips: single commands and
// pipelines.
type roundTrips struct{ n atomic.Int64 }

func (h *roundTrips) DialHook(next goredis.DialHook) goredis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) { return next(ctx, network, addr) }
}
func (h *roundTrips) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error { h.n.Add(1); return next(ctx, cmd) }
}
func (h *roundTrips) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error { h.n.Add(1); return next(ctx, cmds) }
}

// TestClaimsBatched: batching changes no answer — of many owners
// claiming one key at once exactly one wins and holds it; distinct keys
// are all won.
func TestClaimsBatched(t *testing.T) {
	s := open(t, testPrefix(t))
	ctx := context.Background()
	const n = 64
	var wg sync.WaitGroup
	won := make([]bool, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { won[i], errs[i] = s.ClaimAs(ctx, "feishu:msg:om_1", fmt.Sprint("replica/", i), time.Hour) })
	}
	wg.Wait()
	winner := -1
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if won[i] {
			if winner >= 0 {
				t.Fatalf("owners %d and %d both won the claim", winner, i)
			}
			winner = i
		}
	}
	if winner < 0 {
		t.Fatal("no owner won the claim")
	}
	if owner, held, err := s.ClaimOwner(ctx, "feishu:msg:om_1"); err != nil || !held || owner != fmt.Sprint("replica/", winner) {
		t.Fatalf("owner = %q, %v, %v; want replica/%d", owner, held, err, winner)
	}
	for i := range n {
		wg.Go(func() { won[i], errs[i] = s.ClaimAs(ctx, fmt.Sprint("feishu:msg:om_k", i), "replica/a", time.Hour) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || !won[i] {
			t.Fatalf("claim %d of a new key = %v, %v; want true", i, won[i], errs[i])
		}
	}
}

// TestClaimsShareRoundTrips: claims made while others are in flight go
// out together. The server (a redis-server of the test's own) holds
// writes for 200 ms (CLIENT PAUSE WRITE), so the first batches stay in
// flight while the rest queue; when it lets go, the queue goes out in a
// few pipelines, not one round trip per claim.
func TestClaimsShareRoundTrips(t *testing.T) {
	_, s := ownServer(t)
	ctx := context.Background()
	rt := &roundTrips{}
	s.Client().AddHook(rt)
	if err := s.Client().Do(ctx, "CLIENT", "PAUSE", "200", "WRITE").Err(); err != nil {
		t.Skip("this redis-server has no CLIENT PAUSE WRITE:", err)
	}
	rt.n.Store(0)
	const n = 64
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { _, errs[i] = s.ClaimAs(ctx, fmt.Sprint("feishu:msg:om_p", i), "replica/a", 5*time.Second) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d claims, %d round trips", n, rt.n.Load())
	if got := rt.n.Load(); got > n/2 {
		t.Errorf("%d claims made during a 200 ms stall took %d round trips; want them batched (at most %d)", n, got, n/2)
	}
}

// TestClaimGivenUpNotSent: a caller whose context has ended before its
// claim was sent gets the context's error, and the claim never lands (so
// it cannot turn up after the caller decided without it).
func TestClaimGivenUpNotSent(t *testing.T) {
	s := open(t, testPrefix(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ok, err := s.ClaimAs(ctx, "feishu:msg:om_gone", "replica/a", time.Hour); err == nil || ok {
		t.Fatalf("claim with an ended context = %v, %v; want an error", ok, err)
	}
	time.Sleep(50 * time.Millisecond)
	if owner, held, err := s.ClaimOwner(context.Background(), "feishu:msg:om_gone"); err != nil || held {
		t.Fatalf("the given-up claim landed: %q, %v, %v", owner, held, err)
	}
}
