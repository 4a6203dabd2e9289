package catalog

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DefaultListPriceMaxAgeMonths is how old a list price may be before it is
// marked stale.
const DefaultListPriceMaxAgeMonths = 12

// ListPriceStale reports whether a list price dated asOf ("2021",
// "2026-08", "2026-8", "2026-08-21", a range "2025-2026" or
// "2026-05/2026-10") is more than maxAgeMonths months old at now, counting
// from the end of the latest period the text names (a price dated "2025"
// is taken as of 2025-12-31). 0 months means DefaultListPriceMaxAgeMonths,
// negative never; an undated price is not stale (it is shown as undated).
func ListPriceStale(asOf string, now time.Time, maxAgeMonths int) bool {
	if maxAgeMonths < 0 {
		return false
	}
	if maxAgeMonths == 0 {
		maxAgeMonths = DefaultListPriceMaxAgeMonths
	}
	end := asOfEnd(asOf)
	return !end.IsZero() && now.After(end.AddDate(0, maxAgeMonths, 0))
}

// reDateToken is a run of digits and dashes: "2026-08-21", "2025-2026".
var reDateToken = regexp.MustCompile(`[0-9]+(?:-[0-9]+)*`)

// asOfEnd is the end of the latest year, month or day a date text names
// (the zero time when it names none).
func asOfEnd(s string) time.Time {
	var latest time.Time
	for _, tok := range reDateToken.FindAllString(s, -1) {
		parts := strings.Split(tok, "-")
		var ends []time.Time
		switch {
		case len(parts[0]) != 4:
			continue
		case len(parts) >= 2 && len(parts[1]) == 4:
			// "2025-2026": a range of years.
			for _, y := range parts {
				if t, err := time.Parse("2006", y); err == nil && len(y) == 4 {
					ends = append(ends, t.AddDate(1, 0, 0))
				}
			}
		default:
			ends = append(ends, periodEnd(parts))
		}
		for _, e := range ends {
			if e.After(latest) {
				latest = e
			}
		}
	}
	return latest
}

// periodEnd is the end of "2026", "2026-8" or "2026-08-21" split at the
// dashes (the zero time when it is not a date).
func periodEnd(parts []string) time.Time {
	y, err := strconv.Atoi(parts[0])
	if err != nil || y < 1990 || y > 2100 {
		return time.Time{}
	}
	if len(parts) == 1 {
		return time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	m, err := strconv.Atoi(parts[1])
	if err != nil || m < 1 || m > 12 {
		return time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if len(parts) == 2 {
		return time.Date(y, time.Month(m)+1, 1, 0, 0, 0, 0, time.UTC)
	}
	d, err := strconv.Atoi(parts[2])
	if err != nil || d < 1 || d > 31 {
		return time.Date(y, time.Month(m)+1, 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(y, time.Month(m), d+1, 0, 0, 0, 0, time.UTC)
}

// ParseAsOf reads the date a catalog figure carries: "2006-01-02",
// "2006-01" or "2006", alone or at the start of a longer text
// ("2026-08 survey"). The result is the first instant of that day, month or
// year in UTC, or the zero time when no such date leads the text.
func ParseAsOf(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02", "2006-01", "2006"} {
		if len(s) < len(layout) {
			continue
		}
		if len(s) > len(layout) {
			if ch := s[len(layout)]; ch >= '0' && ch <= '9' {
				continue
			}
		}
		if t, err := time.Parse(layout, s[:len(layout)]); err == nil {
			return t
		}
	}
	return time.Time{}
}
