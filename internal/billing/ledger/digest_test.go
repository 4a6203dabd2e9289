package ledger

import (
	"math"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

func testCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func digestLedger() []StorageEvent {
	return []StorageEvent{
		// d1: 250 GB on AutoDL since 1 Oct: 200 billable GB = 2.00 CNY a day.
		ev(cst("2026-10-01 00:00"), "d1", "alice", "autodl", ActionAdd, 250),
		// d2: 150 GB (1.00 a day, billed while stopped), stopped Fri 20 Nov.
		ev(cst("2026-11-18 00:00"), "d2", "bob", "autodl", ActionAdd, 150),
		ev(cst("2026-11-20 00:00"), "d2", "bob", "autodl", ActionStop, 0),
		// d3: 50 GB on Matpool from Wed 25 Nov: 1.00 a day.
		ev(cst("2026-11-25 00:00"), "d3", "carol", "matpool", ActionAdd, 50),
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestDigestWeek48 works the digest of 2026-W48 out by hand.
func TestDigestWeek48(t *testing.T) {
	d, err := BuildDigest(digestLedger(), "feishu/oc_lab", "2026-W48", shanghai, testPrice, cst("2026-12-01 09:00"))
	if err != nil {
		t.Fatal(err)
	}
	// W48: d1 2×7 = 14, d2 1×7 = 7, d3 1×5 = 5. W47: d1 14, d2 1×5 = 5.
	if !near(d.TotalCNY, 26) || !near(d.PreviousTotalCNY, 19) || !near(d.DeltaCNY, 7) || d.DeltaPct == nil || !near(*d.DeltaPct, 700.0/19) {
		t.Errorf("totals %v, previous %v, delta %v, pct %v", d.TotalCNY, d.PreviousTotalCNY, d.DeltaCNY, d.DeltaPct)
	}
	wantMembers := []Share{{Name: "alice", CNY: 14, Share: 14.0 / 26}, {Name: "bob", CNY: 7, Share: 7.0 / 26}, {Name: "carol", CNY: 5, Share: 5.0 / 26}}
	wantPlatforms := []Share{{Name: "autodl", CNY: 21, Share: 21.0 / 26}, {Name: "matpool", CNY: 5, Share: 5.0 / 26}}
	for name, pair := range map[string][2][]Share{"members": {d.Members, wantMembers}, "platforms": {d.Platforms, wantPlatforms}} {
		got, want := pair[0], pair[1]
		if len(got) != len(want) {
			t.Fatalf("%s: %+v", name, got)
		}
		for i := range want {
			if got[i].Name != want[i].Name || !near(got[i].CNY, want[i].CNY) || !near(got[i].Share, want[i].Share) {
				t.Errorf("%s[%d] = %+v, want %+v", name, i, got[i], want[i])
			}
		}
	}
	// Movers: d3 0 → 5, d2 5 → 7; d1 did not move.
	if len(d.Movers) != 2 || d.Movers[0].Disk != "d3" || d.Movers[1].Disk != "d2" || !near(d.Movers[1].PreviousCNY, 5) {
		t.Errorf("movers %+v", d.Movers)
	}
	// Idle at Mon 30 Nov 00:00: d1 unchanged 60 days (60.00 a month),
	// d2 stopped 10 days (30.00 a month).
	if len(d.Idle) != 2 || d.Idle[0].Disk != "d1" || d.Idle[0].Reason != "unchanged" || d.Idle[0].Days != 60 || d.Idle[0].MonthlyCNY == nil || !near(*d.Idle[0].MonthlyCNY, 60) ||
		d.Idle[1].Disk != "d2" || d.Idle[1].Reason != "stopped" || d.Idle[1].Days != 10 || d.Idle[1].MonthlyCNY == nil || !near(*d.Idle[1].MonthlyCNY, 30) {
		t.Errorf("idle %+v", d.Idle)
	}
	// November to the 30th 00:00: d1 2×29 = 58, d2 1×12 = 12, d3 5 → 75;
	// the last day adds 2 + 1 + 1 → 79.
	if d.Month != "2026-11" || !near(d.MonthToDateCNY, 75) || !near(d.ForecastCNY, 79) {
		t.Errorf("month %s to date %v forecast %v", d.Month, d.MonthToDateCNY, d.ForecastCNY)
	}
	// History: W41–W48; d1 alone costs 14 a week from W41 on (from 5 Oct).
	if len(d.History) != 8 || d.History[0].Week != "2026-W41" || !near(d.History[0].CNY, 14) || d.History[7].Week != "2026-W48" ||
		!near(d.History[7].CNY, 26) || !near(d.History[6].CNY, 19) {
		t.Errorf("history %+v", d.History)
	}
	if !d.LastEntry.Equal(cst("2026-11-25 00:00")) || !d.AsOf.Equal(cst("2026-11-30 00:00")) || len(d.Unpriced) != 0 {
		t.Errorf("last entry %v, as of %v, unpriced %v", d.LastEntry, d.AsOf, d.Unpriced)
	}
}

func TestDigestCurrentAndEmptyWeeks(t *testing.T) {
	// Thursday 26 Nov 00:00: the week so far is d1 2×3, d2 1×3, d3 1×1 = 10.
	d, err := BuildDigest(digestLedger(), "lab", "2026-W48", shanghai, testPrice, cst("2026-11-26 00:00"))
	if err != nil || !near(d.TotalCNY, 10) || !d.AsOf.Equal(cst("2026-11-26 00:00")) {
		t.Errorf("current week: %v CNY as of %v, %v", d.TotalCNY, d.AsOf, err)
	}
	// Against last week over the same span (16–19 Nov 00:00): d1 2×3, d2 1×1 = 7;
	// the chart still shows all of W47 (19).
	if !near(d.PreviousTotalCNY, 7) || !near(d.History[6].CNY, 19) {
		t.Errorf("current week: previous %v, W47 in the chart %v", d.PreviousTotalCNY, d.History[6].CNY)
	}
	// W40 (28 Sep – 5 Oct): d1 from 1 Oct, 4 days = 8; W39 was 0, so no %.
	d, err = BuildDigest(digestLedger(), "lab", "2026-W40", shanghai, testPrice, cst("2026-12-01 00:00"))
	if err != nil || !near(d.TotalCNY, 8) || d.PreviousTotalCNY != 0 || d.DeltaPct != nil {
		t.Errorf("W40: %v CNY, previous %v, pct %v, %v", d.TotalCNY, d.PreviousTotalCNY, d.DeltaPct, err)
	}
	// An empty week before any disk.
	d, err = BuildDigest(digestLedger(), "lab", "2026-W30", shanghai, testPrice, cst("2026-12-01 00:00"))
	if err != nil || d.TotalCNY != 0 || len(d.Members) != 0 || d.DeltaPct != nil || !d.LastEntry.IsZero() {
		t.Errorf("empty week: %+v, %v", d, err)
	}
	if _, err := BuildDigest(digestLedger(), "lab", "2027-W10", shanghai, testPrice, cst("2026-12-01 00:00")); err == nil {
		t.Error("a future week has a digest")
	}
	if _, err := BuildDigest(digestLedger(), "lab", "W48", shanghai, testPrice, time.Now()); err == nil {
		t.Error("a bad week is accepted")
	}
}

func TestCatalogStoragePrice(t *testing.T) {
	cat := testCatalog(t)
	price := CatalogStoragePrice(cat, map[string]float64{"matpool": 0.03})
	// AutoDL: 0.0066–0.01 per GB-day (midpoint 0.0083), 50 GB free, billed while stopped.
	for _, stopped := range []bool{false, true} {
		if p, free, ok := price("autodl", stopped); !ok || !near(p, 0.0083) || free != 50 {
			t.Errorf("autodl (stopped %v): %v, %v, %v", stopped, p, free, ok)
		}
	}
	if p, _, ok := price("matpool", false); !ok || p != 0.03 {
		t.Errorf("override: %v %v", p, ok)
	}
	if _, _, ok := price("no-such-platform", false); ok {
		t.Error("an unknown platform is priced")
	}
}

func TestBudgetCrossed(t *testing.T) {
	cases := []struct {
		spend, budget float64
		want          []int
	}{
		{49.99, 100, nil},
		{50, 100, []int{50}},
		{79, 100, []int{50}},
		{80, 100, []int{50, 80}},
		{150, 100, []int{50, 80, 100}},
		{10, 0, nil},
	}
	for _, c := range cases {
		got := BudgetCrossed(c.spend, c.budget)
		if len(got) != len(c.want) {
			t.Errorf("%v of %v: %v, want %v", c.spend, c.budget, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%v of %v: %v, want %v", c.spend, c.budget, got, c.want)
			}
		}
	}
	// Month to date on 26 Nov 00:00 (Shanghai): d1 2×25 = 50, d2 1×8 = 8, d3 1×1 = 1.
	mtd, err := MonthToDate(digestLedger(), cst("2026-11-26 00:00"), shanghai, testPrice)
	if err != nil || !near(mtd, 59) {
		t.Errorf("month to date %v, %v; want 59", mtd, err)
	}
}

func TestDigestRounded(t *testing.T) {
	pct := 421.10752688172
	monthly := 29.999999999
	d := Digest{TotalCNY: 6.2250000000000005, DeltaPct: &pct, Members: []Share{{Name: "a", CNY: 1.00000001, Share: 0.333333333}},
		History: []WeekTotal{{"2026-W48", 6.979166666}}, Idle: []IdleDisk{{MonthlyCNY: &monthly}}}
	r := d.Rounded()
	if r.TotalCNY != 6.225 || *r.DeltaPct != 421.11 || r.Members[0].CNY != 1 || r.Members[0].Share != 0.3333 ||
		r.History[0].CNY != 6.9792 || *r.Idle[0].MonthlyCNY != 30 {
		t.Errorf("rounded %+v", r)
	}
	if d.Members[0].CNY != 1.00000001 || *d.Idle[0].MonthlyCNY != 29.999999999 {
		t.Error("Rounded changed the original")
	}
}

// TestDigestNoSilentZeros: a disk on a platform without a price is listed
// with its size and days (never counted at 0 among the shares), the
// month counts it as unpriced, an idle one has no saving (nil, not 0);
// members and platforms that cost nothing are left out; an unchanged
// disk is never a mover, however its cost is summed.
func TestDigestNoSilentZeros(t *testing.T) {
	events := []StorageEvent{
		// A 250 GB AutoDL disk at a price whose sums are not exact in
		// floating point: the same cost both weeks, not a mover.
		ev(cst("2026-10-01 00:00"), "d1", "alice", "autodl", ActionAdd, 250),
		ev(cst("2026-11-18 07:13"), "d1", "alice", "autodl", ActionResize, 250),
		// dave holds only a disk on a platform without a price, from
		// Wednesday 25 Nov 12:00 (4.5 days of the week).
		ev(cst("2026-11-25 12:00"), "d2", "dave", "lanrui", ActionAdd, 300),
		// erin's 400 GB on the same platform, stopped since October.
		ev(cst("2026-10-02 00:00"), "d3", "erin", "lanrui", ActionAdd, 400),
		ev(cst("2026-10-03 00:00"), "d3", "erin", "lanrui", ActionStop, 0),
	}
	price := func(platform string, stopped bool) (float64, float64, bool) {
		if platform == "autodl" {
			return 0.0083, 50, true
		}
		return 0, 0, false
	}
	d, err := BuildDigest(events, "lab", "2026-W48", shanghai, price, cst("2026-12-01 09:00"))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Movers) != 0 {
		t.Errorf("movers %+v; an unchanged disk is no mover", d.Movers)
	}
	if len(d.Members) != 1 || d.Members[0].Name != "alice" || len(d.Platforms) != 1 || d.Platforms[0].Name != "autodl" {
		t.Errorf("members %+v, platforms %+v; want alice and autodl only", d.Members, d.Platforms)
	}
	if len(d.UnpricedDisks) != 2 || d.UnpricedDisks[0].Disk != "d3" || d.UnpricedDisks[0].SizeGB != 400 || !near(d.UnpricedDisks[0].Days, 7) ||
		d.UnpricedDisks[1].Disk != "d2" || !near(d.UnpricedDisks[1].Days, 4.5) || !near(d.UnpricedDisks[1].GBDays, 1350) {
		t.Errorf("unpriced disks %+v", d.UnpricedDisks)
	}
	if len(d.Unpriced) != 1 || d.Unpriced[0] != "lanrui" || d.MonthUnpriced != 2 || d.Disks != 3 || d.SizeGB != 950 {
		t.Errorf("unpriced platforms %v, month unpriced %d, disks %d of %v GB", d.Unpriced, d.MonthUnpriced, d.Disks, d.SizeGB)
	}
	var idle *IdleDisk
	for i := range d.Idle {
		if d.Idle[i].Disk == "d3" {
			idle = &d.Idle[i]
		}
	}
	if idle == nil || idle.MonthlyCNY != nil {
		t.Errorf("idle %+v: the unpriced d3 has no saving (nil, not 0)", d.Idle)
	}
	if PriceConfigKey("lanrui") != "storage.prices.lanrui" {
		t.Errorf("config key %q", PriceConfigKey("lanrui"))
	}
}

// TestDigestHistoryAndSkipped: a ledger begun within the week says when
// (FirstEntry) and what its disks cost a day; events after AsOf are
// neither entries nor counted as skipped, inconsistent ones before are.
func TestDigestHistoryAndSkipped(t *testing.T) {
	events := []StorageEvent{
		ev(cst("2026-12-01 08:59"), "d1", "alice", "autodl", ActionAdd, 250),
		ev(cst("2026-12-01 08:59"), "d1", "alice", "autodl", ActionAdd, 250), // added twice
		ev(cst("2026-12-02 08:00"), "d9", "bob", "autodl", ActionStop, 0),    // after now
	}
	d, err := BuildDigest(events, "lab", "2026-W49", shanghai, testPrice, cst("2026-12-01 09:00"))
	if err != nil {
		t.Fatal(err)
	}
	if !d.FirstEntry.Equal(cst("2026-12-01 08:59")) || !d.LastEntry.Equal(d.FirstEntry) || d.Skipped != 1 {
		t.Errorf("first %v, last %v, skipped %d", d.FirstEntry, d.LastEntry, d.Skipped)
	}
	if d.Disks != 1 || !near(d.DailyCNY, 2) || !near(d.TotalCNY, 2.0/24/60) {
		t.Errorf("%d disks at %v CNY a day; total %v", d.Disks, d.DailyCNY, d.TotalCNY)
	}
}

// TestPriceNotes: which price each platform of a digest used, and which
// are seed-only (unverified) or missing.
func TestPriceNotes(t *testing.T) {
	cat := testCatalog(t)
	d := Digest{Platforms: []Share{{Name: "autodl", CNY: 2}, {Name: "mita", CNY: 1}}, Unpriced: []string{"lanrui"}, MonthPlatforms: []string{"matpool"}}
	PriceNotes(&d, cat, map[string]float64{"matpool": 0.03})
	want := []struct {
		id               string
		priced, verified bool
	}{{"autodl", true, true}, {"mita", true, false}, {"lanrui", false, false}, {"matpool", true, true}}
	if len(d.Prices) != len(want) {
		t.Fatalf("prices %+v", d.Prices)
	}
	for i, w := range want {
		p := d.Prices[i]
		if p.Platform != w.id || p.Priced != w.priced || p.Verified != w.verified || d.Unverified(w.id) != (w.priced && !w.verified) {
			t.Errorf("price %d: %+v; want %+v", i, p, w)
		}
	}
	if !d.Prices[3].Override || d.Prices[3].CNYPerGBDay != 0.03 {
		t.Errorf("override %+v", d.Prices[3])
	}
}

// A ledger imported before names were checked holds the names the bot
// prints ("矩池云"): they are priced as the platform, not silently at 0.
func TestStoragePriceReadsOldNames(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	price := CatalogStoragePrice(cat, nil)
	for _, name := range []string{"矩池云", "恒源云", "AutoDL"} {
		id, ok := cat.PlatformID(name)
		if !ok {
			t.Fatalf("%q: no platform", name)
		}
		gotP, gotFree, gotOK := price(name, false)
		wantP, wantFree, wantOK := price(id, false)
		if !wantOK || gotP != wantP || gotFree != wantFree || gotOK != wantOK {
			t.Errorf("%q: %v %v %v, want %s's %v %v %v", name, gotP, gotFree, gotOK, id, wantP, wantFree, wantOK)
		}
	}
}
