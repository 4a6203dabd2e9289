package app_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/config"
)

// stampedWriter records when it was first written to.
type stampedWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first time.Time
}

func (w *stampedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.first.IsZero() {
		w.first = time.Now()
	}
	return w.buf.Write(p)
}

func (w *stampedWriter) text() (string, time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String(), w.first
}

// slowVast is a vast.ai API on loopback that answers the recorded bundles
// after delay.
func slowVast(t *testing.T, delay time.Duration) string {
	needShared(t, fixtures)
	body, err := os.ReadFile(filepath.Join(fixtures, "vastai-bundles.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func slowApp(t *testing.T, delay time.Duration) *app.App {
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	on := true
	cfg.Stock.Providers.Of("vastai").Enabled = &on
	cfg.Stock.Providers.Of("vastai").BaseURL = slowVast(t, delay)
	// The answer waits for the slow platform (within the budget).
	cfg.Stock.AnswerBudget = config.Dur(delay + 10*time.Second)
	a := openApp(t, cfg)
	t.Cleanup(func() { a.Close() })
	return a
}

// TestSlowProviderInterim: while a live provider takes 2 s, `bot ask`
// says "查询中…" within a second, then answers with the live figure.
func TestSlowProviderInterim(t *testing.T) {
	a := slowApp(t, 2*time.Second)
	var interim, out stampedWriter
	start := time.Now()
	if err := a.AskIn(context.Background(), "console", "console", "哪家有4090", app.FormatText, &out, app.InterimTo(&interim)); err != nil {
		t.Fatal(err)
	}
	said, at := interim.text()
	answer, answered := out.text()
	if !strings.Contains(said, "查询中") || at.IsZero() || at.Sub(start) > time.Second {
		t.Fatalf("no interim within 1 s (after %v): %q", at.Sub(start), said)
	}
	if !answered.After(at) || !strings.Contains(answer, "vast.ai") || !strings.Contains(answer, "实时") {
		t.Errorf("the answer did not follow with live vast.ai offers:\n%s", answer)
	}
}

// TestPollProgress: `poll --once` reports each provider as it finishes,
// the fast ones before the slow one.
func TestPollProgress(t *testing.T) {
	a := slowApp(t, 500*time.Millisecond)
	var progress, out stampedWriter
	if err := a.PollOnce(context.Background(), app.FormatText, &out, app.ProgressTo(&progress)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(func() string { s, _ := progress.text(); return s }()), "\n")
	if len(lines) < 2 || !strings.Contains(lines[len(lines)-1], "vastai: ok") || !strings.HasPrefix(lines[0], "[1/") {
		t.Fatalf("progress lines %q: want one per provider, vastai (slow) last", lines)
	}
	if _, first := out.text(); first.IsZero() {
		t.Fatal("no table printed")
	}
}
