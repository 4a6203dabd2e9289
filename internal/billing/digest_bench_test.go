package billing_test

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing"
)

// benchLedger is a lab's ledger of n events over 16 weeks before
// 2026-11-30: 500 disks of 20 members added, resized, stopped and started.
func benchLedger(n int) []billing.StorageEvent {
	rng := rand.New(rand.NewSource(1))
	start := time.Date(2026, 8, 10, 0, 0, 0, 0, time.UTC)
	span := 16 * 7 * 24 * time.Hour
	const disks = 500
	out := make([]billing.StorageEvent, 0, n)
	for d := 0; d < disks; d++ {
		out = append(out, billing.StorageEvent{Time: start.Add(time.Duration(d) * time.Minute), Lab: "nlp", Owner: fmt.Sprintf("ou_%02d", d%20),
			Platform: []string{"autodl", "hengyuan", "matpool"}[d%3], Disk: fmt.Sprint(d), Action: billing.ActionAdd, SizeGB: 50 + float64(d%10)*50})
	}
	actions := []billing.StorageAction{billing.ActionResize, billing.ActionStop, billing.ActionStart}
	for len(out) < n {
		a := actions[rng.Intn(len(actions))]
		e := billing.StorageEvent{Time: start.Add(time.Hour + time.Duration(rng.Int63n(int64(span)))), Lab: "nlp", Owner: "ou_01",
			Platform: "autodl", Disk: fmt.Sprint(rng.Intn(disks)), Action: a}
		if a == billing.ActionResize {
			e.SizeGB = 50 + float64(rng.Intn(20))*50
		}
		out = append(out, e)
	}
	return out
}

// BenchmarkDigest100kEvents: a week's digest of a 100,000-event ledger.
func BenchmarkDigest100kEvents(b *testing.B) {
	events := benchLedger(100_000)
	price := func(platform string, stopped bool) (float64, float64, bool) { return 0.01, 50, true }
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := billing.BuildDigest(events, "nlp", "2026-W48", time.UTC, price, now); err != nil {
			b.Fatal(err)
		}
	}
}
