package autodl_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/autodl"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
)

const testToken = "dev-token-123"

func newAutoDL(t *testing.T, url string, o autodl.Options) *autodl.Provider {
	o.Options = providertest.HTTP(url, o.Options)
	o.Token = cmp.Or(o.Token, testToken)
	return autodl.New(providertest.LoadCatalog(t), o)
}

// want describes one expected offer.

func TestAutoDLStockGlobal(t *testing.T) {
	tests := []struct {
		dir, file string
		want      []providertest.Want
	}{
		{providertest.FixturesDir, "autodl-esd-gpu_stock-global.json", []providertest.Want{
			{GPU: "RTX 4090", Raw: "RTX 4090", Free: "215", Total: "2285"},
			{GPU: "RTX 3090", Raw: "RTX 3090", Free: "1", Total: "5"},
		}},
		{providertest.VerbatimDir, "autodl-esd-gpu_stock-global-1.json", []providertest.Want{ // no msg key
			{GPU: "RTX 4090", Raw: "RTX 4090", Free: "215", Total: "2285"},
			{GPU: "RTX 3080 Ti", Raw: "RTX 3080 Ti", Free: "20", Total: "392"},
		}},
		{providertest.VerbatimDir, "autodl-private-esd-gpu_stock-data-excerpt-1.json", []providertest.Want{ // bare dict, full names
			{GPU: "A40", Raw: "NVIDIA A40", Free: "4", Total: "6"},
			{GPU: "RTX 4090", Raw: "NVIDIA GeForce RTX 4090", Free: "7", Total: "8"},
		}},
		{providertest.VerbatimDir, "autodl-web-machine-region-gpu_type-excerpt-1.json", []providertest.Want{ // bare list
			{GPU: "RTX 4090", Raw: "RTX 4090", Free: "3", Total: "2686"},
			{GPU: "RTX 3090", Raw: "RTX 3090", Free: "0", Total: "444"},
		}},
		{providertest.FixturesDir, "autodl-web-machine-region-gpu_type.json", []providertest.Want{
			{GPU: "RTX 4090", Raw: "RTX 4090", Free: "3", Total: "2686"},
			{GPU: "RTX 3090", Raw: "RTX 3090", Free: "0", Total: "444"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			srv := providertest.NewFakeServer(t, providertest.ServeBytes(200, providertest.Fixture(t, tt.dir, tt.file)))
			got, err := newAutoDL(t, srv.URL, autodl.Options{}).Fetch(providertest.FetchCtx(t))
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			providertest.CheckOffers(t, got, tt.want, "autodl", "CNY", stock.SourceLive)
			for _, o := range got {
				if o.HasPrice() || o.GPUsPerInstance != 1 {
					t.Errorf("stock offer has a price or GPUsPerInstance != 1: %+v", o)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != http.MethodGet || r.Path != "/api/v1/dev/machine/gpu_stock" {
				t.Errorf("request %s %s, want GET /api/v1/dev/machine/gpu_stock", r.Method, r.Path)
			}
			if r.Auth != testToken {
				t.Errorf("Authorization %q, want the raw token %q (no Bearer)", r.Auth, testToken)
			}
			if r.UA != "labgpu-bot" {
				t.Errorf("User-Agent %q", r.UA)
			}
		})
	}
}

func TestAutoDLStockRegions(t *testing.T) {
	body := providertest.Fixture(t, providertest.FixturesDir, "autodl-esd-region-gpu_stock.json")
	srv := providertest.NewFakeServer(t, providertest.ServeBytes(200, body))
	p := newAutoDL(t, srv.URL, autodl.Options{Regions: []string{"westDC2", "beijingDC1"}})
	got, err := p.Fetch(providertest.FetchCtx(t))
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	var ws []providertest.Want
	for _, region := range []string{"westDC2", "beijingDC1"} {
		ws = append(ws,
			providertest.Want{GPU: "RTX 4090", Raw: "RTX 4090", Region: region, Free: "3", Total: "2686"},
			providertest.Want{GPU: "RTX 3090", Raw: "RTX 3090", Region: region, Free: "0", Total: "444"},
			providertest.Want{GPU: "RTX 4090D", Raw: "RTX 4090D", Region: region, Free: "17", Total: "960"},
			providertest.Want{GPU: "H800", Raw: "H800", Region: region, Free: "3", Total: "96"},
		)
	}
	providertest.CheckOffers(t, got, ws, "autodl", "CNY", stock.SourceLive)
	if got[1].State() != stock.SoldOut || got[0].State() != stock.InStock {
		t.Errorf("states: %v %v", got[0].State(), got[1].State())
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for i, region := range []string{"westDC2", "beijingDC1"} {
		r := reqs[i]
		if r.Method != http.MethodPost || r.Path != "/api/v1/dev/machine/region/gpu_stock" {
			t.Errorf("request %d: %s %s", i, r.Method, r.Path)
		}
		if r.Auth != testToken || r.CT != "application/json" {
			t.Errorf("request %d: Authorization %q Content-Type %q", i, r.Auth, r.CT)
		}
		if r.Body["region_sign"] != region {
			t.Errorf("request %d: body %v, want region_sign %q", i, r.Body, region)
		}
	}
}

func TestAutoDLMachineList(t *testing.T) {
	body := providertest.Fixture(t, providertest.FixturesDir, "autodl-web-user-machine-list.json") // max_page 3
	srv := providertest.NewFakeServer(t, providertest.ServeBytes(200, body))
	p := newAutoDL(t, srv.URL, autodl.Options{UseMachineList: true, Regions: []string{"west-B", "west-C"}})
	got, err := p.Fetch(providertest.FetchCtx(t))
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	page := []providertest.Want{
		{GPU: "RTX 4090", Raw: "RTX 4090", Region: "西北B区", Free: "2", Total: "8", Price: 2.18, Note: "063机"},
		{GPU: "RTX 4090", Raw: "RTX 4090", Region: "西北企业区", Free: "0", Total: "8", Price: 1.98, Note: "091机"},
	}
	providertest.CheckOffers(t, got, append(append(append([]providertest.Want{}, page...), page...), page...), "autodl", "CNY", stock.SourceLive)
	if got[0].OriginalPrice != 2.18 || got[0].GPUsPerInstance != 1 {
		t.Errorf("original price %v, GPUs %d", got[0].OriginalPrice, got[0].GPUsPerInstance)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (max_page)", len(reqs))
	}
	for i, r := range reqs {
		if r.Method != http.MethodPost || r.Path != "/api/v1/user/machine/list" || r.Auth != testToken {
			t.Errorf("request %d: %s %s auth %q", i, r.Method, r.Path, r.Auth)
		}
		if r.Body["charge_type"] != "payg" || r.Body["page_index"] != float64(i+1) || r.Body["page_size"] != float64(20) {
			t.Errorf("request %d body: %v", i, r.Body)
		}
		rl, _ := r.Body["region_sign_list"].([]any)
		if len(rl) != 2 || rl[0] != "west-B" || rl[1] != "west-C" {
			t.Errorf("request %d region_sign_list: %v", i, r.Body["region_sign_list"])
		}
	}
}

func TestAutoDLMachineListPageCap(t *testing.T) {
	body := []byte(`{"code":"Success","msg":"","data":{"list":[{"gpu_name":"RTX 4090","gpu_idle_num":1,"payg_price":2000,"region_name":"x"}],"max_page":100000}}`)
	srv := providertest.NewFakeServer(t, providertest.ServeBytes(200, body))
	got, err := newAutoDL(t, srv.URL, autodl.Options{UseMachineList: true}).Fetch(providertest.FetchCtx(t))
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if n := len(srv.Requests()); n != autodl.MaxPages || len(got) != autodl.MaxPages {
		t.Errorf("%d requests, %d offers; want %d", n, len(got), autodl.MaxPages)
	}
	rl, ok := srv.Requests()[0].Body["region_sign_list"].([]any)
	if !ok || len(rl) != 0 {
		t.Errorf("region_sign_list without regions: %#v, want []", srv.Requests()[0].Body["region_sign_list"])
	}
}

func TestParseAutoDLMachines(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name string
		body []byte
		want []providertest.Want
	}{
		{"verbatim excerpt (bare list, no idle count)", providertest.Fixture(t, providertest.VerbatimDir, "autodl-web-user-machine-list-excerpt-1.json"), []providertest.Want{
			{GPU: "RTX 4090", Raw: "RTX 4090", Region: "西北B区", Free: "nil", Total: "nil", Price: 2.72, Note: "063机"},
		}},
		{"gpu_number minus gpu_used", []byte(`{"code":"Success","data":{"list":[{"gpu_name":"RTX 3090","gpu_number":8,"gpu_used":5,"payg_price":1580,"region_sign":"beijing-A"}],"max_page":1}}`), []providertest.Want{
			{GPU: "RTX 3090", Raw: "RTX 3090", Region: "beijing-A", Free: "3", Total: "8", Price: 1.58},
		}},
		{"price from sku levels, gpu_order_num ignored", []byte(`{"code":"Success","data":{"list":[{"gpu_name":"RTX 4090","gpu_idle_num":4,"gpu_order_num":0,"machine_sku_info":[{"type":"payg","level_config":[{"level":"LV0","discounted_price":2180}]}]}]}}`), []providertest.Want{
			{GPU: "RTX 4090", Raw: "RTX 4090", Free: "4", Total: "nil", Price: 2.18},
		}},
		{"string numbers and junk rows", []byte(`[1, "x", null, {"gpu_name":""}, {"gpu_name":"RTX 4090","gpu_idle_num":"2","payg_price":"2180"}]`), []providertest.Want{
			{GPU: "RTX 4090", Raw: "RTX 4090", Free: "2", Total: "nil", Price: 2.18},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := autodl.ParseMachines(c, tt.body, providertest.FixedNow)
			if err != nil {
				t.Fatalf("ParseAutoDLMachines: %v", err)
			}
			providertest.CheckOffers(t, got, tt.want, "autodl", "CNY", stock.SourceLive)
		})
	}
}

func TestParseAutoDLInstances(t *testing.T) {
	c := providertest.LoadCatalog(t)
	got, err := autodl.ParseInstances(c, providertest.Fixture(t, providertest.VerbatimDir, "autodl-web-instance-list-1.json"), providertest.FixedNow)
	if err != nil {
		t.Fatalf("ParseAutoDLInstances: %v", err)
	}
	providertest.CheckOffers(t, got, []providertest.Want{
		{GPU: "RTX 3090", Raw: "RTX 3090", Region: "北京A区", Free: "1", Total: "8", Price: 1.577, Note: "641机"},
	}, "autodl", "CNY", stock.SourceLive)

	// payg_price of an instance covers req_gpu_amount GPUs.
	got, err = autodl.ParseInstances(c, []byte(`{"code":"Success","data":{"list":[{"snapshot_gpu_alias_name":"RTX 4090","req_gpu_amount":4,"payg_price":9536,"gpu_all_num":8,"gpu_idle_num":0}]}}`), providertest.FixedNow)
	if err != nil {
		t.Fatal(err)
	}
	providertest.CheckOffers(t, got, []providertest.Want{{GPU: "RTX 4090", Raw: "RTX 4090", Free: "0", Total: "8", Price: 2.384}}, "autodl", "CNY", stock.SourceLive)
}

func TestParseAutoDLStockShapes(t *testing.T) {
	c := providertest.LoadCatalog(t)
	tests := []struct {
		name    string
		body    string
		n       int
		wantErr string
	}{
		{"envelope with dict data", `{"code":"Success","data":{"NVIDIA A40":{"gpu_name":"NVIDIA A40","idle_gpu_num":1,"total_gpu_num":2}}}`, 1, ""},
		{"extra outer keys ignored", `{"code":"Success","data":[{"RTX 4090":{"idle_gpu_num":1,"total_gpu_num":2},"chip_corp":"nvidia"}]}`, 1, ""},
		{"null data", `{"code":"Success","msg":"","data":null}`, 0, "answered an empty list"},
		{"OK code accepted", `{"code":"OK","data":[{"RTX 4090":{"idle_gpu_num":0,"total_gpu_num":2}}]}`, 1, ""},
		{"unknown GPU kept raw", `[{"Ascend 910B":{"idle_gpu_num":2,"total_gpu_num":8}}]`, 1, ""},
		{"wrong shape", `{"code":"Success","data":{"list":[]}}`, 0, "no GPU stock entries"},
		{"data is a string", `{"code":"Success","data":"x"}`, 0, "not a list or object"},
		{"bad code", `{"code":"BadRequest","msg":"无当前资源访问权限"}`, 0, "autodl: API error (BadRequest): 无当前资源访问权限"},
		{"authorize failed", `{"code":"AuthorizeFailed","msg":"expired","data":null}`, 0, "autodl: token rejected (AuthorizeFailed): expired"},
		{"trailing garbage", `[] []`, 0, "malformed JSON"},
		{"empty body", ``, 0, "malformed JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := autodl.ParseStock(c, []byte(tt.body), providertest.FixedNow)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				if got != nil {
					t.Errorf("offers with an error: %v", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("err %v", err)
			}
			if len(got) != tt.n {
				t.Fatalf("%d offers, want %d: %+v", len(got), tt.n, got)
			}
			for _, o := range got {
				providertest.CheckOfferSane(t, o)
			}
		})
	}
	got, _ := autodl.ParseStock(c, []byte(`[{"Ascend 910B":{"idle_gpu_num":2,"total_gpu_num":8}}]`), providertest.FixedNow)
	if len(got) == 1 && (got[0].GPU != "Ascend 910B" && got[0].RawGPU != "Ascend 910B") {
		t.Errorf("unknown GPU: %+v", got[0])
	}
}

func TestAutoDLErrors(t *testing.T) {
	authFailed := providertest.Fixture(t, "testdata", "autodl-authorize-failed.json")
	malformed := providertest.Fixture(t, "testdata", "malformed.json")
	type tc struct {
		name    string
		handler func(http.ResponseWriter, *http.Request, map[string]any)
		hang    bool
		kind    error
		wantErr []string // substrings; empty means no error expected
	}
	tests := []tc{
		{name: "HTTP 401", handler: providertest.ServeBytes(401, []byte(`{"code":"Unauthorized","msg":"no token"}`)), kind: stock.ErrUnauthorized,
			wantErr: []string{"autodl", "credentials rejected", "HTTP 401", "no token"}},
		{name: "HTTP 429", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(429)
		}, kind: stock.ErrRateLimited, wantErr: []string{"autodl", "rate limited", "HTTP 429", "retry after 30s"}},
		{name: "HTTP 500", handler: providertest.ServeBytes(500, []byte("internal error\n")), kind: stock.ErrServer,
			wantErr: []string{"autodl", "server error", "HTTP 500", "internal error"}},
		{name: "AuthorizeFailed in HTTP 200", handler: providertest.ServeBytes(200, authFailed), kind: stock.ErrUnauthorized,
			wantErr: []string{"autodl: token rejected (AuthorizeFailed): token invalid or expired"}},
		{name: "malformed JSON", handler: providertest.ServeBytes(200, malformed), kind: stock.ErrBadResponse,
			wantErr: []string{"autodl", "malformed JSON"}},
		{name: "HTML page", handler: providertest.ServeBytes(200, []byte("<html>gateway</html>")), kind: stock.ErrBadResponse,
			wantErr: []string{"autodl", "malformed JSON"}},
		{name: "hangs past the timeout", hang: true, kind: nil,
			wantErr: []string{"autodl", "timed out after 150ms", "/api/v1/dev/machine/gpu_stock"}},
	}
	for _, mode := range []struct {
		name string
		o    autodl.Options
	}{
		{"esd-global", autodl.Options{}},
		{"esd-region", autodl.Options{Regions: []string{"westDC2"}}},
		{"machine-list", autodl.Options{UseMachineList: true}},
	} {
		for _, tt := range tests {
			t.Run(mode.name+"/"+tt.name, func(t *testing.T) {
				var srv *providertest.FakeServer
				if tt.hang {
					srv = providertest.HangingServer(t)
				} else {
					srv = providertest.NewFakeServer(t, tt.handler)
				}
				o := mode.o
				o.Timeout = 150 * time.Millisecond
				start := time.Now()
				got, err := newAutoDL(t, srv.URL, o).Fetch(providertest.FetchCtx(t))
				if time.Since(start) > 5*time.Second {
					t.Errorf("Fetch took %v", time.Since(start))
				}
				if err == nil {
					t.Fatalf("no error; offers %+v", got)
				}
				if got != nil {
					t.Errorf("offers with an error: %+v", got)
				}
				msg := err.Error()
				for _, s := range tt.wantErr {
					if tt.hang && strings.HasPrefix(s, "/api") {
						continue // the path depends on the mode
					}
					if !strings.Contains(msg, s) {
						t.Errorf("error %q does not contain %q", msg, s)
					}
				}
				if tt.kind != nil && !errors.Is(err, tt.kind) {
					t.Errorf("error %q is not %v", msg, tt.kind)
				}
				if tt.name == "HTTP 429" {
					var ae *httpx.APIError
					if !errors.As(err, &ae) || ae.RetryAfter != 30*time.Second || ae.StatusCode != 429 {
						t.Errorf("APIError: %+v", ae)
					}
				}
			})
		}
	}
}

// TestAutoDLEmptyAnswers: the ESD stock endpoints list every GPU type and
// the machine list every machine with an idle GPU, so an answer that lists
// nothing is unknown (stock.ErrEmpty: the Board keeps the last offers,
// stale), never sold out; a GPU type or machine listed with 0 idle is a
// known zero.
func TestAutoDLEmptyAnswers(t *testing.T) {
	const machine = `{"gpu_name":"RTX 4090","gpu_idle_num":%s,"gpu_number":8,"payg_price":2180,"region_name":"西北B区"}`
	row := func(idle string) string { return strings.ReplaceAll(machine, "%s", idle) }
	esd := []providertest.EmptyCase{
		{Name: "data empty list", Body: string(providertest.Fixture(t, "testdata", "autodl-esd-empty.json")), Empty: true},
		{Name: "data null", Body: `{"code":"Success","msg":"","data":null}`, Empty: true},
		{Name: "data missing", Body: `{"code":"Success","msg":""}`, Empty: true},
		{Name: "data empty object", Body: `{"code":"Success","data":{}}`, Empty: true},
		{Name: "explicit zero", Body: `{"code":"Success","data":[{"RTX 4090":{"idle_gpu_num":0,"total_gpu_num":9}}]}`, Free: []string{"0"}},
		{Name: "normal", Body: `{"code":"Success","data":[{"RTX 4090":{"idle_gpu_num":5,"total_gpu_num":9}}]}`, Free: []string{"5"}},
	}
	machines := []providertest.EmptyCase{
		{Name: "list empty", Body: string(providertest.Fixture(t, "testdata", "autodl-machine-list-empty.json")), Empty: true},
		{Name: "list null", Body: `{"code":"Success","data":{"list":null,"max_page":0}}`, Empty: true},
		{Name: "data null", Body: `{"code":"Success","data":null}`, Empty: true},
		{Name: "explicit zero", Body: `{"code":"Success","data":{"list":[` + row("0") + `],"max_page":1}}`, Free: []string{"0"}},
		{Name: "normal", Body: `{"code":"Success","data":{"list":[` + row("5") + `],"max_page":1}}`, Free: []string{"5"}},
	}
	c := providertest.LoadCatalog(t)
	for _, mode := range []struct {
		name  string
		o     autodl.Options
		cases []providertest.EmptyCase
		parse func([]byte) ([]stock.Offer, error)
	}{
		{"esd-global", autodl.Options{}, esd, func(b []byte) ([]stock.Offer, error) { return autodl.ParseStock(c, b, providertest.FixedNow) }},
		// AutoDL answers an unknown region sign (a web sign like
		// "west-B") with an empty success too: unknown, and the error
		// names the region.
		{"esd-region", autodl.Options{Regions: []string{"west-B"}}, esd, nil},
		{"machine-list", autodl.Options{UseMachineList: true}, machines, func(b []byte) ([]stock.Offer, error) { return autodl.ParseMachines(c, b, providertest.FixedNow) }},
	} {
		for _, tc := range mode.cases {
			t.Run(mode.name+"/"+tc.Name, func(t *testing.T) {
				srv := providertest.NewFakeServer(t, providertest.ServeBytes(200, []byte(tc.Body)))
				got, err := newAutoDL(t, srv.URL, mode.o).Fetch(providertest.FetchCtx(t))
				providertest.CheckEmptyCase(t, tc, got, err)
				if n := len(srv.Requests()); n != 1 {
					t.Errorf("%d requests, want 1", n)
				}
				if tc.Empty && len(mode.o.Regions) > 0 && !strings.Contains(err.Error(), "(region west-B)") {
					t.Errorf("error %q does not name the region", err)
				}
				if mode.parse != nil {
					got, err = mode.parse([]byte(tc.Body))
					providertest.CheckEmptyCase(t, tc, got, err)
				}
				// A recording of unknown kind follows the same rule.
				got, err = autodl.ParseAny(c, []byte(tc.Body), providertest.FixedNow)
				providertest.CheckEmptyCase(t, tc, got, err)
			})
		}
	}

	// With several regions, one answering an empty list fails the whole
	// fetch: the others' figures alone would read its GPUs as sold out.
	full := providertest.Fixture(t, providertest.FixturesDir, "autodl-esd-region-gpu_stock.json")
	srv := providertest.NewFakeServer(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["region_sign"] == "beijingDC1" {
			providertest.ServeBytes(200, []byte(`{"code":"Success","data":[]}`))(w, r, body)
			return
		}
		providertest.ServeBytes(200, full)(w, r, body)
	})
	got, err := newAutoDL(t, srv.URL, autodl.Options{Regions: []string{"westDC2", "beijingDC1"}}).Fetch(providertest.FetchCtx(t))
	if got != nil || !errors.Is(err, stock.ErrEmpty) || !strings.Contains(err.Error(), "(region beijingDC1)") {
		t.Errorf("one region empty: %d offers, %v", len(got), err)
	}

	// An empty page after a full one only ends the machine list.
	var rows []string
	for range 20 {
		rows = append(rows, row("1"))
	}
	srv = providertest.NewFakeServer(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		b := `{"code":"Success","data":{"list":[],"max_page":3}}`
		if body["page_index"] == float64(1) {
			b = `{"code":"Success","data":{"list":[` + strings.Join(rows, ",") + `],"max_page":3}}`
		}
		providertest.ServeBytes(200, []byte(b))(w, r, body)
	})
	got, err = newAutoDL(t, srv.URL, autodl.Options{UseMachineList: true}).Fetch(providertest.FetchCtx(t))
	if err != nil || len(got) != 20 || len(srv.Requests()) != 2 {
		t.Errorf("empty second page: %d offers, %d requests, %v", len(got), len(srv.Requests()), err)
	}

	// An empty instance list says the user has no instance, not that
	// nothing is free: no offers, no error, nothing decided.
	if got, err := autodl.ParseInstances(c, []byte(`{"code":"Success","data":{"list":[]}}`), providertest.FixedNow); got != nil || err != nil {
		t.Errorf("empty instance list: %v, %v", got, err)
	}
}

func TestAutoDLNoToken(t *testing.T) {
	p := autodl.New(providertest.LoadCatalog(t), autodl.Options{Options: httpx.Options{BaseURL: "http://127.0.0.1:1"}})
	if p.Name() != "autodl" {
		t.Errorf("Name %q", p.Name())
	}
	_, err := p.Fetch(providertest.FetchCtx(t))
	if !errors.Is(err, stock.ErrNotConfigured) || !strings.Contains(err.Error(), "autodl") {
		t.Fatalf("err %v, want ErrNotConfigured naming autodl", err)
	}
}

func TestAutoDLConnectionRefused(t *testing.T) {
	srv := providertest.NewFakeServer(t, providertest.ServeBytes(200, nil))
	url := srv.URL
	srv.Close()
	_, err := newAutoDL(t, url, autodl.Options{}).Fetch(providertest.FetchCtx(t))
	if err == nil || !strings.HasPrefix(err.Error(), "autodl: GET /api/v1/dev/machine/gpu_stock") {
		t.Fatalf("err %v", err)
	}
}

func TestAutoDLOversizedBody(t *testing.T) {
	big := make([]byte, httpx.MaxResponseBytes+10)
	for i := range big {
		big[i] = ' '
	}
	srv := providertest.NewFakeServer(t, providertest.ServeBytes(200, big))
	_, err := newAutoDL(t, srv.URL, autodl.Options{}).Fetch(providertest.FetchCtx(t))
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("err %v", err)
	}
}

func TestAutoDLCallerDeadline(t *testing.T) {
	srv := providertest.HangingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := newAutoDL(t, srv.URL, autodl.Options{Options: httpx.Options{Timeout: time.Minute}}).Fetch(ctx)
	if err == nil || !strings.Contains(err.Error(), "autodl") || !strings.Contains(err.Error(), "deadline exceeded") ||
		strings.Contains(err.Error(), "timed out after 1m") || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
}

// TestAutoDLSkuPrice: without payg_price the price is the last level of
// machine_sku_info (stock-apis.md: level_config[-1].discounted_price).
func TestAutoDLSkuPrice(t *testing.T) {
	c := providertest.LoadCatalog(t)
	var doc map[string]any
	if err := json.Unmarshal(providertest.Fixture(t, providertest.FixturesDir, "autodl-web-user-machine-list.json"), &doc); err != nil {
		t.Fatal(err)
	}
	rows := doc["data"].(map[string]any)["list"].([]any)
	for _, r := range rows {
		delete(r.(map[string]any), "payg_price")
	}
	body, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := autodl.ParseMachines(c, body, providertest.FixedNow)
	if err != nil {
		t.Fatal(err)
	}
	// 063机 has levels LV0 2180, LV1 2070; 091机 one level 1980.
	if len(got) != 2 || !providertest.Approx(got[0].CNYPerGPUHour, 2.07) || !providertest.Approx(got[0].OriginalPrice, 2.07) || !providertest.Approx(got[1].CNYPerGPUHour, 1.98) {
		t.Errorf("sku prices: %+v", got)
	}

	// payg_price still wins; a last level without a price falls back; a
	// non-payg SKU is skipped.
	tests := []struct {
		name string
		row  string
		want float64
	}{
		{"payg_price wins", `{"gpu_name":"RTX 4090","payg_price":2180,"machine_sku_info":[{"type":"payg","level_config":[{"discounted_price":2180},{"discounted_price":2070}]}]}`, 2.18},
		{"last level unpriced", `{"gpu_name":"RTX 4090","machine_sku_info":[{"type":"payg","level_config":[{"discounted_price":2180},{"discounted_price":2070},{"level":"LV2"}]}]}`, 2.07},
		{"non-payg SKU skipped", `{"gpu_name":"RTX 4090","machine_sku_info":[{"type":"monthly","level_config":[{"discounted_price":900000}]},{"type":"payg","level_config":[{"discounted_price":2000},{"discounted_price":1900}]}]}`, 1.9},
		{"no levels", `{"gpu_name":"RTX 4090","machine_sku_info":[{"type":"payg","level_config":[]}]}`, 0},
		{"junk", `{"gpu_name":"RTX 4090","machine_sku_info":[null,1,{"level_config":[null,{"discounted_price":-5}]}]}`, 0},
	}
	for _, tt := range tests {
		got, err := autodl.ParseMachines(c, []byte(`[`+tt.row+`]`), providertest.FixedNow)
		if err != nil || len(got) != 1 || !providertest.Approx(got[0].CNYPerGPUHour, tt.want) {
			t.Errorf("%s: %+v, %v; want price %v", tt.name, got, err, tt.want)
		}
	}
}

func FuzzParseAutoDLStock(f *testing.F) {
	providertest.Seed(f, "autodl-")
	c := providertest.LoadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := autodl.ParseStock(c, b, providertest.FixedNow)
		providertest.CheckParsed(t, offers, err)
	})
}

func FuzzParseAutoDLMachines(f *testing.F) {
	providertest.Seed(f, "autodl-")
	c := providertest.LoadCatalog(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		offers, err := autodl.ParseMachines(c, b, providertest.FixedNow)
		providertest.CheckParsed(t, offers, err)
		offers, err = autodl.ParseInstances(c, b, providertest.FixedNow)
		providertest.CheckParsed(t, offers, err)
	})
}
