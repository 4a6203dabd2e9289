// Package offerview renders the offers answers from their payloads:
// stock ("哪家有4090": Stock), list prices and billing rules ("AutoDL
// 怎么收费": Prices) and comparisons of platforms or cards ("3090 还是
// 4090": Compare). Each payload is what the answer found, in plain values
// (rows, figures, flags, the language); its Reply says it — the verdict
// first, at most five rows, the whole answer behind "详情" — in the
// message catalog's words (configs/messages, keys stock.*, prices.*,
// compare.*, offers.*), with the offer cells, marks and legend of
// package render. It never calls back into the answers.
package offerview

import (
	"time"

	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// maxOfferRows caps the full form's table; the rest is counted in a note.
const maxOfferRows = 12

// ProviderRow is a stock source's state in a stock answer: its provider
// name, status, last good fetch (RFC 3339 in the configured zone) and
// last error as the JSON shows them, and what the answer's lines say
// about it.
type ProviderRow struct {
	Provider  string `json:"provider"`
	Status    string `json:"status"`
	FetchedAt string `json:"fetched_at,omitempty"`
	Error     string `json:"error,omitempty"`
	// Fetched is the last good fetch (zero if none) and Reason why the
	// last one failed.
	Fetched time.Time        `json:"-"`
	Reason  stock.FailReason `json:"-"`
	// Waiting: the fetch was late or the provider's breaker is open; the
	// router names it at the top of the answer, so the lines here do not.
	Waiting bool `json:"-"`
	// FailedPlatforms are the platforms whose data is incomplete in an
	// otherwise good fetch; Absent the platform × GPU types its latest
	// answer left out (stock.ProviderSnapshot.Absent).
	FailedPlatforms []string       `json:"-"`
	Absent          []stock.Absent `json:"-"`
	// Offers is how many offers it gave (the recordings read or not).
	Offers int `json:"-"`
}

// ProviderRows are a snapshot's providers as rows, fetch times printed by
// clock.
func ProviderRows(s stock.Snapshot, clock render.Clock) []ProviderRow {
	var out []ProviderRow
	for _, p := range s.Providers {
		row := ProviderRow{Provider: p.Provider, Status: string(p.Status), Error: p.Err, Fetched: p.FetchedAt, Reason: p.Reason,
			Waiting: p.Late || p.Breaker == stock.BreakerOpen, FailedPlatforms: p.FailedPlatforms, Absent: p.Absent, Offers: len(p.Offers)}
		if !p.FetchedAt.IsZero() {
			row.FetchedAt = clock.RFC3339(p.FetchedAt)
		}
		out = append(out, row)
	}
	return out
}

// unverified reports whether a row's price is one only the seed articles
// give.
func unverified(rows []render.OfferRow) bool {
	for _, r := range rows {
		if !r.Verified {
			return true
		}
	}
	return false
}
