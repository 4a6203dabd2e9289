package ledger_test

import (
	"fmt"
	"math/rand"
	"runtime"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/billing/ledger/ledgertest"
)

// benchLedger is a lab's ledger of n events over 16 weeks before
// 2026-11-30: 500 disks of 20 members added, resized, stopped and started.
func benchLedger(n int) []ledger.StorageEvent {
	rng := rand.New(rand.NewSource(1))
	start := time.Date(2026, 8, 10, 0, 0, 0, 0, time.UTC)
	span := 16 * 7 * 24 * time.Hour
	const disks = 500
	out := make([]ledger.StorageEvent, 0, n)
	for d := 0; d < disks; d++ {
		out = append(out, ledger.StorageEvent{Time: start.Add(time.Duration(d) * time.Minute), Lab: "nlp", Owner: fmt.Sprintf("ou_%02d", d%20),
			Platform: []string{"autodl", "hengyuan", "matpool"}[d%3], Disk: fmt.Sprint(d), Action: ledger.ActionAdd, SizeGB: 50 + float64(d%10)*50})
	}
	actions := []ledger.StorageAction{ledger.ActionResize, ledger.ActionStop, ledger.ActionStart}
	for len(out) < n {
		a := actions[rng.Intn(len(actions))]
		e := ledger.StorageEvent{Time: start.Add(time.Hour + time.Duration(rng.Int63n(int64(span)))), Lab: "nlp", Owner: "ou_01",
			Platform: "autodl", Disk: fmt.Sprint(rng.Intn(disks)), Action: a}
		if a == ledger.ActionResize {
			e.SizeGB = 50 + float64(rng.Intn(20))*50
		}
		out = append(out, e)
	}
	return out
}

// TestChurnLedgerShape: the benchmark's ledger has the churn it claims
// (about 11% of events live at the end, all 200 members) and no
// inconsistent event.
func TestChurnLedgerShape(t *testing.T) {
	events := ledgertest.ChurnLedger(100_000)
	if errs := ledger.CheckLedger(events); len(errs) != 0 {
		t.Fatalf("%d inconsistent events, first %v", len(errs), errs[0])
	}
	disks, _ := ledger.DisksAt(events, events[len(events)-1].Time)
	owners := map[string]bool{}
	for _, d := range disks {
		owners[d.Owner] = true
	}
	if len(disks) < 10_000 || len(disks) > 12_000 || len(owners) != ledgertest.ChurnMembers {
		t.Errorf("%d live disks of %d owners; want about 11,000 of %d", len(disks), len(owners), ledgertest.ChurnMembers)
	}
}

// BenchmarkDigestChurn builds the digest of 2026-W48 from churning ledgers
// of 1k, 10k and 100k events (ledgertest.ChurnLedger). Time and allocations per
// digest are Go's; peak-heap-MB is the largest live heap seen while
// building one digest (runtime.ReadMemStats after a GC, sampled every
// millisecond), a bound on the memory one digest needs.
//
//	go test ./internal/billing -run '^$' -bench DigestChurn -benchtime 5x
func BenchmarkDigestChurn(b *testing.B) {
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	for _, n := range []int{1_000, 10_000, 100_000} {
		events := ledgertest.ChurnLedger(n)
		b.Run(fmt.Sprintf("events=%dk", n/1000), func(b *testing.B) {
			b.ReportAllocs()
			peak := peakHeap(func() {
				if _, err := ledger.BuildDigest(events, "nlp", "2026-W48", time.UTC, ledgertest.ChurnPrice, now); err != nil {
					b.Fatal(err)
				}
			})
			b.ResetTimer()
			for b.Loop() {
				if _, err := ledger.BuildDigest(events, "nlp", "2026-W48", time.UTC, ledgertest.ChurnPrice, now); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(peak, "peak-heap-MB")
		})
	}
}

// peakHeap runs f once and returns the largest heap in use while it ran,
// in MB above the heap before it (sampled every millisecond).
func peakHeap(f func()) float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	peak := base
	done := make(chan struct{})
	sampled := make(chan uint64)
	go func() {
		top := uint64(0)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			top = max(top, m.HeapAlloc)
			select {
			case <-done:
				sampled <- top
				return
			case <-tick.C:
			}
		}
	}()
	f()
	runtime.ReadMemStats(&ms)
	close(done)
	peak = max(peak, ms.HeapAlloc, <-sampled)
	return float64(peak-base) / 1e6
}

// BenchmarkDigest100kEvents: a week's digest of a 100,000-event ledger of
// 500 disks that are never removed.
func BenchmarkDigest100kEvents(b *testing.B) {
	events := benchLedger(100_000)
	price := func(platform string, stopped bool) (float64, float64, bool) { return 0.01, 50, true }
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := ledger.BuildDigest(events, "nlp", "2026-W48", time.UTC, price, now); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDigestMatchesStorageCost: the digest's one replay agrees with
// StorageCost and DisksAt asked one period at a time on a churning
// ledger: the totals of this week, last week's span, the month and the
// history; the members' shares; the unpriced disks; the disks, idle disks
// and forecast at AsOf. Both a finished week and a current one.
func TestDigestMatchesStorageCost(t *testing.T) {
	events := ledgertest.ChurnLedger(3000)
	cases := []struct {
		name string
		now  time.Time
	}{
		{"finished week", time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)},
		{"current week", time.Date(2026, 11, 26, 15, 30, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := ledger.BuildDigest(events, "nlp", "2026-W48", time.UTC, ledgertest.ChurnPrice, c.now)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstStorageCost(t, events, d)
			checkAgainstDisksAt(t, events, d)
		})
	}
}

func checkAgainstStorageCost(t *testing.T, events []ledger.StorageEvent, d ledger.Digest) {
	t.Helper()
	cost := func(from, to time.Time) ([]ledger.DiskCost, float64) {
		costs, err := ledger.StorageCost(events, from, to, ledgertest.ChurnPrice)
		if err != nil {
			t.Fatal(err)
		}
		total := 0.0
		for _, c := range costs {
			total += c.CNY
		}
		return costs, total
	}
	week, total := cost(d.From, d.AsOf)
	_, prev := cost(d.From.AddDate(0, 0, -7), d.AsOf.AddDate(0, 0, -7))
	month, _ := time.Parse("2006-01", d.Month)
	_, mtd := cost(month, d.AsOf)
	if !closeTo(d.TotalCNY, total) || !closeTo(d.PreviousTotalCNY, prev) || !closeTo(d.MonthToDateCNY, mtd) {
		t.Errorf("total %v / %v, previous %v / %v, month %v / %v", d.TotalCNY, total, d.PreviousTotalCNY, prev, d.MonthToDateCNY, mtd)
	}
	for k, w := range d.History[:len(d.History)-1] {
		from := d.From.AddDate(0, 0, -7*(len(d.History)-1-k))
		if _, want := cost(from, from.AddDate(0, 0, 7)); !closeTo(w.CNY, want) || w.Week != ledger.WeekOf(from, time.UTC) {
			t.Errorf("history %d: %+v, want %v", k, w, want)
		}
	}
	members, unpriced, gbDays := map[string]float64{}, 0, 0.0
	for _, c := range week {
		members[c.OwnerName] += c.CNY
		if !c.Priced && c.GBDays > 0 {
			unpriced++
			gbDays += c.GBDays
		}
	}
	for _, m := range d.Members {
		if !closeTo(m.CNY, members[m.Name]) {
			t.Errorf("member %s: %v, want %v", m.Name, m.CNY, members[m.Name])
		}
	}
	got := 0.0
	for _, u := range d.UnpricedDisks {
		got += u.GBDays
	}
	if len(d.UnpricedDisks) != unpriced || !closeTo(got, gbDays) || unpriced == 0 {
		t.Errorf("%d unpriced disks of %v GB-days; want %d of %v", len(d.UnpricedDisks), got, unpriced, gbDays)
	}
}

func checkAgainstDisksAt(t *testing.T, events []ledger.StorageEvent, d ledger.Digest) {
	t.Helper()
	disks, _ := ledger.DisksAt(events, d.AsOf)
	month, _ := time.Parse("2006-01", d.Month)
	rest := month.AddDate(0, 1, 0).Sub(d.AsOf).Hours() / 24
	forecast, idle := d.MonthToDateCNY, 0
	for _, disk := range disks {
		perGB, free, _ := ledgertest.ChurnPrice(disk.Platform, disk.Stopped)
		forecast += max(disk.SizeGB-free, 0) * perGB * rest
		days := d.AsOf.Sub(disk.Since).Hours() / 24
		if disk.Stopped && days >= ledger.IdleStoppedDays || days >= ledger.IdleUnchangedDays {
			idle++
		}
	}
	if d.Disks != len(disks) || len(d.Idle) != idle || idle == 0 || !closeTo(d.ForecastCNY, forecast) {
		t.Errorf("%d disks, %d idle, forecast %v; want %d, %d, %v", d.Disks, len(d.Idle), d.ForecastCNY, len(disks), idle, forecast)
	}
}

func closeTo(a, b float64) bool { return a-b < 1e-6*max(1, b) && b-a < 1e-6*max(1, b) }
