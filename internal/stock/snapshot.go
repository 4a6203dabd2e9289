package stock

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"syscall"
	"time"
)

// Status is the outcome of one provider's last fetch.
type Status string

const (
	// StatusOK: the last fetch succeeded.
	StatusOK Status = "ok"
	// StatusStale: the last fetch failed (or answered an empty list,
	// ReasonEmpty); the offers are from an earlier successful fetch.
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
	FetchedAt time.Time `json:"fetched_at,omitzero"`
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
	// Placeholders counts example rows from API documentation that the
	// last fetch skipped (see Placeholder).
	Placeholders int `json:"skipped_placeholders,omitempty"`
	// Reason classifies Err for people (FailReason); empty without one.
	Reason FailReason `json:"reason,omitempty"`
	// Late is set in an answer's snapshot when this provider's fetch had
	// not answered within the board's budget: the offers are its last
	// ones, marked stale (never stored).
	Late bool `json:"late,omitempty"`
	// RunningFor is, in Board.Health, how long the fetch running now has
	// gone without an answer when that is longer than the budget (Late).
	RunningFor time.Duration `json:"running_for_ns,omitempty"`
	// Breaker is the provider's circuit breaker when not closed ("open":
	// no fetch is made for now; "half-open": one trial fetch).
	Breaker BreakerState `json:"breaker,omitempty"`
	// Absent lists the GPU types an earlier answer listed and the latest
	// good one did not (see Board): their last figures are still in
	// Offers, marked Stale, so their stock reads as unknown, never as
	// sold out. A type left out of two whole answers in a row is sold out
	// and no longer carried (AbsenceOf).
	Absent []Absent `json:"absent,omitempty"`
}

// Absent is a platform's GPU type missing from a provider's latest answer
// although an earlier answer listed it: unknown for now, never a
// transition; missing from two whole answers in a row it is sold out and
// no longer listed here (AbsenceOf).
type Absent struct {
	Platform string `json:"platform"` // catalog platform id
	GPU      string `json:"gpu"`      // catalog GPU id
	// LastSeen is the fetch time of the last answer that listed it.
	LastSeen time.Time `json:"last_seen"`
	// Misses is how many whole answers (not partial ones) have left it
	// out since; at SoldOutAfterMisses it is sold out (AbsenceOf).
	Misses int `json:"misses,omitempty"`
}

// FailReason is why a provider's fetch failed, in terms a person can act on.
type FailReason string

const (
	ReasonTimeout      FailReason = "timeout"
	ReasonUnauthorized FailReason = "unauthorized"
	ReasonRateLimited  FailReason = "rate_limited"
	ReasonServer       FailReason = "server_error"
	ReasonBadResponse  FailReason = "bad_response"
	// ReasonEmpty: a listing endpoint answered an empty list (ErrEmpty);
	// the offers shown are from the last fetch that listed some.
	ReasonEmpty FailReason = "empty_answer"
	// ReasonNoDir: the replay directory does not exist or cannot be read.
	ReasonNoDir FailReason = "no_directory"
	// ReasonNoRecordings: the replay directory holds no recording.
	ReasonNoRecordings FailReason = "no_recordings"
	// ReasonPartial: some inputs failed while others answered.
	ReasonPartial FailReason = "partial"
	// ReasonNetwork: no answer at all (refused, reset, DNS).
	ReasonNetwork FailReason = "network"
	// ReasonFailed: any other failure (a provider bug, a cancelled fetch).
	ReasonFailed FailReason = "failed"
)

// Classify returns the FailReason of a fetch error ("" for nil).
func Classify(err error) FailReason {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrPartial):
		return ReasonPartial
	case errors.Is(err, ErrEmpty):
		return ReasonEmpty
	case errors.Is(err, context.DeadlineExceeded):
		return ReasonTimeout
	case errors.Is(err, ErrUnauthorized):
		return ReasonUnauthorized
	case errors.Is(err, ErrRateLimited):
		return ReasonRateLimited
	case errors.Is(err, ErrServer):
		return ReasonServer
	case errors.Is(err, ErrNoRecordings):
		return ReasonNoRecordings
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.ENOTDIR):
		return ReasonNoDir
	case errors.Is(err, ErrBadResponse):
		return ReasonBadResponse
	}
	var ne net.Error
	if errors.As(err, &ne) {
		if ne.Timeout() {
			return ReasonTimeout
		}
		return ReasonNetwork
	}
	var oe *net.OpError
	if errors.As(err, &oe) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) {
		return ReasonNetwork
	}
	return ReasonFailed
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
