// Package gpushare reads 恒源云's (GPUShare, platform id "hengyuan")
// machine market page by page: one offer per machine, free = gpuNum −
// gpuUsed, the pay-as-you-go price in CNY per GPU-hour.
package gpushare

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
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// 恒源云 GPUShare (see shared/reference/stock-apis.md §2). The API is the
// web console's, unofficial: the token is a web session token.
const (
	gpusharePlatform = "hengyuan"
	gpushareListPath = "/app/api/market/machine/list"
	gpushareOrigin   = "https://www.gpushare.com"
	gpushareReferer  = "https://www.gpushare.com/store"

	// DefaultBaseURL is the console API host.
	DefaultBaseURL = "https://api.gpushare.com"
	// TokenEnv is the environment variable holding the token.
	TokenEnv = "GPUSHARE_TOKEN"
	// PageSize is the ps (page size) of the machine list requests.
	PageSize = 50
	// MaxPages caps the paging whatever data.total says.
	MaxPages = 20
	// gpushareUnitNote marks every GPUShare price: the scripts print it as
	// CNY per hour, nobody has checked.
	gpushareUnitNote = "price unit unverified"
)

// Options configures the 恒源云 GPUShare provider.
type Options struct {
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

// Provider fetches the 恒源云 machine market: one offer per machine, Free
// = gpuNum − gpuUsed, Total = gpuNum, price the pay-as-you-go SKU in CNY
// per GPU-hour (unit unverified, see stock.Offer.Note).
type Provider struct {
	c *catalog.Catalog
	o Options
}

// New returns a 恒源云 provider (Name "hengyuan"). A missing token
// is reported by Fetch (wrapping stock.ErrNotConfigured), not here.
func New(c *catalog.Catalog, o Options) *Provider {
	httpx.Defaults(&o.BaseURL, DefaultBaseURL, &o.Timeout, &o.HTTPClient, &o.Now)
	return &Provider{c: c, o: o}
}

// Name returns "hengyuan", the catalog platform id.
func (g *Provider) Name() string { return gpusharePlatform }

// Fetch pages through the machine list (PageSize machines a page,
// until data.total is reached, at most MaxPages pages). Any failed
// page fails the whole fetch: a partial list would read as sold out.
func (g *Provider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	if strings.TrimSpace(g.o.Token) == "" {
		return nil, httpx.NotConfigured(gpusharePlatform, "token", TokenEnv)
	}
	ctx, cancel := httpx.WithTimeout(ctx, g.o.Timeout)
	defer cancel()
	at := g.o.Now()
	h := httpx.Bearer(g.o.Token)
	h.Set("Origin", gpushareOrigin)
	h.Set("Referer", gpushareReferer)
	return httpx.FetchPages(ctx, MaxPages, PageSize, func(ctx context.Context, page int) ([]stock.Offer, int, int, error) {
		q := url.Values{
			"models":     {"-1"},
			"gpuName":    {""},
			"priceOrder": {"asc"},
			"pn":         {strconv.Itoa(page)},
			"ps":         {strconv.Itoa(PageSize)},
		}
		method := http.MethodGet
		r, err := httpx.Do(ctx, g.o.HTTPClient, gpusharePlatform, method, httpx.JoinURL(g.o.BaseURL, gpushareListPath)+"?"+q.Encode(), gpushareListPath, h, nil)
		if err != nil {
			return nil, 0, 0, err
		}
		if r.Status != http.StatusOK {
			return nil, 0, 0, gpushareStatusError(method, r)
		}
		return parseGPUShare(g.c, r.Body, at)
	})
}

// gpushareStatusError words a non-200 answer; 401 means the session token
// expired.
func gpushareStatusError(method string, r *httpx.Result) error {
	if r.Status == http.StatusUnauthorized {
		text := fmt.Sprintf("%s: token expired or invalid (HTTP 401) from %s %s; log in to gpushare.com again and update %s",
			gpusharePlatform, method, gpushareListPath, TokenEnv)
		return httpx.NewAPIError(gpusharePlatform, r.Status, "", httpx.Snippet(r.Body), stock.ErrUnauthorized, text)
	}
	return httpx.StatusError(gpusharePlatform, method, gpushareListPath, r)
}

// Parse parses one page of the 恒源云 machine list
// (GET /app/api/market/machine/list):
//
//	{"code":0,"msg":"success","data":{"total":87,"list":[{"id","machineName",
//	  "isOnline":true,"gpuNum":8,"gpuUsed":6,"baseInfo":{"gpuName":"NVIDIA GeForce RTX 4090"},
//	  "skuList":[{"skuName":"payg","price":2.09}]}]}}
//
// The envelope is a guess; a bare data object or a bare list of machines is
// accepted too. A code other than 0 (or 200) is an *httpx.APIError (code 401 or a
// message about the token wraps stock.ErrUnauthorized).
//
// One offer per machine: GPU from baseInfo.gpuName, Free gpuNum − gpuUsed
// (never below 0; unknown when either is missing), Total gpuNum,
// GPUsPerInstance 1, price the payg SKU's price taken as CNY per GPU-hour
// (0 when there is none) with "price unit unverified" in Note. A machine
// with isOnline false is kept with Free 0 and "offline" in Note: its GPUs
// exist but cannot be rented now. Region is empty (the list carries none).
func Parse(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	offers, _, _, err := parseGPUShare(c, body, at)
	return offers, err
}

// parseGPUShare also returns the number of rows and data.total (-1 when
// absent).
func parseGPUShare(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, int, int, error) {
	v, err := httpx.DecodeJSON(body)
	if err != nil {
		return nil, 0, 0, httpx.Malformed(gpusharePlatform, "machine list", err)
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
		raw := httpx.Str(httpx.Dig(m, "baseInfo", "gpuName"))
		if raw == "" {
			raw = httpx.Str(m["gpuName"])
		}
		if raw == "" {
			continue
		}
		var free *int
		if n, ok1 := httpx.Num(m["gpuNum"]); ok1 {
			if u, ok2 := httpx.Num(m["gpuUsed"]); ok2 {
				free = httpx.Count(max(n-u, 0))
			}
		}
		var notes []string
		if name := httpx.Str(m["machineName"]); name != "" {
			notes = append(notes, "machine "+name)
		}
		if online, ok := httpx.Bool(m["isOnline"]); ok && !online {
			free = stock.IntPtr(0)
			notes = append(notes, "offline")
		}
		price := gpusharePrice(m["skuList"])
		notes = append(notes, gpushareUnitNote)
		out = append(out, stock.Offer{
			Platform:        gpusharePlatform,
			GPU:             httpx.ResolveGPU(c, raw),
			RawGPU:          raw,
			GPUsPerInstance: 1,
			Free:            free,
			Total:           httpx.Count(m["gpuNum"]),
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
			code := httpx.Str(m["code"])
			if code != "0" && code != "200" {
				msg := httpx.Str(m["msg"])
				if msg == "" {
					msg = httpx.Str(m["message"])
				}
				return nil, 0, gpushareCodeError(code, msg)
			}
		}
		if httpx.Has(m, "data") {
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
		if f, ok := httpx.Num(d["total"]); ok && f >= 0 && f <= httpx.MaxCount {
			total = int(f)
		}
		switch l := d["list"].(type) {
		case nil:
			if httpx.Has(d, "list") {
				return nil, total, nil
			}
			return nil, 0, httpx.BadResponse("%s: machine list data has no list", gpusharePlatform)
		case []any:
			return l, total, nil
		default:
			return nil, 0, httpx.BadResponse("%s: machine list data.list is a %s, not a list", gpusharePlatform, httpx.JSONKind(l))
		}
	}
	return nil, 0, httpx.BadResponse("%s: machine list data is a %s, not an object or list", gpusharePlatform, httpx.JSONKind(data))
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
	return httpx.NewAPIError(gpusharePlatform, http.StatusOK, code, msg, kind, text)
}

// gpusharePrice is the price of the first payg SKU; 0 when none has a
// positive price.
func gpusharePrice(v any) float64 {
	skus, _ := v.([]any)
	for _, s := range skus {
		sm, _ := s.(map[string]any)
		if sm == nil || httpx.Str(sm["skuName"]) != "payg" {
			continue
		}
		if f := httpx.Price(sm["price"], 1); f > 0 {
			return f
		}
	}
	return 0
}
