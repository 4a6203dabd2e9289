package webhook

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	testHook   = "3f8b1c2e-hook-SECRET-0001"
	testKey    = "693a91f6-7xxx-KEY-SECRET-0002"
	testSecret = "sign-SECRET-0003"
)

// fake is a webhook server on loopback that records every request.
type fake struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
	times  []time.Time
	// answer writes the response to request n (1-based); nil answers ok.
	answer func(n int, w http.ResponseWriter, r *http.Request)
	ok     string
}

func newFake(t *testing.T, ok string, answer func(n int, w http.ResponseWriter, r *http.Request)) *fake {
	t.Helper()
	f := &fake{t: t, answer: answer, ok: ok}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			t.Errorf("request %s with Content-Type %q", r.Method, r.Header.Get("Content-Type"))
		}
		if !json.Valid(body) {
			t.Errorf("body is not valid JSON: %s", body)
		}
		f.mu.Lock()
		f.bodies = append(f.bodies, body)
		f.times = append(f.times, time.Now())
		n := len(f.bodies)
		f.mu.Unlock()
		if f.answer != nil {
			f.answer(n, w, r)
			return
		}
		io.WriteString(w, f.ok)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) feishuURL() string { return f.srv.URL + "/open-apis/bot/v2/hook/" + testHook }
func (f *fake) wecomURL() string  { return f.srv.URL + "/cgi-bin/webhook/send?key=" + testKey }

func (f *fake) requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.bodies...)
}

func (f *fake) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

// decode unmarshals request i into v.
func (f *fake) decode(i int, v any) {
	f.t.Helper()
	reqs := f.requests()
	if i >= len(reqs) {
		f.t.Fatalf("request %d not received (%d in all)", i, len(reqs))
	}
	if err := json.Unmarshal(reqs[i], v); err != nil {
		f.t.Fatalf("request %d: %v: %s", i, err, reqs[i])
	}
}

// status answers with an HTTP status and a body.
func status(code int, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// sequence answers request n with steps[n-1], and with the last step after.
func sequence(steps ...func(w http.ResponseWriter)) func(int, http.ResponseWriter, *http.Request) {
	return func(n int, w http.ResponseWriter, _ *http.Request) {
		steps[min(n, len(steps))-1](w)
	}
}

// fast is for tests that retry: no waiting, no rate limit.
func fast(attempts int) []Option {
	return []Option{WithRetry(attempts, time.Millisecond), WithRateLimit(0, 0)}
}

const (
	feishuOK = `{"StatusCode":0,"StatusMessage":"success","code":0,"data":{},"msg":"success"}`
	wecomOK  = `{"errcode":0,"errmsg":"ok"}`
)
