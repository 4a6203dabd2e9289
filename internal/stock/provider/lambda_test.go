package provider_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
)

const lambdaKey = "secret_lambda_1"

func newLambda(t *testing.T, u string, o provider.LambdaOptions) *provider.Lambda {
	t.Helper()
	o.BaseURL = u
	if o.APIKey == "" {
		o.APIKey = lambdaKey
	}
	if o.FXUSDCNY == 0 {
		o.FXUSDCNY = fx
	}
	o.Now = now
	return provider.NewLambda(loadCatalog(t), o)
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
		checkOfferSane(t, o)
		if o.Platform != "lambda" || o.Currency != "USD" || o.Source != src || o.Total != nil {
			t.Errorf("offer %d: %+v", i, o)
		}
		if o.GPU != w.gpu || o.RawGPU != w.raw || o.Region != w.region {
			t.Errorf("offer %d: gpu %q raw %q region %q; want %q %q %q", i, o.GPU, o.RawGPU, o.Region, w.gpu, w.raw, w.region)
		}
		if o.GPUsPerInstance != w.n || intp(o.Free) != w.free {
			t.Errorf("offer %d (%s): GPUs %d free %s; want %d %s", i, o.GPU, o.GPUsPerInstance, intp(o.Free), w.n, w.free)
		}
		usd := w.cents / 100
		if !approx(o.OriginalPrice, usd) || !approx(o.CNYPerGPUHour, usd/float64(w.n)*fx) {
			t.Errorf("offer %d (%s): USD %v CNY/GPU-h %v; want %v, %v", i, o.GPU, o.OriginalPrice, o.CNYPerGPUHour, usd, usd/float64(w.n)*fx)
		}
		if o.Note != w.note && !(src == stock.SourceReplay && strings.HasPrefix(o.Note, w.note+" (")) {
			t.Errorf("offer %d (%s): note %q, want %q", i, o.GPU, o.Note, w.note)
		}
		if src == stock.SourceLive && !o.ObservedAt.Equal(fixedNow) {
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
		{fixturesDir, "lambda-instance-types-multi.json", []lwant{
			{gpu: "A10", raw: "A10 (24 GB PCIe)", n: 1, free: "0", cents: 75, note: "instance gpu_1x_a10, no region has capacity"},
			{gpu: "H100 SXM", raw: "H100 (80 GB SXM5)", region: "us-east-1", n: 1, free: "1", cents: 329, note: "instance gpu_1x_h100_sxm5, " + lambdaCap},
		}},
		// The spec's example: an unknown GPU, 8 a box, 1592 c/h.
		{fixturesDir, "lambda-instance-types.json", []lwant{
			{gpu: "Example GPU (40 GB SXM4)", raw: "Example GPU (40 GB SXM4)", region: "us-west-1", n: 8, free: "8", cents: 1592, note: "instance gpu_8x_example, " + lambdaCap},
		}},
		{verbatimDir, "lambda-instance-types-1.json", []lwant{
			{gpu: "Example GPU (40 GB SXM4)", raw: "Example GPU (40 GB SXM4)", region: "us-west-1", n: 8, free: "8", cents: 1592, note: "instance gpu_8x_example, " + lambdaCap},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			srv := newRecServer(t, respondBytes(200, fixture(t, tt.dir, tt.file)))
			p := newLambda(t, srv.URL, provider.LambdaOptions{})
			if p.Name() != "lambda" {
				t.Errorf("Name %q", p.Name())
			}
			got, err := p.Fetch(fetchCtx(t))
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			checkLambda(t, got, tt.want, stock.SourceLive)
			reqs := srv.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			checkGET(t, reqs[0], "/api/v1/instance-types", "Bearer "+lambdaKey)
			if len(reqs[0].Query) != 0 {
				t.Errorf("query %v", reqs[0].Query)
			}
		})
	}
}

func TestParseLambdaRows(t *testing.T) {
	c := loadCatalog(t)
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
		{"PCIe variant from gpu_description, count from the name, no price", `{"data":{"x":{"instance_type":{"name":"gpu_2x_h100_pcie","gpu_description":"H100 (80 GB PCIe)"},"regions_with_capacity_available":null}}}`, []lwant{
			{gpu: "H100 PCIe", raw: "H100 (80 GB PCIe)", n: 2, free: "0", note: "instance gpu_2x_h100_pcie, no region has capacity"},
		}},
		{"CPU-only type skipped, no instance_type skipped, no names skipped", `{"data":{"cpu_4x_general":{"instance_type":{"name":"cpu_4x_general","description":"4x vCPU","gpu_description":"","price_cents_per_hour":20,"specs":{"gpus":0}}},
			"junk":{"regions_with_capacity_available":[]},"nameless":{"instance_type":{"price_cents_per_hour":1}},"num":3}}`, nil},
		{"empty data", `{"data":{}}`, nil},
		{"null data", `{"data":null}`, nil},
		{"null", `null`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := provider.ParseLambda(c, []byte(tt.body), fixedNow, fx)
			if err != nil {
				t.Fatalf("ParseLambda: %v", err)
			}
			checkLambda(t, got, tt.want, stock.SourceLive)
		})
	}

	// fx <= 0 falls back to the catalog's rate.
	got, err := provider.ParseLambda(c, fixture(t, fixturesDir, "lambda-instance-types.json"), fixedNow, 0)
	if err != nil || len(got) != 1 || !approx(got[0].CNYPerGPUHour, 15.92/8*c.FXUSDCNY) {
		t.Fatalf("catalog fx: %+v %v", got, err)
	}
}

func TestParseLambdaErrors(t *testing.T) {
	c := loadCatalog(t)
	tests := []struct {
		name string
		body []byte
		kind error
		want string
	}{
		{"invalid API key (schema defaults)", fixture(t, verbatimDir, "lambda-error-401-schema-defaults-1.json"), stock.ErrUnauthorized,
			"lambda: API key rejected (global/invalid-api-key): API key was invalid, expired, or deleted. (Check your API key or create a new one, then try again)"},
		{"provider unavailable (spec example)", fixture(t, verbatimDir, "lambda-error-provider-unavailable-1.json"), stock.ErrServer,
			"lambda: server error (provider/internal-unavailable): Provider unavailable (Try again shortly)"},
		{"other code", []byte(`{"error":{"code":"global/object-does-not-exist","message":"nope"}}`), nil, "lambda: API error (global/object-does-not-exist): nope"},
		{"no data", []byte(`{"foo":{}}`), stock.ErrBadResponse, "lambda: response has no data field"},
		{"data is a list", []byte(`{"data":[]}`), stock.ErrBadResponse, "lambda: data is a list, not an object"},
		{"a list", []byte(`[]`), stock.ErrBadResponse, "lambda: response is a list"},
		{"malformed", []byte(`{"data":{`), stock.ErrBadResponse, "lambda: malformed JSON in instance types"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := provider.ParseLambda(c, tt.body, fixedNow, fx)
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
	cases := append(commonErrCases("lambda", path),
		errCase{name: "401 invalid API key", respond: respondBytes(401, fixture(t, verbatimDir, "lambda-error-401-schema-defaults-1.json")), kind: stock.ErrUnauthorized,
			want: []string{"lambda: API key rejected (global/invalid-api-key, HTTP 401) from GET " + path + ": API key was invalid, expired, or deleted."}, status: 401},
		errCase{name: "403 account inactive", respond: respondBytes(403, []byte(`{"error":{"code":"global/account-inactive","message":"Your account is inactive."}}`)), kind: stock.ErrUnauthorized,
			want: []string{"lambda: API key rejected (global/account-inactive, HTTP 403)", "inactive"}, status: 403},
		errCase{name: "provider error with HTTP 503", respond: respondBytes(503, fixture(t, verbatimDir, "lambda-error-provider-unavailable-1.json")), kind: stock.ErrServer,
			want: []string{"lambda: server error (provider/internal-unavailable, HTTP 503) from GET " + path + ": Provider unavailable (Try again shortly)"}, status: 503},
		errCase{name: "provider error with HTTP 400 is still a server error", respond: respondBytes(400, []byte(`{"error":{"code":"provider/internal-unavailable","message":"Provider unavailable"}}`)), kind: stock.ErrServer,
			want: []string{"lambda: server error (provider/internal-unavailable, HTTP 400)"}, status: 400},
		errCase{name: "429 with error body and Retry-After", respond: respondRetry("3", "application/json", []byte(`{"error":{"code":"global/too-many-requests","message":"Slow down"}}`)), kind: stock.ErrRateLimited,
			want: []string{"lambda: rate limited (global/too-many-requests, HTTP 429) from GET " + path + ", retry after 3s: Slow down"}, retry: 3 * time.Second},
		errCase{name: "error body in HTTP 200", respond: respondBytes(200, fixture(t, verbatimDir, "lambda-error-provider-unavailable-1.json")), kind: stock.ErrServer,
			want: []string{"lambda: server error (provider/internal-unavailable): Provider unavailable"}, status: 200},
	)
	runErrCases(t, cases, func(t *testing.T, u string) ([]stock.Offer, error) {
		return newLambda(t, u, provider.LambdaOptions{Timeout: 150 * time.Millisecond}).Fetch(fetchCtx(t))
	})
}

func TestLambdaEmpty(t *testing.T) {
	srv := newRecServer(t, respondBytes(200, []byte(`{"data":{}}`)))
	got, err := newLambda(t, srv.URL, provider.LambdaOptions{}).Fetch(fetchCtx(t))
	if err != nil || len(got) != 0 {
		t.Fatalf("empty: %v, %v", got, err)
	}
}

func TestLambdaNotConfigured(t *testing.T) {
	got, err := provider.NewLambda(loadCatalog(t), provider.LambdaOptions{BaseURL: noRequestServer(t)}).Fetch(fetchCtx(t))
	checkNotConfigured(t, got, err, "lambda", "LAMBDA_API_KEY")
}
