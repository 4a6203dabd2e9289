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
	"crypto/sha256"
	"encoding/hex"
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
	chartPNG  func(c *chat.BarChart) ([]byte, error)
	delivered chat.DeliveryLog
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

// WithChartPNG draws a reply's chart (chat.Reply.Chart) as a PNG, which
// the WeCom robot sends as an image message after the reply's text (the
// text keeps the chart as text bars, so a failed image loses nothing and
// does not fail the send). Without it WeCom sends no image. The Feishu
// custom bot does not use it: it sends the chart as a card chart element.
func WithChartPNG(f func(c *chat.BarChart) ([]byte, error)) Option {
	return func(cf *config) { cf.chartPNG = f }
}

// WithDeliveryLog keeps the parts a keyed send delivered in log (the
// bot's store), so that the same send repeated after a restart or by
// another replica skips them: the platforms have no idempotency keys of
// their own. Each webhook is its own scope there, named by a hash of its
// URL (never the URL, which is a secret).
func WithDeliveryLog(log chat.DeliveryLog) Option {
	return func(cf *config) { cf.delivered = log }
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
	// RetryAfter is the answer's Retry-After (at most a minute); 0 when
	// it gave none.
	RetryAfter time.Duration
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

// sender is what FeishuBot and WeCom share: the HTTP post with its
// timeout and answer check, and the chat.Outbox every send goes through
// (rate limit, retries, one reply at a time, redaction).
type sender struct {
	platform string
	url      string // the full webhook URL: a secret
	redacted string
	secrets  []string
	cfg      config
	out      *chat.Outbox
	// check classifies a response: nil for success.
	check func(status int, header http.Header, body []byte) error
}

// newSender returns the sender of one webhook; w renders its replies.
func newSender(platform, rawURL, redacted string, secrets []string, cf config, check func(int, http.Header, []byte) error, w parts) *sender {
	s := &sender{platform: platform, url: rawURL, redacted: redacted, secrets: secrets, cfg: cf, check: check}
	s.out = chat.NewOutbox("webhook", wire{s, w}, chat.OutboxOptions{
		Retry:     retry.Policy{Tries: cf.attempts, Initial: cf.backoff, Max: maxBackoff},
		Limit:     newLimiter(cf.limits),
		Clean:     s.clean,
		Describe:  func(string) string { return platform + " webhook " + redacted },
		Delivered: cf.delivered, Scope: "webhook/" + urlScope(rawURL),
	})
	return s
}

// urlScope names a webhook in the delivery log: the first 16 bytes of
// its URL's SHA-256, in hex.
func urlScope(rawURL string) string {
	sum := sha256.Sum256([]byte(rawURL))
	return hex.EncodeToString(sum[:16])
}

// parts is how a webhook renders a reply: FeishuBot and WeCom.
type parts interface {
	parts(r chat.Reply) []chat.Part
}

// wire is a webhook's chat.Wire: its parts are request bodies, built anew
// for every attempt (the Feishu signature carries a timestamp).
type wire struct {
	s *sender
	r parts
}

// Parts renders r as the webhook's readers get it: without what asks
// them to write to the bot (PushOnly).
func (w wire) Parts(_ context.Context, _ string, r chat.Reply, _ chat.SendOptions) ([]chat.Part, error) {
	return w.r.parts(PushOnly(r)), nil
}

func (w wire) Post(ctx context.Context, _ string, p chat.Part, _ chat.PostOptions) error {
	body, err := p.Payload.(func() ([]byte, error))()
	if err != nil {
		return err
	}
	return w.s.once(ctx, body)
}

// Retry: rate limits, 429, 5xx and network errors are retried, after the
// answer's Retry-After when it gave one.
func (w wire) Retry(err error) retry.Verdict {
	v := retry.Verdict{Retry: IsRetryable(err)}
	var ae *APIError
	if errors.As(err, &ae) {
		v.After = ae.RetryAfter
	}
	return v
}

// Fallback: a card refused for its content goes again as text.
func (w wire) Fallback(_ context.Context, _ string, r chat.Reply, _ chat.SendOptions, err error) ([]chat.Part, bool) {
	fb, ok := w.r.(interface {
		fallback(r chat.Reply, err error) ([]chat.Part, bool)
	})
	if !ok {
		return nil, false
	}
	return fb.fallback(PushOnly(r), err)
}

// once makes one HTTP attempt; an error answer carries the server's
// Retry-After.
func (s *sender) once(ctx context.Context, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return s.redactURLError(err)
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := s.cfg.client.Do(req)
	if err != nil {
		return &transportError{s.redactURLError(err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return &transportError{fmt.Errorf("read response (HTTP %d): %w", resp.StatusCode, s.redactURLError(err))}
	}
	err = s.check(resp.StatusCode, resp.Header, data)
	var ae *APIError
	if errors.As(err, &ae) {
		ae.RetryAfter = retryAfter(resp.Header)
	}
	return err
}

// bodyPart is a part whose request body is built by body at each attempt.
func bodyPart(kind string, body func() ([]byte, error)) chat.Part {
	return chat.Part{Kind: kind, Payload: body}
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

// clean scrubs the webhook's secrets from an error's text.
func (s *sender) clean(msg string) string {
	for _, sec := range s.secrets {
		if len(sec) >= 4 {
			msg = strings.ReplaceAll(msg, sec, "***")
		}
	}
	return msg
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

// Wait blocks until a request is allowed, then records it (chat.Waiter;
// the key is not used: one limiter serves one webhook).
func (l *limiter) Wait(ctx context.Context, _ string) error {
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
