package httpx

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
)

// Settings are what a provider is built from: its block of the config
// (stock.providers.<name>, the keys its registry line names) and what
// the app adds. Each provider reads the fields it has.
type Settings struct {
	// BaseURL is the API host ("" for the platform's DefaultBaseURL);
	// Timeout bounds one whole Fetch (0 for DefaultTimeout).
	BaseURL string
	Timeout time.Duration
	// Token, APIKey and UserID are credentials (from the environment,
	// never logged).
	Token, APIKey, UserID string
	// Regions and GPUs narrow what is asked for; MachineList picks
	// AutoDL's machine list; Limit bounds a search's answer.
	Regions, GPUs []string
	MachineList   bool
	Limit         int
	// Dir is the replay's directory of recordings.
	Dir string

	// FXUSDCNY converts USD (0: the catalog's rate).
	FXUSDCNY float64
	// ListPriceMaxAgeMonths is how old a list price may be before it is
	// marked stale (catalog.DefaultListPriceMaxAgeMonths when 0).
	ListPriceMaxAgeMonths int
	// Now is the clock (time.Now when nil); Log the logger (none when nil).
	Now func() time.Time
	Log *slog.Logger
}

// HTTP are the settings every HTTP provider's Options embed.
func (s Settings) HTTP() Options { return Options{BaseURL: s.BaseURL, Timeout: s.Timeout, Now: s.Now} }

// Recording is one kind of recorded answer of a platform, replayed by
// the replay provider: the file name prefix that marks it and how its
// body is read (nil: a known file that carries no offers, such as a
// recorded error answer).
type Recording struct {
	Prefix string
	Parse  func(c *catalog.Catalog, body []byte, at time.Time, fx float64) ([]stock.Offer, error)
}

// NoFX adapts a parser of answers priced in CNY to Recording.Parse.
func NoFX(f func(*catalog.Catalog, []byte, time.Time) ([]stock.Offer, error)) func(*catalog.Catalog, []byte, time.Time, float64) ([]stock.Offer, error) {
	return func(c *catalog.Catalog, b []byte, at time.Time, _ float64) ([]stock.Offer, error) { return f(c, b, at) }
}

// Credential is a setting a provider cannot fetch without: its value,
// what it is called in an error ("token", "API key") and the environment
// variable that sets it.
type Credential struct {
	Value, What, Env string
}

// Run is every HTTP provider's Fetch around its own requests: the
// credentials checked first (the missing ones named in one error wrapping
// stock.ErrNotConfigured, see NotConfigured), then ctx bounded by the
// timeout, then fetch, given the time its answers are observed at.
func (c Client) Run(ctx context.Context, creds []Credential, fetch func(ctx context.Context, at time.Time) ([]stock.Offer, error)) ([]stock.Offer, error) {
	var what, env []string
	for _, cr := range creds {
		if strings.TrimSpace(cr.Value) == "" {
			what, env = append(what, cr.What), append(env, cr.Env)
		}
	}
	if len(what) > 0 {
		return nil, NotConfigured(c.Platform, strings.Join(what, " and "), env...)
	}
	ctx, cancel, at := c.Start(ctx)
	defer cancel()
	return fetch(ctx, at)
}

// Request is one call to a platform: the method, the path below the base
// URL, the query, the header and a JSON payload (nil for none). Refused,
// when set, words a non-200 answer by the platform's own error body; a nil
// error from it leaves the wording to StatusError.
type Request struct {
	Method, Path string
	Query        url.Values
	Header       http.Header
	Payload      any
	Refused      func(r *Result) error
}

// Answer makes the call and returns the body of a 200 answer; any other
// status is an error (req.Refused's, or StatusError's). Errors name the
// platform and the path.
func (c Client) Answer(ctx context.Context, req Request) ([]byte, error) {
	r, err := c.Call(ctx, req.Method, req.Path, req.Query, req.Header, req.Payload)
	if err != nil {
		return nil, err
	}
	if r.Status != http.StatusOK {
		if req.Refused != nil {
			if err := req.Refused(r); err != nil {
				return nil, err
			}
		}
		return nil, StatusError(c.Platform, req.Method, req.Path, r)
	}
	return r.Body, nil
}
