package matpool_test

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/matpool"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
)

const (
	matpoolToken = "mp-jwt-1"
	matpoolUser  = "4242"
)

func newMatpool(t *testing.T, u string, o matpool.Options) *matpool.Provider {
	o.Options = providertest.HTTP(u, o.Options)
	o.Token, o.UserID = cmp.Or(o.Token, matpoolToken), cmp.Or(o.UserID, matpoolUser)
	return matpool.New(providertest.LoadCatalog(t), o)
}

// The fixture: agent 119 (4090 in domain 0, 3 of 8 available, 220000
// millicent = 2.2 CNY/h) and agent 342 (3090 in domain 11, 0 of 0, 1.85).
var matpoolFixtureWant = []providertest.Want{
	{GPU: "RTX 4090", Raw: "NVIDIA GeForce RTX 4090", Region: "1区", Free: "3", Total: "8", Price: 2.2, Note: "machine 119, free count unreliable"},
	{GPU: "RTX 3090", Raw: "NVIDIA GeForce RTX 3090", Region: "亚太2区", Free: "nil", Total: "0", Price: 1.85, Note: "machine 342, free count unreliable"}, // a 0 from Matpool is unknown, not sold out
}

func TestMatpoolFetch(t *testing.T) {
	srv := providertest.NewRecServer(t, providertest.RespondBytes(200, providertest.Fixture(t, providertest.FixturesDir, "matpool-machines.json")))
	p := newMatpool(t, srv.URL, matpool.Options{})
	if p.Name() != "matpool" {
		t.Errorf("Name %q", p.Name())
	}
	got, err := p.Fetch(providertest.FetchCtx(t))
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	providertest.CheckOffers(t, got, matpoolFixtureWant, "matpool", "CNY", stock.SourceLive)
	for _, o := range got {
		if o.GPUsPerInstance != 1 || o.OriginalPrice != o.CNYPerGPUHour {
			t.Errorf("offer %+v", o)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1 (total 2)", len(reqs))
	}
	r := reqs[0]
	providertest.CheckGET(t, r, "/machines", "Bearer "+matpoolToken)
	if u := r.Header.Get("x-matpool-user-id"); u != matpoolUser {
		t.Errorf("x-matpool-user-id %q", u)
	}
	providertest.CheckQuery(t, r.Query, url.Values{
		"domains": {"0", "11", "13", "15", "16"}, "machine_category": {"0"}, "page": {"1"}, "per_page": {"50"}, "tags": {"0"},
	})
	cond, err := base64.StdEncoding.DecodeString(r.Query.Get("condition"))
	if err != nil || string(cond) != `{"filters":null,"sorts":null}` {
		t.Errorf("condition %q decodes to %q, %v", r.Query.Get("condition"), cond, err)
	}
}

func TestMatpoolPaging(t *testing.T) {
	// Each row's agentId is its page, to check page order.
	row := `{"agentId":%d,"domain":16,"hardware":{"priceMillicent":55000,"gpu":{"gpuName":"RTX 4090"}},"gpu":{"available":1,"total":1}}`
	srv := providertest.NewRecServer(t, func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		n := 50
		if page == 3 {
			n = 7
		}
		rows := make([]string, n)
		for i := range rows {
			rows[i] = fmt.Sprintf(row, page)
		}
		// Top-level machines and total, no data wrapper.
		providertest.RespondBytes(200, []byte(`{"code":0,"machines":[`+strings.Join(rows, ",")+`],"total":107}`))(w, r)
	})
	got, err := newMatpool(t, srv.URL, matpool.Options{}).Fetch(providertest.FetchCtx(t))
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || len(got) != 107 {
		t.Fatalf("%d requests, %d offers; want 3, 107", len(reqs), len(got))
	}
	// Page 1 (which gives the total) first, then pages 2 and 3 at once.
	var pages []string
	for _, r := range reqs {
		pages = append(pages, r.Query.Get("page"))
	}
	if pages[0] != "1" || !slices.Contains(pages, "2") || !slices.Contains(pages, "3") {
		t.Errorf("pages asked for %v, want 1 then 2 and 3", pages)
	}
	for i, o := range got {
		if want := fmt.Sprintf("machine %d,", min(i/50+1, 3)); !strings.HasPrefix(o.Note, want) {
			t.Fatalf("offer %d note %q, want page order (%q)", i, o.Note, want)
		}
	}
	if o := got[0]; o.Region != "16区" || !providertest.Approx(o.CNYPerGPUHour, 0.55) {
		t.Errorf("offer %+v, want 16区 at 0.55", o)
	}
}

func TestParseMatpool(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name string
		body string
		want []providertest.Want
	}{
		{"top-level machines", `{"code":0,"msg":"","machines":[{"agentId":7,"domain":13,"hardware":{"name":"A100 80G","priceMillicent":"550000","gpu":{"gpuName":"NVIDIA A100 80GB PCIe"}},"gpu":{"available":"2","total":4}}]}`, []providertest.Want{
			{GPU: "A100 80GB", Raw: "NVIDIA A100 80GB PCIe", Region: "13区", Free: "2", Total: "4", Price: 5.5, Note: "machine 7, free count unreliable"},
		}},
		{"GPU from hardware.name, unknown domain, no counts", `{"code":0,"data":{"machines":[{"domain":99,"hardware":{"name":"RTX 3090 24G","priceMillicent":185000}}]}}`, []providertest.Want{
			{GPU: "RTX 3090", Raw: "RTX 3090 24G", Region: "domain 99", Free: "nil", Total: "nil", Price: 1.85, Note: "free count unreliable"},
		}},
		{"domestic card domain, no price", `[{"domain":15,"hardware":{"gpu":{"gpuName":"Ascend 910B"}},"gpu":{"available":0,"total":8}}]`, []providertest.Want{
			{GPU: "Ascend 910B", Raw: "Ascend 910B", Region: "国产卡", Free: "nil", Total: "8"},
		}},
		{"negative or absurd counts dropped, junk rows skipped", `{"code":0,"data":{"machines":[1,"x",null,{"hardware":{}},{"hardware":{"gpu":{"gpuName":"RTX 4090"},"priceMillicent":-5},"gpu":{"available":-1,"total":1e30}}]}}`, []providertest.Want{
			{GPU: "RTX 4090", Raw: "RTX 4090", Free: "nil", Total: "nil"},
		}},
		{"data is a list of machines", `{"code":0,"data":[{"domain":0,"hardware":{"gpu":{"gpuName":"RTX 4090"}},"gpu":{"available":1,"total":2}}]}`, []providertest.Want{
			{GPU: "RTX 4090", Raw: "RTX 4090", Region: "1区", Free: "1", Total: "2"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := matpool.Parse(c, []byte(tt.body), providertest.FixedNow)
			if err != nil {
				t.Fatalf("ParseMatpool: %v", err)
			}
			providertest.CheckOffers(t, got, tt.want, "matpool", "CNY", stock.SourceLive)
		})
	}
}

// TestMatpoolEmptyAnswers: the list has every GPU machine, busy ones too,
// so a list without one is unknown (stock.ErrEmpty). 矩池云 states no
// zero that can be trusted: gpu.available 0 stays unknown.
func TestMatpoolEmptyAnswers(t *testing.T) {
	const m = `"domain":0,"hardware":{"priceMillicent":220000,"gpu":{"gpuName":"RTX 4090"}}`
	cases := []providertest.EmptyCase{
		{Name: "empty machines", Body: `{"code":0,"data":{"machines":[],"total":0}}`, Empty: true},
		{Name: "null machines", Body: `{"code":0,"data":{"machines":null,"total":0}}`, Empty: true},
		{Name: "top-level empty machines", Body: `{"code":0,"machines":[],"total":0}`, Empty: true},
		{Name: "null data", Body: `{"code":0,"msg":"","data":null}`, Empty: true},
		{Name: "data an empty list", Body: `{"code":0,"data":[]}`, Empty: true},
		{Name: "bare empty list", Body: `[]`, Empty: true},
		{Name: "available 0 stays unknown", Body: `{"code":0,"data":{"machines":[{` + m + `,"gpu":{"available":0,"total":8}}]}}`, Free: []string{"nil"}},
		{Name: "normal", Body: `{"code":0,"data":{"machines":[{` + m + `,"gpu":{"available":3,"total":8}}]}}`, Free: []string{"3"}},
	}
	c := providertest.LoadCatalog(t)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			srv := providertest.NewRecServer(t, providertest.RespondBytes(200, []byte(tc.Body)))
			got, err := newMatpool(t, srv.URL, matpool.Options{}).Fetch(providertest.FetchCtx(t))
			providertest.CheckEmptyCase(t, tc, got, err)
			got, err = matpool.Parse(c, []byte(tc.Body), providertest.FixedNow)
			providertest.CheckEmptyCase(t, tc, got, err)
		})
	}
	// A missing machines list is an unreadable answer, not an empty one.
	if _, err := matpool.Parse(c, []byte(`{"code":0,"data":{"total":3}}`), providertest.FixedNow); !errors.Is(err, stock.ErrBadResponse) {
		t.Errorf("missing machines: %v, want a bad response", err)
	}
}

func TestParseMatpoolErrors(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name, body string
		kind       error
		want       string
	}{
		{"code 176", `{"code":176,"msg":"check jwt token failed"}`, stock.ErrUnauthorized, "matpool: token expired or invalid (code 176): check jwt token failed; log in again and update MATPOOL_TOKEN"},
		{"jwt message, other code", `{"code":401,"message":"check jwt token failed"}`, stock.ErrUnauthorized, "matpool: token expired or invalid (code 401)"},
		{"other code", `{"code":5,"msg":"参数错误"}`, nil, "matpool: API error (code 5): 参数错误"},
		{"no machines", `{"code":0,"data":{"list":[]}}`, stock.ErrBadResponse, "matpool: response has no machines list"},
		{"machines is an object", `{"code":0,"machines":{}}`, stock.ErrBadResponse, "machines is a object"},
		{"data is a string", `{"code":0,"data":"x"}`, stock.ErrBadResponse, "data is a string"},
		{"a number", `3`, stock.ErrBadResponse, "response is a number"},
		{"malformed", `{"code":0,`, stock.ErrBadResponse, "matpool: malformed JSON in machine list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := matpool.Parse(c, []byte(tt.body), providertest.FixedNow)
			if err == nil || got != nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, %v; want error %q", got, err, tt.want)
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Errorf("error %q is not %v", err, tt.kind)
			}
			if tt.kind == nil && (errors.Is(err, stock.ErrUnauthorized) || errors.Is(err, stock.ErrBadResponse)) {
				t.Errorf("error %q has a kind", err)
			}
		})
	}
}

func TestMatpoolErrors(t *testing.T) {
	cases := append(providertest.CommonErrCases("matpool", "/machines"),
		providertest.ErrCase{Name: "code 176 in HTTP 200", Respond: providertest.RespondBytes(200, []byte(`{"code":176,"msg":"check jwt token failed"}`)), Kind: stock.ErrUnauthorized,
			Want: []string{"matpool: token expired or invalid (code 176): check jwt token failed", "(page 1)"}, Status: 200},
		providertest.ErrCase{Name: "code 176 with HTTP 401", Respond: providertest.RespondBytes(401, []byte(`{"code":176,"msg":"check jwt token failed"}`)), Kind: stock.ErrUnauthorized,
			Want: []string{"matpool: token expired or invalid (code 176, HTTP 401): check jwt token failed"}, Status: 401},
		providertest.ErrCase{Name: "other code with HTTP 400", Respond: providertest.RespondBytes(400, []byte(`{"code":5,"msg":"bad page"}`)),
			Want: []string{"matpool: unexpected HTTP 400 Bad Request from GET /machines", "bad page"}, Status: 400},
	)
	providertest.RunErrCases(t, cases, func(t *testing.T, u string) ([]stock.Offer, error) {
		return newMatpool(t, u, matpool.Options{Options: providertest.Short}).Fetch(providertest.FetchCtx(t))
	})
}

func TestMatpoolNotConfigured(t *testing.T) {
	tests := []struct {
		token, user string
		env         []string
		what        string
	}{
		{"", "", []string{"MATPOOL_TOKEN", "MATPOOL_USER_ID"}, "no token and user id configured"},
		{"", "42", []string{"MATPOOL_TOKEN"}, "no token configured"},
		{"tok", " ", []string{"MATPOOL_USER_ID"}, "no user id configured"},
	}
	for _, tt := range tests {
		p := matpool.New(providertest.LoadCatalog(t), matpool.Options{Options: httpx.Options{BaseURL: providertest.NoRequestServer(t)}, Token: tt.token, UserID: tt.user})
		got, err := p.Fetch(providertest.FetchCtx(t))
		providertest.CheckNotConfigured(t, got, err, "matpool", tt.env...)
		if err != nil && !strings.Contains(err.Error(), tt.what) {
			t.Errorf("error %q lacks %q", err, tt.what)
		}
	}
}

func FuzzParseMatpool(f *testing.F) {
	providertest.Seed(f, "matpool-")
	providertest.SeedMore(f, `{"code":0,"machines":[{"domain":{},"hardware":{"priceMillicent":1e308,"gpu":{"gpuName":"4090"}},"gpu":{"available":1e30,"total":-1}}]}`,
		`{"code":176,"msg":"check jwt token failed"}`, `{"code":0,"data":{"machines":"x"}}`)
	c := providertest.LoadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := matpool.Parse(c, b, providertest.FixedNow)
		providertest.CheckParsed(t, offers, err)
	})
}
