// Package autodl reads AutoDL's GPU stock: the developer (ESD) stock
// endpoints per region or globally, or the web machine list, as
// stock.Offers priced in CNY per GPU-hour. Parse* read one answer each
// (also used to replay recordings); New builds the stock.Provider.
package autodl

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// AutoDL API paths (see docs/reference/stock-apis.md §1).
const (
	autodlGlobalStockPath = "/api/v1/dev/machine/gpu_stock"
	autodlRegionStockPath = "/api/v1/dev/machine/region/gpu_stock"
	autodlMachineListPath = "/api/v1/user/machine/list"

	// DefaultBaseURL is the developer API host.
	DefaultBaseURL = "https://api.autodl.com"

	autodlPlatform = "autodl"
	// TokenEnv is the environment variable holding the developer token.
	TokenEnv = "AUTODL_TOKEN"
	// autodlMachinePageSize is the page size of the machine list request
	// (gpuhunter's value).
	autodlMachinePageSize = 20
	// MaxPages caps the machine list paging whatever max_page says.
	MaxPages = 50
)

// Options configures the AutoDL provider.
type Options struct {
	// Options: BaseURL defaults to DefaultBaseURL
	// (https://api.autodl.com), Timeout (one whole Fetch, all regions and
	// pages) to 10s.
	httpx.Options
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
}

// Provider fetches live stock from AutoDL (Name "autodl").
//
// With the ESD stock API an offer carries Free/Total per GPU type (and
// region) and no price (CNYPerGPUHour 0). With the machine list, only
// machines with at least one idle GPU are requested (gpuhunter's
// gpu_idle_num filter), so a GPU type missing from a non-empty answer
// means none is idle on the listed machines.
//
// Empty answers. Both endpoints list every GPU type (ESD) or every machine
// with an idle GPU (machine list) of the platform or region, so an answer
// that lists nothing is unknown, never sold out: data [], {}, null or
// missing from the ESD stock endpoints (global, or any one region: AutoDL
// also answers an unknown region sign, e.g. a web sign like "west-B", with
// an empty success), or a machine list whose first page has no rows. Fetch
// then fails with stock.ErrEmpty and the Board keeps the last offers,
// marked stale. A GPU type listed with idle_gpu_num 0, or a machine with
// gpu_idle_num 0, is an explicit zero and stays one.
type Provider struct {
	httpx.Client
	o Options
}

// Build is New from the provider's settings (its registry line).
func Build(c *catalog.Catalog, s httpx.Settings) stock.Provider {
	return New(c, Options{Options: s.HTTP(), Token: s.Token, Regions: s.Regions, UseMachineList: s.MachineList})
}

// Recordings are the replayed answers of AutoDL's endpoints, by file
// name prefix, most specific first: the web console's stock by region,
// machine list and instance list, the developer (ESD) stock of a private
// region, globally or by region; any other autodl-* is tried as stock,
// then machine list, then instance list (ParseAny).
var Recordings = []httpx.Recording{
	{Prefix: "autodl-web-machine-region-gpu_type", Parse: marked(ParseStock, stock.EndpointWebRegion)},
	{Prefix: "autodl-web-user-machine-list", Parse: marked(ParseMachines, stock.EndpointWebMachines)},
	{Prefix: "autodl-web-instance-list", Parse: httpx.NoFX(ParseInstances)},
	{Prefix: "autodl-web-region-list"},
	{Prefix: "autodl-private-esd-", Parse: httpx.NoFX(ParseStock)},
	{Prefix: "autodl-esd-gpu_stock-global", Parse: marked(ParseStock, stock.EndpointESDGlobal)},
	{Prefix: "autodl-esd-", Parse: marked(ParseStock, stock.EndpointESDRegion)},
	{Prefix: "autodl-", Parse: httpx.NoFX(ParseAny)},
}

// marked is a replay parser for one endpoint's recordings: its offers
// marked as that endpoint's (Mark).
func marked(f func(*catalog.Catalog, []byte, time.Time) ([]stock.Offer, error), endpoint string) func(*catalog.Catalog, []byte, time.Time, float64) ([]stock.Offer, error) {
	return func(c *catalog.Catalog, b []byte, at time.Time, _ float64) ([]stock.Offer, error) {
		offers, err := f(c, b, at)
		Mark(offers, endpoint)
		return offers, err
	}
}

// New returns an AutoDL provider. A missing token is reported by
// Fetch (wrapping stock.ErrNotConfigured), not here.
func New(c *catalog.Catalog, o Options) *Provider {
	return &Provider{Client: httpx.NewClient(autodlPlatform, DefaultBaseURL, c, o.Options), o: o}
}

// Fetch queries AutoDL. Any failed request fails the whole fetch: partial
// answers (some regions or pages missing) would read as sold out.
func (a *Provider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	fetch := a.fetchStock
	if a.o.UseMachineList {
		fetch = a.fetchMachines
	}
	return a.Run(ctx, []httpx.Credential{{Value: a.o.Token, What: "developer token", Env: TokenEnv}}, fetch)
}

func (a *Provider) fetchStock(ctx context.Context, at time.Time) ([]stock.Offer, error) {
	if len(a.o.Regions) == 0 {
		body, err := a.call(ctx, http.MethodGet, autodlGlobalStockPath, nil)
		if err != nil {
			return nil, err
		}
		offers, err := ParseStock(a.Catalog, body, at)
		Mark(offers, stock.EndpointESDGlobal)
		return offers, err
	}
	var out []stock.Offer
	for _, region := range a.o.Regions {
		body, err := a.call(ctx, http.MethodPost, autodlRegionStockPath, map[string]any{"region_sign": region})
		if err != nil {
			return nil, fmt.Errorf("%w (region %s)", err, region)
		}
		offers, err := ParseStock(a.Catalog, body, at)
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

func (a *Provider) fetchMachines(ctx context.Context, at time.Time) ([]stock.Offer, error) {
	regions := a.o.Regions
	if regions == nil {
		regions = []string{}
	}
	var out []stock.Offer
	seen := 0
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
		offers, rows, maxPage, err := parseAutoDLMachines(a.Catalog, body, at)
		if err != nil {
			return nil, fmt.Errorf("%w (page %d)", err, page)
		}
		Mark(offers, stock.EndpointWebMachines)
		out = append(out, offers...)
		seen += rows
		if rows == 0 || page >= maxPage {
			break
		}
	}
	if seen == 0 {
		return nil, httpx.Empty("%s: POST %s", autodlPlatform, autodlMachineListPath)
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
// checked by the parsers. The token is sent raw as Authorization.
func (a *Provider) call(ctx context.Context, method, path string, payload any) ([]byte, error) {
	h := http.Header{"Authorization": {strings.TrimSpace(a.o.Token)}}
	return a.Answer(ctx, httpx.Request{Method: method, Path: path, Header: h, Payload: payload})
}

// autodlEnvelope is AutoDL's {"code","msg","data"}; code and data are
// kept raw to tell absent, null and their types apart.
type autodlEnvelope struct {
	Code json.RawMessage `json:"code"`
	Msg  httpx.Text      `json:"msg"`
	Data json.RawMessage `json:"data"`
}

// autodlData unwraps AutoDL's {"code","msg","data"} envelope. A code other
// than "Success" (or "OK") is an *httpx.APIError; AuthorizeFailed (an expired or
// wrong token, sent with HTTP 200) wraps stock.ErrUnauthorized. A body without
// the envelope (an excerpt of data alone) is returned as is; absent data
// reads as null.
func autodlData(body []byte) (json.RawMessage, error) {
	raw, err := httpx.DecodeRaw(body)
	if err != nil {
		return nil, httpx.Malformed(autodlPlatform, "AutoDL response", err)
	}
	var e httpx.Object[autodlEnvelope]
	httpx.Decode(raw, &e)
	hasCode, hasData := len(e.V.Code) > 0, len(e.V.Data) > 0
	if !e.OK || !hasCode && !hasData {
		return raw, nil
	}
	if c := httpx.RawText(e.V.Code); hasCode && c != "Success" && c != "OK" {
		return nil, autodlCodeError(c, string(e.V.Msg))
	}
	if !hasData {
		return json.RawMessage("null"), nil
	}
	return e.V.Data, nil
}

// autodlCodeError is the *httpx.APIError of an envelope code other than
// Success.
func autodlCodeError(c, msg string) error {
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
	return httpx.NewAPIError(autodlPlatform, http.StatusOK, c, msg, kind, text)
}

// autodlStock is one GPU type's stock; the counts are kept raw because a
// present count, even null, makes the entry a stock entry.
type autodlStock struct {
	GPUName httpx.Text      `json:"gpu_name"`
	Idle    json.RawMessage `json:"idle_gpu_num"`
	Total   json.RawMessage `json:"total_gpu_num"`
}

// autodlStockMap is a stock answer's object: stock entries by GPU name.
type autodlStockMap = httpx.Map[httpx.Object[autodlStock]]

// ParseStock parses an AutoDL GPU stock answer: the ESD
// gpu_stock/region gpu_stock response, the web /machine/region/gpu_type
// response, and AutoDL private cloud's dict form. Accepted shapes, with or
// without the {"code","msg","data"} envelope:
//
//	[{"RTX 4090":{"idle_gpu_num":3,"total_gpu_num":9}}, ...]
//	{"NVIDIA GeForce RTX 4090":{"gpu_name":"...","idle_gpu_num":7,"total_gpu_num":8}, ...}
//
// Offers carry Free and Total, no price, Currency CNY, stock.Source live and
// ObservedAt at; Region is left empty (the caller knows it). Data that
// lists no GPU type ([], {}, null or missing) is stock.ErrEmpty: the
// endpoint lists every GPU type, so that is unknown, not sold out; a type
// listed with idle_gpu_num 0 is a known zero.
func ParseStock(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	data, err := autodlData(body)
	if err != nil {
		return nil, err
	}
	var l httpx.List[autodlStockMap]
	n := 0 // elements of the list, or keys of the object
	switch k := httpx.RawKind(data); k {
	case "null":
		return nil, httpx.Empty("%s: stock data", autodlPlatform)
	case "list":
		httpx.Decode(data, &l)
		n = len(l.V)
	case "object":
		l.V = make([]autodlStockMap, 1)
		httpx.Decode(data, &l.V[0])
		n = len(l.V[0].V)
	default:
		return nil, httpx.BadResponse("%s: stock data is a %s, not a list or object", autodlPlatform, k)
	}
	var out []stock.Offer
	seen := 0
	for _, m := range l.V {
		for _, k := range slices.Sorted(maps.Keys(m.V)) {
			st := m.V[k]
			if !st.OK || len(st.V.Idle) == 0 && len(st.V.Total) == 0 {
				continue
			}
			seen++
			raw := string(st.V.GPUName)
			if raw == "" {
				raw = strings.TrimSpace(k)
			}
			if raw == "" {
				continue
			}
			o := autodlOffer(c, raw, at, stock.ScopeRegion)
			o.Free, o.Total = httpx.RawNumber(st.V.Idle).Count(), httpx.RawNumber(st.V.Total).Count()
			o.Note = "stock API, no price"
			out = append(out, o)
		}
	}
	if n == 0 {
		return nil, httpx.Empty("%s: stock data", autodlPlatform)
	}
	if seen == 0 {
		return nil, httpx.BadResponse("%s: no GPU stock entries (idle_gpu_num/total_gpu_num) in %d data elements", autodlPlatform, n)
	}
	return out, nil
}

// autodlOffer is an offer of one GPU of raw at a time, in CNY, without
// counts or price.
func autodlOffer(c *catalog.Catalog, raw string, at time.Time, scope stock.Scope) stock.Offer {
	return stock.Offer{
		Platform:        autodlPlatform,
		GPU:             httpx.ResolveGPU(c, raw),
		RawGPU:          raw,
		GPUsPerInstance: 1,
		Currency:        "CNY",
		Source:          stock.SourceLive,
		ObservedAt:      at,
		Verified:        true,
		Scope:           scope,
	}
}

// autodlRow is one row of the web console's machine list or instance
// list. gpu_idle_num is kept raw: present, even null, it is the free count.
type autodlRow struct {
	GPUName        httpx.Text                          `json:"gpu_name"`
	GPUIdleNum     json.RawMessage                     `json:"gpu_idle_num"`
	GPUNumber      httpx.Number                        `json:"gpu_number"`
	GPUUsed        httpx.Number                        `json:"gpu_used"`
	PaygPrice      httpx.Number                        `json:"payg_price"`
	MachineSKUInfo httpx.List[httpx.Object[autodlSKU]] `json:"machine_sku_info"`
	MachineAlias   httpx.Text                          `json:"machine_alias"`
	RegionName     httpx.Text                          `json:"region_name"`
	RegionSign     httpx.Text                          `json:"region_sign"`
	// Instance rows.
	SnapshotGPUAliasName json.RawMessage `json:"snapshot_gpu_alias_name"`
	ReqGPUAmount         json.RawMessage `json:"req_gpu_amount"`
	GPUAllNum            httpx.Number    `json:"gpu_all_num"`
}

// autodlSKU is one entry of machine_sku_info.
type autodlSKU struct {
	Type        httpx.Text `json:"type"`
	LevelConfig httpx.List[httpx.Object[struct {
		DiscountedPrice httpx.Number `json:"discounted_price"`
	}]] `json:"level_config"`
}

// ParseMachines parses the web console machine list
// (POST /api/v1/user/machine/list): {"data":{"list":[...],"max_page":N}},
// or a bare list of machine rows. One offer per machine: GPU from gpu_name,
// price payg_price/1000 CNY per GPU-hour (without payg_price, the last
// level of machine_sku_info's payg SKU), Region region_name, Free
// gpu_idle_num (else gpu_number − gpu_used, else unknown), Total
// gpu_number. gpu_order_num is ignored: its meaning is disputed. A list
// without rows (empty or null) is stock.ErrEmpty: unknown, not sold out.
func ParseMachines(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	offers, rows, _, err := parseAutoDLMachines(c, body, at)
	if err == nil && rows == 0 {
		return nil, httpx.Empty("%s: machine list", autodlPlatform)
	}
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
	for _, r := range rows {
		m := r.V
		if !r.OK || m.GPUName == "" {
			continue
		}
		o := autodlOffer(c, string(m.GPUName), at, stock.ScopeMachine)
		if len(m.GPUIdleNum) > 0 {
			o.Free = httpx.RawNumber(m.GPUIdleNum).Count()
		} else if m.GPUNumber.OK && m.GPUUsed.OK {
			o.Free = httpx.Count(m.GPUNumber.F - m.GPUUsed.F)
		}
		o.CNYPerGPUHour = milliCNY(m.PaygPrice)
		if o.CNYPerGPUHour == 0 {
			o.CNYPerGPUHour = m.skuPrice()
		}
		o.Total, o.OriginalPrice, o.Region = m.GPUNumber.Count(), o.CNYPerGPUHour, m.region()
		if m.MachineAlias != "" {
			o.Note = "machine " + string(m.MachineAlias)
		}
		out = append(out, o)
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
// per-GPU price divides by req_gpu_amount. An empty list is no error (the
// user has no instance) and no offer: it says nothing about stock.
func ParseInstances(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	rows, _, err := autodlRows(body, "instance list")
	if err != nil {
		return nil, err
	}
	var out []stock.Offer
	for _, r := range rows {
		m := r.V
		raw := httpx.RawText(m.SnapshotGPUAliasName)
		if raw == "" {
			raw = string(m.GPUName)
		}
		if !r.OK || raw == "" {
			continue
		}
		o := autodlOffer(c, raw, at, stock.ScopeMachine)
		price := milliCNY(m.PaygPrice)
		if n := httpx.RawNumber(m.ReqGPUAmount); n.OK && n.F >= 1 && n.F <= httpx.MaxCount {
			price /= n.F
		}
		o.Free, o.Total = httpx.RawNumber(m.GPUIdleNum).Count(), m.GPUAllNum.Count()
		o.CNYPerGPUHour, o.OriginalPrice, o.Region = price, price, m.region()
		o.Note = "host of an instance"
		if m.MachineAlias != "" {
			o.Note = "host of instance on machine " + string(m.MachineAlias)
		}
		out = append(out, o)
	}
	return out, nil
}

// autodlPage is a paged list's data object.
type autodlPage struct {
	List    json.RawMessage `json:"list"`
	MaxPage httpx.Number    `json:"max_page"`
}

// autodlRows unwraps a paged list: data.list with data.max_page, or a bare
// list. Null data or list is an empty page. Rows that are not objects are
// kept with OK false.
func autodlRows(body []byte, what string) ([]httpx.Object[autodlRow], int, error) {
	data, err := autodlData(body)
	if err != nil {
		return nil, 0, err
	}
	switch k := httpx.RawKind(data); k {
	case "null":
		return nil, 1, nil
	case "list":
		return httpx.Objects[autodlRow](data), 1, nil
	case "object":
	default:
		return nil, 0, httpx.BadResponse("%s: %s data is a %s, not a list or object", autodlPlatform, what, k)
	}
	var p httpx.Object[autodlPage]
	httpx.Decode(data, &p)
	maxPage := 1
	if f := p.V.MaxPage; f.OK && f.F >= 1 {
		maxPage = int(min(f.F, MaxPages))
	}
	switch k := httpx.RawKind(p.V.List); k {
	case "":
		return nil, 0, httpx.BadResponse("%s: %s data has no list", autodlPlatform, what)
	case "null":
		return nil, maxPage, nil
	case "list":
		return httpx.Objects[autodlRow](p.V.List), maxPage, nil
	default:
		return nil, 0, httpx.BadResponse("%s: %s data.list is a %s, not a list", autodlPlatform, what, k)
	}
}

// milliCNY converts AutoDL's 1/1000 CNY amounts; 0 when absent or negative.
func milliCNY(n httpx.Number) float64 {
	if !n.OK || n.F <= 0 {
		return 0
	}
	return n.F / 1000
}

// skuPrice reads the price from machine_sku_info, in CNY: the first SKU
// of type payg (or without a type), its last level_config entry's
// discounted_price (stock-apis.md: machine_sku_info[0].level_config[-1]).
// A last level without a positive price falls back to the level before.
func (m autodlRow) skuPrice() float64 {
	for _, s := range m.MachineSKUInfo.V {
		if !s.OK || s.V.Type != "" && s.V.Type != "payg" {
			continue
		}
		levels := s.V.LevelConfig.V
		for i := len(levels) - 1; i >= 0; i-- {
			if p := milliCNY(levels[i].V.DiscountedPrice); levels[i].OK && p > 0 {
				return p
			}
		}
	}
	return 0
}

func (m autodlRow) region() string {
	if m.RegionName != "" {
		return string(m.RegionName)
	}
	return string(m.RegionSign)
}
