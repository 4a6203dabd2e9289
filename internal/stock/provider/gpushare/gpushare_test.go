package gpushare_test

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/gpushare"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
)

const gpushareToken = "gs-jwt-1"

func newGPUShare(t *testing.T, u string, o gpushare.Options) *gpushare.Provider {
	o.Options = providertest.HTTP(u, o.Options)
	o.Token = cmp.Or(o.Token, gpushareToken)
	return gpushare.New(providertest.LoadCatalog(t), o)
}

// The fixture's two machines: N204 (4090, 8 GPUs, 6 used, 2.09) and N117
// (3090, all 8 used, 1.49).
var gpushareFixtureWant = []providertest.Want{
	{GPU: "RTX 4090", Raw: "NVIDIA GeForce RTX 4090", Free: "2", Total: "8", Price: 2.09, Note: "machine N204, price unit unverified"},
	{GPU: "RTX 3090", Raw: "NVIDIA GeForce RTX 3090", Free: "0", Total: "8", Price: 1.49, Note: "machine N117, price unit unverified"},
}

func TestGPUShareFetch(t *testing.T) {
	// data.total is 87: with 50 a page, two pages are asked for.
	srv := providertest.NewRecServer(t, providertest.RespondBytes(200, providertest.Fixture(t, providertest.FixturesDir, "gpushare-market-machine-list.json")))
	p := newGPUShare(t, srv.URL, gpushare.Options{})
	if p.Name() != "hengyuan" {
		t.Errorf("Name %q", p.Name())
	}
	got, err := p.Fetch(providertest.FetchCtx(t))
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	providertest.CheckOffers(t, got, append(append([]providertest.Want{}, gpushareFixtureWant...), gpushareFixtureWant...), "hengyuan", "CNY", stock.SourceLive)
	for _, o := range got {
		if o.GPUsPerInstance != 1 || o.OriginalPrice != o.CNYPerGPUHour || !o.Verified || o.Region != "" {
			t.Errorf("offer %+v", o)
		}
	}
	if got[0].State() != stock.InStock || got[1].State() != stock.SoldOut {
		t.Errorf("states %v %v", got[0].State(), got[1].State())
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (total 87, 50 a page)", len(reqs))
	}
	for i, r := range reqs {
		providertest.CheckGET(t, r, "/app/api/market/machine/list", "Bearer "+gpushareToken)
		providertest.CheckQuery(t, r.Query, url.Values{"models": {"-1"}, "gpuName": {""}, "priceOrder": {"asc"}, "pn": {strconv.Itoa(i + 1)}, "ps": {"50"}})
		if o, ref := r.Header.Get("Origin"), r.Header.Get("Referer"); o != "https://www.gpushare.com" || ref != "https://www.gpushare.com/store" {
			t.Errorf("Origin %q Referer %q", o, ref)
		}
	}
}

func TestGPUSharePaging(t *testing.T) {
	row := `{"id":"a","machineName":"M","isOnline":true,"gpuNum":4,"gpuUsed":1,"baseInfo":{"gpuName":"RTX 4090"},"skuList":[{"skuName":"payg","price":2}]}`
	page := func(total string, rows int) []byte {
		var rs []string
		for range rows {
			rs = append(rs, row)
		}
		t := ""
		if total != "" {
			t = `"total":` + total + `,`
		}
		return []byte(`{"code":0,"msg":"success","data":{` + t + `"list":[` + strings.Join(rs, ",") + `]}}`)
	}
	tests := []struct {
		name     string
		body     []byte
		requests int
		offers   int
	}{
		{"total fits one page", page("3", 3), 1, 3},
		{"total exactly two pages", page("100", 50), 2, 100},
		{"no total, short page", page("", 10), 1, 10},
		{"no total, full pages until the cap", page("", 50), gpushare.MaxPages, 50 * gpushare.MaxPages},
		{"large total capped", page("100000", 50), gpushare.MaxPages, 50 * gpushare.MaxPages},
		{"absurd total ignored, short page stops", page("1e9", 1), 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewRecServer(t, providertest.RespondBytes(200, tt.body))
			got, err := newGPUShare(t, srv.URL, gpushare.Options{}).Fetch(providertest.FetchCtx(t))
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if n := len(srv.Requests()); n != tt.requests || len(got) != tt.offers {
				t.Errorf("%d requests, %d offers; want %d, %d", n, len(got), tt.requests, tt.offers)
			}
		})
	}
}

// TestGPUShareEmptyAnswers: the market lists every machine, busy and
// offline ones too, so a list without one is unknown (stock.ErrEmpty); a
// machine with every GPU used, or offline, is a known zero.
func TestGPUShareEmptyAnswers(t *testing.T) {
	const m = `"baseInfo":{"gpuName":"RTX 4090"},"skuList":[{"skuName":"payg","price":2}]`
	cases := []providertest.EmptyCase{
		{Name: "empty list", Body: `{"code":0,"msg":"success","data":{"total":0,"list":[]}}`, Empty: true},
		{Name: "empty list with a total", Body: `{"code":0,"msg":"success","data":{"total":500,"list":[]}}`, Empty: true},
		{Name: "null list", Body: `{"code":0,"msg":"success","data":{"total":0,"list":null}}`, Empty: true},
		{Name: "null data", Body: `{"code":0,"msg":"success","data":null}`, Empty: true},
		{Name: "bare empty list", Body: `[]`, Empty: true},
		{Name: "explicit zeros: all used, offline", Body: `{"code":0,"data":{"list":[{"isOnline":true,"gpuNum":8,"gpuUsed":8,` + m + `},{"isOnline":false,"gpuNum":8,"gpuUsed":0,` + m + `}]}}`, Free: []string{"0", "0"}},
		{Name: "normal", Body: `{"code":0,"data":{"list":[{"isOnline":true,"gpuNum":8,"gpuUsed":3,` + m + `}]}}`, Free: []string{"5"}},
	}
	c := providertest.LoadCatalog(t)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			srv := providertest.NewRecServer(t, providertest.RespondBytes(200, []byte(tc.Body)))
			got, err := newGPUShare(t, srv.URL, gpushare.Options{}).Fetch(providertest.FetchCtx(t))
			providertest.CheckEmptyCase(t, tc, got, err)
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			got, err = gpushare.Parse(c, []byte(tc.Body), providertest.FixedNow)
			providertest.CheckEmptyCase(t, tc, got, err)
		})
	}
	// A missing list is an unreadable answer, not an empty one.
	if _, err := gpushare.Parse(c, []byte(`{"code":0,"data":{"total":3}}`), providertest.FixedNow); !errors.Is(err, stock.ErrBadResponse) {
		t.Errorf("missing list: %v, want a bad response", err)
	}
	// An empty page after a full one only ends the list.
	full := `{"code":0,"data":{"list":[` + strings.TrimSuffix(strings.Repeat(`{"gpuNum":1,"gpuUsed":0,`+m+`},`, gpushare.PageSize), ",") + `]}}`
	srv := providertest.NewRecServer(t, func(w http.ResponseWriter, r *http.Request) {
		body := `{"code":0,"data":{"list":[]}}`
		if r.URL.Query().Get("pn") == "1" {
			body = full
		}
		providertest.RespondBytes(200, []byte(body))(w, r)
	})
	got, err := newGPUShare(t, srv.URL, gpushare.Options{}).Fetch(providertest.FetchCtx(t))
	if err != nil || len(got) != gpushare.PageSize || len(srv.Requests()) != 2 {
		t.Errorf("empty second page: %d offers, %d requests, %v; want %d offers from 2 requests", len(got), len(srv.Requests()), err, gpushare.PageSize)
	}
	// Rows of which none is a machine are a bad answer, never "sold out".
	srv = providertest.NewRecServer(t, providertest.RespondBytes(200, []byte(`{"code":0,"data":{"list":[1,null,{"baseInfo":{}}]}}`)))
	if got, err := newGPUShare(t, srv.URL, gpushare.Options{}).Fetch(providertest.FetchCtx(t)); got != nil || !errors.Is(err, stock.ErrBadResponse) {
		t.Errorf("junk rows: %v, %v; want a bad response", got, err)
	}
}

func TestGPUShareFailedPage(t *testing.T) {
	first := providertest.Fixture(t, providertest.FixturesDir, "gpushare-market-machine-list.json")
	srv := providertest.NewRecServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("pn") == "2" {
			w.WriteHeader(502)
			return
		}
		providertest.RespondBytes(200, first)(w, r)
	})
	got, err := newGPUShare(t, srv.URL, gpushare.Options{}).Fetch(providertest.FetchCtx(t))
	if err == nil || got != nil || !strings.Contains(err.Error(), "(page 2)") {
		t.Fatalf("got %d offers, err %v; want no offers and an error naming page 2", len(got), err)
	}
}

func TestParseGPUShare(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name string
		body string
		want []providertest.Want
	}{
		{"offline machine: free 0", `{"code":0,"data":{"total":1,"list":[{"machineName":"N9","isOnline":false,"gpuNum":8,"gpuUsed":0,"baseInfo":{"gpuName":"NVIDIA GeForce RTX 4090"},"skuList":[{"skuName":"payg","price":1.88}]}]}}`, []providertest.Want{
			{GPU: "RTX 4090", Raw: "NVIDIA GeForce RTX 4090", Free: "0", Total: "8", Price: 1.88, Note: "machine N9, offline, price unit unverified"},
		}},
		{"isOnline absent counts as online", `{"code":0,"data":{"list":[{"gpuNum":"4","gpuUsed":"1","baseInfo":{"gpuName":"RTX 3090"},"skuList":[{"skuName":"day","price":40},{"skuName":"payg","price":"1.5"}]}]}}`, []providertest.Want{
			{GPU: "RTX 3090", Raw: "RTX 3090", Free: "3", Total: "4", Price: 1.5, Note: "price unit unverified"},
		}},
		{"used above total clamps to 0; no payg SKU: no price", `{"code":0,"data":{"list":[{"isOnline":true,"gpuNum":2,"gpuUsed":5,"baseInfo":{"gpuName":"A800 80G"},"skuList":[{"skuName":"week","price":299}]}]}}`, []providertest.Want{
			{GPU: "A800 80GB", Raw: "A800 80G", Free: "0", Total: "2", Price: 0},
		}},
		{"no counts: free unknown", `{"code":0,"data":{"list":[{"isOnline":true,"baseInfo":{"gpuName":"RTX 4090"},"skuList":[{"skuName":"payg","price":2}]}]}}`, []providertest.Want{
			{GPU: "RTX 4090", Raw: "RTX 4090", Free: "nil", Total: "nil", Price: 2},
		}},
		{"unknown GPU kept, junk rows skipped", `{"code":"0","data":{"list":[1,null,"x",{"baseInfo":{}},{"gpuNum":1,"gpuUsed":0,"baseInfo":{"gpuName":"Tesla P40"}}]}}`, []providertest.Want{
			{GPU: "Tesla P40", Raw: "Tesla P40", Free: "1", Total: "1"},
		}},
		{"bare list, no envelope", `[{"gpuName":"RTX 4090","gpuNum":1,"gpuUsed":0}]`, []providertest.Want{
			{GPU: "RTX 4090", Raw: "RTX 4090", Free: "1", Total: "1"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := gpushare.Parse(c, []byte(tt.body), providertest.FixedNow)
			if err != nil {
				t.Fatalf("ParseGPUShare: %v", err)
			}
			providertest.CheckOffers(t, got, tt.want, "hengyuan", "CNY", stock.SourceLive)
		})
	}
}

func TestParseGPUShareErrors(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name, body string
		kind       error
		want       string
	}{
		{"token code in 200", `{"code":401,"msg":"登录已过期"}`, stock.ErrUnauthorized, "hengyuan: token expired or invalid (code 401): 登录已过期"},
		{"token message", `{"code":10001,"msg":"token invalid"}`, stock.ErrUnauthorized, "hengyuan: token expired or invalid (code 10001): token invalid"},
		{"other code", `{"code":500,"msg":"系统繁忙"}`, nil, "hengyuan: API error (code 500): 系统繁忙"},
		{"no list", `{"code":0,"data":{"total":3}}`, stock.ErrBadResponse, "hengyuan: machine list data has no list"},
		{"list is a string", `{"code":0,"data":{"list":"x"}}`, stock.ErrBadResponse, "data.list is a string"},
		{"data is a number", `{"code":0,"data":3}`, stock.ErrBadResponse, "data is a number"},
		{"malformed", `{"code":0,"data":{`, stock.ErrBadResponse, "hengyuan: malformed JSON in machine list"},
		{"empty body", ``, stock.ErrBadResponse, "hengyuan: malformed JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := gpushare.Parse(c, []byte(tt.body), providertest.FixedNow)
			if err == nil || got != nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, %v; want error %q", got, err, tt.want)
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Errorf("error %q is not %v", err, tt.kind)
			}
		})
	}
}

func TestGPUShareErrors(t *testing.T) {
	path := "/app/api/market/machine/list"
	cases := append(providertest.CommonErrCases("hengyuan", path),
		providertest.ErrCase{Name: "401 says the token expired", Respond: providertest.RespondBytes(401, []byte(`{"code":401,"msg":"Unauthorized"}`)), Kind: stock.ErrUnauthorized,
			Want: []string{"hengyuan: token expired or invalid (HTTP 401) from GET " + path, "GPUSHARE_TOKEN", "(page 1)"}, Status: 401},
		providertest.ErrCase{Name: "token error in HTTP 200", Respond: providertest.RespondBytes(200, []byte(`{"code":401,"msg":"token expired"}`)), Kind: stock.ErrUnauthorized,
			Want: []string{"hengyuan: token expired or invalid (code 401): token expired (page 1)"}, Status: 200},
	)
	providertest.RunErrCases(t, cases, func(t *testing.T, u string) ([]stock.Offer, error) {
		return newGPUShare(t, u, gpushare.Options{Options: providertest.Short}).Fetch(providertest.FetchCtx(t))
	})
}

func TestGPUShareNotConfigured(t *testing.T) {
	for _, tok := range []string{"", "  "} {
		p := gpushare.New(providertest.LoadCatalog(t), gpushare.Options{Options: httpx.Options{BaseURL: providertest.NoRequestServer(t)}, Token: tok})
		got, err := p.Fetch(providertest.FetchCtx(t))
		providertest.CheckNotConfigured(t, got, err, "hengyuan", "GPUSHARE_TOKEN")
	}
	if want := fmt.Sprintf("hengyuan: no token configured (set %s): not configured", gpushare.TokenEnv); func() string {
		_, err := gpushare.New(nil, gpushare.Options{}).Fetch(providertest.FetchCtx(t))
		return err.Error()
	}() != want {
		t.Errorf("message differs from %q", want)
	}
}

func FuzzParseGPUShare(f *testing.F) {
	providertest.Seed(f, "gpushare-")
	providertest.SeedMore(f, `{"code":0,"data":{"total":1e99,"list":[{"isOnline":"x","gpuNum":1e30,"gpuUsed":-1e30,"baseInfo":{"gpuName":"4090"},"skuList":[{"skuName":"payg","price":1e308}]}]}}`,
		`{"code":401,"msg":"token"}`, `{"code":null,"data":[{"gpuName":"x","gpuNum":"NaN"}]}`)
	c := providertest.LoadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := gpushare.Parse(c, b, providertest.FixedNow)
		providertest.CheckParsed(t, offers, err)
	})
}
