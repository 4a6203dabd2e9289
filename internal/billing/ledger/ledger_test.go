package ledger

import (
	"math"
	"strings"
	"testing"
	"time"
)

var shanghai = mustLoc("Asia/Shanghai")

func mustLoc(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return l
}

func cst(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, shanghai)
	if err != nil {
		panic(err)
	}
	return t
}

// testPrice: AutoDL 0.01 CNY per GB-day beyond 50 GB free, billed while
// stopped; Matpool 0.02 with nothing free and stopped disks free of charge.
func testPrice(platform string, stopped bool) (float64, float64, bool) {
	switch platform {
	case "autodl":
		return 0.01, 50, true
	case "matpool":
		if stopped {
			return 0, 0, true
		}
		return 0.02, 0, true
	}
	return 0, 0, false
}

func ev(at time.Time, disk, owner, platform string, a StorageAction, gb float64) StorageEvent {
	return StorageEvent{Time: at, Lab: "feishu/oc_lab", Disk: disk, Owner: owner, Platform: platform, Action: a, SizeGB: gb}
}

// TestStorageCostWeek48 works out 2026-W48 (Mon 23 Nov 00:00 – Mon 30 Nov
// 00:00, Asia/Shanghai) by hand.
func TestStorageCostWeek48(t *testing.T) {
	events := []StorageEvent{
		// a1: 80 GB all week: (80−50) × 7 d × 0.01 = 2.10.
		ev(cst("2026-11-16 10:00"), "a1", "alice", "autodl", ActionAdd, 80),
		// m1: Bob joins Wed 12:00 with 200 GB; stopped Fri 00:00 (free
		// while stopped): 200 × 1.5 d × 0.02 = 6.00; 200 × 4.5 = 900 GB-days.
		ev(cst("2026-11-25 12:00"), "m1", "bob", "matpool", ActionAdd, 200),
		ev(cst("2026-11-27 00:00"), "m1", "bob", "matpool", ActionStop, 0),
		// a2: 100 GB, resized to 150 Thu 00:00: 50×3 + 100×4 = 550 GB-days = 5.50.
		ev(cst("2026-11-20 09:00"), "a2", "carol", "autodl", ActionAdd, 100),
		ev(cst("2026-11-26 00:00"), "a2", "carol", "autodl", ActionResize, 150),
		// a3: 60 GB, stopped Tue 00:00 (still billed), removed Wed 00:00:
		// 10 × 2 d = 20 GB-days = 0.20.
		ev(cst("2026-11-01 00:00"), "a3", "dave", "autodl", ActionAdd, 60),
		ev(cst("2026-11-24 00:00"), "a3", "dave", "autodl", ActionStop, 0),
		ev(cst("2026-11-25 00:00"), "a3", "dave", "autodl", ActionRemove, 0),
		// gone: removed the week before; not in W48.
		ev(cst("2026-11-01 00:00"), "gone", "dave", "autodl", ActionAdd, 500),
		ev(cst("2026-11-10 00:00"), "gone", "dave", "autodl", ActionRemove, 0),
		// t1: added Sunday 22 Nov 16:30 UTC = Monday 00:30 in Shanghai, so
		// inside W48 there, for 7 d − 30 min: 100 × (7 − 0.5/24) = 697.916̅ GB-days.
		ev(time.Date(2026, 11, 22, 16, 30, 0, 0, time.UTC), "t1", "erin", "autodl", ActionAdd, 150),
		// next: added at the first instant of W49; not in W48.
		ev(cst("2026-11-30 00:00"), "next", "erin", "autodl", ActionAdd, 999),
		// x1: a platform without a price: GB-days, no CNY.
		ev(cst("2026-11-23 00:00"), "x1", "erin", "nowhere", ActionAdd, 10),
	}
	from, to, err := ISOWeek("2026-W48", shanghai)
	if err != nil {
		t.Fatal(err)
	}
	if !from.Equal(cst("2026-11-23 00:00")) || !to.Equal(cst("2026-11-30 00:00")) {
		t.Fatalf("W48 = %v – %v", from, to)
	}
	got, err := StorageCost(events, from, to, testPrice)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		gbDays, cny float64
		priced      bool
		size        float64
		stopped     bool
	}{
		"a1": {210, 2.10, true, 80, false},
		"m1": {900, 6.00, true, 200, true},
		"a2": {550, 5.50, true, 150, false},
		"a3": {20, 0.20, true, 60, true},
		"t1": {100 * (7 - 0.5/24), (7 - 0.5/24), true, 150, false},
		"x1": {70, 0, false, 10, false},
	}
	if len(got) != len(want) {
		t.Fatalf("%d disks, want %d: %+v", len(got), len(want), got)
	}
	total := 0.0
	for _, c := range got {
		w, ok := want[c.Disk]
		if !ok {
			t.Errorf("unexpected disk %s", c.Disk)
			continue
		}
		if math.Abs(c.GBDays-w.gbDays) > 1e-9 || math.Abs(c.CNY-w.cny) > 1e-9 || c.Priced != w.priced {
			t.Errorf("%s: %.6f GB-days, %.6f CNY, priced %v; want %.6f, %.6f, %v", c.Disk, c.GBDays, c.CNY, c.Priced, w.gbDays, w.cny, w.priced)
		}
		if c.SizeGB != w.size || c.Stopped != w.stopped {
			t.Errorf("%s: state %v GB stopped %v; want %v GB stopped %v", c.Disk, c.SizeGB, c.Stopped, w.size, w.stopped)
		}
		total += c.CNY
	}
	// 2.10 + 6.00 + 5.50 + 0.20 + 6.979166…
	if want := 13.8 + 7 - 0.5/24; math.Abs(total-want) > 1e-9 {
		t.Errorf("total %.6f CNY, want %.6f", total, want)
	}

	// An empty week: nothing registered yet.
	empty, err := StorageCost(events, cst("2026-10-05 00:00"), cst("2026-10-12 00:00"), testPrice)
	if err != nil || len(empty) != 0 {
		t.Errorf("a week before any disk: %+v, %v", empty, err)
	}
}

func TestDisksAt(t *testing.T) {
	events := []StorageEvent{
		ev(cst("2026-11-01 00:00"), "a", "alice", "autodl", ActionAdd, 80),
		ev(cst("2026-11-05 00:00"), "a", "alice", "autodl", ActionStop, 0),
		ev(cst("2026-11-02 00:00"), "b", "bob", "autodl", ActionAdd, 20),
		ev(cst("2026-11-03 00:00"), "b", "bob", "autodl", ActionRemove, 0),
	}
	d, err := DisksAt(events, cst("2026-11-06 00:00"))
	if err != nil || len(d) != 1 || d[0].Disk != "a" || !d[0].Stopped || !d[0].Since.Equal(cst("2026-11-05 00:00")) {
		t.Fatalf("disks at 6 Nov: %+v, %v", d, err)
	}
}

func TestLedgerErrors(t *testing.T) {
	at := cst("2026-11-01 00:00")
	cases := []struct {
		name   string
		events []StorageEvent
		want   string
	}{
		{"resize before add", []StorageEvent{ev(at, "a", "x", "autodl", ActionResize, 10)}, "before it was added"},
		{"added twice", []StorageEvent{ev(at, "a", "x", "autodl", ActionAdd, 10), ev(at, "a", "x", "autodl", ActionAdd, 10)}, "added twice"},
		{"bad size", []StorageEvent{ev(at, "a", "x", "autodl", ActionAdd, -1)}, "size"},
		{"NaN size", []StorageEvent{ev(at, "a", "x", "autodl", ActionAdd, math.NaN())}, "size"},
		{"bad action", []StorageEvent{ev(at, "a", "x", "autodl", "delete", 0)}, "unknown action"},
		{"no time", []StorageEvent{ev(time.Time{}, "a", "x", "autodl", ActionAdd, 10)}, "no time"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// CheckLedger names the problem; the computations skip the
			// event instead of failing, so a race never bricks a ledger.
			errs := CheckLedger(c.events)
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), c.want) {
				t.Errorf("CheckLedger: %v, want one error with %q", errs, c.want)
			}
			costs, err := StorageCost(c.events, cst("2026-10-01 00:00"), cst("2026-12-01 00:00"), testPrice)
			if err != nil {
				t.Fatal(err)
			}
			// Only the first add of "added twice" survives: 31 days from 1 Nov × 0 billable.
			if len(costs) > 1 {
				t.Errorf("costs %+v", costs)
			}
		})
	}
	if _, err := StorageCost(nil, at, at, testPrice); err == nil {
		t.Error("an empty period is accepted")
	}
}

func TestISOWeek(t *testing.T) {
	cases := []struct {
		in, from string
		err      bool
	}{
		{"2026-W48", "2026-11-23 00:00", false},
		{"2026-W01", "2025-12-29 00:00", false},
		{"2026-W53", "2026-12-28 00:00", false}, // 2026 starts on a Thursday: 53 weeks
		{"2025-W53", "", true},
		{"2026-W00", "", true},
		{"2026-48", "", true},
		{"", "", true},
	}
	for _, c := range cases {
		from, to, err := ISOWeek(c.in, shanghai)
		if c.err {
			if err == nil || !strings.Contains(err.Error(), "week") {
				t.Errorf("%q: error %v", c.in, err)
			}
			continue
		}
		if err != nil || !from.Equal(cst(c.from)) || to.Sub(from) != 7*24*time.Hour {
			t.Errorf("%q: %v – %v, %v; want from %s", c.in, from, to, err, c.from)
		}
		if w := WeekOf(from.Add(time.Hour), shanghai); w != c.in {
			t.Errorf("WeekOf(%v) = %s, want %s", from, w, c.in)
		}
	}
	// Sunday 23:30 in Shanghai is still the old week, though UTC is Sunday 15:30.
	if w := WeekOf(cst("2026-11-29 23:30"), shanghai); w != "2026-W48" {
		t.Errorf("Sunday night: %s", w)
	}
	if w := WeekOf(cst("2026-11-30 00:30"), shanghai); w != "2026-W49" {
		t.Errorf("Monday 00:30 Shanghai (Sunday UTC): %s", w)
	}
}
