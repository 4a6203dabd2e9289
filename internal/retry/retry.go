// Package retry is the bot's one retry policy, on cenkalti/backoff:
// exponential backoff with jitter between tries, a server's Retry-After
// honoured (never retried sooner, and not at all when it would outlast
// the caller's deadline), and errors classified as worth retrying or
// permanent by the caller.
package retry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v5"
)

// Policy bounds the retries of one operation.
type Policy struct {
	// Tries is the most attempts, the first included (default 3).
	Tries int
	// Initial is the first wait (default 200 ms); later waits double up to
	// Max (default 5 s), each spread by ±Jitter of itself (default 0.25) so
	// callers do not retry in step.
	Initial, Max time.Duration
	Jitter       float64
}

// Verdict is what a Classify function says of an error.
type Verdict struct {
	// Retry: the error is worth another try (a rate limit, a server error,
	// a network failure); false: permanent (rejected credentials, a bad
	// answer).
	Retry bool
	// After is the server's Retry-After, when it gave one: the next try
	// waits at least this long.
	After time.Duration
}

// Do runs op until it succeeds, classify calls its error permanent, the
// tries run out or ctx ends, and returns op's last error. A Retry-After
// longer than the time left before ctx's deadline ends the retries at once
// (waiting would only hit the deadline).
func Do(ctx context.Context, p Policy, op func(ctx context.Context) error, classify func(error) Verdict) error {
	if p.Tries <= 0 {
		p.Tries = 3
	}
	b := backoff.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval, b.Multiplier = or(p.Initial, 200*time.Millisecond), or(p.Max, 5*time.Second), 2
	b.RandomizationFactor = 0.25
	if p.Jitter > 0 && p.Jitter < 1 {
		b.RandomizationFactor = p.Jitter
	}
	var last error
	_, err := backoff.Retry(ctx, func() (struct{}, error) {
		err := op(ctx)
		if err == nil {
			return struct{}{}, nil
		}
		last = err
		v := classify(err)
		switch {
		case !v.Retry:
			return struct{}{}, backoff.Permanent(err)
		case v.After > 0:
			if dl, ok := ctx.Deadline(); ok && time.Until(dl) < v.After {
				return struct{}{}, backoff.Permanent(err)
			}
			return struct{}{}, &afterError{err: err, ra: &backoff.RetryAfterError{Duration: v.After}}
		}
		return struct{}{}, err
	}, backoff.WithBackOff(b), backoff.WithMaxTries(uint(p.Tries)), backoff.WithMaxElapsedTime(0))
	var ae *afterError
	switch {
	case errors.As(err, &ae):
		return ae.err
	case last != nil && err != nil && !errors.Is(err, last) && ctx.Err() != nil:
		// ctx ended while waiting to retry: say what failed, and why
		// there was no further try.
		return fmt.Errorf("%w (gave up waiting to retry: %w)", last, err)
	}
	return err
}

func or(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// afterError carries an operation's error and the server's Retry-After to
// backoff.Retry, which finds the latter with errors.As.
type afterError struct {
	err error
	ra  *backoff.RetryAfterError
}

func (e *afterError) Error() string   { return e.err.Error() }
func (e *afterError) Unwrap() []error { return []error{e.err, e.ra} }

// ParseAfter reads a Retry-After value: seconds ("12") or an HTTP date,
// capped at limit (no cap when limit is 0); 0 when it is absent, bad or
// already past.
func ParseAfter(v string, limit time.Duration) time.Duration {
	v = strings.TrimSpace(v)
	var d time.Duration
	if n, err := strconv.Atoi(v); err == nil && n > 0 && n < 86400*7 {
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = time.Until(t).Round(time.Second)
	}
	if d <= 0 {
		return 0
	}
	if limit > 0 {
		d = min(d, limit)
	}
	return d
}
