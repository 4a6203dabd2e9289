package catalog_test

import (
	"testing"
	"time"

	"github.com/labgpu/bot/internal/catalog"
)

func TestListPriceStale(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		asOf   string
		months int
		want   bool
	}{
		{"2021", 0, true},
		{"2025", 0, false}, // 2025 may mean December 2025
		{"2025-06", 0, true},
		{"2025-11", 0, false},
		{"2026-08", 0, false},
		{"2026-08", 2, true},
		{"2021", -1, false},
		{"", 0, false},
		{"2025-10-31 survey", 0, true},
		{"2025-8", 0, true},
		{"2026-8", 0, false},
		{"2025-2026", 0, false},
		{"2020-2021", 0, true},
		{"2025-05/2026-10", 0, false},
		{"2025-05/2025-10", 0, true},
		{"2026 (doc cites arXiv 2602.*)", 0, false},
	}
	for _, c := range cases {
		if got := catalog.ListPriceStale(c.asOf, now, c.months); got != c.want {
			t.Errorf("ListPriceStale(%q, %d) = %v, want %v", c.asOf, c.months, got, c.want)
		}
	}
}
