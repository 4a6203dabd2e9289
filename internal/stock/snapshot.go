package stock

import (
	"time"
)

// Status is the outcome of one provider's last fetch.
type Status string

const (
	// StatusOK: the last fetch succeeded.
	StatusOK Status = "ok"
	// StatusStale: the last fetch failed; the offers are from an earlier
	// successful fetch.
	StatusStale Status = "stale"
	// StatusError: the fetch failed and there is nothing earlier.
	StatusError Status = "error"
	// StatusNotConfigured: the provider lacks credentials or a base URL.
	StatusNotConfigured Status = "not_configured"
)

// ProviderSnapshot is what one provider returned, with its health.
type ProviderSnapshot struct {
	Provider string  `json:"provider"`
	Status   Status  `json:"status"`
	Offers   []Offer `json:"offers"`
	// FetchedAt is the time of the last successful fetch (zero if none).
	FetchedAt time.Time `json:"fetched_at"`
	// Err is the last error text; with StatusOK it is a warning about
	// inputs that failed while others answered (a *PartialError).
	Err string `json:"error,omitempty"`
	// Failures counts consecutive failed fetches.
	Failures int `json:"failures,omitempty"`
	// FailedPlatforms are platforms whose data is incomplete in an
	// otherwise good fetch (a replayed file that failed, a cut-off answer).
	FailedPlatforms []string `json:"failed_platforms,omitempty"`
	// Latency is how long the last fetch took, retries included.
	Latency time.Duration `json:"latency_ns"`
	// Identity distinguishes configurations of one provider (the replay
	// directory); a stored snapshot of another identity is not restored.
	Identity string `json:"identity,omitempty"`
}

// Snapshot is the combined view of all providers at one time.
type Snapshot struct {
	TakenAt   time.Time          `json:"taken_at"`
	Providers []ProviderSnapshot `json:"providers"`
}

// Offers returns every offer of every provider.
func (s Snapshot) Offers() []Offer {
	var out []Offer
	for _, p := range s.Providers {
		out = append(out, p.Offers...)
	}
	return out
}
