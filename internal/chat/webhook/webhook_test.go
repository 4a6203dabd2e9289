package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
)

// sendFunc is what both senders offer.
type sendFunc func(ctx context.Context, r chat.Reply) error

// both builds a Feishu and a WeCom sender against the same fake.
func both(t *testing.T, f *fake, opts ...Option) map[string]sendFunc {
	t.Helper()
	fb, err := NewFeishuBot(f.feishuURL(), testSecret, opts...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWeCom(f.wecomURL(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]sendFunc{"feishu": fb.Send, "wecom": w.Send}
}

// TestTimeout: an attempt that outlasts WithTimeout fails with a deadline
// error, is retried, and the error hides the key.
func TestTimeout(t *testing.T) {
	hang := func(_ int, w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	for name, send := range both(t, newFake(t, "", hang), append(fast(2), WithTimeout(50*time.Millisecond))...) {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			err := send(context.Background(), chat.Reply{Title: "x"})
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("not a deadline error: %v", err)
			}
			if !IsRetryable(err) || !strings.Contains(err.Error(), "giving up after 2 tries") {
				t.Errorf("timeout not retried: %v", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
			checkRedacted(t, err)
			if !strings.Contains(err.Error(), "***") {
				t.Errorf("redacted URL missing: %v", err)
			}
		})
	}
}

// TestRedactionTransportError: a connection error (whose text normally has
// the full URL) shows the redacted URL only.
func TestRedactionTransportError(t *testing.T) {
	f := newFake(t, "", nil)
	senders := both(t, f, fast(1)...)
	f.srv.Close()
	for name, send := range senders {
		t.Run(name, func(t *testing.T) {
			err := send(context.Background(), chat.Reply{Title: "x"})
			if err == nil {
				t.Fatal("no error")
			}
			checkRedacted(t, err)
			var ue *url.Error
			if !errors.As(err, &ue) {
				t.Fatalf("no *url.Error inside: %v", err)
			}
			if strings.Contains(ue.URL, "SECRET") {
				t.Errorf("wrapped url.Error keeps the key: %s", ue.URL)
			}
			if !IsRetryable(err) {
				t.Errorf("connection error not retryable")
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	for _, tc := range []struct {
		raw      string
		maskLast bool
		want     string
	}{
		{"https://open.feishu.cn/open-apis/bot/v2/hook/abc-123", true, "https://open.feishu.cn/open-apis/bot/v2/hook/***"},
		{"https://open.feishu.cn/open-apis/bot/v2/hook/abc-123/", true, "https://open.feishu.cn/open-apis/bot/v2/hook/***"},
		{"https://user:pw@qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abc&debug=1#frag", false, "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=***&debug=***"},
	} {
		u, _ := url.Parse(tc.raw)
		if got := redactURL(u, tc.maskLast); got != tc.want {
			t.Errorf("redactURL(%s) = %s, want %s", tc.raw, got, tc.want)
		}
	}
	fb, _ := NewFeishuBot("https://open.feishu.cn/open-apis/bot/v2/hook/"+testHook, "")
	w, _ := NewWeCom("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=" + testKey)
	for _, s := range []fmt.Stringer{fb, w} {
		if strings.Contains(s.String(), "SECRET") || !strings.Contains(s.String(), "***") {
			t.Errorf("String() = %s", s)
		}
	}
}

// TestRetryAfter: a 429's Retry-After is waited out.
func TestRetryAfter(t *testing.T) {
	f := newFake(t, "", sequence(func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "1")
		status(429, "")(w)
	}, status(200, wecomOK)))
	w, _ := NewWeCom(f.wecomURL(), fast(2)...)
	if err := w.Send(context.Background(), chat.Reply{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	gap := f.times[1].Sub(f.times[0])
	f.mu.Unlock()
	if gap < 900*time.Millisecond {
		t.Errorf("retried after %v, Retry-After was 1 s", gap)
	}
}

// TestCancelDuringBackoff: cancelling the context stops a retry wait.
func TestCancelDuringBackoff(t *testing.T) {
	f := newFake(t, "", sequence(status(503, "")))
	w, _ := NewWeCom(f.wecomURL(), WithRetry(5, 10*time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := w.Send(ctx, chat.Reply{Title: "x"})
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if f.count() != 1 {
		t.Errorf("%d requests", f.count())
	}
}

// TestRateLimit: with 2 per 300 ms, the third request waits.
func TestRateLimit(t *testing.T) {
	f := newFake(t, feishuOK, nil)
	b, _ := NewFeishuBot(f.feishuURL(), "", WithRateLimit(2, 300*time.Millisecond))
	for i := range 3 {
		if err := b.Send(context.Background(), chat.Reply{Title: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if gap := f.times[2].Sub(f.times[0]); gap < 280*time.Millisecond {
		t.Errorf("third request %v after the first", gap)
	}
	if gap := f.times[1].Sub(f.times[0]); gap > 200*time.Millisecond {
		t.Errorf("second request waited %v", gap)
	}
}

func TestLimiterRules(t *testing.T) {
	l := newLimiter([]limit{{3, 200 * time.Millisecond}, {4, time.Second}})
	ctx := context.Background()
	start := time.Now()
	var at []time.Duration
	for range 5 {
		if err := l.Wait(ctx, ""); err != nil {
			t.Fatal(err)
		}
		at = append(at, time.Since(start))
	}
	if at[2] > 100*time.Millisecond || at[3] < 190*time.Millisecond || at[4] < 990*time.Millisecond {
		t.Errorf("admission times %v", at)
	}
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := l.Wait(ctx, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled wait: %v", err)
	}
}

// TestConcurrentSends: parallel Sends are serialised, each reply's parts
// contiguous.
func TestConcurrentSends(t *testing.T) {
	f := newFake(t, wecomOK, nil)
	w, _ := NewWeCom(f.wecomURL(), WithRateLimit(0, 0))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			var lines []string
			for i := range 200 {
				lines = append(lines, fmt.Sprintf("reply-%d line %03d ..........", g, i))
			}
			if err := w.Send(context.Background(), chat.Reply{Lines: lines}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var seq []string
	for i := range f.count() {
		var req wecomReq
		f.decode(i, &req)
		seq = append(seq, req.Text.Content[:len("reply-0")])
	}
	seen := map[string]bool{}
	for i, s := range seq {
		if i > 0 && s != seq[i-1] && seen[s] {
			t.Fatalf("parts interleaved: %v", seq)
		}
		seen[s] = true
	}
}

func TestEmptyReplySendsNothing(t *testing.T) {
	f := newFake(t, feishuOK, nil)
	for name, send := range both(t, f) {
		if err := send(context.Background(), chat.Reply{Mentions: []string{"x"}}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if f.count() != 0 {
		t.Errorf("%d requests", f.count())
	}
}

func TestJSONCost(t *testing.T) {
	for s, want := range map[string]int{"ab": 2, `"`: 2, "\n": 2, "中": 3, "<at>": 4, "\x01": 6, "\u2028": 6} {
		if got := jsonCost(s); got != want {
			t.Errorf("jsonCost(%q) = %d, want %d", s, got, want)
		}
	}
}
