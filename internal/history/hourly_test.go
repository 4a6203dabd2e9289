package history

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// hourlyCSV is days of hourly rows (minutes=60) for autodl's 4090 ending
// at now's hour: in stock 00–12 local, sold out after.
func hourlyCSV(now time.Time, days int) string {
	var b strings.Builder
	b.WriteString(strings.Join(CSVHeader, ",") + "\n")
	end := now.Truncate(time.Hour)
	for at := end.Add(-time.Duration(days) * 24 * time.Hour); at.Before(end); at = at.Add(time.Hour) {
		in, out := 6, 0
		if at.In(shanghai).Hour() >= 12 {
			in, out = 0, 6
		}
		fmt.Fprintf(&b, "%s,60,autodl,RTX 4090,6,%d,%d,,1.98\n", at.In(shanghai).Format(time.RFC3339), in, out)
	}
	return b.String()
}

// Hourly rows imported into the last 14 days count: the fine tier has no
// 10-minute slots there, so the profile reads the hourly ones.
func TestHourlyImportInFineWindow(t *testing.T) {
	now := time.Date(2026, 12, 2, 2, 55, 0, 0, shanghai)
	for _, days := range []int{21, 7} {
		r := &Recorder{Now: func() time.Time { return now }}
		added, skipped, err := r.Import(context.Background(), strings.NewReader(hourlyCSV(now, days)))
		if err != nil || added != days*24 || skipped != 0 {
			t.Fatalf("%d days: import %d added, %d skipped, %v", days, added, skipped, err)
		}
		pf := r.Profile("RTX 4090", []string{"autodl"}, now, shanghai)
		if pf.Days != days {
			t.Errorf("%d days of hourly rows: profile days = %d (from %v to %v)", days, pf.Days, pf.From, pf.To)
		}
		if want := now.Truncate(time.Hour); !pf.To.Equal(want) {
			t.Errorf("%d days: profile ends %v, want the newest hour (%v)", days, pf.To, want)
		}
		// Every hour of the week is known, weighted as six 10-minute slots
		// a day it was seen on.
		for d := range 7 {
			for h := range 24 {
				x := pf.Hours[d][h]
				if x.Weight == 0 || x.Weight%6 != 0 {
					t.Fatalf("%d days: day %d %02d:00 = %+v, want known, 6 a day", days, d, h, x)
				}
				if h >= 12 && x.Share != 0 || h < 12 && x.Share != 1 {
					t.Errorf("%d days: day %d %02d:00 share %.2f", days, d, h, x.Share)
				}
			}
		}
		var out bytes.Buffer
		if err := r.Export(&out); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(out.String(), "\n") - 1; n != days*24 {
			t.Errorf("%d days: export has %d rows, want %d", days, n, days*24)
		}
	}
}

// An hour polled live (both tiers) is read from its 10-minute slots only;
// another hour of the same day known from an imported hourly row counts
// (and is exported) too.
func TestLiveAndHourlyNotDoubleCounted(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 30, 0, 0, time.UTC)
	r := &Recorder{Now: func() time.Time { return now }}
	k := Key{"autodl", "RTX 4090"}
	live := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	for i := range 6 {
		if err := r.Add(context.Background(), live.Add(time.Duration(i)*FineSlot), map[Key]Slot{k: {Polls: 1, In: 1, Free: noFree}}); err != nil {
			t.Fatal(err)
		}
	}
	// An hourly row for the live hour (ignored: the hour has 10-minute
	// data) and one for 12:00 (counted).
	csv := strings.Join(CSVHeader, ",") + "\n" +
		"2026-12-02T10:00:00Z,60,autodl,RTX 4090,6,0,6,,\n" +
		"2026-12-02T12:00:00Z,60,autodl,RTX 4090,6,0,6,,\n"
	if _, _, err := r.Import(context.Background(), strings.NewReader(csv)); err != nil {
		t.Fatal(err)
	}
	pf := r.Profile("RTX 4090", nil, now, time.UTC)
	if x := pf.Hours[2][10]; x.Weight != 6 || x.Share != 1 {
		t.Errorf("live hour = %+v, want 6 slots in stock (the hourly tier not counted again)", x)
	}
	if x := pf.Hours[2][12]; x.Weight != 6 || x.Share != 0 {
		t.Errorf("imported hour = %+v, want 6 slots sold out", x)
	}
	var out bytes.Buffer
	if err := r.Export(&out); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "2026-12-02T12:00:00Z,60,") || strings.Contains(s, "2026-12-02T10:00:00Z,60,") {
		t.Errorf("export:\n%s\nwant the 12:00 hourly row, not the live hour's", s)
	}
}
