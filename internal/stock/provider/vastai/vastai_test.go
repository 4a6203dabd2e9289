package vastai_test

import (
	"cmp"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
	"github.com/labgpu/bot/internal/stock/provider/vastai"
)

func newVast(t *testing.T, url string, o vastai.Options) *vastai.Provider {
	o.Options = providertest.HTTP(url, o.Options)
	o.FXUSDCNY = cmp.Or(o.FXUSDCNY, providertest.FX)
	return vastai.New(providertest.LoadCatalog(t), o)
}

// vwant is one expected vast offer.
type vwant struct {
	gpu, raw, region string
	n                int
	usd              float64 // per bundle-hour
	note             string
}

func checkVast(t *testing.T, got []stock.Offer, ws []vwant, src stock.Source) {
	t.Helper()
	if len(got) != len(ws) {
		t.Fatalf("got %d offers, want %d: %+v", len(got), len(ws), got)
	}
	for i, w := range ws {
		o := got[i]
		providertest.CheckOfferSane(t, o)
		if o.Platform != "vastai" || o.Currency != "USD" || o.Source != src {
			t.Errorf("offer %d: %s %s %s", i, o.Platform, o.Currency, o.Source)
		}
		if o.GPU != w.gpu || o.RawGPU != w.raw || o.Region != w.region {
			t.Errorf("offer %d: gpu %q raw %q region %q; want %q %q %q", i, o.GPU, o.RawGPU, o.Region, w.gpu, w.raw, w.region)
		}
		if o.GPUsPerInstance != w.n || providertest.IntP(o.Free) != providertest.IntP(&w.n) || o.Total != nil {
			t.Errorf("offer %d: GPUs %d free %s total %s; want %d", i, o.GPUsPerInstance, providertest.IntP(o.Free), providertest.IntP(o.Total), w.n)
		}
		if !providertest.Approx(o.OriginalPrice, w.usd) || !providertest.Approx(o.CNYPerGPUHour, w.usd/float64(w.n)*providertest.FX) {
			t.Errorf("offer %d: USD %v CNY/GPU-h %v; want %v, %v", i, o.OriginalPrice, o.CNYPerGPUHour, w.usd, w.usd/float64(w.n)*providertest.FX)
		}
		if o.Note != w.note && !(src == stock.SourceReplay && strings.HasPrefix(o.Note, w.note)) {
			t.Errorf("offer %d: note %q, want %q", i, o.Note, w.note)
		}
	}
}

func TestVastAIFetch(t *testing.T) {
	tests := []struct {
		dir, file string
		want      []vwant
	}{
		{providertest.FixturesDir, "vastai-bundles.json", []vwant{
			{gpu: "RTX 4090", raw: "RTX 4090", region: "Quebec, CA", n: 1, usd: 0.3369},
			{gpu: "RTX 4090", raw: "RTX 4090", region: "Sweden, SE", n: 2, usd: 0.7347},
		}},
		{providertest.VerbatimDir, "vastai-bundles-1.json", []vwant{ // bare array (CLI --raw)
			{gpu: "RTX 4090", raw: "RTX 4090", region: "Guangxi, CN", n: 1, usd: 0.2466759259259259},
		}},
		{providertest.VerbatimDir, "vastai-bundles-2.json", []vwant{ // one bare offer, 2022 schema
			{gpu: "RTX 3090", raw: "RTX 3090", region: "Norway", n: 1, usd: 0.322777777777778},
		}},
		{providertest.VerbatimDir, "vastai-bundles-docs-example-1.json", []vwant{ // offers is an object (doc bug)
			{gpu: "Imaginary RTX 9999", raw: "Imaginary RTX 9999", region: "Atlantis, AT", n: 4, usd: 0.234567},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			srv := providertest.NewFakeServer(t, providertest.ServeBytes(200, providertest.Fixture(t, tt.dir, tt.file)))
			got, err := newVast(t, srv.URL, vastai.Options{APIKey: "k-1", GPUs: []string{"RTX 4090", "RTX 3090"}}).Fetch(providertest.FetchCtx(t))
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			checkVast(t, got, tt.want, stock.SourceLive)
			for _, o := range got {
				if !o.ObservedAt.Equal(providertest.FixedNow) {
					t.Errorf("ObservedAt %v", o.ObservedAt)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			r := reqs[0]
			if r.Method != http.MethodPost || r.Path != "/api/v0/bundles/" {
				t.Errorf("request %s %s", r.Method, r.Path)
			}
			if r.Auth != "Bearer k-1" || r.UA != "labgpu-bot" || r.CT != "application/json" {
				t.Errorf("headers: auth %q UA %q CT %q", r.Auth, r.UA, r.CT)
			}
			b := r.Body
			gn, _ := b["gpu_name"].(map[string]any)
			in, _ := gn["in"].([]any)
			if len(in) != 2 || in[0] != "RTX 4090" || in[1] != "RTX 3090" {
				t.Errorf("gpu_name: %v", b["gpu_name"])
			}
			eq := func(field string, v any) {
				m, _ := b[field].(map[string]any)
				if m["eq"] != v {
					t.Errorf("%s: %v, want eq %v", field, b[field], v)
				}
			}
			eq("rentable", true)
			eq("rented", false)
			if b["type"] != "on-demand" || b["limit"] != float64(100) {
				t.Errorf("type %v limit %v", b["type"], b["limit"])
			}
			ord, _ := b["order"].([]any)
			if len(ord) != 1 {
				t.Errorf("order %v", b["order"])
			} else if o, _ := ord[0].([]any); len(o) != 2 || o[0] != "dph_total" || o[1] != "asc" {
				t.Errorf("order %v", b["order"])
			}
		})
	}
}

func TestVastAIRequestWithoutKeyOrGPUs(t *testing.T) {
	srv := providertest.NewFakeServer(t, providertest.ServeBytes(200, providertest.Fixture(t, "testdata", "vastai-empty-offers.json")))
	p := newVast(t, srv.URL, vastai.Options{Limit: 25})
	if p.Name() != "vastai" {
		t.Errorf("Name %q", p.Name())
	}
	// Without a GPU filter an empty search is unknown (see
	// TestVastAIEmptyAnswers).
	got, err := p.Fetch(providertest.FetchCtx(t))
	if !errors.Is(err, stock.ErrEmpty) || len(got) != 0 {
		t.Fatalf("empty offers: %v %v", got, err)
	}
	r := srv.Requests()[0]
	if r.Auth != "" {
		t.Errorf("Authorization %q sent without a key", r.Auth)
	}
	if _, ok := r.Body["gpu_name"]; ok {
		t.Errorf("gpu_name filter without GPUs: %v", r.Body["gpu_name"])
	}
	if r.Body["limit"] != float64(25) {
		t.Errorf("limit %v", r.Body["limit"])
	}
}

// TestVastAIEmptyAnswers: vast.ai lists only rentable bundles and never
// says "zero". A search of the whole marketplace (no GPU filter) that
// finds nothing is unknown (stock.ErrEmpty); a search narrowed to some
// GPUs may legitimately find none, and then says none is rentable.
func TestVastAIEmptyAnswers(t *testing.T) {
	const row = `{"gpu_name":"RTX 4090","num_gpus":2,"dph_total":0.6,"geolocation":"A"}`
	cases := []struct {
		providertest.EmptyCase
		gpus []string
	}{
		{providertest.EmptyCase{Name: "no filter: empty offers", Body: `{"offers":[]}`, Empty: true}, nil},
		{providertest.EmptyCase{Name: "no filter: null offers", Body: `{"offers":null}`, Empty: true}, nil},
		{providertest.EmptyCase{Name: "no filter: bare empty list", Body: `[]`, Empty: true}, nil},
		{providertest.EmptyCase{Name: "no filter: only rented rows", Body: `{"offers":[{"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.3,"rented":true}]}`, Empty: true}, nil},
		{providertest.EmptyCase{Name: "no filter: normal", Body: `{"offers":[` + row + `]}`, Free: []string{"2"}}, nil},
		{providertest.EmptyCase{Name: "GPU filter: empty offers is an answer", Body: `{"offers":[]}`, Free: []string{}}, []string{"H200 NVL"}},
		{providertest.EmptyCase{Name: "GPU filter: normal", Body: `{"offers":[` + row + `]}`, Free: []string{"2"}}, []string{"RTX 4090"}},
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			srv := providertest.NewFakeServer(t, providertest.ServeBytes(200, []byte(tc.Body)))
			got, err := newVast(t, srv.URL, vastai.Options{GPUs: tc.gpus}).Fetch(providertest.FetchCtx(t))
			providertest.CheckEmptyCase(t, tc.EmptyCase, got, err)
		})
	}
	// Parse never decides: a recording does not say what was searched.
	if got, err := vastai.Parse(providertest.LoadCatalog(t), []byte(`{"offers":[]}`), providertest.FixedNow, providertest.FX); got != nil || err != nil {
		t.Errorf("Parse of an empty search: %v, %v", got, err)
	}
}

func TestParseVastAIRows(t *testing.T) {
	c := providertest.LoadCatalog(t)
	body := `{"offers":[
	 {"gpu_name":"RTX 4090","num_gpus":1,"discounted_dph_total":0.5,"geolocation":"A"},
	 {"gpu_name":"RTX 4090","num_gpus":2,"search":{"totalHour":0.8},"dph_total_adj":0.9,"geolocation":"B"},
	 {"gpu_name":"RTX 4090","num_gpus":1,"dph_total_adj":0.4,"geolocation":"C","verified":false},
	 {"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.3,"rentable":false},
	 {"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.3,"rented":true},
	 {"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.3,"rentable":false,"dph_base":0.3},
	 {"gpu_name":"H100 SXM","num_gpus":8,"dph_total":"20.0","geolocation":"D","verification":"deverified","rentable":true},
	 {"gpu_name":"","num_gpus":1,"dph_total":1},
	 "junk", null, 3
	]}`
	got, err := vastai.Parse(c, []byte(body), providertest.FixedNow, providertest.FX)
	if err != nil {
		t.Fatal(err)
	}
	h100, ok := c.ResolveGPU("H100 SXM")
	if !ok {
		h100 = "H100 SXM"
	}
	checkVast(t, got, []vwant{
		{gpu: "RTX 4090", raw: "RTX 4090", region: "A", n: 1, usd: 0.5},
		{gpu: "RTX 4090", raw: "RTX 4090", region: "B", n: 2, usd: 0.8},
		{gpu: "RTX 4090", raw: "RTX 4090", region: "C", n: 1, usd: 0.4, note: "unverified host"},
		{gpu: h100, raw: "H100 SXM", region: "D", n: 8, usd: 20, note: "unverified host"},
	}, stock.SourceLive)

	// fx <= 0 falls back to the catalog's rate.
	got, err = vastai.Parse(c, []byte(`[{"gpu_name":"RTX 4090","num_gpus":2,"dph_total":1}]`), providertest.FixedNow, 0)
	if err != nil || len(got) != 1 || !providertest.Approx(got[0].CNYPerGPUHour, 0.5*c.FXUSDCNY) {
		t.Fatalf("catalog fx: %+v %v", got, err)
	}
}

func TestParseVastAIErrors(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name, body, want string
	}{
		{"no offers field", `{"foo":1}`, "vastai: response has no offers field"},
		{"offers is a string", `{"offers":"x"}`, "offers is a string"},
		{"number", `42`, "response is a number"},
		{"error body", `{"success":false,"error":"invalid_args","msg":"bad query"}`, "vastai: API error (invalid_args): bad query"},
		{"malformed", `{"offers":[`, "vastai: malformed JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := vastai.Parse(c, []byte(tt.body), providertest.FixedNow, providertest.FX)
			if err == nil || !strings.Contains(err.Error(), tt.want) || got != nil {
				t.Fatalf("got %v, %v; want error %q", got, err, tt.want)
			}
		})
	}
	got, err := vastai.Parse(c, []byte(`{"offers":null}`), providertest.FixedNow, providertest.FX)
	if err != nil || len(got) != 0 {
		t.Errorf("null offers: %v %v", got, err)
	}
}

func TestVastAIErrors(t *testing.T) {
	tests := []struct {
		name    string
		handler func(http.ResponseWriter, *http.Request, map[string]any)
		hang    bool
		kind    error
		want    []string
	}{
		{name: "HTTP 401", handler: providertest.ServeBytes(401, []byte(`{"detail":"auth required"}`)), kind: stock.ErrUnauthorized,
			want: []string{"vastai", "credentials rejected", "HTTP 401"}},
		{name: "HTTP 429", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Retry-After", "5")
			w.WriteHeader(429)
			_, _ = w.Write([]byte(`{"error":"too many requests"}`))
		}, kind: stock.ErrRateLimited, want: []string{"vastai", "rate limited", "HTTP 429", "retry after 5s"}},
		{name: "HTTP 500", handler: providertest.ServeBytes(500, []byte(`oops`)), kind: stock.ErrServer,
			want: []string{"vastai", "server error", "HTTP 500", "oops"}},
		{name: "404 Invalid user key", handler: providertest.ServeBytes(404, providertest.Fixture(t, "testdata", "vastai-invalid-user-key.json")), kind: stock.ErrUnauthorized,
			want: []string{"vastai: API key rejected (HTTP 404): Invalid user key"}},
		{name: "plain 404", handler: providertest.ServeBytes(404, []byte(`Not Found`)),
			want: []string{"vastai", "unexpected HTTP 404", "/api/v0/bundles/"}},
		{name: "malformed JSON", handler: providertest.ServeBytes(200, providertest.Fixture(t, "testdata", "malformed.json")), kind: stock.ErrBadResponse,
			want: []string{"vastai", "malformed JSON"}},
		{name: "hangs past the timeout", hang: true, want: []string{"vastai", "POST /api/v0/bundles/", "timed out after 150ms"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var srv *providertest.FakeServer
			if tt.hang {
				srv = providertest.HangingServer(t)
			} else {
				srv = providertest.NewFakeServer(t, tt.handler)
			}
			got, err := newVast(t, srv.URL, vastai.Options{APIKey: "bad", Options: providertest.Short}).Fetch(providertest.FetchCtx(t))
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
		})
	}
}

func FuzzParseVastAI(f *testing.F) {
	providertest.Seed(f, "vastai-")
	c := providertest.LoadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := vastai.Parse(c, b, providertest.FixedNow, providertest.FX)
		providertest.CheckParsed(t, offers, err)
	})
}
