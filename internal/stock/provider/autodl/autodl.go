// Package autodl reads AutoDL's GPU stock: the developer (ESD) stock
// endpoints per region or globally, or the web machine list, as
// stock.Offers priced in CNY per GPU-hour. Parse* read one answer each
// (also used to replay recordings); New builds the stock.Provider.
package autodl

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// AutoDL API paths (see shared/reference/stock-apis.md §1).
const (
	autodlGlobalStockPath = "/api/v1/dev/machine/gpu_stock"
	autodlRegionStockPath = "/api/v1/dev/machine/region/gpu_stock"
	autodlMachineListPath = "/api/v1/user/machine/list"

	// DefaultBaseURL is the developer API host.
	DefaultBaseURL = "https://api.autodl.com"

	autodlPlatform = "autodl"
	// autodlMachinePageSize is the page size of the machine list request
	// (gpuhunter's value).
	autodlMachinePageSize = 20
	// MaxPages caps the machine list paging whatever max_page says.
	MaxPages = 50
)

// Options configures the AutoDL provider.
type Options struct {
	// BaseURL defaults to https://api.autodl.com.
	BaseURL string
	// Token is the developer token (控制台 → 设置 → 开发者Token) or, for the
	// machine list, a web login token. Sent raw as Authorization, no Bearer.
	Token string
	// Regions are region signs. With the ESD stock API they are ESD signs
	// ("westDC2", "beijingDC1") and each is queried separately; empty means
	// the global stock endpoint. With UseMachineList they are web signs
	// ("west-B", "beijing-A") sent as region_sign_list; empty means all.
	Regions []string
	// UseMachineList switches from the official ESD stock API (counts, no
	// price) to the undocumented web-console machine list (one offer per
	// machine with idle GPUs, with price).
	UseMachineList bool
	// Timeout bounds one whole Fetch; default 10s.
	Timeout time.Duration
	// HTTPClient defaults to a plain client; deadlines come from the context.
	HTTPClient *http.Client
	// Now defaults to time.Now.
	Now func() time.Time
}

// Provider fetches live stock from AutoDL.
//
// With the ESD stock API an offer carries Free/Total per GPU type (and
// region) and no price (CNYPerGPUHour 0). An empty ESD answer is ambiguous:
// AutoDL answers an unknown region sign (e.g. a web sign like "west-B") with
// an empty success, which is indistinguishable from "nothing of any kind"; it
// yields zero offers and no error.
//
// With the machine list, only machines with at least one idle GPU are
// requested (gpuhunter's gpu_idle_num filter), so a GPU type missing from
// the answer means none is idle on the listed machines.
type Provider struct {
	c *catalog.Catalog
	o Options
}

// New returns an AutoDL provider. A missing token is reported by
// Fetch (wrapping stock.ErrNotConfigured), not here.
func New(c *catalog.Catalog, o Options) *Provider {
	httpx.Defaults(&o.BaseURL, DefaultBaseURL, &o.Timeout, &o.HTTPClient, &o.Now)
	return &Provider{c: c, o: o}
}

// Name returns "autodl".
func (a *Provider) Name() string { return autodlPlatform }

// Fetch queries AutoDL. Any failed request fails the whole fetch: partial
// answers (some regions or pages missing) would read as sold out.
func (a *Provider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	if strings.TrimSpace(a.o.Token) == "" {
		return nil, fmt.Errorf("%s: no developer token configured: %w", autodlPlatform, stock.ErrNotConfigured)
	}
	ctx, cancel := httpx.WithTimeout(ctx, a.o.Timeout)
	defer cancel()
	if a.o.UseMachineList {
		return a.fetchMachines(ctx)
	}
	return a.fetchStock(ctx)
}

func (a *Provider) header() http.Header {
	return http.Header{"Authorization": {strings.TrimSpace(a.o.Token)}}
}

func (a *Provider) fetchStock(ctx context.Context) ([]stock.Offer, error) {
	at := a.o.Now()
	if len(a.o.Regions) == 0 {
		body, err := a.call(ctx, http.MethodGet, autodlGlobalStockPath, nil)
		if err != nil {
			return nil, err
		}
		offers, err := ParseStock(a.c, body, at)
		Mark(offers, stock.EndpointESDGlobal)
		return offers, err
	}
	var out []stock.Offer
	for _, region := range a.o.Regions {
		body, err := a.call(ctx, http.MethodPost, autodlRegionStockPath, map[string]any{"region_sign": region})
		if err != nil {
			return nil, fmt.Errorf("%w (region %s)", err, region)
		}
		offers, err := ParseStock(a.c, body, at)
		if err != nil {
			return nil, fmt.Errorf("%w (region %s)", err, region)
		}
		Mark(offers, stock.EndpointESDRegion)
		for i := range offers {
			offers[i].Region = region
		}
		out = append(out, offers...)
	}
	return out, nil
}

func (a *Provider) fetchMachines(ctx context.Context) ([]stock.Offer, error) {
	at := a.o.Now()
	regions := a.o.Regions
	if regions == nil {
		regions = []string{}
	}
	var out []stock.Offer
	for page := 1; page <= MaxPages; page++ {
		req := map[string]any{
			"charge_type":              "payg",
			"region_sign":              "",
			"gpu_type_name":            []string{},
			"machine_tag_name":         []string{},
			"gpu_idle_num":             1,
			"mount_net_disk":           false,
			"instance_disk_size_order": "",
			"date_range":               "",
			"date_from":                "",
			"date_to":                  "",
			"page_index":               page,
			"page_size":                autodlMachinePageSize,
			"pay_price_order":          "",
			"gpu_idle_type":            "",
			"default_order":            true,
			"region_sign_list":         regions,
		}
		body, err := a.call(ctx, http.MethodPost, autodlMachineListPath, req)
		if err != nil {
			return nil, fmt.Errorf("%w (page %d)", err, page)
		}
		offers, rows, maxPage, err := parseAutoDLMachines(a.c, body, at)
		if err != nil {
			return nil, fmt.Errorf("%w (page %d)", err, page)
		}
		Mark(offers, stock.EndpointWebMachines)
		out = append(out, offers...)
		if rows == 0 || page >= maxPage {
			break
		}
	}
	return out, nil
}

// Mark records which endpoint offers came from, what their counts
// cover and, for the developer (ESD) stock endpoints, that an idle count
// may not be what can be created.
func Mark(offers []stock.Offer, endpoint string) {
	scope := stock.ScopeRegion
	switch endpoint {
	case stock.EndpointESDGlobal:
		scope = stock.ScopePlatform
	case stock.EndpointWebMachines:
		scope = stock.ScopeMachine
	}
	for i := range offers {
		offers[i].Endpoint, offers[i].Scope = endpoint, scope
		if endpoint == stock.EndpointESDGlobal || endpoint == stock.EndpointESDRegion {
			if !offers[i].HasCaveat(stock.CaveatMayNotCreate) {
				offers[i].Caveats = append(offers[i].Caveats, stock.CaveatMayNotCreate)
			}
		}
	}
}

// call sends one request and checks the HTTP status; the envelope code is
// checked by the parsers.
func (a *Provider) call(ctx context.Context, method, path string, payload any) ([]byte, error) {
	r, err := httpx.Do(ctx, a.o.HTTPClient, autodlPlatform, method, httpx.JoinURL(a.o.BaseURL, path), path, a.header(), payload)
	if err != nil {
		return nil, err
	}
	if r.Status != http.StatusOK {
		return nil, httpx.StatusError(autodlPlatform, method, path, r)
	}
	return r.Body, nil
}

// autodlData unwraps AutoDL's {"code","msg","data"} envelope. A code other
// than "Success" (or "OK") is an *httpx.APIError; AuthorizeFailed (an expired or
// wrong token, sent with HTTP 200) wraps stock.ErrUnauthorized. A body without
// the envelope (an excerpt of data alone) is returned as is.
func autodlData(body []byte) (any, error) {
	v, err := httpx.DecodeJSON(body)
	if err != nil {
		return nil, httpx.Malformed(autodlPlatform, "AutoDL response", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return v, nil
	}
	code, hasCode := m["code"]
	_, hasData := m["data"]
	if !hasCode && !hasData {
		return v, nil
	}
	c := httpx.Str(code)
	if hasCode && c != "Success" && c != "OK" {
		msg := httpx.Str(m["msg"])
		var kind error
		var text string
		switch {
		case c == "AuthorizeFailed" || strings.Contains(strings.ToLower(c), "auth"):
			kind = stock.ErrUnauthorized
			text = fmt.Sprintf("%s: token rejected (%s)", autodlPlatform, c)
		case c == "":
			kind = stock.ErrBadResponse
			text = fmt.Sprintf("%s: response without a code string", autodlPlatform)
		default:
			text = fmt.Sprintf("%s: API error (%s)", autodlPlatform, c)
		}
		if msg != "" {
			text += ": " + msg
		}
		return nil, httpx.NewAPIError(autodlPlatform, http.StatusOK, c, msg, kind, text)
	}
	return m["data"], nil
}

// ParseStock parses an AutoDL GPU stock answer: the ESD
// gpu_stock/region gpu_stock response, the web /machine/region/gpu_type
// response, and AutoDL private cloud's dict form. Accepted shapes, with or
// without the {"code","msg","data"} envelope:
//
//	[{"RTX 4090":{"idle_gpu_num":3,"total_gpu_num":9}}, ...]
//	{"NVIDIA GeForce RTX 4090":{"gpu_name":"...","idle_gpu_num":7,"total_gpu_num":8}, ...}
//
// Offers carry Free and Total, no price, Currency CNY, stock.Source live and
// ObservedAt at; Region is left empty (the caller knows it). An empty data
// list gives no offers and no error.
func ParseStock(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	data, err := autodlData(body)
	if err != nil {
		return nil, err
	}
	var out []stock.Offer
	seen := 0
	add := func(key string, v any) {
		st, ok := v.(map[string]any)
		if !ok {
			return
		}
		free, total := httpx.Count(st["idle_gpu_num"]), httpx.Count(st["total_gpu_num"])
		_, hasIdle := st["idle_gpu_num"]
		_, hasTotal := st["total_gpu_num"]
		if !hasIdle && !hasTotal {
			return
		}
		seen++
		raw := httpx.Str(st["gpu_name"])
		if raw == "" {
			raw = strings.TrimSpace(key)
		}
		if raw == "" {
			return
		}
		out = append(out, stock.Offer{
			Platform:        autodlPlatform,
			GPU:             httpx.ResolveGPU(c, raw),
			RawGPU:          raw,
			GPUsPerInstance: 1,
			Free:            free,
			Total:           total,
			Currency:        "CNY",
			Source:          stock.SourceLive,
			ObservedAt:      at,
			Verified:        true,
			Note:            "stock API, no price",
			Scope:           stock.ScopeRegion,
		})
	}
	addMap := func(m map[string]any) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			add(k, m[k])
		}
	}
	n := 0
	switch d := data.(type) {
	case nil:
		return nil, nil
	case []any:
		n = len(d)
		for _, el := range d {
			if m, ok := el.(map[string]any); ok {
				addMap(m)
			}
		}
	case map[string]any:
		n = len(d)
		addMap(d)
	default:
		return nil, httpx.BadResponse("%s: stock data is a %s, not a list or object", autodlPlatform, httpx.JSONKind(data))
	}
	if n > 0 && seen == 0 {
		return nil, httpx.BadResponse("%s: no GPU stock entries (idle_gpu_num/total_gpu_num) in %d data elements", autodlPlatform, n)
	}
	return out, nil
}

// ParseMachines parses the web console machine list
// (POST /api/v1/user/machine/list): {"data":{"list":[...],"max_page":N}},
// or a bare list of machine rows. One offer per machine: GPU from gpu_name,
// price payg_price/1000 CNY per GPU-hour (without payg_price, the last
// level of machine_sku_info's payg SKU), Region region_name, Free
// gpu_idle_num (else gpu_number − gpu_used, else unknown), Total
// gpu_number. gpu_order_num is ignored: its meaning is disputed.
func ParseMachines(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	offers, _, _, err := parseAutoDLMachines(c, body, at)
	return offers, err
}

// parseAutoDLMachines also returns the number of rows and max_page (1 when
// absent).
func parseAutoDLMachines(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, int, int, error) {
	rows, maxPage, err := autodlRows(body, "machine list")
	if err != nil {
		return nil, 0, 0, err
	}
	var out []stock.Offer
	for _, el := range rows {
		m, ok := el.(map[string]any)
		if !ok {
			continue
		}
		raw := httpx.Str(m["gpu_name"])
		if raw == "" {
			continue
		}
		var free *int
		if _, ok := m["gpu_idle_num"]; ok {
			free = httpx.Count(m["gpu_idle_num"])
		} else if n, ok1 := httpx.Num(m["gpu_number"]); ok1 {
			if u, ok2 := httpx.Num(m["gpu_used"]); ok2 {
				free = httpx.Count(n - u)
			}
		}
		price := milliCNY(m["payg_price"])
		if price == 0 {
			price = skuPrice(m["machine_sku_info"])
		}
		note := ""
		if alias := httpx.Str(m["machine_alias"]); alias != "" {
			note = "machine " + alias
		}
		out = append(out, stock.Offer{
			Platform:        autodlPlatform,
			GPU:             httpx.ResolveGPU(c, raw),
			RawGPU:          raw,
			GPUsPerInstance: 1,
			Free:            free,
			Total:           httpx.Count(m["gpu_number"]),
			CNYPerGPUHour:   price,
			OriginalPrice:   price,
			Currency:        "CNY",
			Region:          regionOf(m),
			Source:          stock.SourceLive,
			ObservedAt:      at,
			Verified:        true,
			Note:            note,
			Scope:           stock.ScopeMachine,
		})
	}
	if len(rows) > 0 && len(out) == 0 {
		// Rows, but none a machine (another endpoint's answer saved under
		// this name): an answer we cannot read, never "nothing idle".
		return nil, 0, 0, httpx.BadResponse("%s: no machine rows (gpu_name) in %d list elements", autodlPlatform, len(rows))
	}
	return out, len(rows), maxPage, nil
}

// ParseInstances parses the web console instance list
// (POST /api/v1/instance). Each instance row describes the host machine of
// one of the user's instances: GPU snapshot_gpu_alias_name, Free
// gpu_idle_num, Total gpu_all_num, Region region_name. payg_price is the
// instance's price in 1/1000 CNY per hour for req_gpu_amount GPUs, so the
// per-GPU price divides by req_gpu_amount.
func ParseInstances(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	rows, _, err := autodlRows(body, "instance list")
	if err != nil {
		return nil, err
	}
	var out []stock.Offer
	for _, el := range rows {
		m, ok := el.(map[string]any)
		if !ok {
			continue
		}
		raw := httpx.Str(m["snapshot_gpu_alias_name"])
		if raw == "" {
			raw = httpx.Str(m["gpu_name"])
		}
		if raw == "" {
			continue
		}
		price := milliCNY(m["payg_price"])
		if n, ok := httpx.Num(m["req_gpu_amount"]); ok && n >= 1 && n <= httpx.MaxCount {
			price /= n
		}
		note := "host of an instance"
		if alias := httpx.Str(m["machine_alias"]); alias != "" {
			note = "host of instance on machine " + alias
		}
		out = append(out, stock.Offer{
			Platform:        autodlPlatform,
			GPU:             httpx.ResolveGPU(c, raw),
			RawGPU:          raw,
			GPUsPerInstance: 1,
			Free:            httpx.Count(m["gpu_idle_num"]),
			Total:           httpx.Count(m["gpu_all_num"]),
			CNYPerGPUHour:   price,
			OriginalPrice:   price,
			Currency:        "CNY",
			Region:          regionOf(m),
			Source:          stock.SourceLive,
			ObservedAt:      at,
			Verified:        true,
			Note:            note,
			Scope:           stock.ScopeMachine,
		})
	}
	return out, nil
}

// autodlRows unwraps a paged list: data.list with data.max_page, or a bare
// list. Null data or list is an empty page.
func autodlRows(body []byte, what string) ([]any, int, error) {
	data, err := autodlData(body)
	if err != nil {
		return nil, 0, err
	}
	switch d := data.(type) {
	case nil:
		return nil, 1, nil
	case []any:
		return d, 1, nil
	case map[string]any:
		maxPage := 1
		if f, ok := httpx.Num(d["max_page"]); ok && f >= 1 {
			maxPage = int(min(f, MaxPages))
		}
		switch l := d["list"].(type) {
		case nil:
			if _, ok := d["list"]; ok {
				return nil, maxPage, nil
			}
			return nil, 0, httpx.BadResponse("%s: %s data has no list", autodlPlatform, what)
		case []any:
			return l, maxPage, nil
		default:
			return nil, 0, httpx.BadResponse("%s: %s data.list is a %s, not a list", autodlPlatform, what, httpx.JSONKind(l))
		}
	}
	return nil, 0, httpx.BadResponse("%s: %s data is a %s, not a list or object", autodlPlatform, what, httpx.JSONKind(data))
}

// milliCNY converts AutoDL's 1/1000 CNY amounts; 0 when absent or negative.
func milliCNY(v any) float64 {
	f, ok := httpx.Num(v)
	if !ok || f <= 0 {
		return 0
	}
	return f / 1000
}

// skuPrice reads the price from machine_sku_info, in CNY: the first SKU
// of type payg (or without a type), its last level_config entry's
// discounted_price (stock-apis.md: machine_sku_info[0].level_config[-1]).
// A last level without a positive price falls back to the level before.
func skuPrice(v any) float64 {
	skus, _ := v.([]any)
	for _, s := range skus {
		sm, _ := s.(map[string]any)
		if sm == nil {
			continue
		}
		if t := httpx.Str(sm["type"]); t != "" && t != "payg" {
			continue
		}
		levels, _ := sm["level_config"].([]any)
		for i := len(levels) - 1; i >= 0; i-- {
			if lm, ok := levels[i].(map[string]any); ok {
				if p := milliCNY(lm["discounted_price"]); p > 0 {
					return p
				}
			}
		}
	}
	return 0
}

func regionOf(m map[string]any) string {
	if r := httpx.Str(m["region_name"]); r != "" {
		return r
	}
	return httpx.Str(m["region_sign"])
}
