// Package matpool reads 矩池云's (Matpool) GPU machine list page by page:
// one offer per machine row, the price hardware.priceMillicent (1e-5 CNY
// per hour), the free count gpu.available (unreliable, see Parse).
package matpool

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// 矩池云 Matpool (see shared/reference/stock-apis.md §3). The API is the
// web console's, unofficial: the token is a login JWT valid about 7 days.
const (
	matpoolPlatform     = "matpool"
	matpoolMachinesPath = "/machines"

	// DefaultBaseURL is the console API base.
	DefaultBaseURL = "https://matpool.com/api"
	// TokenEnv and UserIDEnv are the environment variables
	// holding the login token and the user id.
	TokenEnv  = "MATPOOL_TOKEN"
	UserIDEnv = "MATPOOL_USER_ID"
	// PageSize is the per_page of the machine list requests.
	PageSize = 50
	// MaxPages caps the paging whatever total says.
	MaxPages = 20
	// matpoolUnreliableNote marks every Matpool free count: gpu.available
	// is often 0 while the website shows machines (stock-apis.md §3).
	matpoolUnreliableNote = "free count unreliable"
	// matpoolTokenExpired is Matpool's business code for a rejected JWT.
	matpoolTokenExpired = "176"
)

// matpoolDomains are the machine domains listed (0 = 1区, 11 = 亚太2区,
// 13 = 13区, 15 = 国产卡, 16 = 16区), in request order.
var matpoolDomains = []string{"0", "11", "13", "15", "16"}

// matpoolDomainNames names the domains for stock.Offer.Region.
var matpoolDomainNames = map[string]string{"0": "1区", "11": "亚太2区", "13": "13区", "15": "国产卡", "16": "16区"}

// matpoolCondition is the base64 of {"filters":null,"sorts":null}, the
// console's "no filter" condition.
var matpoolCondition = base64.StdEncoding.EncodeToString([]byte(`{"filters":null,"sorts":null}`))

// Options configures the 矩池云 Matpool provider.
type Options struct {
	// BaseURL defaults to https://matpool.com/api.
	BaseURL string
	// Token is the login JWT (MATPOOL_TOKEN), sent as "Authorization:
	// Bearer <token>".
	Token string
	// UserID is the account's user id (MATPOOL_USER_ID), sent as
	// x-matpool-user-id.
	UserID string
	// Timeout bounds one whole Fetch (all pages); default 10s.
	Timeout time.Duration
	// HTTPClient defaults to a plain client; deadlines come from the context.
	HTTPClient *http.Client
	// Now defaults to time.Now.
	Now func() time.Time
}

// Provider fetches 矩池云's GPU machine list: one offer per machine row,
// price hardware.priceMillicent (1e-5 CNY per hour), Free gpu.available and
// Total gpu.total. The free count is unreliable (see Parse).
type Provider struct {
	c *catalog.Catalog
	o Options
}

// New returns a Matpool provider. Missing credentials are reported
// by Fetch (wrapping stock.ErrNotConfigured), not here.
func New(c *catalog.Catalog, o Options) *Provider {
	httpx.Defaults(&o.BaseURL, DefaultBaseURL, &o.Timeout, &o.HTTPClient, &o.Now)
	return &Provider{c: c, o: o}
}

// Name returns "matpool".
func (p *Provider) Name() string { return matpoolPlatform }

// Fetch pages through the GPU machines of all domains (PageSize a
// page, until total is reached or a short page, at most MaxPages).
// Any failed page fails the whole fetch.
func (p *Provider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	token, user := strings.TrimSpace(p.o.Token), strings.TrimSpace(p.o.UserID)
	switch {
	case token == "" && user == "":
		return nil, httpx.NotConfigured(matpoolPlatform, "token and user id", TokenEnv, UserIDEnv)
	case token == "":
		return nil, httpx.NotConfigured(matpoolPlatform, "token", TokenEnv)
	case user == "":
		return nil, httpx.NotConfigured(matpoolPlatform, "user id", UserIDEnv)
	}
	ctx, cancel := httpx.WithTimeout(ctx, p.o.Timeout)
	defer cancel()
	at := p.o.Now()
	h := httpx.Bearer(token)
	h.Set("x-matpool-user-id", user)
	return httpx.FetchPages(ctx, MaxPages, PageSize, func(ctx context.Context, page int) ([]stock.Offer, int, int, error) {
		q := url.Values{
			"domains":          matpoolDomains,
			"machine_category": {"0"},
			"page":             {strconv.Itoa(page)},
			"per_page":         {strconv.Itoa(PageSize)},
			"tags":             {"0"},
			"condition":        {matpoolCondition},
		}
		method := http.MethodGet
		r, err := httpx.Do(ctx, p.o.HTTPClient, matpoolPlatform, method, httpx.JoinURL(p.o.BaseURL, matpoolMachinesPath)+"?"+q.Encode(), matpoolMachinesPath, h, nil)
		if err != nil {
			return nil, 0, 0, err
		}
		if r.Status != http.StatusOK {
			if e := matpoolEnvelopeError(r.Status, r.Body); e != nil {
				return nil, 0, 0, e
			}
			return nil, 0, 0, httpx.StatusError(matpoolPlatform, method, matpoolMachinesPath, r)
		}
		return parseMatpool(p.c, r.Body, at)
	})
}

// matpoolEnvelopeError recognises a token error in a non-200 body
// (Matpool may send code 176 with an HTTP error status); nil otherwise.
func matpoolEnvelopeError(status int, body []byte) error {
	v, err := httpx.DecodeJSON(body)
	if err != nil {
		return nil
	}
	m, _ := v.(map[string]any)
	if m == nil || m["code"] == nil {
		return nil
	}
	if e := matpoolCodeError(status, httpx.Str(m["code"]), matpoolMsg(m)); e.Unwrap() == stock.ErrUnauthorized {
		return e
	}
	return nil
}

func matpoolMsg(m map[string]any) string {
	for _, k := range []string{"msg", "message", "error"} {
		if s := httpx.Str(m[k]); s != "" {
			return s
		}
	}
	return ""
}

// matpoolCodeError is the error for a non-zero business code.
func matpoolCodeError(status int, code, msg string) *httpx.APIError {
	lm := strings.ToLower(msg)
	if code == matpoolTokenExpired || strings.Contains(lm, "jwt") || strings.Contains(lm, "token") {
		text := fmt.Sprintf("%s: token expired or invalid (code %s", matpoolPlatform, code)
		if status != http.StatusOK {
			text += fmt.Sprintf(", HTTP %d", status)
		}
		text += ")"
		if msg != "" {
			text += ": " + msg
		}
		text += "; log in again and update " + TokenEnv
		return httpx.NewAPIError(matpoolPlatform, status, code, msg, stock.ErrUnauthorized, text)
	}
	text := fmt.Sprintf("%s: API error (code %s)", matpoolPlatform, code)
	if code == "" {
		text = fmt.Sprintf("%s: API error (code not a number or string)", matpoolPlatform)
	}
	if msg != "" {
		text += ": " + msg
	}
	return httpx.NewAPIError(matpoolPlatform, status, code, msg, nil, text)
}

// Parse parses one page of 矩池云's GET /machines. The machines list
// is read at the top level or under data (both are said to occur):
//
//	{"code":0,"msg":"","data":{"machines":[{"agentId":119,"domain":0,
//	  "hardware":{"name":"RTX 4090 24G","priceMillicent":220000,
//	  "gpu":{"gpuName":"NVIDIA GeForce RTX 4090"}},"gpu":{"available":3,"total":8}}],
//	  "page":1,"per_page":50,"total":2}}
//
// A bare list of machines is accepted too. Code 0 is success; 176 or a
// message about the JWT/token ("check jwt token failed") is an *httpx.APIError
// wrapping stock.ErrUnauthorized, any other code an *httpx.APIError.
//
// One offer per machine: GPU from hardware.gpu.gpuName (else
// hardware.name), GPUsPerInstance 1, CNYPerGPUHour priceMillicent / 1e5
// (55000 = 0.55 CNY per hour), Free gpu.available, Total gpu.total, Region
// the domain's name ("1区", "亚太2区"; "domain N" when unknown). The free
// count is reported as the API gives it but is unreliable (often 0 while the
// website shows free machines): every offer's Note says "free count
// unreliable".
func Parse(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	offers, _, _, err := parseMatpool(c, body, at)
	return offers, err
}

// parseMatpool also returns the number of rows and the total (-1 when
// absent).
func parseMatpool(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, int, int, error) {
	v, err := httpx.DecodeJSON(body)
	if err != nil {
		return nil, 0, 0, httpx.Malformed(matpoolPlatform, "machine list", err)
	}
	rows, total, err := matpoolRows(v)
	if err != nil {
		return nil, 0, 0, err
	}
	var out []stock.Offer
	for _, el := range rows {
		m, ok := el.(map[string]any)
		if !ok {
			continue
		}
		hw, _ := m["hardware"].(map[string]any)
		raw := httpx.Str(httpx.Dig(hw, "gpu", "gpuName"))
		if raw == "" {
			raw = httpx.Str(httpx.Dig(hw, "name"))
		}
		if raw == "" {
			continue
		}
		price := httpx.Price(httpx.Dig(hw, "priceMillicent"), 1e5)
		var free, total *int
		if g, ok := m["gpu"].(map[string]any); ok {
			free, total = httpx.Count(g["available"]), httpx.Count(g["total"])
		}
		if free != nil && *free == 0 {
			// gpu.available is often 0 while the website shows free
			// machines (stock-apis.md §3): a 0 is not "sold out".
			free = nil
		}
		note := matpoolUnreliableNote
		if id := httpx.Str(m["agentId"]); id != "" {
			note = "machine " + id + ", " + note
		}
		out = append(out, stock.Offer{
			Platform:        matpoolPlatform,
			GPU:             httpx.ResolveFirst(c, raw, httpx.Str(httpx.Dig(hw, "name"))),
			RawGPU:          raw,
			GPUsPerInstance: 1,
			Free:            free,
			Total:           total,
			CNYPerGPUHour:   price,
			OriginalPrice:   price,
			Currency:        "CNY",
			Region:          matpoolRegion(m["domain"]),
			Source:          stock.SourceLive,
			ObservedAt:      at,
			Verified:        true,
			Note:            note,
			Caveats:         []stock.Caveat{stock.CaveatCountUnreliable},
			Scope:           stock.ScopeMachine,
		})
	}
	return out, len(rows), total, nil
}

// matpoolRows unwraps the envelope: the machine rows and the total (-1
// when absent). A null machines list is an empty page.
func matpoolRows(v any) ([]any, int, error) {
	switch d := v.(type) {
	case nil:
		return nil, -1, nil
	case []any:
		return d, -1, nil
	case map[string]any:
		if d["code"] != nil {
			if code := httpx.Str(d["code"]); code != "0" {
				return nil, 0, matpoolCodeError(http.StatusOK, code, matpoolMsg(d))
			}
		}
		obj := d
		if !httpx.Has(d, "machines") {
			switch data := d["data"].(type) {
			case map[string]any:
				obj = data
			case []any:
				return data, -1, nil
			case nil:
				if httpx.Has(d, "data") {
					return nil, -1, nil
				}
			default:
				return nil, 0, httpx.BadResponse("%s: machine list data is a %s, not an object", matpoolPlatform, httpx.JSONKind(data))
			}
		}
		total := -1
		for _, t := range []any{obj["total"], d["total"]} {
			if f, ok := httpx.Num(t); ok && f >= 0 && f <= httpx.MaxCount {
				total = int(f)
				break
			}
		}
		switch l := obj["machines"].(type) {
		case nil:
			if httpx.Has(obj, "machines") {
				return nil, total, nil
			}
			return nil, 0, httpx.BadResponse("%s: response has no machines list (top level or under data)", matpoolPlatform)
		case []any:
			return l, total, nil
		default:
			return nil, 0, httpx.BadResponse("%s: machines is a %s, not a list", matpoolPlatform, httpx.JSONKind(l))
		}
	}
	return nil, 0, httpx.BadResponse("%s: response is a %s, not an object or list", matpoolPlatform, httpx.JSONKind(v))
}

// matpoolRegion names a machine's domain; "" when absent.
func matpoolRegion(v any) string {
	d := httpx.Str(v)
	if d == "" {
		return ""
	}
	if name, ok := matpoolDomainNames[d]; ok {
		return name
	}
	return "domain " + d
}
