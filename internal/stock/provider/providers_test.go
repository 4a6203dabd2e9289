package provider_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
)

// Shared test machinery for the GPUShare, Matpool, RunPod and Lambda
// providers, which all send GET requests with a query and extra headers.

// seenReq is one request a recServer received.
type seenReq struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
}

// recServer answers with respond and records method, path, query and
// headers of every request.
type recServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seenReq
}

func newRecServer(t *testing.T, respond func(w http.ResponseWriter, r *http.Request)) *recServer {
	t.Helper()
	s := &recServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, seenReq{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone()})
		s.mu.Unlock()
		respond(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *recServer) requests() []seenReq {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seenReq(nil), s.reqs...)
}

// respondBytes answers with a status and a JSON body.
func respondBytes(status int, body []byte) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
}

// respondRetry answers 429 with a Retry-After header.
func respondRetry(retryAfter string, contentType string, body []byte) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", retryAfter)
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write(body)
	}
}

// errCase is one failing answer and what the error must say.
type errCase struct {
	name    string
	respond func(http.ResponseWriter, *http.Request)
	hang    bool
	kind    error         // error kind (errors.Is), nil for none
	want    []string      // substrings of the message
	retry   time.Duration // APIError.RetryAfter, when > 0
	status  int           // APIError.StatusCode, when > 0
}

// commonErrCases are the failures every HTTP provider must word: 401,
// 429 with Retry-After, 500, malformed JSON, an HTML page and a server
// hanging past the timeout (the fetchers use 150ms).
func commonErrCases(platform, path string) []errCase {
	return []errCase{
		{name: "HTTP 401", respond: respondBytes(401, []byte(`{"msg":"unauthorized"}`)), kind: stock.ErrUnauthorized,
			want: []string{platform + ": ", "HTTP 401", path}, status: 401},
		{name: "HTTP 429 with Retry-After", respond: respondRetry("7", "", []byte(`slow down`)), kind: stock.ErrRateLimited,
			want: []string{platform + ": rate limited", "HTTP 429", "retry after 7s"}, retry: 7 * time.Second, status: 429},
		{name: "HTTP 500", respond: respondBytes(500, []byte("internal error\n")), kind: stock.ErrServer,
			want: []string{platform + ": server error", "HTTP 500", "internal error"}, status: 500},
		{name: "HTTP 502 HTML", respond: respondBytes(502, []byte("<html>bad gateway</html>")), kind: stock.ErrServer,
			want: []string{platform + ": server error", "HTTP 502"}},
		{name: "malformed JSON", respond: respondBytes(200, []byte(`{"data":{"list":[`)), kind: stock.ErrBadResponse,
			want: []string{platform + ": malformed JSON"}},
		{name: "HTML page in 200", respond: respondBytes(200, []byte("<html>login</html>")), kind: stock.ErrBadResponse,
			want: []string{platform + ": malformed JSON"}},
		{name: "hangs past the timeout", hang: true, want: []string{platform + ": GET " + path, "timed out after 150ms"}},
	}
}

// runErrCases runs fetch against each case's server and checks the error.
func runErrCases(t *testing.T, cases []errCase, fetch func(t *testing.T, url string) ([]stock.Offer, error)) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			var u string
			if tt.hang {
				u = hangingServer(t).URL
			} else {
				u = newRecServer(t, tt.respond).URL
			}
			start := time.Now()
			got, err := fetch(t, u)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Fetch took %v", d)
			}
			if err == nil {
				t.Fatalf("no error; offers %+v", got)
			}
			if got != nil {
				t.Errorf("offers with an error: %+v", got)
			}
			for _, s := range tt.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Errorf("error %q is not %v", err, tt.kind)
			}
			if tt.hang && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("timeout error %q is not context.DeadlineExceeded", err)
			}
			if tt.retry > 0 || tt.status > 0 {
				var ae *provider.APIError
				if !errors.As(err, &ae) {
					t.Fatalf("error %q is not an *APIError", err)
				}
				if tt.retry > 0 && ae.RetryAfter != tt.retry {
					t.Errorf("RetryAfter %v, want %v", ae.RetryAfter, tt.retry)
				}
				if tt.status > 0 && ae.StatusCode != tt.status {
					t.Errorf("StatusCode %d, want %d", ae.StatusCode, tt.status)
				}
			}
		})
	}
}

// noRequestServer fails the test on any request: a provider without
// credentials must not call out.
func noRequestServer(t *testing.T) string {
	t.Helper()
	return newRecServer(t, func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request %s %s sent without credentials", r.Method, r.URL)
		w.WriteHeader(500)
	}).URL
}

// checkNotConfigured asserts a missing-credentials error: ErrNotConfigured,
// naming the provider and the environment variables, and never read as a
// sold-out answer.
func checkNotConfigured(t *testing.T, got []stock.Offer, err error, platform string, env ...string) {
	t.Helper()
	if !errors.Is(err, stock.ErrNotConfigured) {
		t.Fatalf("err %v, want ErrNotConfigured", err)
	}
	if got != nil {
		t.Errorf("offers without credentials: %+v", got)
	}
	if !strings.HasPrefix(err.Error(), platform+": ") {
		t.Errorf("error %q does not start with %q", err, platform)
	}
	for _, e := range env {
		if !strings.Contains(err.Error(), e) {
			t.Errorf("error %q does not name %s", err, e)
		}
	}
	for _, k := range []error{stock.ErrUnauthorized, stock.ErrBadResponse, stock.ErrServer} {
		if errors.Is(err, k) {
			t.Errorf("error %q is also %v", err, k)
		}
	}
}

// checkGET asserts the method, path, bearer token and User-Agent.
func checkGET(t *testing.T, r seenReq, path, auth string) {
	t.Helper()
	if r.Method != http.MethodGet || r.Path != path {
		t.Errorf("request %s %s, want GET %s", r.Method, r.Path, path)
	}
	if got := r.Header.Get("Authorization"); got != auth {
		t.Errorf("Authorization %q, want %q", got, auth)
	}
	if ua := r.Header.Get("User-Agent"); ua != "labgpu-bot" {
		t.Errorf("User-Agent %q", ua)
	}
}

// checkQuery asserts query parameters (each with all its values, in order).
func checkQuery(t *testing.T, q url.Values, want url.Values) {
	t.Helper()
	for k, vs := range want {
		got, ok := q[k]
		if !ok {
			t.Errorf("query lacks %s (query %v)", k, q)
			continue
		}
		if strings.Join(got, "|") != strings.Join(vs, "|") {
			t.Errorf("query %s = %q, want %q", k, got, vs)
		}
	}
}
