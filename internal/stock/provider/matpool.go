package provider

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
)

// 矩池云 Matpool (see shared/reference/stock-apis.md §3). The API is the
// web console's, unofficial: the token is a login JWT valid about 7 days.
const (
	matpoolPlatform     = "matpool"
	matpoolMachinesPath = "/machines"

	// DefaultMatpoolBaseURL is the console API base.
	DefaultMatpoolBaseURL = "https://matpool.com/api"
	// MatpoolTokenEnv and MatpoolUserIDEnv are the environment variables
	// holding the login token and the user id.
	MatpoolTokenEnv  = "MATPOOL_TOKEN"
	MatpoolUserIDEnv = "MATPOOL_USER_ID"
	// MatpoolPageSize is the per_page of the machine list requests.
	MatpoolPageSize = 50
	// MatpoolMaxPages caps the paging whatever total says.
	MatpoolMaxPages = 20
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

// MatpoolOptions configures the 矩池云 Matpool provider.
type MatpoolOptions struct {
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

// Matpool fetches 矩池云's GPU machine list: one offer per machine row,
// price hardware.priceMillicent (1e-5 CNY per hour), Free gpu.available and
// Total gpu.total. The free count is unreliable (see ParseMatpool).
type Matpool struct {
	c *catalog.Catalog
	o MatpoolOptions
}

// NewMatpool returns a Matpool provider. Missing credentials are reported
// by Fetch (wrapping stock.ErrNotConfigured), not here.
func NewMatpool(c *catalog.Catalog, o MatpoolOptions) *Matpool {
	httpDefaults(&o.BaseURL, DefaultMatpoolBaseURL, &o.Timeout, &o.HTTPClient, &o.Now)
	return &Matpool{c: c, o: o}
}

// Name returns "matpool".
func (p *Matpool) Name() string { return matpoolPlatform }

// Fetch pages through the GPU machines of all domains (MatpoolPageSize a
// page, until total is reached or a short page, at most MatpoolMaxPages).
// Any failed page fails the whole fetch.
func (p *Matpool) Fetch(ctx context.Context) ([]stock.Offer, error) {
	token, user := strings.TrimSpace(p.o.Token), strings.TrimSpace(p.o.UserID)
	switch {
	case token == "" && user == "":
		return nil, notConfigured(matpoolPlatform, "token and user id", MatpoolTokenEnv, MatpoolUserIDEnv)
	case token == "":
		return nil, notConfigured(matpoolPlatform, "token", MatpoolTokenEnv)
	case user == "":
		return nil, notConfigured(matpoolPlatform, "user id", MatpoolUserIDEnv)
	}
	ctx, cancel := withTimeout(ctx, p.o.Timeout)
	defer cancel()
	at := p.o.Now()
	h := bearer(token)
	h.Set("x-matpool-user-id", user)
	return fetchPages(ctx, MatpoolMaxPages, MatpoolPageSize, func(ctx context.Context, page int) ([]stock.Offer, int, int, error) {
		q := url.Values{
			"domains":          matpoolDomains,
			"machine_category": {"0"},
			"page":             {strconv.Itoa(page)},
			"per_page":         {strconv.Itoa(MatpoolPageSize)},
			"tags":             {"0"},
			"condition":        {matpoolCondition},
		}
		method := http.MethodGet
		r, err := doRequest(ctx, p.o.HTTPClient, matpoolPlatform, method, joinURL(p.o.BaseURL, matpoolMachinesPath)+"?"+q.Encode(), matpoolMachinesPath, h, nil)
		if err != nil {
			return nil, 0, 0, err
		}
		if r.status != http.StatusOK {
			if e := matpoolEnvelopeError(r.status, r.body); e != nil {
				return nil, 0, 0, e
			}
			return nil, 0, 0, statusError(matpoolPlatform, method, matpoolMachinesPath, r)
		}
		return parseMatpool(p.c, r.body, at)
	})
}

// matpoolEnvelopeError recognises a token error in a non-200 body
// (Matpool may send code 176 with an HTTP error status); nil otherwise.
func matpoolEnvelopeError(status int, body []byte) error {
	v, err := decodeJSON(body)
	if err != nil {
		return nil
	}
	m, _ := v.(map[string]any)
	if m == nil || m["code"] == nil {
		return nil
	}
	if e := matpoolCodeError(status, strVal(m["code"]), matpoolMsg(m)); e.kind == stock.ErrUnauthorized {
		return e
	}
	return nil
}

func matpoolMsg(m map[string]any) string {
	for _, k := range []string{"msg", "message", "error"} {
		if s := strVal(m[k]); s != "" {
			return s
		}
	}
	return ""
}

// matpoolCodeError is the error for a non-zero business code.
func matpoolCodeError(status int, code, msg string) *APIError {
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
		text += "; log in again and update " + MatpoolTokenEnv
		return newAPIError(matpoolPlatform, status, code, msg, stock.ErrUnauthorized, text)
	}
	text := fmt.Sprintf("%s: API error (code %s)", matpoolPlatform, code)
	if code == "" {
		text = fmt.Sprintf("%s: API error (code not a number or string)", matpoolPlatform)
	}
	if msg != "" {
		text += ": " + msg
	}
	return newAPIError(matpoolPlatform, status, code, msg, nil, text)
}

// ParseMatpool parses one page of 矩池云's GET /machines. The machines list
// is read at the top level or under data (both are said to occur):
//
//	{"code":0,"msg":"","data":{"machines":[{"agentId":119,"domain":0,
//	  "hardware":{"name":"RTX 4090 24G","priceMillicent":220000,
//	  "gpu":{"gpuName":"NVIDIA GeForce RTX 4090"}},"gpu":{"available":3,"total":8}}],
//	  "page":1,"per_page":50,"total":2}}
//
// A bare list of machines is accepted too. Code 0 is success; 176 or a
// message about the JWT/token ("check jwt token failed") is an *APIError
// wrapping stock.ErrUnauthorized, any other code an *APIError.
//
// One offer per machine: GPU from hardware.gpu.gpuName (else
// hardware.name), GPUsPerInstance 1, CNYPerGPUHour priceMillicent / 1e5
// (55000 = 0.55 CNY per hour), Free gpu.available, Total gpu.total, Region
// the domain's name ("1区", "亚太2区"; "domain N" when unknown). The free
// count is reported as the API gives it but is unreliable (often 0 while the
// website shows free machines): every offer's Note says "free count
// unreliable".
func ParseMatpool(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	offers, _, _, err := parseMatpool(c, body, at)
	return offers, err
}

// parseMatpool also returns the number of rows and the total (-1 when
// absent).
func parseMatpool(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, int, int, error) {
	v, err := decodeJSON(body)
	if err != nil {
		return nil, 0, 0, malformed(matpoolPlatform, "machine list", err)
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
		raw := strVal(dig(hw, "gpu", "gpuName"))
		if raw == "" {
			raw = strVal(dig(hw, "name"))
		}
		if raw == "" {
			continue
		}
		price := priceVal(dig(hw, "priceMillicent"), 1e5)
		var free, total *int
		if g, ok := m["gpu"].(map[string]any); ok {
			free, total = countVal(g["available"]), countVal(g["total"])
		}
		if free != nil && *free == 0 {
			// gpu.available is often 0 while the website shows free
			// machines (stock-apis.md §3): a 0 is not "sold out".
			free = nil
		}
		note := matpoolUnreliableNote
		if id := strVal(m["agentId"]); id != "" {
			note = "machine " + id + ", " + note
		}
		out = append(out, stock.Offer{
			Platform:        matpoolPlatform,
			GPU:             resolveFirst(c, raw, strVal(dig(hw, "name"))),
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
			if code := strVal(d["code"]); code != "0" {
				return nil, 0, matpoolCodeError(http.StatusOK, code, matpoolMsg(d))
			}
		}
		obj := d
		if !has(d, "machines") {
			switch data := d["data"].(type) {
			case map[string]any:
				obj = data
			case []any:
				return data, -1, nil
			case nil:
				if has(d, "data") {
					return nil, -1, nil
				}
			default:
				return nil, 0, badResponse("%s: machine list data is a %s, not an object", matpoolPlatform, jsonKind(data))
			}
		}
		total := -1
		for _, t := range []any{obj["total"], d["total"]} {
			if f, ok := numVal(t); ok && f >= 0 && f <= maxCount {
				total = int(f)
				break
			}
		}
		switch l := obj["machines"].(type) {
		case nil:
			if has(obj, "machines") {
				return nil, total, nil
			}
			return nil, 0, badResponse("%s: response has no machines list (top level or under data)", matpoolPlatform)
		case []any:
			return l, total, nil
		default:
			return nil, 0, badResponse("%s: machines is a %s, not a list", matpoolPlatform, jsonKind(l))
		}
	}
	return nil, 0, badResponse("%s: response is a %s, not an object or list", matpoolPlatform, jsonKind(v))
}

// matpoolRegion names a machine's domain; "" when absent.
func matpoolRegion(v any) string {
	d := strVal(v)
	if d == "" {
		return ""
	}
	if name, ok := matpoolDomainNames[d]; ok {
		return name
	}
	return "domain " + d
}
