package ledger

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
	"time"
)

// TestStorageCostsMatchOnePeriodAtATime: the digest's one-replay costs for
// several periods equal each period's own StorageCost: the same disks, the
// same GB-days and money, the same state at the period's end.
func TestStorageCostsMatchOnePeriodAtATime(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	start := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	var events []StorageEvent
	for d := 0; d < 40; d++ {
		events = append(events, StorageEvent{Time: start.Add(time.Duration(rng.Intn(30*24)) * time.Hour), Lab: "nlp", Owner: "ou_1",
			Platform: []string{"autodl", "matpool"}[d%2], Disk: fmt.Sprint(d), Action: ActionAdd, SizeGB: float64(50 + 50*rng.Intn(10))})
	}
	actions := []StorageAction{ActionResize, ActionStop, ActionStart, ActionRemove}
	for i := 0; i < 400; i++ {
		e := StorageEvent{Time: start.Add(time.Duration(rng.Intn(90*24)) * time.Hour), Lab: "nlp", Owner: "ou_1", Platform: "autodl",
			Disk: fmt.Sprint(rng.Intn(40)), Action: actions[rng.Intn(len(actions))], SizeGB: float64(50 + 50*rng.Intn(10))}
		events = append(events, e)
	}
	price := func(platform string, stopped bool) (float64, float64, bool) {
		if stopped {
			return 0.005, 20, platform != "matpool"
		}
		return 0.01, 50, platform != "matpool"
	}
	var periods []period
	for w := 0; w < 12; w++ {
		from := start.AddDate(0, 0, 7*w)
		periods = append(periods, period{from, from.AddDate(0, 0, 7)})
	}
	periods = append(periods, period{start.AddDate(0, 1, 0), start.AddDate(0, 2, 0)})
	multi, err := storageCosts(sortEvents(events), periods, price)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range periods {
		one, err := StorageCost(events, p.from, p.to, price)
		if err != nil {
			t.Fatal(err)
		}
		if len(one) != len(multi[i]) {
			t.Fatalf("period %d: %d disks alone, %d in one replay", i, len(one), len(multi[i]))
		}
		for j := range one {
			a, b := one[j], multi[i][j]
			if a.Disk != b.Disk || a.DiskState != b.DiskState || a.Priced != b.Priced || math.Abs(a.CNY-b.CNY) > 1e-9 || math.Abs(a.GBDays-b.GBDays) > 1e-9 {
				t.Errorf("period %d disk %s: alone %+v, in one replay %+v", i, a.Disk, a, b)
			}
		}
	}
}
