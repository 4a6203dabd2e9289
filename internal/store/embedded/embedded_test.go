package embedded_test

import (
	"context"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/embedded"
	"github.com/labgpu/bot/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	s := mustOpen(t, t.TempDir())
	defer s.Close()
	storetest.All(t, s)
}

// mustOpen opens the store in dir or fails the test.
func mustOpen(t *testing.T, dir string) *embedded.Store {
	t.Helper()
	s, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// reopen closes s and opens the store in dir again, as after a restart.
func reopen(t *testing.T, s *embedded.Store, dir string) *embedded.Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return mustOpen(t, dir)
}

// Compile-time check: the embedded store implements every store interface.
var _ storetest.Store = (*embedded.Store)(nil)

// TestAlertStateSurvivesRestart: subscriptions, records, claims, mutes and
// locks saved before Close are there after Open.
func TestAlertStateSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := mustOpen(t, dir)
	until := time.Now().Add(time.Hour).UTC()
	steps := []error{
		s.AddSubscription(ctx, stock.Subscription{ID: "s-1", Channel: "feishu", ChatID: "oc", GPUs: []string{"RTX 4090"}}),
		s.PutNotifyRecords(ctx, []stock.NotifyRecord{{SubscriptionID: "s-1", Seq: 7, Active: true}}),
		s.SetMute(ctx, "feishu/oc", until),
	}
	for _, err := range steps {
		if err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := s.ClaimAlert(ctx, "s-1/7", time.Hour); err != nil || !ok {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	if ok, err := s.TryLock(ctx, "poller", "a", time.Hour); err != nil || !ok {
		t.Fatalf("lock: %v, %v", ok, err)
	}
	s = reopen(t, s, dir)
	defer s.Close()
	subs, err := s.Subscriptions(ctx)
	if err != nil || len(subs) != 1 || subs[0].ID != "s-1" || subs[0].GPUs[0] != "RTX 4090" {
		t.Errorf("subscriptions after reopen: %+v, %v", subs, err)
	}
	recs, err := s.NotifyRecords(ctx, []string{"s-1"})
	if err != nil || recs["s-1"].Seq != 7 || !recs["s-1"].Active {
		t.Errorf("records after reopen: %+v, %v", recs, err)
	}
	if u, err := s.MutedUntil(ctx, "feishu/oc"); err != nil || !u.Equal(until) {
		t.Errorf("mute after reopen: %v, %v; want %v", u, err, until)
	}
	if ok, err := s.ClaimAlert(ctx, "s-1/7", time.Hour); err != nil || ok {
		t.Errorf("claim after reopen: %v, %v; want false (already sent)", ok, err)
	}
	if ok, err := s.TryLock(ctx, "poller", "b", time.Hour); err != nil || ok {
		t.Errorf("lock after reopen: %v, %v; want false (held by a)", ok, err)
	}
}

// TestSurvivesRestart: a snapshot saved before Close is there after Open.
func TestSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	ps := stock.ProviderSnapshot{Provider: "replay", Status: stock.StatusOK, FetchedAt: time.Unix(1700000000, 0).UTC(),
		Offers: []stock.Offer{{Platform: "vastai", GPU: "RTX 4090", CNYPerGPUHour: 2.4, Source: stock.SourceReplay}}}
	if err := s.SaveProviderSnapshot(context.Background(), ps); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	defer s.Close()
	got, err := s.LoadProviderSnapshots(context.Background())
	if err != nil || len(got) != 1 || got[0].Offers[0].CNYPerGPUHour != 2.4 {
		t.Fatalf("after reopen: %+v, %v", got, err)
	}
}

// TestLocked: a second Open of the same file fails with a clear error
// instead of hanging.
func TestLocked(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	defer s.Close()
	if _, err := embedded.Open(dir); err == nil {
		t.Fatal("second open succeeded, want a lock error")
	}
}
