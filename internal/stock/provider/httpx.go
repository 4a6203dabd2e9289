// Package provider fetches stock.Offers: from the platforms' HTTP APIs
// (AutoDL, vast.ai, 恒源云, 矩池云, RunPod, Lambda), from recorded
// responses replayed from a directory, and from the catalog's list prices.
// Each implements stock.Provider; its errors wrap stock's error kinds
// (stock.ErrUnauthorized, …) and a 429's *APIError says how long to wait.
package provider

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

// httpResult is a response read to completion (up to MaxResponseBytes).
type httpResult struct {
	status int
	header http.Header
	body   []byte
}

// doRequest sends one request with the common headers and reads the body.
// Errors name the platform and the endpoint and wrap the cause.
func doRequest(ctx context.Context, client *http.Client, platform, method, url, path string, header http.Header, payload any) (*httpResult, error) {
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
		return nil, badResponse("%s: %s %s: response larger than %d bytes", platform, method, path, MaxResponseBytes)
	}
	return &httpResult{status: resp.StatusCode, header: resp.Header, body: b}, nil
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

// withTimeout bounds ctx by d (DefaultTimeout when d <= 0) and remembers d
// for error messages.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		d = DefaultTimeout
	}
	dl := time.Now().Add(d)
	ctx = context.WithValue(ctx, timeoutKey{}, timeoutInfo{d: d, deadline: dl})
	return context.WithDeadline(ctx, dl)
}

// statusError turns a non-200 HTTP answer into an *APIError.
func statusError(platform, method, path string, r *httpResult) *APIError {
	e := &APIError{Platform: platform, StatusCode: r.status}
	status := fmt.Sprintf("HTTP %d %s", r.status, http.StatusText(r.status))
	where := fmt.Sprintf("%s %s", method, path)
	snip := snippet(r.body)
	switch {
	case r.status == http.StatusUnauthorized || r.status == http.StatusForbidden:
		e.kind = stock.ErrUnauthorized
		e.text = fmt.Sprintf("%s: credentials rejected (%s) from %s", platform, status, where)
	case r.status == http.StatusTooManyRequests:
		e.kind = stock.ErrRateLimited
		e.RetryAfter = parseRetryAfter(r.header.Get("Retry-After"))
		e.text = fmt.Sprintf("%s: rate limited (%s) from %s", platform, status, where)
		if e.RetryAfter > 0 {
			e.text += fmt.Sprintf(", retry after %v", e.RetryAfter)
		}
	case r.status >= 500:
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

// snippet is the start of a body for an error message: one line, valid
// UTF-8, at most 200 bytes.
func snippet(b []byte) string {
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

// decodeJSON parses a whole body into generic values, keeping numbers as
// json.Number. Trailing data after the value is an error.
func decodeJSON(b []byte) (any, error) {
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

// badResponse formats an error of kind stock.ErrBadResponse.
func badResponse(format string, args ...any) error {
	return kindError{err: fmt.Errorf(format, args...), kind: stock.ErrBadResponse}
}

// malformed wraps a JSON decoding problem.
func malformed(platform, what string, err error) error {
	return badResponse("%s: malformed JSON in %s: %w", platform, what, err)
}

// numVal reads a JSON number, or a numeric string; false when absent,
// null, non-numeric or not finite.
func numVal(v any) (float64, bool) {
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

// maxCount bounds GPU counts read from platforms.
const maxCount = 1_000_000

// countVal reads a non-negative GPU count; nil when absent or nonsense.
func countVal(v any) *int {
	f, ok := numVal(v)
	if !ok || f < 0 || f > maxCount {
		return nil
	}
	return stock.IntPtr(int(f))
}

// strVal reads a JSON string (numbers are formatted); "" otherwise.
func strVal(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return string(x)
	}
	return ""
}

// boolVal reads a JSON boolean (also 0/1 and "true"/"false"); ok false
// when absent or null.
func boolVal(v any) (val, ok bool) {
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

// resolveGPU maps a platform GPU name to a catalog id, or returns the raw
// name when the catalog does not know it.
func resolveGPU(c *catalog.Catalog, raw string) string {
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
var defaultClient = &http.Client{}

// joinURL appends path to base without doubling the slash.
func joinURL(base, path string) string {
	return strings.TrimRight(base, "/") + path
}

// fxRate is fx when positive, else the catalog's USD→CNY rate (0 without a
// catalog, which leaves converted prices at 0).
func fxRate(c *catalog.Catalog, fx float64) float64 {
	if fx > 0 && !math.IsInf(fx, 0) {
		return fx
	}
	if c != nil && c.FXUSDCNY > 0 {
		return c.FXUSDCNY
	}
	return 0
}

// notConfigured is the Fetch error of a provider without credentials,
// naming the environment variables that supply them, e.g. "lambda: no API
// key configured (set LAMBDA_API_KEY)". It wraps stock.ErrNotConfigured.
func notConfigured(platform, what string, env ...string) error {
	return fmt.Errorf("%s: no %s configured (set %s): %w", platform, what, strings.Join(env, " and "), stock.ErrNotConfigured)
}

// bearer returns the header "Authorization: Bearer <token>".
func bearer(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + strings.TrimSpace(token)}}
}

// resolveFirst maps the first of names the catalog knows to its GPU id;
// when it knows none, the first non-empty name is returned as is.
func resolveFirst(c *catalog.Catalog, names ...string) string {
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

// dig follows object keys into decoded JSON; nil when a step is missing
// or not an object.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// has reports whether the object m has key k (even with a null value).
func has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// newAPIError builds an *APIError with an error kind (nil for none) and
// its message text.
func newAPIError(platform string, status int, code, msg string, kind error, text string) *APIError {
	return &APIError{Platform: platform, StatusCode: status, Code: code, Msg: msg, kind: kind, text: text}
}

// kindWords names an error kind for a message built from a platform's own
// error body: "API key rejected", "rate limited", "server error" or "API
// error".
func kindWords(kind error) string {
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

// maxHourlyPrice bounds prices read from platforms, per rental unit per
// hour in the platform's currency; larger figures are nonsense and read as
// no price (they would overflow once converted).
const maxHourlyPrice = 1e6

// priceVal reads a positive price of at most maxHourlyPrice, given in
// units of 1/per (per 1e5 for Matpool's millicent, 100 for US cents); 0
// otherwise.
func priceVal(v any, per float64) float64 {
	f, ok := numVal(v)
	if !ok || f <= 0 || per <= 0 {
		return 0
	}
	if f /= per; f > maxHourlyPrice || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// httpDefaults fills a provider's common options left zero: the base URL
// (def), DefaultTimeout, defaultClient and time.Now.
func httpDefaults(baseURL *string, def string, timeout *time.Duration, client **http.Client, now *func() time.Time) {
	if strings.TrimSpace(*baseURL) == "" {
		*baseURL = def
	}
	if *timeout <= 0 {
		*timeout = DefaultTimeout
	}
	if *client == nil {
		*client = defaultClient
	}
	if *now == nil {
		*now = time.Now
	}
}

// pageFunc fetches page n (1-based) of a paged machine list and returns
// its offers, how many rows the page had and the list's total (-1 when the
// answer does not say).
type pageFunc func(ctx context.Context, n int) (offers []stock.Offer, rows, total int, err error)

// fetchPages reads pages 1, 2, … of size pageSize until a page is empty,
// the total is reached, a short page ends a list without a total, or
// maxPages were read. Any failed page fails the whole fetch (a partial
// list would read as sold out); its error names the page.
func fetchPages(ctx context.Context, maxPages, pageSize int, page pageFunc) ([]stock.Offer, error) {
	var out []stock.Offer
	for n := 1; n <= maxPages; n++ {
		offers, rows, total, err := page(ctx, n)
		if err != nil {
			return nil, fmt.Errorf("%w (page %d)", err, n)
		}
		out = append(out, offers...)
		if rows == 0 || total >= 0 && n*pageSize >= total || total < 0 && rows < pageSize {
			break
		}
	}
	return out, nil
}
