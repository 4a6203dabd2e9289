package retry_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/retry"
)

var (
	errBusy = errors.New("429 too many requests")
	errAuth = errors.New("401 credentials rejected")
)

func TestDo(t *testing.T) {
	classify := func(after time.Duration) func(error) retry.Verdict {
		return func(err error) retry.Verdict {
			return retry.Verdict{Retry: !errors.Is(err, errAuth), After: after}
		}
	}
	cases := []struct {
		name     string
		fails    []error
		after    time.Duration
		deadline time.Duration
		tries    int
		err      error
		minWait  time.Duration
		maxWait  time.Duration
	}{
		{"succeeds after two failures", []error{errBusy, errBusy}, 0, 0, 3, nil, 0, time.Second},
		{"gives up after the tries", []error{errBusy, errBusy, errBusy, errBusy}, 0, 0, 3, errBusy, 0, time.Second},
		{"permanent: one try", []error{errAuth, errBusy}, 0, 0, 1, errAuth, 0, 50 * time.Millisecond},
		{"waits out Retry-After", []error{errBusy}, 1200 * time.Millisecond, 0, 2, nil, 1100 * time.Millisecond, 3 * time.Second},
		{"a Retry-After past the deadline ends at once", []error{errBusy, errBusy}, 12 * time.Second, time.Second, 1, errBusy, 0, 100 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			if c.deadline > 0 {
				var cancel func()
				ctx, cancel = context.WithTimeout(ctx, c.deadline)
				defer cancel()
			}
			tries := 0
			start := time.Now()
			err := retry.Do(ctx, retry.Policy{Tries: 3, Initial: 10 * time.Millisecond}, func(context.Context) error {
				tries++
				if tries <= len(c.fails) {
					return c.fails[tries-1]
				}
				return nil
			}, classify(c.after))
			took := time.Since(start)
			if !errors.Is(err, c.err) || err != nil && err.Error() != c.err.Error() || tries != c.tries {
				t.Errorf("err %v after %d tries, want %v after %d", err, tries, c.err, c.tries)
			}
			if took < c.minWait || took > c.maxWait {
				t.Errorf("took %v, want %v–%v", took, c.minWait, c.maxWait)
			}
		})
	}
}

func TestParseAfter(t *testing.T) {
	soon := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	cases := []struct {
		v        string
		limit    time.Duration
		min, max time.Duration
	}{
		{"12", 0, 12 * time.Second, 12 * time.Second},
		{"120", time.Minute, time.Minute, time.Minute},
		{soon, 0, 80 * time.Second, 91 * time.Second},
		{"Wed, 21 Oct 2015 07:28:00 GMT", 0, 0, 0},
		{"soon", 0, 0, 0},
		{"", 0, 0, 0},
		{"-5", 0, 0, 0},
	}
	for _, c := range cases {
		if got := retry.ParseAfter(c.v, c.limit); got < c.min || got > c.max {
			t.Errorf("ParseAfter(%q, %v) = %v, want %v–%v", c.v, c.limit, got, c.min, c.max)
		}
	}
}
