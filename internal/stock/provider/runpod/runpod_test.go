package runpod_test

import (
	"cmp"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
	"github.com/labgpu/bot/internal/stock/provider/runpod"
)

const runpodKey = "rp-key-1"

func newRunPod(t *testing.T, u string, o runpod.Options) *runpod.Provider {
	o.Options = providertest.HTTP(u, o.Options)
	o.APIKey = cmp.Or(o.APIKey, runpodKey)
	o.FXUSDCNY = cmp.Or(o.FXUSDCNY, providertest.FX)
	return runpod.New(providertest.LoadCatalog(t), o)
}

// rwant is one expected RunPod offer.
type rwant struct {
	gpu, raw, region string
	free             string  // "nil", "0" or "1"
	usd              float64 // per GPU-hour
	note             string  // exact (replay: prefix)
}

func checkRunPod(t *testing.T, got []stock.Offer, ws []rwant, src stock.Source) {
	t.Helper()
	if len(got) != len(ws) {
		t.Fatalf("got %d offers, want %d: %+v", len(got), len(ws), got)
	}
	for i, w := range ws {
		o := got[i]
		providertest.CheckOfferSane(t, o)
		if o.Platform != "runpod" || o.Currency != "USD" || o.Source != src || o.GPUsPerInstance != 1 || o.Total != nil {
			t.Errorf("offer %d: %+v", i, o)
		}
		if o.GPU != w.gpu || o.RawGPU != w.raw || o.Region != w.region {
			t.Errorf("offer %d: gpu %q raw %q region %q; want %q %q %q", i, o.GPU, o.RawGPU, o.Region, w.gpu, w.raw, w.region)
		}
		if providertest.IntP(o.Free) != w.free {
			t.Errorf("offer %d (%s %s): free %s, want %s", i, o.GPU, o.Region, providertest.IntP(o.Free), w.free)
		}
		if !providertest.Approx(o.OriginalPrice, w.usd) || !providertest.Approx(o.CNYPerGPUHour, w.usd*providertest.FX) {
			t.Errorf("offer %d (%s %s): USD %v CNY %v; want %v, %v", i, o.GPU, o.Region, o.OriginalPrice, o.CNYPerGPUHour, w.usd, w.usd*providertest.FX)
		}
		if o.Note != w.note && !(src == stock.SourceReplay && strings.HasPrefix(o.Note, w.note+" (")) {
			t.Errorf("offer %d (%s %s): note %q, want %q", i, o.GPU, o.Region, o.Note, w.note)
		}
		if src == stock.SourceLive && !o.ObservedAt.Equal(providertest.FixedNow) {
			t.Errorf("offer %d: ObservedAt %v", i, o.ObservedAt)
		}
	}
}

const (
	levelHigh = "stock level HIGH (a level, not a count)"
	levelLow  = "stock level LOW (a level, not a count)"
)

func TestRunPodFetchDocExample(t *testing.T) {
	// The v2 doc example answers both clouds: HIGH in US-KS-2 for each, so
	// the cheaper community price wins.
	srv := providertest.NewRecServer(t, providertest.RespondBytes(200, providertest.Fixture(t, providertest.VerbatimDir, "runpod-rest-v2-catalog-gpus-1.json")))
	p := newRunPod(t, srv.URL, runpod.Options{})
	if p.Name() != "runpod" {
		t.Errorf("Name %q", p.Name())
	}
	got, err := p.Fetch(providertest.FetchCtx(t))
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	checkRunPod(t, got, []rwant{
		{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", region: "US-KS-2", free: "1", usd: 0.31, note: levelHigh + ", community cloud price"},
	}, stock.SourceLive)
	if got[0].State() != stock.InStock {
		t.Errorf("state %v", got[0].State())
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (one per cloud)", len(reqs))
	}
	// The two requests go at once, in either order.
	slices.SortFunc(reqs, func(a, b providertest.SeenReq) int { return cmp.Compare(a.Query.Get("cloud"), b.Query.Get("cloud")) })
	for i, cloud := range []string{"COMMUNITY", "SECURE"} {
		providertest.CheckGET(t, reqs[i], "/v2/catalog/gpus", "Bearer "+runpodKey)
		providertest.CheckQuery(t, reqs[i].Query, url.Values{"include": {"AVAILABILITY"}, "product": {"POD"}, "cloud": {cloud}})
	}
}

func TestRunPodFetchPerCloud(t *testing.T) {
	// Levels differ per cloud: each (GPU, data center) takes the cheaper
	// cloud that has stock.
	community := `{"gpus":[
	 {"id":"NVIDIA GeForce RTX 4090","name":"RTX 4090","secure":true,"community":true,"price":{"secure":0.44,"community":0.31},"availability":"LOW",
	  "dataCenters":[{"id":"US-KS-2","availability":"NONE"},{"id":"EU-RO-1","availability":"LOW"}]},
	 {"id":"NVIDIA H100 80GB HBM3","name":"H100 SXM","secure":true,"community":false,"price":{"secure":2.69,"community":1.99},"availability":"NONE"},
	 {"id":"NVIDIA A100 80GB PCIe","name":"A100 PCIe","secure":true,"community":true,"price":{"secure":1.64,"community":1.19},"availability":"NONE"}
	]}`
	secure := `{"gpus":[
	 {"id":"NVIDIA GeForce RTX 4090","name":"RTX 4090","secure":true,"community":true,"price":{"secure":0.44,"community":0.31},"availability":"HIGH",
	  "dataCenters":[{"id":"US-KS-2","availability":"HIGH"},{"id":"EU-RO-1","availability":"MEDIUM"}]},
	 {"id":"NVIDIA H100 80GB HBM3","name":"H100 SXM","secure":true,"community":false,"price":{"secure":2.69,"community":1.99},"availability":"MEDIUM"},
	 {"id":"NVIDIA A100 80GB PCIe","name":"A100 PCIe","secure":true,"community":true,"price":{"secure":1.64,"community":1.19},"availability":"NONE"}
	]}`
	srv := providertest.NewRecServer(t, func(w http.ResponseWriter, r *http.Request) {
		body := community
		if r.URL.Query().Get("cloud") == "SECURE" {
			body = secure
		}
		providertest.RespondBytes(200, []byte(body))(w, r)
	})
	got, err := newRunPod(t, srv.URL, runpod.Options{}).Fetch(providertest.FetchCtx(t))
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	checkRunPod(t, got, []rwant{
		{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", region: "US-KS-2", free: "1", usd: 0.44, note: levelHigh + ", secure cloud price"},
		{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", region: "EU-RO-1", free: "1", usd: 0.31, note: levelLow + ", community cloud price"},
		// community false: its price is not offered.
		{gpu: "H100 SXM", raw: "NVIDIA H100 80GB HBM3", free: "1", usd: 2.69, note: "stock level MEDIUM (a level, not a count), secure cloud price"},
		// NONE in both: sold out, priced at the cheaper cloud.
		{gpu: "A100 80GB", raw: "NVIDIA A100 80GB PCIe", free: "0", usd: 1.19, note: "stock level NONE, community cloud price"},
	}, stock.SourceLive)
	if got[3].State() != stock.SoldOut {
		t.Errorf("NONE is not sold out: %v", got[3].State())
	}
}

func TestRunPodFXFromCatalog(t *testing.T) {
	c := providertest.LoadCatalog(t)
	srv := providertest.NewRecServer(t, providertest.RespondBytes(200, providertest.Fixture(t, providertest.VerbatimDir, "runpod-rest-v2-catalog-gpus-1.json")))
	got, err := runpod.New(c, runpod.Options{Options: httpx.Options{BaseURL: srv.URL}, APIKey: "k"}).Fetch(providertest.FetchCtx(t))
	if err != nil || len(got) != 1 || !providertest.Approx(got[0].CNYPerGPUHour, 0.31*c.FXUSDCNY) {
		t.Fatalf("catalog fx: %+v %v", got, err)
	}
}

func TestParseRunPodShapes(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		dir, file string
		want      []rwant
	}{
		{providertest.VerbatimDir, "runpod-rest-v2-catalog-gpus-1.json", []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", region: "US-KS-2", free: "1", usd: 0.31, note: levelHigh + ", community cloud price"},
		}},
		{providertest.FixturesDir, "runpod-graphql-gpuTypes-lowestPrice.json", []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", free: "1", usd: 0.34, note: levelHigh + ", community cloud price"},
			// stockStatus null: unknown, not none; communityPrice null: secure only.
			{gpu: "H100 SXM", raw: "NVIDIA H100 80GB HBM3", free: "nil", usd: 2.69, note: "stock level unknown, secure cloud price"},
		}},
		{providertest.FixturesDir, "runpod-runpodctl-gpu-list.json", []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", free: "1", note: levelHigh + ", no price"},
			{gpu: "A100 80GB", raw: "NVIDIA A100 80GB PCIe", free: "1", note: levelHigh + ", no price"},
		}},
		{providertest.VerbatimDir, "runpod-runpodctl-gpu-list-1.json", []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", free: "1", note: levelHigh + ", no price"},
			{gpu: "A100 80GB", raw: "NVIDIA A100 80GB PCIe", free: "1", note: levelHigh + ", no price"},
		}},
		{providertest.VerbatimDir, "runpod-runpodctl-datacenter-list-1.json", []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", region: "US-GA-1", free: "1", note: levelHigh + ", no price"},
			{gpu: "A100 80GB", raw: "NVIDIA A100 80GB PCIe", region: "EU-RO-1", free: "1", note: levelHigh + ", no price"},
		}},
		// The SDK's get_gpu asks for no stockStatus: level unknown.
		{providertest.VerbatimDir, "runpod-sdk-get_gpu-1.json", []rwant{
			{gpu: "A100 80GB", raw: "NVIDIA A100 80GB PCIe", free: "nil", usd: 1.59, note: "stock level unknown, community cloud price"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := runpod.Parse(c, providertest.Fixture(t, tt.dir, tt.file), providertest.FixedNow, providertest.FX)
			if err != nil {
				t.Fatalf("ParseRunPod: %v", err)
			}
			checkRunPod(t, got, tt.want, stock.SourceLive)
		})
	}
}

func TestParseRunPodRows(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name string
		body string
		want []rwant
	}{
		{"REST: data centers without levels fall back to the GPU's", `{"gpus":[{"id":"NVIDIA GeForce RTX 4090","name":"RTX 4090","price":{"secure":0.44,"community":0.31},"availability":"medium","dataCenters":[{"id":"US-KS-2"}]}]}`, []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", free: "1", usd: 0.31, note: "stock level MEDIUM (a level, not a count), community cloud price"},
		}},
		{"REST: one GPU object (GET /v2/catalog/gpus/{id}), NONE", `{"id":"NVIDIA GeForce RTX 4090","availability":"NONE","price":{"secure":0.53,"community":0.33}}`, []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", free: "0", usd: 0.33, note: "stock level NONE, community cloud price"},
		}},
		{"REST: no availability asked for, unknown level string", `{"gpus":[{"id":"NVIDIA GeForce RTX 4090","name":"RTX 4090","price":{"secure":0.44}},{"id":"x","name":"RTX 3090","availability":"PLENTY","price":{"community":0.22}}]}`, []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", free: "nil", usd: 0.44, note: "stock level unknown, secure cloud price"},
			{gpu: "RTX 3090", raw: "x", free: "nil", usd: 0.22, note: "stock level unknown, community cloud price"},
		}},
		{"REST: per-DC NONE kept as sold out", `{"gpus":[{"id":"NVIDIA GeForce RTX 4090","price":{"community":0.31},"dataCenters":[{"id":"A","availability":"NONE"},{"name":"B","availability":"HIGH"},"junk"]}]}`, []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", region: "A", free: "0", usd: 0.31, note: "stock level NONE, community cloud price"},
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", region: "B", free: "1", usd: 0.31, note: levelHigh + ", community cloud price"},
		}},
		{"GraphQL: secureCloud false, lowestPrice null, no level or price skipped", `{"data":{"gpuTypes":[
			{"id":"NVIDIA GeForce RTX 3090","displayName":"RTX 3090","secureCloud":false,"communityCloud":true,"securePrice":0.43,"communityPrice":0.22,"lowestPrice":{"stockStatus":"Low"}},
			{"id":"NVIDIA L40S","displayName":"L40S","securePrice":0.86,"lowestPrice":null},
			{"id":"NVIDIA A30","displayName":"A30","memoryInGb":24}]}}`, []rwant{
			{gpu: "RTX 3090", raw: "NVIDIA GeForce RTX 3090", free: "1", usd: 0.22, note: levelLow + ", community cloud price"},
			{gpu: "L40S", raw: "NVIDIA L40S", free: "nil", usd: 0.86, note: "stock level unknown, secure cloud price"},
		}},
		{"GraphQL: one gpuType", `{"data":{"gpuType":{"id":"NVIDIA GeForce RTX 4090","displayName":"RTX 4090","communityPrice":0.34,"lowestPrice":{"stockStatus":"Medium"}}}}`, []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", free: "1", usd: 0.34, note: "stock level MEDIUM (a level, not a count), community cloud price"},
		}},
		{"GraphQL: errors beside data are ignored", `{"data":{"gpuTypes":[{"id":"NVIDIA GeForce RTX 4090","communityPrice":0.34,"lowestPrice":{"stockStatus":"High"}}]},"errors":[{"message":"partial"}]}`, []rwant{
			{gpu: "RTX 4090", raw: "NVIDIA GeForce RTX 4090", free: "1", usd: 0.34, note: levelHigh + ", community cloud price"},
		}},
		{"runpodctl --include-unavailable row", `[{"available":false,"displayName":"H100 SXM","gpuId":"NVIDIA H100 80GB HBM3","memoryInGb":80},{"available":true,"gpuId":"NVIDIA GeForce RTX 4090","displayName":"RTX 4090"}]`, []rwant{
			{gpu: "H100 SXM", raw: "NVIDIA H100 80GB HBM3", free: "0", note: "stock level NONE, no price"},
		}},
		// An empty level is unknown, not none; with no price either, the
		// GPU gives no offer.
		{"data center list: empty level is unknown, v2 availability key", `[{"id":"EU-RO-1","gpuAvailability":[{"gpuId":"NVIDIA GeForce RTX 4090","stockStatus":""},{"id":"NVIDIA RTX A6000","availability":"LOW"},null]}]`, []rwant{
			{gpu: "RTX A6000", raw: "NVIDIA RTX A6000", region: "EU-RO-1", free: "1", note: levelLow + ", no price"},
		}},
		{"display name unknown to the catalog, id known", `{"gpus":[{"id":"NVIDIA A100-SXM4-80GB","name":"A100 SXM","price":{"secure":1.74},"availability":"LOW"}]}`, []rwant{
			{gpu: "A100 80GB", raw: "NVIDIA A100-SXM4-80GB", free: "1", usd: 1.74, note: levelLow + ", secure cloud price"},
		}},
		{"unknown GPU keeps its display name", `{"gpus":[{"id":"NVIDIA B200","name":"B200","price":{"secure":5.99},"availability":"HIGH"}]}`, []rwant{
			{gpu: "B200", raw: "NVIDIA B200", free: "1", usd: 5.99, note: levelHigh + ", secure cloud price"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runpod.Parse(c, []byte(tt.body), providertest.FixedNow, providertest.FX)
			if err != nil {
				t.Fatalf("ParseRunPod: %v", err)
			}
			checkRunPod(t, got, tt.want, stock.SourceLive)
		})
	}
}

func TestParseRunPodErrors(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name string
		body []byte
		kind error
		want string
	}{
		{"problem 401 (doc example)", providertest.Fixture(t, providertest.VerbatimDir, "runpod-rest-v2-error-401-1.json"), stock.ErrUnauthorized, "runpod: API key rejected (status 401): Unauthorized: missing bearer token"},
		{"problem 429 (doc example)", providertest.Fixture(t, providertest.VerbatimDir, "runpod-rest-v2-error-429-1.json"), stock.ErrRateLimited, "runpod: rate limited (status 429): Too Many Requests: rate limit exceeded for the minute window"},
		{"problem 503", []byte(`{"title":"Service Unavailable","status":503}`), stock.ErrServer, "runpod: server error (status 503): Service Unavailable"},
		{"GraphQL errors in HTTP 200", []byte(`{"errors":[{"message":"API key is invalid"}],"data":null}`), stock.ErrUnauthorized, "runpod: GraphQL error: API key is invalid"},
		{"GraphQL other error", []byte(`{"errors":[{"message":"Cannot query field \"x\""},{"message":"second"}]}`), nil, `runpod: GraphQL error: Cannot query field "x"; second`},
		{"gpus is a string", []byte(`{"gpus":"x"}`), stock.ErrBadResponse, "runpod: gpus is a string"},
		{"gpuTypes is a number", []byte(`{"data":{"gpuTypes":3}}`), stock.ErrBadResponse, "gpuTypes is a number"},
		{"data without gpuTypes", []byte(`{"data":{"pods":[]}}`), stock.ErrBadResponse, "GraphQL data has no gpuTypes"},
		{"unknown object", []byte(`{"foo":1}`), stock.ErrBadResponse, "runpod: no RunPod response shape recognised"},
		{"a string", []byte(`"x"`), stock.ErrBadResponse, "response is a string"},
		{"malformed", []byte(`{"gpus":[`), stock.ErrBadResponse, "runpod: malformed JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runpod.Parse(c, tt.body, providertest.FixedNow, providertest.FX)
			if err == nil || got != nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, %v; want error %q", got, err, tt.want)
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Errorf("error %q is not %v", err, tt.kind)
			}
		})
	}
}

func TestRunPodErrors(t *testing.T) {
	path := "/v2/catalog/gpus"
	problem := "application/problem+json"
	cases := append(providertest.CommonErrCases("runpod", path),
		providertest.ErrCase{Name: "401 problem+json (doc example)", Respond: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", problem)
			w.WriteHeader(401)
			_, _ = w.Write(providertest.Fixture(t, providertest.VerbatimDir, "runpod-rest-v2-error-401-1.json"))
		}, Kind: stock.ErrUnauthorized, Want: []string{"runpod: credentials rejected (HTTP 401 Unauthorized) from GET " + path + ": Unauthorized: missing bearer token (cloud COMMUNITY)"}, Status: 401},
		providertest.ErrCase{Name: "429 problem+json with Retry-After (doc example)", Respond: providertest.RespondRetry("12", problem, providertest.Fixture(t, providertest.VerbatimDir, "runpod-rest-v2-error-429-1.json")),
			Kind: stock.ErrRateLimited, Want: []string{"runpod: rate limited (HTTP 429 Too Many Requests) from GET " + path + ", retry after 12s: Too Many Requests: rate limit exceeded for the minute window"},
			Retry: 12 * time.Second, Status: 429},
		providertest.ErrCase{Name: "400 without product", Respond: providertest.RespondBytes(400, []byte(`{"title":"Bad Request","status":400,"detail":"product is required with include=AVAILABILITY"}`)),
			Want: []string{"runpod: unexpected HTTP 400 Bad Request", "product is required"}, Status: 400},
	)
	providertest.RunErrCases(t, cases, func(t *testing.T, u string) ([]stock.Offer, error) {
		return newRunPod(t, u, runpod.Options{Options: providertest.Short}).Fetch(providertest.FetchCtx(t))
	})

	// The second (SECURE) request failing fails the whole fetch.
	srv := providertest.NewRecServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("cloud") == "SECURE" {
			w.WriteHeader(503)
			return
		}
		providertest.RespondBytes(200, providertest.Fixture(t, providertest.VerbatimDir, "runpod-rest-v2-catalog-gpus-1.json"))(w, r)
	})
	got, err := newRunPod(t, srv.URL, runpod.Options{}).Fetch(providertest.FetchCtx(t))
	if got != nil || !errors.Is(err, stock.ErrServer) || !strings.HasSuffix(err.Error(), "(cloud SECURE)") {
		t.Errorf("second request failed: %v, %v", got, err)
	}
}

// TestRunPodEmptyAnswers: the catalog lists every GPU type, so one that
// lists none is unknown (stock.ErrEmpty); only an explicit NONE is a known
// zero, and a null stockStatus is unknown, not sold out.
func TestRunPodEmptyAnswers(t *testing.T) {
	cases := []providertest.EmptyCase{
		{Name: "REST: empty gpus", Body: `{"gpus":[]}`, Empty: true},
		{Name: "REST: null gpus", Body: `{"gpus":null}`, Empty: true},
		{Name: "null answer", Body: `null`, Empty: true},
		{Name: "bare empty list", Body: `[]`, Empty: true},
		{Name: "GraphQL: empty gpuTypes", Body: `{"data":{"gpuTypes":[]}}`, Empty: true},
		{Name: "GraphQL: null gpuTypes", Body: `{"data":{"gpuTypes":null}}`, Empty: true},
		{Name: "GraphQL: null data", Body: `{"data":null}`, Empty: true},
		{Name: "REST: explicit NONE", Body: `{"gpus":[{"id":"NVIDIA GeForce RTX 4090","price":{"community":0.31},"availability":"NONE"}]}`, Free: []string{"0"}},
		{Name: "GraphQL: explicit None", Body: `{"data":{"gpuTypes":[{"id":"NVIDIA GeForce RTX 4090","communityPrice":0.34,"lowestPrice":{"stockStatus":"None"}}]}}`, Free: []string{"0"}},
		{Name: "GraphQL: stockStatus null is unknown", Body: `{"data":{"gpuTypes":[{"id":"NVIDIA GeForce RTX 4090","communityPrice":0.34,"lowestPrice":{"stockStatus":null}}]}}`, Free: []string{"nil"}},
		{Name: "REST: availability null is unknown", Body: `{"gpus":[{"id":"NVIDIA GeForce RTX 4090","price":{"community":0.31},"availability":null}]}`, Free: []string{"nil"}},
		{Name: "runpodctl: available false is none", Body: `[{"available":false,"gpuId":"NVIDIA H100 80GB HBM3","displayName":"H100 SXM"}]`, Free: []string{"0"}},
		{Name: "normal", Body: `{"gpus":[{"id":"NVIDIA GeForce RTX 4090","price":{"community":0.31},"availability":"HIGH"}]}`, Free: []string{"1"}},
	}
	c := providertest.LoadCatalog(t)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			srv := providertest.NewRecServer(t, providertest.RespondBytes(200, []byte(tc.Body)))
			got, err := newRunPod(t, srv.URL, runpod.Options{}).Fetch(providertest.FetchCtx(t))
			providertest.CheckEmptyCase(t, tc, got, err)
			if tc.Empty && !strings.HasSuffix(err.Error(), "(cloud COMMUNITY)") {
				t.Errorf("error %q does not name the cloud", err)
			}
			got, err = runpod.Parse(c, []byte(tc.Body), providertest.FixedNow, providertest.FX)
			providertest.CheckEmptyCase(t, tc, got, err)
		})
	}

	// One cloud answering an empty catalog fails the fetch, however
	// full the other's answer.
	srv := providertest.NewRecServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("cloud") == "SECURE" {
			providertest.RespondBytes(200, []byte(`{"gpus":[]}`))(w, r)
			return
		}
		providertest.RespondBytes(200, providertest.Fixture(t, providertest.VerbatimDir, "runpod-rest-v2-catalog-gpus-1.json"))(w, r)
	})
	got, err := newRunPod(t, srv.URL, runpod.Options{}).Fetch(providertest.FetchCtx(t))
	if got != nil || !errors.Is(err, stock.ErrEmpty) || !strings.HasSuffix(err.Error(), "(cloud SECURE)") {
		t.Errorf("SECURE empty: %v, %v", got, err)
	}
}

func TestRunPodNotConfigured(t *testing.T) {
	p := runpod.New(providertest.LoadCatalog(t), runpod.Options{Options: httpx.Options{BaseURL: providertest.NoRequestServer(t)}})
	got, err := p.Fetch(providertest.FetchCtx(t))
	providertest.CheckNotConfigured(t, got, err, "runpod", "RUNPOD_API_KEY")
	if runpod.DefaultBaseURL != "https://api.runpod.io" {
		t.Errorf("default base %q", runpod.DefaultBaseURL)
	}
}

func FuzzParseRunPod(f *testing.F) {
	providertest.Seed(f, "runpod-")
	providertest.SeedMore(f, `{"gpus":[{"id":"x","price":{"secure":-1,"community":1e308},"availability":"HIGH","dataCenters":[{"id":"A","availability":"LOW"},{"availability":null}]}]}`,
		`{"data":{"gpuTypes":[{"id":"x","securePrice":"1","lowestPrice":{"stockStatus":null}}]},"errors":[{}]}`,
		`[{"gpuAvailability":[{"gpuId":"x","stockStatus":"Low"}]},{"gpuId":"y","available":false},{"pool":"z"}]`,
		`{"title":"x","status":429}`, `{"errors":[{"message":"api key"}]}`)
	c := providertest.LoadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := runpod.Parse(c, b, providertest.FixedNow, providertest.FX)
		providertest.CheckParsed(t, offers, err)
		for _, o := range offers {
			if o.Free != nil && *o.Free > 1 {
				t.Errorf("a RunPod level read as a count: %+v", o)
			}
		}
	})
}

// TestRunPodCloudsAtOnce: the two clouds' requests are in flight together
// (a fetch takes one request's time, not two); a failure of either still
// fails the fetch and names its cloud.
func TestRunPodCloudsAtOnce(t *testing.T) {
	body := providertest.Fixture(t, providertest.VerbatimDir, "runpod-rest-v2-catalog-gpus-1.json")
	tests := []struct {
		name string
		fail string // cloud answered with 502
		want string // in the error; "" for success
	}{
		{"both answer", "", ""},
		{"secure fails", "SECURE", "(cloud SECURE)"},
		{"community fails", "COMMUNITY", "(cloud COMMUNITY)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			inFlight, most := 0, 0
			both := make(chan struct{})
			srv := providertest.NewRecServer(t, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				if inFlight++; inFlight == 2 {
					close(both)
				}
				most = max(most, inFlight)
				mu.Unlock()
				select { // wait for the other cloud's request, at most 2 s
				case <-both:
				case <-time.After(2 * time.Second):
				}
				if r.URL.Query().Get("cloud") == tt.fail {
					w.WriteHeader(http.StatusBadGateway)
					return
				}
				providertest.RespondBytes(200, body)(w, r)
			})
			got, err := newRunPod(t, srv.URL, runpod.Options{}).Fetch(providertest.FetchCtx(t))
			if mu.Lock(); most != 2 {
				t.Errorf("%d requests in flight at once, want 2", most)
			}
			mu.Unlock()
			if tt.want == "" && (err != nil || len(got) == 0) {
				t.Fatalf("Fetch: %d offers, %v", len(got), err)
			}
			if tt.want != "" && (err == nil || got != nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("got %d offers, err %v; want an error naming %s", len(got), err, tt.want)
			}
		})
	}
}
