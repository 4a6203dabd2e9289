package feishu

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/i18n"
)

// Readiness is recorded, never probed: /readyz asks Ready, which reads
// what the token fetches and the callback last saw and calls nobody.

// refusingAfter is how long the callback may refuse every verified event
// (answering 503, for Feishu to retry) before the bot reports itself not
// ready; refusingMin is how many refusals that takes at least.
const (
	refusingAfter = 30 * time.Second
	refusingMin   = 3
)

// intake records the callback's verified events: when one was last
// accepted, and the refusals since (503: queue full, shutting down, the
// claim store failing, bot info missing). Events that fail verification
// are not counted: nobody can make the bot unready by posting garbage.
type intake struct {
	mu          sync.Mutex
	refused     int
	firstRefuse time.Time
	lastReason  string
}

func (in *intake) accepted() {
	in.mu.Lock()
	in.refused, in.firstRefuse, in.lastReason = 0, time.Time{}, ""
	in.mu.Unlock()
}

func (in *intake) refuse(now time.Time, reason string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.refused == 0 {
		in.firstRefuse = now
	}
	in.refused++
	in.lastReason = reason
}

// state is an error when every verified event has been refused for
// refusingAfter (at least refusingMin of them).
func (in *intake) state(now time.Time) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.refused >= refusingMin && now.Sub(in.firstRefuse) >= refusingAfter {
		return fmt.Errorf("refusing every event for %s (%d, last: %s)", now.Sub(in.firstRefuse).Round(time.Second), in.refused, in.lastReason)
	}
	return nil
}

// tokenState is the outcome of the last tenant_access_token fetch.
type tokenState struct {
	err     error
	expires time.Time // of the token held, zero without one
}

// tokenHealth is an error when the last token fetch failed and no
// unexpired token is held.
func (b *Bot) tokenHealth(now time.Time) error {
	st := b.tokState.Load()
	if st == nil || st.err == nil {
		return nil
	}
	if !st.expires.IsZero() && now.Before(st.expires) {
		return nil
	}
	return errors.Join(errors.New("no tenant_access_token"), st.err)
}

// wsState is the long connection's state. The SDK (v3.5.4) exposes none,
// so it is read from what the SDK logs (wsLogger): connected when it says
// "connected to", down when it says a connect failed or the connection
// ended, and failed for good when Start gives up.
type wsState struct {
	mu      sync.Mutex
	started bool
	up      bool
	since   time.Time
	err     string
	final   bool // Start returned: no more tries
}

func (s *wsState) set(now time.Time, up bool, err string, final bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.final {
		return
	}
	if s.up != up || !s.started {
		s.since = now
	}
	s.started, s.up, s.err, s.final = true, up, err, final
}

// state is nil once connected, else why not, with the likely cause.
func (s *wsState) state(now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.up:
		return nil
	case !s.started:
		return errors.New("the long connection is not connected yet")
	case s.final:
		return fmt.Errorf("the long connection gave up: %s; likely cause: %s", s.err, wsCause(s.err))
	}
	return fmt.Errorf("the long connection is down for %s: %s; likely cause: %s (the SDK retries every few minutes)",
		now.Sub(s.since).Round(time.Second), s.err, wsCause(s.err))
}

// wsCause is the likely cause of a long connection's failure, from the
// SDK's words.
func wsCause(err string) string {
	key := "ops.ws_cause.network"
	switch {
	case strings.Contains(err, "endpoint is null"), strings.Contains(err, "system busy"):
		key = "ops.ws_cause.no_endpoint"
	case strings.Contains(err, "disconnected"), strings.Contains(err, "receive message failed"), strings.Contains(err, "connection is closed"):
		key = "ops.ws_cause.dropped"
	case feishuCode(err):
		key = "ops.ws_cause.refused"
	}
	return i18n.EN.T(key)
}

// feishuCode reports an SDK client error, "<code>: <msg>" with a code
// of Feishu's (a refusal of the app, not of the network).
func feishuCode(err string) bool {
	code, _, ok := strings.Cut(err, ": ")
	if !ok || len(code) < 5 {
		return false
	}
	for _, c := range code {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// wsLogger is the long connection's logger: it reads the connection's
// state from the SDK's lines (wsState), logs a line of its own when the
// connection comes up or goes down, and never logs the connection URL,
// which carries a ticket (the SDK logs it at Info whatever level is
// set, once a logger of our own is given).
type wsLogger struct {
	l   *slog.Logger
	st  *wsState
	now func() time.Time
}

func (w wsLogger) Debug(ctx context.Context, args ...any) { w.l.DebugContext(ctx, fmt.Sprint(args...)) }

func (w wsLogger) Info(ctx context.Context, args ...any) {
	msg := fmt.Sprint(args...)
	switch {
	case strings.HasPrefix(msg, "connected to "):
		w.st.set(w.now(), true, "", false)
		w.l.InfoContext(ctx, "feishu: long connection up")
	case strings.HasPrefix(msg, "disconnected to "):
		w.st.set(w.now(), false, "disconnected", false)
		w.l.WarnContext(ctx, "feishu: long connection down; the SDK reconnects")
	default:
		w.l.DebugContext(ctx, msg)
	}
}

func (w wsLogger) Warn(ctx context.Context, args ...any) { w.l.WarnContext(ctx, fmt.Sprint(args...)) }

func (w wsLogger) Error(ctx context.Context, args ...any) {
	msg := fmt.Sprint(args...)
	if i := strings.Index(msg, "[conn_id="); i >= 0 {
		msg = msg[:i]
	}
	switch {
	case strings.HasPrefix(msg, "connect failed, err: "):
		err := strings.TrimPrefix(msg, "connect failed, err: ")
		w.st.set(w.now(), false, err, false)
		w.l.WarnContext(ctx, "feishu: long connection failed; likely cause: "+wsCause(err), "err", err)
		return
	case strings.HasPrefix(msg, "receive message failed"), strings.HasPrefix(msg, "connection is closed"):
		w.st.set(w.now(), false, msg, false)
	}
	w.l.WarnContext(ctx, msg)
}
