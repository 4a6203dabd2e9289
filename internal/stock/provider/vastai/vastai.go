// Package vastai searches vast.ai's on-demand offers (POST
// /api/v0/bundles/): each offer one rentable bundle of num_gpus GPUs, its
// price USD per bundle-hour, converted to CNY per GPU-hour. Parse decodes
// an answer into typed structs; New builds the stock.Provider.
package vastai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

const (
	vastPlatform    = "vastai"
	vastBundlesPath = "/api/v0/bundles/"

	// DefaultBaseURL is vast.ai's API host.
	DefaultBaseURL = "https://console.vast.ai"
	// APIKeyEnv is the environment variable holding the (optional) API key.
	APIKeyEnv = "VASTAI_API_KEY"
	// DefaultLimit is the number of offers asked for; without a limit
	// vast answers only about 64.
	DefaultLimit = 100
)

// Options configures the vast.ai provider.
type Options struct {
	// Options: BaseURL defaults to DefaultBaseURL
	// (https://console.vast.ai), Timeout (one Fetch) to 10s.
	httpx.Options
	// APIKey is optional (the bundles search answers without one); when set
	// it is sent as "Authorization: Bearer <key>".
	APIKey string
	// FXUSDCNY converts USD to CNY; 0 means the catalog's rate.
	FXUSDCNY float64
	// GPUs are vast GPU names ("RTX 4090") to search for; empty means all.
	GPUs []string
	// Limit is the number of offers requested; default 100.
	Limit int
}

// Provider searches vast.ai's on-demand offers (Name "vastai"). Each offer
// is one rentable bundle of num_gpus GPUs: GPUsPerInstance and Free are
// num_gpus, the original price is USD per bundle-hour, CNYPerGPUHour is
// per GPU.
//
// Empty answers. vast.ai lists only what is rentable and never says "zero",
// so what an empty search means depends on the search. Without a GPU
// filter (Options.GPUs empty) the search spans the whole marketplace,
// which always has rentable offers: an answer without one is unknown, not
// sold out (Fetch fails with stock.ErrEmpty and the Board keeps the last
// offers, marked stale). With a GPU filter the search is narrow, and "none
// of these GPUs is rentable now" is a legitimate answer: an empty result
// is returned as no offers and no error. Parse never decides (a recording
// does not say what was searched): an empty recording yields no offers,
// which covers nothing in a replay.
type Provider struct {
	httpx.Client
	o Options
}

// Build is New from the provider's settings (its registry line).
func Build(c *catalog.Catalog, s httpx.Settings) stock.Provider {
	return New(c, Options{Options: s.HTTP(), APIKey: s.APIKey, FXUSDCNY: s.FXUSDCNY, GPUs: s.GPUs, Limit: s.Limit})
}

// Recordings are the replayed searches (vastai-*), priced in USD.
var Recordings = []httpx.Recording{{Prefix: "vastai-", Parse: Parse}}

// New returns a vast.ai provider.
func New(c *catalog.Catalog, o Options) *Provider {
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	return &Provider{Client: httpx.NewClient(vastPlatform, DefaultBaseURL, c, o.Options), o: o}
}

// query is the search body (vast-cli search offers / gpuhunt).
func (v *Provider) query() map[string]any {
	q := map[string]any{
		"num_gpus":          map[string]any{"gte": 1},
		"rentable":          map[string]any{"eq": true},
		"rented":            map[string]any{"eq": false},
		"verified":          map[string]any{"eq": true},
		"external":          map[string]any{"eq": false},
		"order":             [][]string{{"dph_total", "asc"}},
		"type":              "on-demand",
		"limit":             v.o.Limit,
		"allocated_storage": 5.0,
	}
	if names := v.gpuNames(); len(names) > 0 {
		q["gpu_name"] = map[string]any{"in": names}
	}
	return q
}

// gpuNames are the GPU names searched for; none means every GPU.
func (v *Provider) gpuNames() []string {
	var names []string
	for _, g := range v.o.GPUs {
		if g = strings.TrimSpace(g); g != "" {
			names = append(names, g)
		}
	}
	return names
}

// filtered reports whether the search is narrowed to some GPUs.
func (v *Provider) filtered() bool { return len(v.gpuNames()) > 0 }

// Fetch searches the offers; without a GPU filter an answer without
// offers is stock.ErrEmpty.
func (v *Provider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	return v.Run(ctx, nil, v.fetch) // the API key is optional
}

func (v *Provider) fetch(ctx context.Context, at time.Time) ([]stock.Offer, error) {
	h := http.Header{}
	if k := strings.TrimSpace(v.o.APIKey); k != "" {
		h.Set("Authorization", "Bearer "+k)
	}
	method := http.MethodPost
	body, err := v.Answer(ctx, httpx.Request{Method: method, Path: vastBundlesPath, Header: h, Payload: v.query(), Refused: vastRefused})
	if err != nil {
		return nil, err
	}
	offers, err := Parse(v.Catalog, body, at, v.fx())
	if err == nil && len(offers) == 0 && !v.filtered() {
		return nil, httpx.Empty("%s: %s %s without a GPU filter", vastPlatform, method, vastBundlesPath)
	}
	if err == nil && countRows(body) >= v.o.Limit {
		// The answer is cut off at the limit: what is not in it is not
		// known to be sold out.
		return offers, &stock.PartialError{Provider: vastPlatform, Platforms: []string{vastPlatform},
			Failed: []string{fmt.Sprintf("answer cut off at %d offers", v.o.Limit)}}
	}
	return offers, err
}

func (v *Provider) fx() float64 {
	if v.o.FXUSDCNY > 0 {
		return v.o.FXUSDCNY
	}
	if v.Catalog != nil {
		return v.Catalog.FXUSDCNY
	}
	return 0
}

// vastAnswer is the top level of a bundles answer that is an object:
// {"offers":[...]} or the docs' {"offers":{...}}, a bare offer (gpu_name
// and num_gpus present) or an error {"error":..., "msg":"Invalid user
// key"}. Fields are kept raw to tell absent, null and their types apart.
type vastAnswer struct {
	Offers  json.RawMessage `json:"offers"`
	GPUName json.RawMessage `json:"gpu_name"`
	NumGPUs json.RawMessage `json:"num_gpus"`
	Error   json.RawMessage `json:"error"`
	Msg     json.RawMessage `json:"msg"`
}

// vastRow is one offer: a bundle of num_gpus GPUs of gpu_name, its price
// in USD per bundle-hour (dph_total, discounted_dph_total,
// search.totalHour, dph_total_adj) and the host's flags.
type vastRow struct {
	Rentable           httpx.Flag   `json:"rentable"`
	Rented             httpx.Flag   `json:"rented"`
	GPUName            httpx.Text   `json:"gpu_name"`
	NumGPUs            httpx.Number `json:"num_gpus"`
	DPHTotal           httpx.Number `json:"dph_total"`
	DiscountedDPHTotal httpx.Number `json:"discounted_dph_total"`
	Search             httpx.Object[struct {
		TotalHour httpx.Number `json:"totalHour"`
	}] `json:"search"`
	DPHTotalAdj  httpx.Number `json:"dph_total_adj"`
	Geolocation  httpx.Text   `json:"geolocation"`
	Verified     httpx.Flag   `json:"verified"`
	Verification httpx.Text   `json:"verification"`
}

// vastKeyError recognises the documented unauthorized answer: HTTP 404
// (sometimes 401/403) with {"error": ..., "msg": "Invalid user key"}.
// vastRefused words a refused API key as such.
func vastRefused(r *httpx.Result) error {
	if e := vastKeyError(r); e != nil {
		return e
	}
	return nil
}

func vastKeyError(r *httpx.Result) *httpx.APIError {
	raw, err := httpx.DecodeRaw(r.Body)
	if err != nil {
		return nil
	}
	var a httpx.Object[vastAnswer]
	httpx.Decode(raw, &a)
	if !a.OK {
		return nil
	}
	msg, code := httpx.RawText(a.V.Msg), httpx.RawText(a.V.Error)
	if !strings.Contains(strings.ToLower(msg+" "+code), "key") {
		return nil
	}
	text := fmt.Sprintf("%s: API key rejected (HTTP %d)", vastPlatform, r.Status)
	if msg != "" {
		text += ": " + msg
	} else if code != "" {
		text += ": " + code
	}
	return httpx.NewAPIError(vastPlatform, r.Status, code, msg, stock.ErrUnauthorized, text)
}

// Parse parses a bundles search answer: {"offers":[...]}, the docs'
// {"offers":{...}} (one offer as an object), a bare array (vastai search
// offers --raw) or a single bare offer object. Rows with rentable false or
// rented true are skipped. The price per bundle-hour is the first positive
// of dph_total, discounted_dph_total, search.totalHour, dph_total_adj; the
// CNY price per GPU-hour divides by num_gpus and multiplies by fx (the
// catalog's rate when fx <= 0). An unknown GPU name is kept as the GPU.
// A body {"error":..., "msg":...} is an *httpx.APIError.
func Parse(c *catalog.Catalog, body []byte, at time.Time, fx float64) ([]stock.Offer, error) {
	if fx <= 0 && c != nil {
		fx = c.FXUSDCNY
	}
	raw, err := httpx.DecodeRaw(body)
	if err != nil {
		return nil, httpx.Malformed(vastPlatform, "bundles response", err)
	}
	rows, err := vastRows(raw)
	if err != nil {
		return nil, err
	}
	var out []stock.Offer
	for _, r := range rows {
		if o, ok := vastOffer(c, r, at, fx); ok {
			out = append(out, o)
		}
	}
	return out, nil
}

// vastRows finds the offer rows of an answer by its shape; rows that are
// not objects are kept with OK false.
func vastRows(raw json.RawMessage) ([]httpx.Object[vastRow], error) {
	switch k := httpx.RawKind(raw); k {
	case "null":
		return nil, nil
	case "list":
		return httpx.Objects[vastRow](raw), nil
	case "object":
	default:
		return nil, httpx.BadResponse("%s: response is a %s, not an object or list", vastPlatform, k)
	}
	var a httpx.Object[vastAnswer]
	httpx.Decode(raw, &a)
	d := a.V
	switch {
	case len(d.Offers) > 0:
		switch k := httpx.RawKind(d.Offers); k {
		case "null":
			return nil, nil
		case "list":
			return httpx.Objects[vastRow](d.Offers), nil
		case "object":
			return vastOne(d.Offers), nil
		default:
			return nil, httpx.BadResponse("%s: offers is a %s, not a list", vastPlatform, k)
		}
	case len(d.GPUName) > 0 && len(d.NumGPUs) > 0:
		// A bare offer object, not an error body.
		return vastOne(raw), nil
	case len(d.Error) > 0 || httpx.Present(d.Msg):
		return nil, vastBodyError(d)
	}
	return nil, httpx.BadResponse("%s: response has no offers field", vastPlatform)
}

func vastOne(raw json.RawMessage) []httpx.Object[vastRow] {
	var o httpx.Object[vastRow]
	httpx.Decode(raw, &o)
	return []httpx.Object[vastRow]{o}
}

// vastBodyError is the *httpx.APIError of a 200 body {"error":...,
// "msg":...}; a message about the key wraps stock.ErrUnauthorized.
func vastBodyError(d vastAnswer) error {
	msg, code := httpx.RawText(d.Msg), httpx.RawText(d.Error)
	text := fmt.Sprintf("%s: API error", vastPlatform)
	if code != "" {
		text += " (" + code + ")"
	}
	if msg != "" {
		text += ": " + msg
	}
	var kind error
	if strings.Contains(strings.ToLower(msg+" "+code), "key") {
		kind = stock.ErrUnauthorized
	}
	return httpx.NewAPIError(vastPlatform, http.StatusOK, code, msg, kind, text)
}

// vastOffer turns one row into an offer; false for a row that is not an
// object, not rentable, rented or without a GPU name.
func vastOffer(c *catalog.Catalog, r httpx.Object[vastRow], at time.Time, fx float64) (stock.Offer, bool) {
	m := r.V
	if !r.OK || m.Rentable.OK && !m.Rentable.V || m.Rented.OK && m.Rented.V {
		return stock.Offer{}, false
	}
	raw := string(m.GPUName)
	if raw == "" {
		return stock.Offer{}, false
	}
	n := 1
	if p := m.NumGPUs.Count(); p != nil && *p >= 1 {
		n = *p
	}
	price := m.price()
	o := stock.Offer{
		Platform:        vastPlatform,
		GPU:             httpx.ResolveGPU(c, raw),
		RawGPU:          raw,
		GPUsPerInstance: n,
		Free:            stock.IntPtr(n),
		CNYPerGPUHour:   price / float64(n) * fx,
		OriginalPrice:   price,
		Currency:        "USD",
		Region:          string(m.Geolocation),
		Source:          stock.SourceLive,
		ObservedAt:      at,
		Verified:        true,
		Scope:           stock.ScopeMachine,
	}
	if fx <= 0 {
		o.CNYPerGPUHour = 0
	}
	if m.unverified() {
		o.Note = "unverified host"
	}
	return o, true
}

// price is USD per bundle-hour by the fallback chain; 0 when none.
func (m vastRow) price() float64 {
	for _, v := range []httpx.Number{m.DPHTotal, m.DiscountedDPHTotal, m.Search.V.TotalHour, m.DPHTotalAdj} {
		if v.OK && v.F > 0 {
			return v.F
		}
	}
	return 0
}

// unverified reports a host vast marks unverified or deverified.
func (m vastRow) unverified() bool {
	if m.Verified.OK {
		return !m.Verified.V
	}
	switch string(m.Verification) {
	case "unverified", "deverified":
		return true
	}
	return false
}

// countRows counts the offers in a bundles answer (0 when it does not
// parse).
func countRows(body []byte) int {
	var v struct {
		Offers json.RawMessage `json:"offers"`
	}
	if json.Unmarshal(body, &v) != nil {
		return 0
	}
	var rows []json.RawMessage
	if json.Unmarshal(v.Offers, &rows) != nil {
		return 0
	}
	return len(rows)
}
