// Package gpushare reads 恒源云's (GPUShare, platform id "hengyuan")
// machine market page by page: one offer per machine, free = gpuNum −
// gpuUsed, the pay-as-you-go price in CNY per GPU-hour.
package gpushare

import (
	"cmp"
	"context"
	"encoding/json"
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

// 恒源云 GPUShare (see docs/reference/stock-apis.md §2). The API is the
// web console's, unofficial: the token is a web session token.
const (
	gpusharePlatform = Platform
	gpushareListPath = "/app/api/market/machine/list"
	gpushareOrigin   = "https://www.gpushare.com"
	gpushareReferer  = "https://www.gpushare.com/store"

	// Platform is the catalog platform id of its offers and its Name.
	Platform = "hengyuan"
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
	// Options: BaseURL defaults to DefaultBaseURL
	// (https://api.gpushare.com), Timeout (one whole Fetch, all pages) to
	// 10s.
	httpx.Options
	// Token is the web console session token (GPUSHARE_TOKEN), sent as
	// "Authorization: Bearer <token>". It expires; the API then answers
	// HTTP 401.
	Token string
}

// Provider fetches the 恒源云 machine market: one offer per machine, Free
// = gpuNum − gpuUsed, Total = gpuNum, price the pay-as-you-go SKU in CNY
// per GPU-hour (unit unverified, see stock.Offer.Note). Its Name is
// "hengyuan", the catalog platform id.
//
// Empty answers. The market lists every machine, busy and offline ones
// too, so a list without a single machine (an empty or null list or data
// on the first page) is unknown, never sold out: Fetch fails with
// stock.ErrEmpty and the Board keeps the last offers, marked stale. A
// machine listed with gpuUsed = gpuNum, or isOnline false, is an explicit
// zero and stays one (Free 0). A later page without rows only ends the
// list.
type Provider struct {
	httpx.Client
	o Options
}

// Build is New from the provider's settings (its registry line).
func Build(c *catalog.Catalog, s httpx.Settings) stock.Provider {
	return New(c, Options{Options: s.HTTP(), Token: s.Token})
}

// Recordings are the replayed answers of the machine list (gpushare-*).
var Recordings = []httpx.Recording{{Prefix: "gpushare-", Parse: httpx.NoFX(Parse)}}

// New returns a 恒源云 provider (Name "hengyuan"). A missing token
// is reported by Fetch (wrapping stock.ErrNotConfigured), not here.
func New(c *catalog.Catalog, o Options) *Provider {
	return &Provider{Client: httpx.NewClient(gpusharePlatform, DefaultBaseURL, c, o.Options), o: o}
}

// Fetch pages through the machine list (PageSize machines a page,
// until data.total is reached, at most MaxPages pages): page 1, then the
// rest its total calls for, Options.Concurrency at once (httpx.FetchPages).
// Any failed page fails the whole fetch: a partial list would read as
// sold out.
func (g *Provider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	return g.Run(ctx, []httpx.Credential{{Value: g.o.Token, What: "token", Env: TokenEnv}}, g.fetch)
}

func (g *Provider) fetch(ctx context.Context, at time.Time) ([]stock.Offer, error) {
	h := httpx.Bearer(g.o.Token)
	h.Set("Origin", gpushareOrigin)
	h.Set("Referer", gpushareReferer)
	return httpx.FetchPages(ctx, g.Paging(MaxPages, PageSize), gpusharePlatform+": GET "+gpushareListPath, func(ctx context.Context, page int) ([]stock.Offer, int, int, error) {
		q := url.Values{
			"models":     {"-1"},
			"gpuName":    {""},
			"priceOrder": {"asc"},
			"pn":         {strconv.Itoa(page)},
			"ps":         {strconv.Itoa(PageSize)},
		}
		body, err := g.Answer(ctx, httpx.Request{Method: http.MethodGet, Path: gpushareListPath, Query: q, Header: h, Refused: gpushareStatusError})
		if err != nil {
			return nil, 0, 0, err
		}
		return parseGPUShare(g.Catalog, body, at)
	})
}

// gpushareStatusError words a non-200 answer; 401 means the session token
// expired.
func gpushareStatusError(r *httpx.Result) error {
	if r.Status == http.StatusUnauthorized {
		text := fmt.Sprintf("%s: token expired or invalid (HTTP 401) from %s %s; log in to gpushare.com again and update %s",
			gpusharePlatform, http.MethodGet, gpushareListPath, TokenEnv)
		return httpx.NewAPIError(gpusharePlatform, r.Status, "", httpx.Snippet(r.Body), stock.ErrUnauthorized, text)
	}
	return nil
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
// An answer without a single row (an empty or null list or data) is
// stock.ErrEmpty: the market lists every machine, so that is unknown.
func Parse(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	offers, rows, _, err := parseGPUShare(c, body, at)
	if err == nil && rows == 0 {
		return nil, httpx.Empty("%s: machine list", gpusharePlatform)
	}
	return offers, err
}

// gpushareAnswer is the envelope {"code","msg","data":{"total","list"}};
// without data, the top level is read as the data object.
type gpushareAnswer struct {
	Code    json.RawMessage `json:"code"`
	Msg     httpx.Text      `json:"msg"`
	Message httpx.Text      `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// gpusharePage is the data object of a page.
type gpusharePage struct {
	Total httpx.Number    `json:"total"`
	List  json.RawMessage `json:"list"`
}

// gpushareMachine is one machine row.
type gpushareMachine struct {
	BaseInfo httpx.Object[struct {
		GPUName httpx.Text `json:"gpuName"`
	}] `json:"baseInfo"`
	GPUName     httpx.Text   `json:"gpuName"`
	GPUNum      httpx.Number `json:"gpuNum"`
	GPUUsed     httpx.Number `json:"gpuUsed"`
	MachineName httpx.Text   `json:"machineName"`
	IsOnline    httpx.Flag   `json:"isOnline"`
	SKUList     httpx.List[httpx.Object[struct {
		SKUName httpx.Text   `json:"skuName"`
		Price   httpx.Number `json:"price"`
	}]] `json:"skuList"`
}

// parseGPUShare also returns the number of rows and data.total (-1 when
// absent).
func parseGPUShare(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, int, int, error) {
	raw, err := httpx.DecodeRaw(body)
	if err != nil {
		return nil, 0, 0, httpx.Malformed(gpusharePlatform, "machine list", err)
	}
	rows, total, err := gpushareRows(raw)
	if err != nil {
		return nil, 0, 0, err
	}
	var out []stock.Offer
	for _, r := range rows {
		if o, ok := gpushareOffer(c, r, at); ok {
			out = append(out, o)
		}
	}
	return out, len(rows), total, nil
}

// gpushareOffer turns one row into an offer; false for a row that is not
// an object or names no GPU.
func gpushareOffer(c *catalog.Catalog, r httpx.Object[gpushareMachine], at time.Time) (stock.Offer, bool) {
	m := r.V
	raw := string(m.BaseInfo.V.GPUName)
	if raw == "" {
		raw = string(m.GPUName)
	}
	if !r.OK || raw == "" {
		return stock.Offer{}, false
	}
	var free *int
	if m.GPUNum.OK && m.GPUUsed.OK {
		free = httpx.Count(max(m.GPUNum.F-m.GPUUsed.F, 0))
	}
	var notes []string
	if m.MachineName != "" {
		notes = append(notes, "machine "+string(m.MachineName))
	}
	if m.IsOnline.OK && !m.IsOnline.V {
		free = stock.IntPtr(0)
		notes = append(notes, "offline")
	}
	price := m.price()
	notes = append(notes, gpushareUnitNote)
	return stock.Offer{
		Platform:        gpusharePlatform,
		GPU:             httpx.ResolveGPU(c, raw),
		RawGPU:          raw,
		GPUsPerInstance: 1,
		Free:            free,
		Total:           m.GPUNum.Count(),
		CNYPerGPUHour:   price,
		OriginalPrice:   price,
		Currency:        "CNY",
		Source:          stock.SourceLive,
		ObservedAt:      at,
		Verified:        true,
		Note:            strings.Join(notes, ", "),
		Caveats:         []stock.Caveat{stock.CaveatUnitUnverified},
		Scope:           stock.ScopeMachine,
	}, true
}

// gpushareRows unwraps the envelope: the machine rows and data.total (-1
// when absent). Null data or list is an empty page.
func gpushareRows(raw json.RawMessage) ([]httpx.Object[gpushareMachine], int, error) {
	var a httpx.Object[gpushareAnswer]
	httpx.Decode(raw, &a)
	data := raw
	if a.OK {
		if httpx.Present(a.V.Code) {
			code := httpx.RawText(a.V.Code)
			if code != "0" && code != "200" {
				return nil, 0, gpushareCodeError(code, cmp.Or(string(a.V.Msg), string(a.V.Message)))
			}
		}
		if len(a.V.Data) > 0 {
			data = a.V.Data
		}
	}
	switch k := httpx.RawKind(data); k {
	case "null":
		return nil, -1, nil
	case "list":
		return httpx.Objects[gpushareMachine](data), -1, nil
	case "object":
	default:
		return nil, 0, httpx.BadResponse("%s: machine list data is a %s, not an object or list", gpusharePlatform, k)
	}
	var p httpx.Object[gpusharePage]
	httpx.Decode(data, &p)
	total := -1
	if f := p.V.Total; f.OK && f.F >= 0 && f.F <= httpx.MaxCount {
		total = int(f.F)
	}
	switch k := httpx.RawKind(p.V.List); k {
	case "":
		return nil, 0, httpx.BadResponse("%s: machine list data has no list", gpusharePlatform)
	case "null":
		return nil, total, nil
	case "list":
		return httpx.Objects[gpushareMachine](p.V.List), total, nil
	default:
		return nil, 0, httpx.BadResponse("%s: machine list data.list is a %s, not a list", gpusharePlatform, k)
	}
}

// gpushareCodeError is the error for a non-success code in a 200 body.
func gpushareCodeError(code, msg string) error {
	var kind error
	what := "API error"
	if code == "401" || code == "403" || stock.SaysTokenExpired(gpusharePlatform, msg) {
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

// price is the price of the first payg SKU; 0 when none has a positive
// price.
func (m gpushareMachine) price() float64 {
	for _, s := range m.SKUList.V {
		if !s.OK || s.V.SKUName != "payg" {
			continue
		}
		if f := s.V.Price.Price(1); f > 0 {
			return f
		}
	}
	return 0
}
