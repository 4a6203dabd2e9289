package answer

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// StoreError is the answer of a command whose store call failed: when
// the store cannot be reached (Redis down or stalled) it says so plainly
// and that the rest still works; other failures keep a short cause.
func StoreError(en bool, err error) render.StoreError {
	if storeUnreachable(err) {
		return render.StoreError{Lang: i18n.Of(en), Unreachable: true}
	}
	return render.StoreError{Lang: i18n.Of(en), Cause: shortErr(err.Error())}
}

// storeUnreachable reports an error of a store that did not answer: a
// timeout, a refused or reset connection, a closed pool.
func storeUnreachable(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "connection refused") || strings.Contains(s, "i/o timeout") || strings.Contains(s, "client is closed") ||
		strings.Contains(s, "connection pool timeout")
}

// shortErr is an error's text cut to 80 runes.
func shortErr(s string) string {
	if len([]rune(s)) > 80 {
		return string([]rune(s)[:80]) + "…"
	}
	return s
}
