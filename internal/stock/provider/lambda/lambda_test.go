package lambda_test

import (
	"cmp"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/lambda"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
)

const lambdaKey = "secret_lambda_1"

func newLambda(t *testing.T, u string, o lambda.Options) *lambda.Provider {
	o.Options = providertest.HTTP(u, o.Options)
	o.APIKey = cmp.Or(o.APIKey, lambdaKey)
	o.FXUSDCNY = cmp.Or(o.FXUSDCNY, providertest.FX)
	return lambda.New(providertest.LoadCatalog(t), o)
}

// lwant is one expected Lambda offer.
type lwant struct {
	gpu, raw, region string
	n                int     // GPUs per instance
	free             string  // "0" or n
	cents            float64 // per instance-hour
	note             string
}

func checkLambda(t *testing.T, got []stock.Offer, ws []lwant, src stock.Source) {
	t.Helper()
	if len(got) != len(ws) {
		t.Fatalf("got %d offers, want %d: %+v", len(got), len(ws), got)
	}
	for i, w := range ws {
		o := got[i]
		providertest.CheckOfferSane(t, o)
		if o.Platform != "lambda" || o.Currency != "USD" || o.Source != src || o.Total != nil {
			t.Errorf("offer %d: %+v", i, o)
		}
		if o.GPU != w.gpu || o.RawGPU != w.raw || o.Region != w.region {
			t.Errorf("offer %d: gpu %q raw %q region %q; want %q %q %q", i, o.GPU, o.RawGPU, o.Region, w.gpu, w.raw, w.region)
		}
		if o.GPUsPerInstance != w.n || providertest.IntP(o.Free) != w.free {
			t.Errorf("offer %d (%s): GPUs %d free %s; want %d %s", i, o.GPU, o.GPUsPerInstance, providertest.IntP(o.Free), w.n, w.free)
		}
		usd := w.cents / 100
		if !providertest.Approx(o.OriginalPrice, usd) || !providertest.Approx(o.CNYPerGPUHour, usd/float64(w.n)*providertest.FX) {
			t.Errorf("offer %d (%s): USD %v CNY/GPU-h %v; want %v, %v", i, o.GPU, o.OriginalPrice, o.CNYPerGPUHour, usd, usd/float64(w.n)*providertest.FX)
		}
		if o.Note != w.note && !(src == stock.SourceReplay && strings.HasPrefix(o.Note, w.note+" (")) {
			t.Errorf("offer %d (%s): note %q, want %q", i, o.GPU, o.Note, w.note)
		}
		if src == stock.SourceLive && !o.ObservedAt.Equal(providertest.FixedNow) {
			t.Errorf("offer %d: ObservedAt %v", i, o.ObservedAt)
		}
	}
}

const lambdaCap = "capacity by region (no count)"

func TestLambdaFetch(t *testing.T) {
	tests := []struct {
		dir, file string
		want      []lwant
	}{
		// Instance types in name order: the A10 has no capacity anywhere.
		{providertest.FixturesDir, "lambda-instance-types-multi.json", []lwant{
			{gpu: "A10", raw: "A10 (24 GB PCIe)", n: 1, free: "0", cents: 75, note: "instance gpu_1x_a10, no region has capacity"},
			{gpu: "H100 SXM", raw: "H100 (80 GB SXM5)", region: "us-east-1", n: 1, free: "1", cents: 329, note: "instance gpu_1x_h100_sxm5, " + lambdaCap},
		}},
		// The spec's example: an unknown GPU, 8 a box, 1592 c/h.
		{providertest.FixturesDir, "lambda-instance-types.json", []lwant{
			{gpu: "Example GPU (40 GB SXM4)", raw: "Example GPU (40 GB SXM4)", region: "us-west-1", n: 8, free: "8", cents: 1592, note: "instance gpu_8x_example, " + lambdaCap},
		}},
		{providertest.VerbatimDir, "lambda-instance-types-1.json", []lwant{
			{gpu: "Example GPU (40 GB SXM4)", raw: "Example GPU (40 GB SXM4)", region: "us-west-1", n: 8, free: "8", cents: 1592, note: "instance gpu_8x_example, " + lambdaCap},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			srv := providertest.NewRecServer(t, providertest.RespondBytes(200, providertest.Fixture(t, tt.dir, tt.file)))
			p := newLambda(t, srv.URL, lambda.Options{})
			if p.Name() != "lambda" {
				t.Errorf("Name %q", p.Name())
			}
			got, err := p.Fetch(providertest.FetchCtx(t))
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			checkLambda(t, got, tt.want, stock.SourceLive)
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			providertest.CheckGET(t, reqs[0], "/api/v1/instance-types", "Bearer "+lambdaKey)
			if len(reqs[0].Query) != 0 {
				t.Errorf("query %v", reqs[0].Query)
			}
		})
	}
}

func TestParseLambdaRows(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name string
		body string
		want []lwant
	}{
		{"several regions, count from the description, GPU from the description", `{"data":{"gpu_8x_h100_sxm5":{"instance_type":{"name":"gpu_8x_h100_sxm5","description":"8x H100 (80 GB SXM5)","price_cents_per_hour":"2392"},
			"regions_with_capacity_available":[{"name":"us-east-1","description":"Virginia, USA"},{"name":"us-south-2"},"europe-central-1",null,{}]}}}`, []lwant{
			{gpu: "H100 SXM", raw: "8x H100 (80 GB SXM5)", region: "us-east-1", n: 8, free: "8", cents: 2392, note: "instance gpu_8x_h100_sxm5, " + lambdaCap},
			{gpu: "H100 SXM", raw: "8x H100 (80 GB SXM5)", region: "us-south-2", n: 8, free: "8", cents: 2392, note: "instance gpu_8x_h100_sxm5, " + lambdaCap},
			{gpu: "H100 SXM", raw: "8x H100 (80 GB SXM5)", region: "europe-central-1", n: 8, free: "8", cents: 2392, note: "instance gpu_8x_h100_sxm5, " + lambdaCap},
		}},
		{"PCIe variant from gpu_description, count from the name, no price", `{"data":{"x":{"instance_type":{"name":"gpu_2x_h100_pcie","gpu_description":"H100 (80 GB PCIe)"},"regions_with_capacity_available":[]}}}`, []lwant{
			{gpu: "H100 PCIe", raw: "H100 (80 GB PCIe)", n: 2, free: "0", note: "instance gpu_2x_h100_pcie, no region has capacity"},
		}},
		// A null list of regions is not Lambda saying "none": unknown.
		{"null regions: capacity unknown", `{"data":{"x":{"instance_type":{"name":"gpu_2x_h100_pcie","gpu_description":"H100 (80 GB PCIe)"},"regions_with_capacity_available":null}}}`, []lwant{
			{gpu: "H100 PCIe", raw: "H100 (80 GB PCIe)", n: 2, free: "nil", note: "instance gpu_2x_h100_pcie, capacity not given"},
		}},
		{"CPU-only type skipped, no instance_type skipped, no names skipped", `{"data":{"cpu_4x_general":{"instance_type":{"name":"cpu_4x_general","description":"4x vCPU","gpu_description":"","price_cents_per_hour":20,"specs":{"gpus":0}}},
			"junk":{"regions_with_capacity_available":[]},"nameless":{"instance_type":{"price_cents_per_hour":1}},"num":3}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lambda.Parse(c, []byte(tt.body), providertest.FixedNow, providertest.FX)
			if err != nil {
				t.Fatalf("ParseLambda: %v", err)
			}
			checkLambda(t, got, tt.want, stock.SourceLive)
		})
	}

	// fx <= 0 falls back to the catalog's rate.
	got, err := lambda.Parse(c, providertest.Fixture(t, providertest.FixturesDir, "lambda-instance-types.json"), providertest.FixedNow, 0)
	if err != nil || len(got) != 1 || !providertest.Approx(got[0].CNYPerGPUHour, 15.92/8*c.FXUSDCNY) {
		t.Fatalf("catalog fx: %+v %v", got, err)
	}
}

func TestParseLambdaErrors(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name string
		body []byte
		kind error
		want string
	}{
		{"invalid API key (schema defaults)", providertest.Fixture(t, providertest.VerbatimDir, "lambda-error-401-schema-defaults-1.json"), stock.ErrUnauthorized,
			"lambda: API key rejected (global/invalid-api-key): API key was invalid, expired, or deleted. (Check your API key or create a new one, then try again)"},
		{"provider unavailable (spec example)", providertest.Fixture(t, providertest.VerbatimDir, "lambda-error-provider-unavailable-1.json"), stock.ErrServer,
			"lambda: server error (provider/internal-unavailable): Provider unavailable (Try again shortly)"},
		{"other code", []byte(`{"error":{"code":"global/object-does-not-exist","message":"nope"}}`), nil, "lambda: API error (global/object-does-not-exist): nope"},
		{"no data", []byte(`{"foo":{}}`), stock.ErrBadResponse, "lambda: response has no data field"},
		{"data is a list", []byte(`{"data":[]}`), stock.ErrBadResponse, "lambda: data is a list, not an object"},
		{"a list", []byte(`[]`), stock.ErrBadResponse, "lambda: response is a list"},
		{"malformed", []byte(`{"data":{`), stock.ErrBadResponse, "lambda: malformed JSON in instance types"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lambda.Parse(c, tt.body, providertest.FixedNow, providertest.FX)
			if err == nil || got != nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, %v; want error %q", got, err, tt.want)
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Errorf("error %q is not %v", err, tt.kind)
			}
		})
	}
}

func TestLambdaErrors(t *testing.T) {
	path := "/api/v1/instance-types"
	cases := append(providertest.CommonErrCases("lambda", path),
		providertest.ErrCase{Name: "401 invalid API key", Respond: providertest.RespondBytes(401, providertest.Fixture(t, providertest.VerbatimDir, "lambda-error-401-schema-defaults-1.json")), Kind: stock.ErrUnauthorized,
			Want: []string{"lambda: API key rejected (global/invalid-api-key, HTTP 401) from GET " + path + ": API key was invalid, expired, or deleted."}, Status: 401},
		providertest.ErrCase{Name: "403 account inactive", Respond: providertest.RespondBytes(403, []byte(`{"error":{"code":"global/account-inactive","message":"Your account is inactive."}}`)), Kind: stock.ErrUnauthorized,
			Want: []string{"lambda: API key rejected (global/account-inactive, HTTP 403)", "inactive"}, Status: 403},
		providertest.ErrCase{Name: "provider error with HTTP 503", Respond: providertest.RespondBytes(503, providertest.Fixture(t, providertest.VerbatimDir, "lambda-error-provider-unavailable-1.json")), Kind: stock.ErrServer,
			Want: []string{"lambda: server error (provider/internal-unavailable, HTTP 503) from GET " + path + ": Provider unavailable (Try again shortly)"}, Status: 503},
		providertest.ErrCase{Name: "provider error with HTTP 400 is still a server error", Respond: providertest.RespondBytes(400, []byte(`{"error":{"code":"provider/internal-unavailable","message":"Provider unavailable"}}`)), Kind: stock.ErrServer,
			Want: []string{"lambda: server error (provider/internal-unavailable, HTTP 400)"}, Status: 400},
		providertest.ErrCase{Name: "429 with error body and Retry-After", Respond: providertest.RespondRetry("3", "application/json", []byte(`{"error":{"code":"global/too-many-requests","message":"Slow down"}}`)), Kind: stock.ErrRateLimited,
			Want: []string{"lambda: rate limited (global/too-many-requests, HTTP 429) from GET " + path + ", retry after 3s: Slow down"}, Retry: 3 * time.Second},
		providertest.ErrCase{Name: "error body in HTTP 200", Respond: providertest.RespondBytes(200, providertest.Fixture(t, providertest.VerbatimDir, "lambda-error-provider-unavailable-1.json")), Kind: stock.ErrServer,
			Want: []string{"lambda: server error (provider/internal-unavailable): Provider unavailable"}, Status: 200},
	)
	providertest.RunErrCases(t, cases, func(t *testing.T, u string) ([]stock.Offer, error) {
		return newLambda(t, u, lambda.Options{Options: providertest.Short}).Fetch(providertest.FetchCtx(t))
	})
}

// TestLambdaEmptyAnswers: the instance types endpoint lists every type, so
// one that lists none is unknown (stock.ErrEmpty), while a type listed
// with no region with capacity is Lambda saying zero.
func TestLambdaEmptyAnswers(t *testing.T) {
	const h100 = `"instance_type":{"name":"gpu_1x_h100_sxm5","gpu_description":"H100 (80 GB SXM5)","price_cents_per_hour":329,"specs":{"gpus":1}}`
	cases := []providertest.EmptyCase{
		{Name: "empty data", Body: `{"data":{}}`, Empty: true},
		{Name: "null data", Body: `{"data":null}`, Empty: true},
		{Name: "null answer", Body: `null`, Empty: true},
		{Name: "explicit zero: no region has capacity", Body: `{"data":{"a":{` + h100 + `,"regions_with_capacity_available":[]}}}`, Free: []string{"0"}},
		{Name: "regions missing: unknown", Body: `{"data":{"a":{` + h100 + `}}}`, Free: []string{"nil"}},
		{Name: "regions null: unknown", Body: `{"data":{"a":{` + h100 + `,"regions_with_capacity_available":null}}}`, Free: []string{"nil"}},
		{Name: "normal", Body: `{"data":{"a":{` + h100 + `,"regions_with_capacity_available":[{"name":"us-east-1"}]}}}`, Free: []string{"1"}},
	}
	c := providertest.LoadCatalog(t)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			srv := providertest.NewRecServer(t, providertest.RespondBytes(200, []byte(tc.Body)))
			got, err := newLambda(t, srv.URL, lambda.Options{}).Fetch(providertest.FetchCtx(t))
			providertest.CheckEmptyCase(t, tc, got, err)
			got, err = lambda.Parse(c, []byte(tc.Body), providertest.FixedNow, providertest.FX)
			providertest.CheckEmptyCase(t, tc, got, err)
		})
	}
	// A missing data field is no empty list but an unreadable answer.
	if _, err := lambda.Parse(c, []byte(`{}`), providertest.FixedNow, providertest.FX); !errors.Is(err, stock.ErrBadResponse) {
		t.Errorf("missing data: %v, want a bad response", err)
	}
}

func TestLambdaNotConfigured(t *testing.T) {
	got, err := lambda.New(providertest.LoadCatalog(t), lambda.Options{Options: httpx.Options{BaseURL: providertest.NoRequestServer(t)}}).Fetch(providertest.FetchCtx(t))
	providertest.CheckNotConfigured(t, got, err, "lambda", "LAMBDA_API_KEY")
}

func FuzzParseLambda(f *testing.F) {
	providertest.Seed(f, "lambda-")
	providertest.SeedMore(f, `{"data":{"a":{"instance_type":{"name":"gpu_999x_a","description":"0x A","price_cents_per_hour":1e308,"specs":{"gpus":1e30}},"regions_with_capacity_available":[1,"r",{"name":2}]}}}`,
		`{"error":"x"}`, `{"error":{"code":"provider/x"}}`, `{"data":{"b":{"instance_type":{"description":"1x H100","specs":{"gpus":-1}}}}}`)
	c := providertest.LoadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := lambda.Parse(c, b, providertest.FixedNow, providertest.FX)
		providertest.CheckParsed(t, offers, err)
	})
}
