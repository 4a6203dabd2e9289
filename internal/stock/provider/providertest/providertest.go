// Package providertest holds what the stock providers' tests share: the
// Recorded fixtures (testdata/stock and testdata/stock-verbatim), the
// catalog, fake servers that record requests, the error cases every HTTP
// provider must word, fuzz seeding and offer sanity checks. Only tests
// import it.
package providertest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/fixture"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// The recorded fixtures, in the repository's testdata/ folder.
var (
	FixturesDir = fixture.Dir(fixture.Stock)
	VerbatimDir = fixture.Dir(fixture.StockVerbatim)
)

// FX is the USD→CNY rate the tests pass to the providers.
const FX = 7.1

var FixedNow = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

func Now() time.Time { return FixedNow }

var (
	catOnce sync.Once
	cat     *catalog.Catalog
	catErr  error
)

func LoadCatalog(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	catOnce.Do(func() { cat, catErr = catalog.Load(configs.FS) })
	if catErr != nil {
		tb.Fatalf("catalog.Load: %v", catErr)
	}
	return cat
}

func Fixture(tb testing.TB, dir, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		tb.Fatalf("read fixture: %v", err)
	}
	return b
}

// FixtureFiles lists the *.json files of dir whose names start with one of
// the prefixes.
func FixtureFiles(tb testing.TB, dir string, prefixes ...string) []string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatalf("read %s: %v", dir, err)
	}
	var out []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		for _, p := range prefixes {
			if strings.HasPrefix(e.Name(), p) {
				out = append(out, e.Name())
				break
			}
		}
	}
	return out
}

// Recorded is one request a fake server received.
type Recorded struct {
	Method string
	Path   string
	Auth   string
	UA     string
	CT     string
	Body   map[string]any
}

// FakeServer answers every request with respond and records the requests.
type FakeServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []Recorded
}

func NewFakeServer(t *testing.T, respond func(w http.ResponseWriter, r *http.Request, body map[string]any)) *FakeServer {
	t.Helper()
	fs := &FakeServer{}
	fs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if len(b) > 0 {
			if err := json.Unmarshal(b, &body); err != nil {
				t.Errorf("request body is not a JSON object: %v: %s", err, b)
			}
		}
		fs.mu.Lock()
		fs.reqs = append(fs.reqs, Recorded{
			Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"),
			UA: r.Header.Get("User-Agent"), CT: r.Header.Get("Content-Type"), Body: body,
		})
		fs.mu.Unlock()
		respond(w, r, body)
	}))
	t.Cleanup(fs.Close)
	return fs
}

func (fs *FakeServer) Requests() []Recorded {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]Recorded(nil), fs.reqs...)
}

// ServeBytes answers with a status and body.
func ServeBytes(status int, body []byte) func(http.ResponseWriter, *http.Request, map[string]any) {
	return func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
}

// HangingServer never answers until the request is cancelled.
func HangingServer(t *testing.T) *FakeServer {
	release := make(chan struct{})
	fs := NewFakeServer(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) }) // runs before fs.Close
	return fs
}

func IntP(p *int) string {
	if p == nil {
		return "nil"
	}
	b, _ := json.Marshal(*p)
	return string(b)
}

func Approx(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Find returns the offers matching pred.
func Find(offers []stock.Offer, pred func(stock.Offer) bool) []stock.Offer {
	var out []stock.Offer
	for _, o := range offers {
		if pred(o) {
			out = append(out, o)
		}
	}
	return out
}

// CheckOfferSane asserts invariants every offer must satisfy.
func CheckOfferSane(tb testing.TB, o stock.Offer) {
	tb.Helper()
	if o.Platform == "" || o.GPU == "" {
		tb.Errorf("offer without platform or GPU: %+v", o)
	}
	if o.GPUsPerInstance < 1 {
		tb.Errorf("GPUsPerInstance %d < 1: %+v", o.GPUsPerInstance, o)
	}
	for _, f := range []float64{o.CNYPerGPUHour, o.OriginalPrice, o.PriceHigh} {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			tb.Errorf("bad price %v: %+v", f, o)
		}
	}
	if o.Free != nil && *o.Free < 0 || o.Total != nil && *o.Total < 0 {
		tb.Errorf("negative count: %+v", o)
	}
	if o.Currency != "CNY" && o.Currency != "USD" {
		tb.Errorf("currency %q: %+v", o.Currency, o)
	}
}

// HTTP is o for a provider under test: BaseURL u and the fixed clock
// Now; o's Timeout and HTTPClient are kept.
func HTTP(u string, o httpx.Options) httpx.Options {
	o.BaseURL, o.Now = u, Now
	return o
}

// Short is the options of a provider fetching with the 150ms timeout the
// error cases expect.
var Short = httpx.Options{Timeout: 150 * time.Millisecond}

func FetchCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Test machinery for the GPUShare, Matpool, RunPod and Lambda providers,
// which all send GET requests with a query and extra headers.

// SeenReq is one request a recServer received.
type SeenReq struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
}

// RecServer answers with respond and records method, path, query and
// headers of every request.
type RecServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []SeenReq
}

func NewRecServer(t *testing.T, respond func(w http.ResponseWriter, r *http.Request)) *RecServer {
	t.Helper()
	s := &RecServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, SeenReq{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone()})
		s.mu.Unlock()
		respond(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *RecServer) Requests() []SeenReq {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SeenReq(nil), s.reqs...)
}

// RespondBytes answers with a status and a JSON body.
func RespondBytes(status int, body []byte) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
}

// RespondRetry answers 429 with a Retry-After header.
func RespondRetry(retryAfter string, contentType string, body []byte) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", retryAfter)
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write(body)
	}
}

// ErrCase is one failing answer and what the error must say.
type ErrCase struct {
	Name    string
	Respond func(http.ResponseWriter, *http.Request)
	Hang    bool
	Kind    error         // error kind (errors.Is), nil for none
	Want    []string      // substrings of the message
	Retry   time.Duration // APIError.RetryAfter, when > 0
	Status  int           // APIError.StatusCode, when > 0
}

// CommonErrCases are the failures every HTTP provider must word: 401,
// 429 with Retry-After, 500, malformed JSON, an HTML page and a server
// hanging past the timeout (the fetchers use 150ms).
func CommonErrCases(platform, path string) []ErrCase {
	return []ErrCase{
		{Name: "HTTP 401", Respond: RespondBytes(401, []byte(`{"msg":"unauthorized"}`)), Kind: stock.ErrUnauthorized,
			Want: []string{platform + ": ", "HTTP 401", path}, Status: 401},
		{Name: "HTTP 429 with Retry-After", Respond: RespondRetry("7", "", []byte(`slow down`)), Kind: stock.ErrRateLimited,
			Want: []string{platform + ": rate limited", "HTTP 429", "retry after 7s"}, Retry: 7 * time.Second, Status: 429},
		{Name: "HTTP 500", Respond: RespondBytes(500, []byte("internal error\n")), Kind: stock.ErrServer,
			Want: []string{platform + ": server error", "HTTP 500", "internal error"}, Status: 500},
		{Name: "HTTP 502 HTML", Respond: RespondBytes(502, []byte("<html>bad gateway</html>")), Kind: stock.ErrServer,
			Want: []string{platform + ": server error", "HTTP 502"}},
		{Name: "malformed JSON", Respond: RespondBytes(200, []byte(`{"data":{"list":[`)), Kind: stock.ErrBadResponse,
			Want: []string{platform + ": malformed JSON"}},
		{Name: "HTML page in 200", Respond: RespondBytes(200, []byte("<html>login</html>")), Kind: stock.ErrBadResponse,
			Want: []string{platform + ": malformed JSON"}},
		{Name: "hangs past the timeout", Hang: true, Want: []string{platform + ": GET " + path, "timed out after 150ms"}},
	}
}

// RunErrCases runs fetch against each case's server and checks the error.
func RunErrCases(t *testing.T, cases []ErrCase, fetch func(t *testing.T, url string) ([]stock.Offer, error)) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			var u string
			if tt.Hang {
				u = HangingServer(t).URL
			} else {
				u = NewRecServer(t, tt.Respond).URL
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
			for _, s := range tt.Want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if tt.Kind != nil && !errors.Is(err, tt.Kind) {
				t.Errorf("error %q is not %v", err, tt.Kind)
			}
			if tt.Hang && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("timeout error %q is not context.DeadlineExceeded", err)
			}
			if tt.Retry > 0 || tt.Status > 0 {
				var ae *httpx.APIError
				if !errors.As(err, &ae) {
					t.Fatalf("error %q is not an *APIError", err)
				}
				if tt.Retry > 0 && ae.RetryAfter != tt.Retry {
					t.Errorf("RetryAfter %v, want %v", ae.RetryAfter, tt.Retry)
				}
				if tt.Status > 0 && ae.StatusCode != tt.Status {
					t.Errorf("StatusCode %d, want %d", ae.StatusCode, tt.Status)
				}
			}
		})
	}
}

// NoRequestServer fails the test on any request: a provider without
// credentials must not call out.
func NoRequestServer(t *testing.T) string {
	t.Helper()
	return NewRecServer(t, func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request %s %s sent without credentials", r.Method, r.URL)
		w.WriteHeader(500)
	}).URL
}

// CheckNotConfigured asserts a missing-credentials error: ErrNotConfigured,
// naming the provider and the environment variables, and never read as a
// sold-out answer.
func CheckNotConfigured(t *testing.T, got []stock.Offer, err error, platform string, env ...string) {
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

// CheckGET asserts the method, path, bearer token and User-Agent.
func CheckGET(t *testing.T, r SeenReq, path, auth string) {
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

// CheckQuery asserts query parameters (each with all its values, in order).
func CheckQuery(t *testing.T, q url.Values, want url.Values) {
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

// Seed adds every fixture of the shared directories and of the package's
// testdata whose name starts with one of the prefixes, and a few odd bodies.
func Seed(f *testing.F, prefixes ...string) {
	for _, dir := range []string{FixturesDir, VerbatimDir, "testdata"} {
		if _, err := os.Stat(dir); err != nil && dir == "testdata" {
			continue // a package without its own testdata
		}
		for _, name := range FixtureFiles(f, dir, prefixes...) {
			f.Add(Fixture(f, dir, name))
		}
	}
	for _, s := range []string{``, `null`, `[]`, `{}`, `{"code":"Success","data":null}`, `[{"x":{"idle_gpu_num":-1,"total_gpu_num":1e400}}]`,
		`{"offers":{"gpu_name":"RTX 4090","num_gpus":0,"dph_total":"NaN"}}`, `{"data":{"list":[{"gpu_name":"4090","gpu_number":1e30,"gpu_used":-1e30}],"max_page":1e99}}`} {
		f.Add([]byte(s))
	}
}

// checkParsed: no offers beside an error, and every offer sane.
func CheckParsed(t *testing.T, offers []stock.Offer, err error) {
	if err != nil && offers != nil {
		t.Errorf("offers with an error: %v", err)
	}
	for _, o := range offers {
		CheckOfferSane(t, o)
	}
}

// SeedMore adds bodies to a fuzz corpus.
func SeedMore(f *testing.F, bodies ...string) {
	for _, b := range bodies {
		f.Add([]byte(b))
	}
}

// Want is an offer a test expects: GPU id, raw name and region, Free and
// Total as IntP writes them ("nil" or a number), the price in CNY per
// GPU-hour and a part of the note ("" for any).
type Want struct {
	GPU, Raw, Region string
	Free, Total      string // "nil" or a number
	Price            float64
	Note             string
}

// CheckOffers compares offers with what is expected, in order, and checks
// platform, currency, source and (for live offers) the observation time.
func CheckOffers(t *testing.T, got []stock.Offer, ws []Want, platform, currency string, src stock.Source) {
	t.Helper()
	if len(got) != len(ws) {
		t.Fatalf("got %d offers, want %d: %+v", len(got), len(ws), got)
	}
	for i, w := range ws {
		o := got[i]
		CheckOfferSane(t, o)
		if o.Platform != platform || o.Currency != currency || o.Source != src {
			t.Errorf("offer %d: platform/currency/source = %s/%s/%s", i, o.Platform, o.Currency, o.Source)
		}
		if o.GPU != w.GPU || o.RawGPU != w.Raw || o.Region != w.Region {
			t.Errorf("offer %d: gpu %q raw %q region %q, want %q %q %q", i, o.GPU, o.RawGPU, o.Region, w.GPU, w.Raw, w.Region)
		}
		if IntP(o.Free) != w.Free || IntP(o.Total) != w.Total {
			t.Errorf("offer %d (%s): free %s total %s, want %s %s", i, o.GPU, IntP(o.Free), IntP(o.Total), w.Free, w.Total)
		}
		if !Approx(o.CNYPerGPUHour, w.Price) {
			t.Errorf("offer %d (%s): price %v, want %v", i, o.GPU, o.CNYPerGPUHour, w.Price)
		}
		if w.Note != "" && !strings.Contains(o.Note, w.Note) {
			t.Errorf("offer %d (%s): note %q does not contain %q", i, o.GPU, o.Note, w.Note)
		}
		if src == stock.SourceLive && !o.ObservedAt.Equal(FixedNow) {
			t.Errorf("offer %d: ObservedAt %v, want %v", i, o.ObservedAt, FixedNow)
		}
	}
}

// EmptyCase is one row of a provider's empty-answer table: an answer body
// and what it must give. Empty: stock.ErrEmpty (unknown, not sold out:
// the Board keeps the last offers, stale); else no error and offers whose
// free counts, as IntP writes them, are Free in order ("0" is a known
// zero the platform stated, "nil" unknown).
type EmptyCase struct {
	Name  string
	Body  string
	Empty bool
	Free  []string
}

// CheckEmptyCase checks a Fetch's or Parse's result against c.
func CheckEmptyCase(t *testing.T, c EmptyCase, got []stock.Offer, err error) {
	t.Helper()
	if c.Empty {
		if !errors.Is(err, stock.ErrEmpty) || stock.Classify(err) != stock.ReasonEmpty || got != nil {
			t.Fatalf("got %d offers, err %v; want no offers and stock.ErrEmpty (reason %s)", len(got), err, stock.ReasonEmpty)
		}
		if !strings.Contains(err.Error(), "answered an empty list") {
			t.Errorf("error %q does not say the answer was an empty list", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("err %v; want offers with free %v", err, c.Free)
	}
	free := make([]string, len(got))
	for i, o := range got {
		free[i] = IntP(o.Free)
		if o.Free != nil && *o.Free == 0 && o.State() != stock.SoldOut {
			t.Errorf("offer %d: free 0 but state %v", i, o.State())
		}
	}
	if strings.Join(free, ",") != strings.Join(c.Free, ",") {
		t.Errorf("free counts %v, want %v", free, c.Free)
	}
}
