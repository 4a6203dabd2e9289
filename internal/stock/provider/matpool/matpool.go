// Package matpool reads 矩池云's (Matpool) GPU machine list page by page:
// one offer per machine row, the price hardware.priceMillicent (1e-5 CNY
// per hour), the free count gpu.available (unreliable, see Parse).
package matpool

import (
	"cmp"
	"context"
	"encoding/base64"
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

// 矩池云 Matpool (see docs/reference/stock-apis.md §3). The API is the
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

// matpoolCondition is the base64 of {"filters":null,"sorts":null}, the
// console's "no filter" condition.
var matpoolCondition = base64.StdEncoding.EncodeToString([]byte(`{"filters":null,"sorts":null}`))

// Options configures the 矩池云 Matpool provider.
type Options struct {
	// Options: BaseURL defaults to DefaultBaseURL
	// (https://matpool.com/api), Timeout (one whole Fetch, all pages) to
	// 10s.
	httpx.Options
	// Token is the login JWT (MATPOOL_TOKEN), sent as "Authorization:
	// Bearer <token>".
	Token string
	// UserID is the account's user id (MATPOOL_USER_ID), sent as
	// x-matpool-user-id.
	UserID string
}

// Provider fetches 矩池云's GPU machine list (Name "matpool"): one offer
// per machine row, price hardware.priceMillicent (1e-5 CNY per hour), Free
// gpu.available and Total gpu.total. The free count is unreliable (see
// Parse).
//
// Empty answers. The list has every GPU machine of the listed domains,
// busy ones too, so a list without a single machine (an empty or null
// machines list or data on the first page) is unknown, never sold out:
// Fetch fails with stock.ErrEmpty and the Board keeps the last offers,
// marked stale. 矩池云 never states a zero that can be trusted: a
// gpu.available of 0 is read as unknown (see Parse). A later page
// without rows only ends the list.
type Provider struct {
	httpx.Client
	o Options
}

// matpoolRefused words a non-200 answer by its envelope, when it has one.
func matpoolRefused(r *httpx.Result) error { return matpoolEnvelopeError(r.Status, r.Body) }

// Build is New from the provider's settings (its registry line).
func Build(c *catalog.Catalog, s httpx.Settings) stock.Provider {
	return New(c, Options{Options: s.HTTP(), Token: s.Token, UserID: s.UserID})
}

// Recordings are the replayed machine list answers (matpool-*).
var Recordings = []httpx.Recording{{Prefix: "matpool-", Parse: httpx.NoFX(Parse)}}

// New returns a Matpool provider. Missing credentials are reported
// by Fetch (wrapping stock.ErrNotConfigured), not here.
func New(c *catalog.Catalog, o Options) *Provider {
	return &Provider{Client: httpx.NewClient(matpoolPlatform, DefaultBaseURL, c, o.Options), o: o}
}

// Fetch pages through the GPU machines of all domains (PageSize a
// page, until total is reached or a short page, at most MaxPages): page
// 1, then the rest its total calls for, Options.Concurrency at once
// (httpx.FetchPages). Any failed page fails the whole fetch.
func (p *Provider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	creds := []httpx.Credential{{Value: p.o.Token, What: "token", Env: TokenEnv}, {Value: p.o.UserID, What: "user id", Env: UserIDEnv}}
	return p.Run(ctx, creds, p.fetch)
}

func (p *Provider) fetch(ctx context.Context, at time.Time) ([]stock.Offer, error) {
	h := httpx.Bearer(p.o.Token)
	h.Set("x-matpool-user-id", strings.TrimSpace(p.o.UserID))
	return httpx.FetchPages(ctx, p.Paging(MaxPages, PageSize), matpoolPlatform+": GET "+matpoolMachinesPath, func(ctx context.Context, page int) ([]stock.Offer, int, int, error) {
		q := url.Values{
			"domains":          matpoolDomains,
			"machine_category": {"0"},
			"page":             {strconv.Itoa(page)},
			"per_page":         {strconv.Itoa(PageSize)},
			"tags":             {"0"},
			"condition":        {matpoolCondition},
		}
		body, err := p.Answer(ctx, httpx.Request{Method: http.MethodGet, Path: matpoolMachinesPath, Query: q, Header: h, Refused: matpoolRefused})
		if err != nil {
			return nil, 0, 0, err
		}
		return parseMatpool(p.Catalog, body, at)
	})
}

// matpoolAnswer is the top level of GET /machines (or its data object):
// the envelope {"code","msg","data"} and the page {"machines","total"}.
type matpoolAnswer struct {
	Code     json.RawMessage `json:"code"`
	Msg      httpx.Text      `json:"msg"`
	Message  httpx.Text      `json:"message"`
	Error    httpx.Text      `json:"error"`
	Data     json.RawMessage `json:"data"`
	Total    httpx.Number    `json:"total"`
	Machines json.RawMessage `json:"machines"`
}

// matpoolMachine is one machine row.
type matpoolMachine struct {
	AgentID  httpx.Text `json:"agentId"`
	Domain   httpx.Text `json:"domain"`
	Hardware httpx.Object[struct {
		Name           httpx.Text   `json:"name"`
		PriceMillicent httpx.Number `json:"priceMillicent"`
		GPU            httpx.Object[struct {
			GPUName httpx.Text `json:"gpuName"`
		}] `json:"gpu"`
	}] `json:"hardware"`
	GPU httpx.Object[struct {
		Available httpx.Number `json:"available"`
		Total     httpx.Number `json:"total"`
	}] `json:"gpu"`
}

// matpoolEnvelopeError recognises a token error in a non-200 body
// (Matpool may send code 176 with an HTTP error status); nil otherwise.
func matpoolEnvelopeError(status int, body []byte) error {
	raw, err := httpx.DecodeRaw(body)
	if err != nil {
		return nil
	}
	var a httpx.Object[matpoolAnswer]
	httpx.Decode(raw, &a)
	if !a.OK || !httpx.Present(a.V.Code) {
		return nil
	}
	if e := matpoolCodeError(status, httpx.RawText(a.V.Code), a.V.msg()); e.Unwrap() == stock.ErrUnauthorized {
		return e
	}
	return nil
}

func (a matpoolAnswer) msg() string {
	return cmp.Or(string(a.Msg), string(a.Message), string(a.Error))
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
// unreliable". An answer without a single row (an empty or null machines
// list or data) is stock.ErrEmpty: unknown, not sold out.
func Parse(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	offers, rows, _, err := parseMatpool(c, body, at)
	if err == nil && rows == 0 {
		return nil, httpx.Empty("%s: machine list", matpoolPlatform)
	}
	return offers, err
}

// parseMatpool also returns the number of rows and the total (-1 when
// absent).
func parseMatpool(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, int, int, error) {
	raw, err := httpx.DecodeRaw(body)
	if err != nil {
		return nil, 0, 0, httpx.Malformed(matpoolPlatform, "machine list", err)
	}
	rows, total, err := matpoolRows(raw)
	if err != nil {
		return nil, 0, 0, err
	}
	var out []stock.Offer
	for _, r := range rows {
		if o, ok := matpoolOffer(c, r, at); ok {
			out = append(out, o)
		}
	}
	return out, len(rows), total, nil
}

// matpoolOffer turns one row into an offer; false for a row that is not
// an object or names no GPU.
func matpoolOffer(c *catalog.Catalog, r httpx.Object[matpoolMachine], at time.Time) (stock.Offer, bool) {
	m := r.V
	hw := m.Hardware.V
	raw := string(hw.GPU.V.GPUName)
	if raw == "" {
		raw = string(hw.Name)
	}
	if !r.OK || raw == "" {
		return stock.Offer{}, false
	}
	price := hw.PriceMillicent.Price(1e5)
	free, total := m.GPU.V.Available.Count(), m.GPU.V.Total.Count()
	if free != nil && *free == 0 {
		// gpu.available is often 0 while the website shows free
		// machines (stock-apis.md §3): a 0 is not "sold out".
		free = nil
	}
	note := matpoolUnreliableNote
	if m.AgentID != "" {
		note = "machine " + string(m.AgentID) + ", " + note
	}
	return stock.Offer{
		Platform:        matpoolPlatform,
		GPU:             httpx.ResolveFirst(c, raw, string(hw.Name)),
		RawGPU:          raw,
		GPUsPerInstance: 1,
		Free:            free,
		Total:           total,
		CNYPerGPUHour:   price,
		OriginalPrice:   price,
		Currency:        "CNY",
		Region:          matpoolRegion(string(m.Domain)),
		Source:          stock.SourceLive,
		ObservedAt:      at,
		Verified:        true,
		Note:            note,
		Caveats:         []stock.Caveat{stock.CaveatCountUnreliable},
		Scope:           stock.ScopeMachine,
	}, true
}

// matpoolRows unwraps the envelope: the machine rows and the total (-1
// when absent). A null machines list is an empty page.
func matpoolRows(raw json.RawMessage) ([]httpx.Object[matpoolMachine], int, error) {
	switch k := httpx.RawKind(raw); k {
	case "null":
		return nil, -1, nil
	case "list":
		return httpx.Objects[matpoolMachine](raw), -1, nil
	case "object":
	default:
		return nil, 0, httpx.BadResponse("%s: response is a %s, not an object or list", matpoolPlatform, k)
	}
	var top httpx.Object[matpoolAnswer]
	httpx.Decode(raw, &top)
	d := top.V
	if httpx.Present(d.Code) {
		if code := httpx.RawText(d.Code); code != "0" {
			return nil, 0, matpoolCodeError(http.StatusOK, code, d.msg())
		}
	}
	obj := d
	if len(d.Machines) == 0 {
		switch k := httpx.RawKind(d.Data); k {
		case "object":
			var data httpx.Object[matpoolAnswer]
			httpx.Decode(d.Data, &data)
			obj = data.V
		case "list":
			return httpx.Objects[matpoolMachine](d.Data), -1, nil
		case "null":
			return nil, -1, nil
		case "":
		default:
			return nil, 0, httpx.BadResponse("%s: machine list data is a %s, not an object", matpoolPlatform, k)
		}
	}
	total := -1
	for _, t := range []httpx.Number{obj.Total, d.Total} {
		if t.OK && t.F >= 0 && t.F <= httpx.MaxCount {
			total = int(t.F)
			break
		}
	}
	switch k := httpx.RawKind(obj.Machines); k {
	case "":
		return nil, 0, httpx.BadResponse("%s: response has no machines list (top level or under data)", matpoolPlatform)
	case "null":
		return nil, total, nil
	case "list":
		return httpx.Objects[matpoolMachine](obj.Machines), total, nil
	default:
		return nil, 0, httpx.BadResponse("%s: machines is a %s, not a list", matpoolPlatform, k)
	}
}

// matpoolRegion names a machine's domain; "" when absent.
func matpoolRegion(d string) string {
	if d == "" {
		return ""
	}
	if name, ok := stock.KnownRegion(matpoolPlatform, d); ok {
		return name
	}
	return "domain " + d
}
