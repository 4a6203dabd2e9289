package provider_test

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
)

const (
	fixturesDir = "../../../../shared/fixtures/stock"
	verbatimDir = "../../../../shared/fixtures/stock-verbatim"
)

var fixedNow = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

func now() time.Time { return fixedNow }

var (
	catOnce sync.Once
	cat     *catalog.Catalog
	catErr  error
)

func loadCatalog(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	catOnce.Do(func() { cat, catErr = catalog.Load(configs.FS) })
	if catErr != nil {
		tb.Fatalf("catalog.Load: %v", catErr)
	}
	return cat
}

func fixture(tb testing.TB, dir, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		tb.Fatalf("read fixture: %v", err)
	}
	return b
}

// fixtureFiles lists the *.json files of dir whose names start with one of
// the prefixes.
func fixtureFiles(tb testing.TB, dir string, prefixes ...string) []string {
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

// recorded is one request a fake server received.
type recorded struct {
	Method string
	Path   string
	Auth   string
	UA     string
	CT     string
	Body   map[string]any
}

// fakeServer answers every request with respond and records the requests.
type fakeServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []recorded
}

func newFakeServer(t *testing.T, respond func(w http.ResponseWriter, r *http.Request, body map[string]any)) *fakeServer {
	t.Helper()
	fs := &fakeServer{}
	fs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if len(b) > 0 {
			if err := json.Unmarshal(b, &body); err != nil {
				t.Errorf("request body is not a JSON object: %v: %s", err, b)
			}
		}
		fs.mu.Lock()
		fs.reqs = append(fs.reqs, recorded{
			Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"),
			UA: r.Header.Get("User-Agent"), CT: r.Header.Get("Content-Type"), Body: body,
		})
		fs.mu.Unlock()
		respond(w, r, body)
	}))
	t.Cleanup(fs.Close)
	return fs
}

func (fs *fakeServer) requests() []recorded {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]recorded(nil), fs.reqs...)
}

// serveBytes answers with a status and body.
func serveBytes(status int, body []byte) func(http.ResponseWriter, *http.Request, map[string]any) {
	return func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
}

// hangingServer never answers until the request is cancelled.
func hangingServer(t *testing.T) *fakeServer {
	release := make(chan struct{})
	fs := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) }) // runs before fs.Close
	return fs
}

func intp(p *int) string {
	if p == nil {
		return "nil"
	}
	b, _ := json.Marshal(*p)
	return string(b)
}

func approx(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// find returns the offers matching pred.
func find(offers []stock.Offer, pred func(stock.Offer) bool) []stock.Offer {
	var out []stock.Offer
	for _, o := range offers {
		if pred(o) {
			out = append(out, o)
		}
	}
	return out
}

// checkOfferSane asserts invariants every offer must satisfy.
func checkOfferSane(tb testing.TB, o stock.Offer) {
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

func fetchCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}
