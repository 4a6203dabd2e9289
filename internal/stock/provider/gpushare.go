package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
)

// 恒源云 GPUShare (see shared/reference/stock-apis.md §2). The API is the
// web console's, unofficial: the token is a web session token.
const (
	gpusharePlatform = "hengyuan"
	gpushareListPath = "/app/api/market/machine/list"
	gpushareOrigin   = "https://www.gpushare.com"
	gpushareReferer  = "https://www.gpushare.com/store"

	// DefaultGPUShareBaseURL is the console API host.
	DefaultGPUShareBaseURL = "https://api.gpushare.com"
	// GPUShareTokenEnv is the environment variable holding the token.
	GPUShareTokenEnv = "GPUSHARE_TOKEN"
	// GPUSharePageSize is the ps (page size) of the machine list requests.
	GPUSharePageSize = 50
	// GPUShareMaxPages caps the paging whatever data.total says.
	GPUShareMaxPages = 20
	// gpushareUnitNote marks every GPUShare price: the scripts print it as
	// CNY per hour, nobody has checked.
	gpushareUnitNote = "price unit unverified"
)

// GPUShareOptions configures the 恒源云 GPUShare provider.
type GPUShareOptions struct {
	// BaseURL defaults to https://api.gpushare.com.
	BaseURL string
	// Token is the web console session token (GPUSHARE_TOKEN), sent as
	// "Authorization: Bearer <token>". It expires; the API then answers
	// HTTP 401.
	Token string
	// Timeout bounds one whole Fetch (all pages); default 10s.
	Timeout time.Duration
	// HTTPClient defaults to a plain client; deadlines come from the context.
	HTTPClient *http.Client
	// Now defaults to time.Now.
	Now func() time.Time
}

// GPUShare fetches the 恒源云 machine market: one offer per machine, Free
// = gpuNum − gpuUsed, Total = gpuNum, price the pay-as-you-go SKU in CNY
// per GPU-hour (unit unverified, see stock.Offer.Note).
type GPUShare struct {
	c *catalog.Catalog
	o GPUShareOptions
}

// NewGPUShare returns a 恒源云 provider (Name "hengyuan"). A missing token
// is reported by Fetch (wrapping stock.ErrNotConfigured), not here.
func NewGPUShare(c *catalog.Catalog, o GPUShareOptions) *GPUShare {
	httpDefaults(&o.BaseURL, DefaultGPUShareBaseURL, &o.Timeout, &o.HTTPClient, &o.Now)
	return &GPUShare{c: c, o: o}
}

// Name returns "hengyuan", the catalog platform id.
func (g *GPUShare) Name() string { return gpusharePlatform }

// Fetch pages through the machine list (GPUSharePageSize machines a page,
// until data.total is reached, at most GPUShareMaxPages pages). Any failed
// page fails the whole fetch: a partial list would read as sold out.
func (g *GPUShare) Fetch(ctx context.Context) ([]stock.Offer, error) {
	if strings.TrimSpace(g.o.Token) == "" {
		return nil, notConfigured(gpusharePlatform, "token", GPUShareTokenEnv)
	}
	ctx, cancel := withTimeout(ctx, g.o.Timeout)
	defer cancel()
	at := g.o.Now()
	h := bearer(g.o.Token)
	h.Set("Origin", gpushareOrigin)
	h.Set("Referer", gpushareReferer)
	return fetchPages(ctx, GPUShareMaxPages, GPUSharePageSize, func(ctx context.Context, page int) ([]stock.Offer, int, int, error) {
		q := url.Values{
			"models":     {"-1"},
			"gpuName":    {""},
			"priceOrder": {"asc"},
			"pn":         {strconv.Itoa(page)},
			"ps":         {strconv.Itoa(GPUSharePageSize)},
		}
		method := http.MethodGet
		r, err := doRequest(ctx, g.o.HTTPClient, gpusharePlatform, method, joinURL(g.o.BaseURL, gpushareListPath)+"?"+q.Encode(), gpushareListPath, h, nil)
		if err != nil {
			return nil, 0, 0, err
		}
		if r.status != http.StatusOK {
			return nil, 0, 0, gpushareStatusError(method, r)
		}
		return parseGPUShare(g.c, r.body, at)
	})
}

// gpushareStatusError words a non-200 answer; 401 means the session token
// expired.
func gpushareStatusError(method string, r *httpResult) error {
	if r.status == http.StatusUnauthorized {
		text := fmt.Sprintf("%s: token expired or invalid (HTTP 401) from %s %s; log in to gpushare.com again and update %s",
			gpusharePlatform, method, gpushareListPath, GPUShareTokenEnv)
		return newAPIError(gpusharePlatform, r.status, "", snippet(r.body), stock.ErrUnauthorized, text)
	}
	return statusError(gpusharePlatform, method, gpushareListPath, r)
}

// ParseGPUShare parses one page of the 恒源云 machine list
// (GET /app/api/market/machine/list):
//
//	{"code":0,"msg":"success","data":{"total":87,"list":[{"id","machineName",
//	  "isOnline":true,"gpuNum":8,"gpuUsed":6,"baseInfo":{"gpuName":"NVIDIA GeForce RTX 4090"},
//	  "skuList":[{"skuName":"payg","price":2.09}]}]}}
//
// The envelope is a guess; a bare data object or a bare list of machines is
// accepted too. A code other than 0 (or 200) is an *APIError (code 401 or a
// message about the token wraps stock.ErrUnauthorized).
//
// One offer per machine: GPU from baseInfo.gpuName, Free gpuNum − gpuUsed
// (never below 0; unknown when either is missing), Total gpuNum,
// GPUsPerInstance 1, price the payg SKU's price taken as CNY per GPU-hour
// (0 when there is none) with "price unit unverified" in Note. A machine
// with isOnline false is kept with Free 0 and "offline" in Note: its GPUs
// exist but cannot be rented now. Region is empty (the list carries none).
func ParseGPUShare(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	offers, _, _, err := parseGPUShare(c, body, at)
	return offers, err
}

// parseGPUShare also returns the number of rows and data.total (-1 when
// absent).
func parseGPUShare(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, int, int, error) {
	v, err := decodeJSON(body)
	if err != nil {
		return nil, 0, 0, malformed(gpusharePlatform, "machine list", err)
	}
	rows, total, err := gpushareRows(v)
	if err != nil {
		return nil, 0, 0, err
	}
	var out []stock.Offer
	for _, el := range rows {
		m, ok := el.(map[string]any)
		if !ok {
			continue
		}
		raw := strVal(dig(m, "baseInfo", "gpuName"))
		if raw == "" {
			raw = strVal(m["gpuName"])
		}
		if raw == "" {
			continue
		}
		var free *int
		if n, ok1 := numVal(m["gpuNum"]); ok1 {
			if u, ok2 := numVal(m["gpuUsed"]); ok2 {
				free = countVal(max(n-u, 0))
			}
		}
		var notes []string
		if name := strVal(m["machineName"]); name != "" {
			notes = append(notes, "machine "+name)
		}
		if online, ok := boolVal(m["isOnline"]); ok && !online {
			free = stock.IntPtr(0)
			notes = append(notes, "offline")
		}
		price := gpusharePrice(m["skuList"])
		notes = append(notes, gpushareUnitNote)
		out = append(out, stock.Offer{
			Platform:        gpusharePlatform,
			GPU:             resolveGPU(c, raw),
			RawGPU:          raw,
			GPUsPerInstance: 1,
			Free:            free,
			Total:           countVal(m["gpuNum"]),
			CNYPerGPUHour:   price,
			OriginalPrice:   price,
			Currency:        "CNY",
			Source:          stock.SourceLive,
			ObservedAt:      at,
			Verified:        true,
			Note:            strings.Join(notes, ", "),
			Caveats:         []stock.Caveat{stock.CaveatUnitUnverified},
			Scope:           stock.ScopeMachine,
		})
	}
	return out, len(rows), total, nil
}

// gpushareRows unwraps the envelope: the machine rows and data.total (-1
// when absent). Null data or list is an empty page.
func gpushareRows(v any) ([]any, int, error) {
	var data any = v
	if m, ok := v.(map[string]any); ok {
		if m["code"] != nil {
			code := strVal(m["code"])
			if code != "0" && code != "200" {
				msg := strVal(m["msg"])
				if msg == "" {
					msg = strVal(m["message"])
				}
				return nil, 0, gpushareCodeError(code, msg)
			}
		}
		if has(m, "data") {
			data = m["data"]
		}
	}
	switch d := data.(type) {
	case nil:
		return nil, -1, nil
	case []any:
		return d, -1, nil
	case map[string]any:
		total := -1
		if f, ok := numVal(d["total"]); ok && f >= 0 && f <= maxCount {
			total = int(f)
		}
		switch l := d["list"].(type) {
		case nil:
			if has(d, "list") {
				return nil, total, nil
			}
			return nil, 0, badResponse("%s: machine list data has no list", gpusharePlatform)
		case []any:
			return l, total, nil
		default:
			return nil, 0, badResponse("%s: machine list data.list is a %s, not a list", gpusharePlatform, jsonKind(l))
		}
	}
	return nil, 0, badResponse("%s: machine list data is a %s, not an object or list", gpusharePlatform, jsonKind(data))
}

// gpushareCodeError is the error for a non-success code in a 200 body.
func gpushareCodeError(code, msg string) error {
	lm := strings.ToLower(msg)
	var kind error
	what := "API error"
	if code == "401" || code == "403" || strings.Contains(lm, "token") || strings.Contains(lm, "unauthor") ||
		strings.Contains(msg, "登录") || strings.Contains(msg, "过期") || strings.Contains(lm, "expired") {
		kind = stock.ErrUnauthorized
		what = "token expired or invalid"
	}
	text := fmt.Sprintf("%s: %s (code %s)", gpusharePlatform, what, code)
	if code == "" {
		text = fmt.Sprintf("%s: %s (code not a number or string)", gpusharePlatform, what)
	}
	if msg != "" {
		text += ": " + msg
	}
	return newAPIError(gpusharePlatform, http.StatusOK, code, msg, kind, text)
}

// gpusharePrice is the price of the first payg SKU; 0 when none has a
// positive price.
func gpusharePrice(v any) float64 {
	skus, _ := v.([]any)
	for _, s := range skus {
		sm, _ := s.(map[string]any)
		if sm == nil || strVal(sm["skuName"]) != "payg" {
			continue
		}
		if f := priceVal(sm["price"], 1); f > 0 {
			return f
		}
	}
	return 0
}
