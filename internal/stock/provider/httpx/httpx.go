// Package provider fetches stock.Offers: from the platforms' HTTP APIs
// (AutoDL, vast.ai, 恒源云, 矩池云, RunPod, Lambda), from recorded
// responses replayed from a directory, and from the catalog's list prices.
// Each implements stock.Provider; its errors wrap stock's error kinds
// (stock.ErrUnauthorized, …) and a 429's *APIError says how long to wait.
package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/retry"
	"github.com/labgpu/bot/internal/stock"
)

// Defaults shared by the HTTP providers.
const (
	// DefaultTimeout bounds one provider's whole Fetch (all pages and
	// regions) when its options leave Timeout zero.
	DefaultTimeout = 10 * time.Second
	// MaxResponseBytes is the largest response body a provider reads.
	MaxResponseBytes = 8 << 20
	// DefaultConcurrency is how many requests of one Fetch (pages of a
	// paged list) are in flight at once when its options leave
	// Concurrency zero: 20 pages at 200 ms each then take about 0.6 s
	// (page 1, then two rounds), not 4 s.
	DefaultConcurrency = 10
	// UserAgent is sent with every request.
	UserAgent = "labgpu-bot"
)

// APIError is an answer from a platform that is not a usable result: an
// HTTP status other than 200, or an error code in a 200 body.
type APIError struct {
	// Platform is the provider id ("autodl", "vastai").
	Platform string
	// StatusCode is the HTTP status (200 for an error code in a 200 body).
	StatusCode int
	// Code and Msg are the platform's own error code and message, if any.
	Code string
	Msg  string
	// RetryAfter is the Retry-After header of a 429, if given.
	RetryAfter time.Duration

	kind error
	text string
}

func (e *APIError) Error() string { return e.text }

// Wait is the Retry-After of a 429 (stock.Waiter), 0 when none was given.
func (e *APIError) Wait() time.Duration { return e.RetryAfter }

// Unwrap returns the error kind (stock.ErrUnauthorized, stock.ErrRateLimited,
// stock.ErrServer) or nil.
func (e *APIError) Unwrap() error { return e.kind }

// Result is a response read to completion (up to MaxResponseBytes).
type Result struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends one request with the common headers and reads the body.
// Errors name the platform and the endpoint and wrap the cause.
func Do(ctx context.Context, client *http.Client, platform, method, url, path string, header http.Header, payload any) (*Result, error) {
	var body io.Reader
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return nil, fmt.Errorf("%s: encode request for %s %s: %w", platform, method, path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return nil, fmt.Errorf("%s: build request %s %s: %w", platform, method, path, err)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, transportError(ctx, platform, method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return nil, transportError(ctx, platform, method, path, fmt.Errorf("read body: %w", err))
	}
	if len(b) > MaxResponseBytes {
		return nil, BadResponse("%s: %s %s: response larger than %d bytes", platform, method, path, MaxResponseBytes)
	}
	return &Result{Status: resp.StatusCode, Header: resp.Header, Body: b}, nil
}

// transportError words a failed round trip, calling a deadline a timeout.
func transportError(ctx context.Context, platform, method, path string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// Name the provider's own timeout only when it, not an earlier
		// deadline of the caller, expired.
		t, ok := ctx.Value(timeoutKey{}).(timeoutInfo)
		if dl, has := ctx.Deadline(); ok && has && dl.Equal(t.deadline) {
			return fmt.Errorf("%s: %s %s: timed out after %v: %w", platform, method, path, t.d, err)
		}
		return fmt.Errorf("%s: %s %s: deadline exceeded: %w", platform, method, path, err)
	}
	return fmt.Errorf("%s: %s %s: %w", platform, method, path, err)
}

type timeoutKey struct{}

type timeoutInfo struct {
	d        time.Duration
	deadline time.Time
}

// WithTimeout bounds ctx by d (DefaultTimeout when d <= 0) and remembers d
// for error messages.
func WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		d = DefaultTimeout
	}
	dl := time.Now().Add(d)
	ctx = context.WithValue(ctx, timeoutKey{}, timeoutInfo{d: d, deadline: dl})
	return context.WithDeadline(ctx, dl)
}

// StatusError turns a non-200 HTTP answer into an *APIError.
func StatusError(platform, method, path string, r *Result) *APIError {
	e := &APIError{Platform: platform, StatusCode: r.Status}
	status := fmt.Sprintf("HTTP %d %s", r.Status, http.StatusText(r.Status))
	where := fmt.Sprintf("%s %s", method, path)
	snip := Snippet(r.Body)
	switch {
	case r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden:
		e.kind = stock.ErrUnauthorized
		e.text = fmt.Sprintf("%s: credentials rejected (%s) from %s", platform, status, where)
	case r.Status == http.StatusTooManyRequests:
		e.kind = stock.ErrRateLimited
		e.RetryAfter = parseRetryAfter(r.Header.Get("Retry-After"))
		e.text = fmt.Sprintf("%s: rate limited (%s) from %s", platform, status, where)
		if e.RetryAfter > 0 {
			e.text += fmt.Sprintf(", retry after %v", e.RetryAfter)
		}
	case r.Status >= 500:
		e.kind = stock.ErrServer
		e.text = fmt.Sprintf("%s: server error (%s) from %s", platform, status, where)
	default:
		e.text = fmt.Sprintf("%s: unexpected %s from %s", platform, status, where)
	}
	if snip != "" {
		e.text += ": " + snip
	}
	return e
}

func parseRetryAfter(s string) time.Duration { return retry.ParseAfter(s, 0) }

// Snippet is the start of a body for an error message: one line, valid
// UTF-8, at most 200 bytes.
func Snippet(b []byte) string {
	const max = 200
	s := strings.ToValidUTF8(string(b), "?")
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// DecodeJSON parses a whole body into generic values, keeping numbers as
// json.Number. Trailing data after the value is an error.
func DecodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty body")
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// kindError is an error that also matches an error kind (errors.Is)
// without adding the kind's text to the message.
type kindError struct {
	err  error
	kind error
}

func (e kindError) Error() string   { return e.err.Error() }
func (e kindError) Unwrap() []error { return []error{e.err, e.kind} }

// BadResponse formats an error of kind stock.ErrBadResponse.
func BadResponse(format string, args ...any) error {
	return kindError{err: fmt.Errorf(format, args...), kind: stock.ErrBadResponse}
}

// Malformed wraps a JSON decoding problem.
func Malformed(platform, what string, err error) error {
	return BadResponse("%s: malformed JSON in %s: %w", platform, what, err)
}

// Num reads a JSON number, or a numeric string; false when absent,
// null, non-numeric or not finite.
func Num(v any) (float64, bool) {
	var f float64
	var err error
	switch x := v.(type) {
	case json.Number:
		f, err = strconv.ParseFloat(string(x), 64)
	case float64:
		f = x
	case string:
		f, err = strconv.ParseFloat(strings.TrimSpace(x), 64)
	default:
		return 0, false
	}
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// MaxCount bounds GPU counts read from platforms.
const MaxCount = 1_000_000

// Count reads a non-negative GPU count; nil when absent or nonsense.
func Count(v any) *int {
	f, ok := Num(v)
	return count(f, ok)
}

func count(f float64, ok bool) *int {
	if !ok || f < 0 || f > MaxCount {
		return nil
	}
	return stock.IntPtr(int(f))
}

// Str reads a JSON string (numbers are formatted); "" otherwise.
func Str(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return string(x)
	}
	return ""
}

// Bool reads a JSON boolean (also 0/1 and "true"/"false"); ok false
// when absent or null.
func Bool(v any) (val, ok bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		b, err := strconv.ParseBool(strings.TrimSpace(x))
		return b, err == nil
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return false, false
		}
		return f != 0, true
	}
	return false, false
}

// ResolveGPU maps a platform GPU name to a catalog id, or returns the raw
// name when the catalog does not know it.
func ResolveGPU(c *catalog.Catalog, raw string) string {
	raw = strings.TrimSpace(raw)
	if c != nil && raw != "" {
		if id, ok := c.ResolveGPU(raw); ok {
			return id
		}
	}
	return raw
}

// defaultClient is used when options leave HTTPClient nil. Deadlines come
// from the request context.
var defaultClient = &http.Client{Transport: defaultTransport()}

// defaultTransport is http.DefaultTransport keeping DefaultConcurrency
// idle connections per host (instead of 2), so that concurrent pages reuse
// their connections from one poll to the next.
func defaultTransport() http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = DefaultConcurrency
	return t
}

// JoinURL appends path to base without doubling the slash.
func JoinURL(base, path string) string {
	return strings.TrimRight(base, "/") + path
}

// FXRate is fx when positive, else the catalog's USD→CNY rate (0 without a
// catalog, which leaves converted prices at 0).
func FXRate(c *catalog.Catalog, fx float64) float64 {
	if fx > 0 && !math.IsInf(fx, 0) {
		return fx
	}
	if c != nil && c.FXUSDCNY > 0 {
		return c.FXUSDCNY
	}
	return 0
}

// NotConfigured is the Fetch error of a provider without credentials,
// naming the environment variables that supply them, e.g. "lambda: no API
// key configured (set LAMBDA_API_KEY)". It wraps stock.ErrNotConfigured.
func NotConfigured(platform, what string, env ...string) error {
	return fmt.Errorf("%s: no %s configured (set %s): %w", platform, what, strings.Join(env, " and "), stock.ErrNotConfigured)
}

// Bearer returns the header "Authorization: Bearer <token>".
func Bearer(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + strings.TrimSpace(token)}}
}

// ResolveFirst maps the first of names the catalog knows to its GPU id;
// when it knows none, the first non-empty name is returned as is.
func ResolveFirst(c *catalog.Catalog, names ...string) string {
	first := ""
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if first == "" {
			first = n
		}
		if c != nil {
			if id, ok := c.ResolveGPU(n); ok {
				return id
			}
		}
	}
	return first
}

// Dig follows object keys into decoded JSON; nil when a step is missing
// or not an object.
func Dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// Has reports whether the object m has key k (even with a null value).
func Has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// NewAPIError builds an *APIError with an error kind (nil for none) and
// its message text.
func NewAPIError(platform string, status int, code, msg string, kind error, text string) *APIError {
	return &APIError{Platform: platform, StatusCode: status, Code: code, Msg: msg, kind: kind, text: text}
}

// KindWords names an error kind for a message built from a platform's own
// error body: "API key rejected", "rate limited", "server error" or "API
// error".
func KindWords(kind error) string {
	switch kind {
	case stock.ErrUnauthorized:
		return "API key rejected"
	case stock.ErrRateLimited:
		return "rate limited"
	case stock.ErrServer:
		return "server error"
	}
	return "API error"
}

// MaxHourlyPrice bounds prices read from platforms, per rental unit per
// hour in the platform's currency; larger figures are nonsense and read as
// no price (they would overflow once converted).
const MaxHourlyPrice = 1e6

// Price reads a positive price of at most MaxHourlyPrice, given in
// units of 1/per (per 1e5 for Matpool's millicent, 100 for US cents); 0
// otherwise.
func Price(v any, per float64) float64 {
	f, ok := Num(v)
	return price(f, ok, per)
}

func price(f float64, ok bool, per float64) float64 {
	if !ok || f <= 0 || per <= 0 {
		return 0
	}
	if f /= per; f > MaxHourlyPrice || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// Empty is the error of a listing endpoint that answered an empty list
// (what names it: "autodl: GET /api/v1/dev/machine/gpu_stock"); it wraps
// stock.ErrEmpty, which the Board treats as unknown, not sold out.
func Empty(format string, args ...any) error {
	return kindError{err: fmt.Errorf(format+" answered an empty list: stock unknown, not sold out", args...), kind: stock.ErrEmpty}
}

// JSONKind names the JSON type of a decoded value.
func JSONKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "list"
	case map[string]any:
		return "object"
	}
	return "number"
}
