// Package webhook sends chat replies to push-only group webhooks: the
// Feishu custom bot (群机器人 → 自定义机器人, see FeishuBot) and the WeCom
// group robot (see WeCom). Neither can receive messages; they let a lab
// without a Feishu app still get alerts and digests.
//
// Both senders render a chat.Reply for their platform, split long content
// at line boundaries under the platform's size limit, rate-limit requests
// per webhook, retry rate-limit, 429 and 5xx answers with backoff, and
// never put the webhook key or signing secret in an error.
//
// Create one sender per webhook and share it: the rate limit is kept in
// the sender, so two senders for the same webhook do not see each other.
package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/retry"
)

const (
	defaultTimeout    = 10 * time.Second
	defaultAttempts   = 4
	defaultBackoff    = time.Second
	maxBackoff        = 15 * time.Second
	maxRetryAfter     = 60 * time.Second
	maxResponseBytes  = 64 << 10
	errorSnippetBytes = 200
)

// Option configures a FeishuBot or a WeCom sender.
type Option func(*config)

type config struct {
	client    *http.Client
	timeout   time.Duration
	now       func() time.Time
	attempts  int
	backoff   time.Duration
	limits    []limit
	limitsSet bool
	plainText bool
}

type limit struct {
	n   int
	per time.Duration
}

// WithHTTPClient sets the HTTP client (default: a client of its own).
// Its Timeout, if any, applies on top of WithTimeout.
func WithHTTPClient(c *http.Client) Option {
	return func(cf *config) {
		if c != nil {
			cf.client = c
		}
	}
}

// WithTimeout bounds each HTTP attempt (default 10 s). The caller's context
// bounds the whole Send, retries and rate-limit waits included.
func WithTimeout(d time.Duration) Option {
	return func(cf *config) {
		if d > 0 {
			cf.timeout = d
		}
	}
}

// WithNow sets the clock used for the Feishu signature timestamp (default
// time.Now). Rate limiting and backoff always use the real clock.
func WithNow(now func() time.Time) Option {
	return func(cf *config) {
		if now != nil {
			cf.now = now
		}
	}
}

// WithRetry sets how many attempts a message gets in all (default 4; 1
// disables retries) and the first backoff delay (default 1 s), which
// doubles at each retry, with jitter, up to 15 s. A Retry-After header
// (up to 60 s) is honoured when it asks for longer.
func WithRetry(attempts int, backoff time.Duration) Option {
	return func(cf *config) {
		cf.attempts = max(attempts, 1)
		if backoff > 0 {
			cf.backoff = backoff
		}
	}
}

// WithRateLimit replaces the platform's default rate limit (Feishu: 5
// messages per second and 100 per minute; WeCom: 20 per minute) with "at
// most n requests in any window of length per". Several WithRateLimit
// options combine; n <= 0 alone disables rate limiting. Retries count
// against the limit.
func WithRateLimit(n int, per time.Duration) Option {
	return func(cf *config) {
		if !cf.limitsSet {
			cf.limits, cf.limitsSet = nil, true
		}
		if n > 0 && per > 0 {
			cf.limits = append(cf.limits, limit{n, per})
		}
	}
}

// WithPlainText sends every reply as plain text (chat.PlainText): no
// Feishu card, no WeCom markdown. Use it for Feishu clients older than
// 7.20, which show card JSON 2.0 only as an upgrade prompt.
func WithPlainText() Option {
	return func(cf *config) { cf.plainText = true }
}

func newConfig(defaults []limit, opts []Option) config {
	cf := config{timeout: defaultTimeout, now: time.Now, attempts: defaultAttempts, backoff: defaultBackoff}
	for _, o := range opts {
		if o != nil {
			o(&cf)
		}
	}
	if cf.client == nil {
		cf.client = &http.Client{}
	}
	if !cf.limitsSet {
		cf.limits = defaults
	}
	return cf
}

// APIError is a webhook answer that was not a success: a non-zero
// Feishu code / WeCom errcode, or an HTTP error status.
type APIError struct {
	// Platform is "feishu" or "wecom".
	Platform string
	// HTTPStatus is the response status code.
	HTTPStatus int
	// Code is the platform's code (Feishu code, WeCom errcode); 0 when the
	// body carried none.
	Code int
	// Msg is the platform's message, or the start of an unexpected body.
	Msg string
	// Retryable is true for rate limits, 429 and 5xx.
	Retryable bool
}

func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString(e.Platform)
	if e.Code != 0 {
		fmt.Fprintf(&b, ": code %d", e.Code)
	}
	if e.Msg != "" {
		fmt.Fprintf(&b, ": %s", e.Msg)
	}
	if e.HTTPStatus/100 != 2 || e.Code == 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.HTTPStatus)
	}
	if e.Retryable {
		b.WriteString(" (retryable)")
	}
	return b.String()
}

// IsRetryable reports whether err is worth trying again later: a rate
// limit, an HTTP 429 or 5xx, or a network error or timeout.
func IsRetryable(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Retryable
	}
	var te *transportError
	return errors.As(err, &te)
}

// transportError is a failed HTTP round trip (connection, timeout); its
// text has the webhook URL redacted.
type transportError struct{ err error }

func (e *transportError) Error() string { return e.err.Error() }
func (e *transportError) Unwrap() error { return e.err }

// sender is what FeishuBot and WeCom share: the HTTP post with rate limit,
// timeout and retries, and error redaction.
type sender struct {
	platform string
	url      string // the full webhook URL: a secret
	redacted string
	secrets  []string
	cfg      config
	lim      *limiter
	sem      chan struct{} // serialises Sends so that a reply's parts stay together
	// check classifies a response: nil for success.
	check func(status int, header http.Header, body []byte) error
}

func newSender(platform, rawURL, redacted string, secrets []string, cf config, check func(int, http.Header, []byte) error) *sender {
	return &sender{
		platform: platform, url: rawURL, redacted: redacted, secrets: secrets, cfg: cf,
		lim: newLimiter(cf.limits), sem: make(chan struct{}, 1), check: check,
	}
}

// lock takes the send slot, or fails when ctx ends first.
func (s *sender) lock(ctx context.Context) error {
	select {
	case s.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *sender) unlock() { <-s.sem }

// post sends one message, building its body anew for every attempt (the
// Feishu signature carries a timestamp).
// Retries follow the bot's retry policy (internal/retry): backoff from
// the configured base, a Retry-After honoured.
func (s *sender) post(ctx context.Context, body func() ([]byte, error)) error {
	attempts := 0
	var retryAfter time.Duration
	err := retry.Do(ctx, retry.Policy{Tries: s.cfg.attempts, Initial: s.cfg.backoff, Max: maxBackoff}, func(ctx context.Context) error {
		attempts++
		if err := s.lim.wait(ctx); err != nil {
			return err
		}
		b, err := body()
		if err != nil {
			return err
		}
		retryAfter, err = s.once(ctx, b)
		return err
	}, func(err error) retry.Verdict {
		return retry.Verdict{Retry: IsRetryable(err) && ctx.Err() == nil, After: retryAfter}
	})
	if err != nil && attempts > 1 {
		return fmt.Errorf("after %d attempts: %w", attempts, err)
	}
	return err
}

// once makes one HTTP attempt. It returns the server's Retry-After, if any.
func (s *sender) once(ctx context.Context, body []byte) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return 0, s.redactURLError(err)
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := s.cfg.client.Do(req)
	if err != nil {
		return 0, &transportError{s.redactURLError(err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return 0, &transportError{fmt.Errorf("read response (HTTP %d): %w", resp.StatusCode, s.redactURLError(err))}
	}
	if err := s.check(resp.StatusCode, resp.Header, data); err != nil {
		return retryAfter(resp.Header), err
	}
	return 0, nil
}

// redactURLError replaces the URL in a *url.Error with the redacted one.
func (s *sender) redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		c := *ue
		c.URL = s.redacted
		return &c
	}
	return err
}

// wrap names the webhook (redacted) and scrubs any secret from the text.
func (s *sender) wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	err = fmt.Errorf("%s webhook %s: %s: %w", s.platform, s.redacted, fmt.Sprintf(format, args...), err)
	return chat.Redact(err, func(msg string) string {
		for _, sec := range s.secrets {
			if len(sec) >= 4 {
				msg = strings.ReplaceAll(msg, sec, "***")
			}
		}
		return msg
	})
}

// retryAfter is a response's Retry-After, at most maxRetryAfter.
func retryAfter(h http.Header) time.Duration {
	return retry.ParseAfter(h.Get("Retry-After"), maxRetryAfter)
}

// snippet is the start of an unexpected response body, for an error.
func snippet(body []byte) string {
	s := strings.TrimSpace(string(body))
	if len(s) > errorSnippetBytes {
		cut := errorSnippetBytes
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// parseWebhookURL checks a webhook URL: http(s) with a host, and plain
// http only for a loopback host (test servers), since the URL carries the
// key. Errors never contain the URL itself.
func parseWebhookURL(platform, raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("%s webhook: the URL does not parse", platform)
	}
	if u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("%s webhook: the URL must be https://host/…", platform)
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return nil, fmt.Errorf("%s webhook: the URL must use https (plain http is allowed only for a loopback test server)", platform)
	}
	return u, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// redactURL keeps scheme, host and path, masks every query value and, when
// maskLast is set, the last path segment (the Feishu hook id).
func redactURL(u *url.URL, maskLast bool) string {
	path := u.EscapedPath()
	if maskLast {
		trimmed := strings.TrimRight(path, "/")
		if i := strings.LastIndex(trimmed, "/"); i >= 0 && i < len(trimmed)-1 {
			path = trimmed[:i+1] + "***"
		}
	}
	var b strings.Builder
	b.WriteString(u.Scheme)
	b.WriteString("://")
	b.WriteString(u.Host)
	b.WriteString(path)
	if u.RawQuery != "" {
		var keys []string
		for _, kv := range strings.Split(u.RawQuery, "&") {
			k, _, _ := strings.Cut(kv, "=")
			keys = append(keys, k+"=***")
		}
		b.WriteByte('?')
		b.WriteString(strings.Join(keys, "&"))
	}
	return b.String()
}

// marshal encodes JSON without HTML escaping, so that "<at …>" and "&"
// cost one byte each against the size limits.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// jsonCost is how many bytes s takes inside a JSON string.
func jsonCost(s string) int {
	b, err := marshal(s)
	if err != nil {
		return len(s) * 6
	}
	return len(b) - 2
}

// limiter allows at most n requests in any window of length per, for each
// of its rules, by keeping the times of the latest requests.
type limiter struct {
	mu    sync.Mutex
	rules []limit
	keep  int
	sent  []time.Time // ascending
}

func newLimiter(rules []limit) *limiter {
	l := &limiter{rules: rules}
	for _, r := range rules {
		l.keep = max(l.keep, r.n)
	}
	return l
}

// wait blocks until a request is allowed, then records it.
func (l *limiter) wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil || len(l.rules) == 0 {
		return err
	}
	for {
		l.mu.Lock()
		now := time.Now()
		var d time.Duration
		for _, r := range l.rules {
			if len(l.sent) >= r.n {
				if until := l.sent[len(l.sent)-r.n].Add(r.per).Sub(now); until > d {
					d = until
				}
			}
		}
		if d <= 0 {
			l.sent = append(l.sent, now)
			if len(l.sent) > l.keep {
				l.sent = append(l.sent[:0], l.sent[len(l.sent)-l.keep:]...)
			}
			l.mu.Unlock()
			return nil
		}
		l.mu.Unlock()
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("waiting for the rate limit: %w", ctx.Err())
		}
	}
}
