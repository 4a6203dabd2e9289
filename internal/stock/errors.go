package stock

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Error kinds a provider error can wrap; test them with errors.Is.
var (
	// ErrNotConfigured: the provider lacks a token or base URL.
	ErrNotConfigured = errors.New("not configured")
	// ErrUnauthorized: the platform rejected the credentials (HTTP 401/403,
	// AutoDL's AuthorizeFailed, vast.ai's 404 "Invalid user key").
	ErrUnauthorized = errors.New("credentials rejected")
	// ErrRateLimited: HTTP 429.
	ErrRateLimited = errors.New("rate limited")
	// ErrServer: an HTTP 5xx answer.
	ErrServer = errors.New("server error")
	// ErrBadResponse: the body is not JSON or not the expected shape.
	ErrBadResponse = errors.New("bad response")
	// ErrEmpty: an endpoint that lists every machine or GPU type of a
	// platform answered an empty list (or none). That is unknown, not
	// sold out: the Board keeps the provider's previous offers, marked
	// stale, as for a failed fetch, so it never fires or clears an alert.
	// A platform that says explicitly that stock is zero (a GPU type
	// listed with stock 0) is no ErrEmpty. Each provider's doc comment
	// says which of its answers count as empty.
	ErrEmpty = errors.New("answered an empty list")
)

// ErrPartial is matched (errors.Is) by a *PartialError: the provider
// returned offers although some of its inputs failed.
var ErrPartial = errors.New("some inputs failed")

// ErrNoRecordings is matched by a replay Fetch error when the directory
// holds no recording it knows.
var ErrNoRecordings = errors.New("no recordings")

// PartialError is returned by a Fetch together with the offers it could
// read when some of its inputs (replay files) failed. The offers are valid;
// the error is a warning to show beside them. errors.Is(err, ErrPartial)
// reports true.
type PartialError struct {
	// Provider is the provider id ("replay").
	Provider string
	// Inputs is how many inputs were tried (0 when unknown).
	Inputs int
	// Failed lists each failed input as "file: reason".
	Failed []string
	// Platforms are the platforms whose data is incomplete because of
	// the failures; alerts treat them as unknown, never as sold out.
	Platforms []string
}

// Error returns one line, e.g. "replay: 2 of 5 files failed: a.json:
// reason; b.json: reason", listing at most three failures.
func (e *PartialError) Error() string {
	if e == nil {
		return ErrPartial.Error()
	}
	p := e.Provider
	if p == "" {
		p = "stock"
	}
	n := len(e.Failed)
	head := fmt.Sprintf("%s: %d %s failed", p, n, plural(n, "file", "files"))
	if e.Inputs >= n && e.Inputs > 0 {
		head = fmt.Sprintf("%s: %d of %d %s failed", p, n, e.Inputs, plural(e.Inputs, "file", "files"))
	}
	if n == 0 {
		return head
	}
	return head + ": " + FailureList(e.Failed)
}

// Is reports whether target is ErrPartial.
func (e *PartialError) Is(target error) bool { return target == ErrPartial }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// maxListedFailures is how many failures an error message names.
const maxListedFailures = 3

// FailureList joins failures on one line, truncated after three with "…".
func FailureList(failed []string) string {
	n := min(len(failed), maxListedFailures)
	parts := make([]string, 0, n+1)
	for _, f := range failed[:n] {
		parts = append(parts, strings.Join(strings.Fields(f), " "))
	}
	if len(failed) > n {
		parts = append(parts, "…")
	}
	return strings.Join(parts, "; ")
}

// Waiter is implemented by a fetch error that says how long to wait
// before trying again (a 429's Retry-After).
type Waiter interface {
	Wait() time.Duration
}

// RetryAfter is the wait a fetch error asks for (Waiter), 0 when none.
func RetryAfter(err error) time.Duration {
	var w Waiter
	if errors.As(err, &w) {
		return w.Wait()
	}
	return 0
}
