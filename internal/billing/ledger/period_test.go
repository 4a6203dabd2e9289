package ledger

import "testing"

// TestPeriodDigest: a scheduled digest's period, worked out by hand on
// digestLedger: one ISO week is that week's digest; a day or three are
// compared with as many days before; the chart ends with the ISO week of
// the period's end.
func TestPeriodDigest(t *testing.T) {
	now := cst("2026-12-08 09:00")
	cases := []struct {
		name, from, to string
		week           string
		total, prev    float64
		lastBar        string
		lastBarCNY     float64
	}{
		// d1 2 + d2 1 + d3 1 a day from 25 Nov; d3 absent before.
		{"an ISO week", "2026-11-23 00:00", "2026-11-30 00:00", "2026-W48", 26, 19, "2026-W48", 26},
		{"one day", "2026-11-30 00:00", "2026-12-01 00:00", "", 4, 4, "2026-W49", 4},
		{"the day d3 came", "2026-11-25 00:00", "2026-11-26 00:00", "", 4, 3, "2026-W48", 10},
		{"Monday to Thursday", "2026-11-23 00:00", "2026-11-26 00:00", "", 10, 9, "2026-W48", 10}, // before: 20–23 Nov, d1 6 + d2 3
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := BuildPeriodDigest(digestLedger(), "lab", cst(c.from), cst(c.to), shanghai, testPrice, now)
			if err != nil {
				t.Fatal(err)
			}
			last := d.History[len(d.History)-1]
			if d.Week != c.week || !near(d.TotalCNY, c.total) || !near(d.PreviousTotalCNY, c.prev) || last.Week != c.lastBar || !near(last.CNY, c.lastBarCNY) ||
				!d.From.Equal(cst(c.from)) || !d.To.Equal(cst(c.to)) || !d.AsOf.Equal(cst(c.to)) {
				t.Errorf("week %q total %v previous %v, last bar %+v, %v–%v as of %v", d.Week, d.TotalCNY, d.PreviousTotalCNY, last, d.From, d.To, d.AsOf)
			}
		})
	}
	if _, err := BuildPeriodDigest(digestLedger(), "lab", cst("2026-12-01 00:00"), cst("2026-12-01 00:00"), shanghai, testPrice, now); err == nil {
		t.Error("an empty period has a digest")
	}
	if _, err := BuildPeriodDigest(digestLedger(), "lab", cst("2027-01-01 00:00"), cst("2027-01-02 00:00"), shanghai, testPrice, now); err == nil {
		t.Error("a future period has a digest")
	}
}
