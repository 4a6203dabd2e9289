package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
)

const (
	vastPlatform    = "vastai"
	vastBundlesPath = "/api/v0/bundles/"

	// DefaultVastAIBaseURL is vast.ai's API host.
	DefaultVastAIBaseURL = "https://console.vast.ai"
	// DefaultVastAILimit is the number of offers asked for; without a limit
	// vast answers only about 64.
	DefaultVastAILimit = 100
)

// VastAIOptions configures the vast.ai provider.
type VastAIOptions struct {
	// BaseURL defaults to https://console.vast.ai.
	BaseURL string
	// APIKey is optional (the bundles search answers without one); when set
	// it is sent as "Authorization: Bearer <key>".
	APIKey string
	// FXUSDCNY converts USD to CNY; 0 means the catalog's rate.
	FXUSDCNY float64
	// GPUs are vast GPU names ("RTX 4090") to search for; empty means all.
	GPUs []string
	// Limit is the number of offers requested; default 100.
	Limit int
	// Timeout bounds one Fetch; default 10s.
	Timeout time.Duration
	// HTTPClient defaults to a plain client; deadlines come from the context.
	HTTPClient *http.Client
	// Now defaults to time.Now.
	Now func() time.Time
}

// VastAI searches vast.ai's on-demand offers. Each offer is one rentable
// bundle of num_gpus GPUs: GPUsPerInstance and Free are num_gpus, the
// original price is USD per bundle-hour, CNYPerGPUHour is per GPU.
type VastAI struct {
	c *catalog.Catalog
	o VastAIOptions
}

// NewVastAI returns a vast.ai provider.
func NewVastAI(c *catalog.Catalog, o VastAIOptions) *VastAI {
	httpDefaults(&o.BaseURL, DefaultVastAIBaseURL, &o.Timeout, &o.HTTPClient, &o.Now)
	if o.Limit <= 0 {
		o.Limit = DefaultVastAILimit
	}
	return &VastAI{c: c, o: o}
}

// Name returns "vastai".
func (v *VastAI) Name() string { return vastPlatform }

// query is the search body (vast-cli search offers / gpuhunt).
func (v *VastAI) query() map[string]any {
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
	var names []string
	for _, g := range v.o.GPUs {
		if g = strings.TrimSpace(g); g != "" {
			names = append(names, g)
		}
	}
	if len(names) > 0 {
		q["gpu_name"] = map[string]any{"in": names}
	}
	return q
}

// Fetch searches the offers.
func (v *VastAI) Fetch(ctx context.Context) ([]stock.Offer, error) {
	ctx, cancel := withTimeout(ctx, v.o.Timeout)
	defer cancel()
	h := http.Header{}
	if k := strings.TrimSpace(v.o.APIKey); k != "" {
		h.Set("Authorization", "Bearer "+k)
	}
	at := v.o.Now()
	method := http.MethodPost
	r, err := doRequest(ctx, v.o.HTTPClient, vastPlatform, method, joinURL(v.o.BaseURL, vastBundlesPath), vastBundlesPath, h, v.query())
	if err != nil {
		return nil, err
	}
	if r.status != http.StatusOK {
		if e := vastKeyError(r); e != nil {
			return nil, e
		}
		return nil, statusError(vastPlatform, method, vastBundlesPath, r)
	}
	offers, err := ParseVastAI(v.c, r.body, at, v.fx())
	if err == nil && countRows(r.body) >= v.o.Limit {
		// The answer is cut off at the limit: what is not in it is not
		// known to be sold out.
		return offers, &stock.PartialError{Provider: vastPlatform, Platforms: []string{vastPlatform},
			Failed: []string{fmt.Sprintf("answer cut off at %d offers", v.o.Limit)}}
	}
	return offers, err
}

func (v *VastAI) fx() float64 {
	if v.o.FXUSDCNY > 0 {
		return v.o.FXUSDCNY
	}
	if v.c != nil {
		return v.c.FXUSDCNY
	}
	return 0
}

// vastKeyError recognises the documented unauthorized answer: HTTP 404
// (sometimes 401/403) with {"error": ..., "msg": "Invalid user key"}.
func vastKeyError(r *httpResult) *APIError {
	v, err := decodeJSON(r.body)
	if err != nil {
		return nil
	}
	m, _ := v.(map[string]any)
	if m == nil {
		return nil
	}
	msg, code := strVal(m["msg"]), strVal(m["error"])
	if !strings.Contains(strings.ToLower(msg+" "+code), "key") {
		return nil
	}
	text := fmt.Sprintf("%s: API key rejected (HTTP %d)", vastPlatform, r.status)
	if msg != "" {
		text += ": " + msg
	} else if code != "" {
		text += ": " + code
	}
	return &APIError{Platform: vastPlatform, StatusCode: r.status, Code: code, Msg: msg, kind: stock.ErrUnauthorized, text: text}
}

// ParseVastAI parses a bundles search answer: {"offers":[...]}, the docs'
// {"offers":{...}} (one offer as an object), a bare array (vastai search
// offers --raw) or a single bare offer object. Rows with rentable false or
// rented true are skipped. The price per bundle-hour is the first positive
// of dph_total, discounted_dph_total, search.totalHour, dph_total_adj; the
// CNY price per GPU-hour divides by num_gpus and multiplies by fx (the
// catalog's rate when fx <= 0). An unknown GPU name is kept as the GPU.
// A body {"error":..., "msg":...} is an *APIError.
func ParseVastAI(c *catalog.Catalog, body []byte, at time.Time, fx float64) ([]stock.Offer, error) {
	if fx <= 0 && c != nil {
		fx = c.FXUSDCNY
	}
	v, err := decodeJSON(body)
	if err != nil {
		return nil, malformed(vastPlatform, "bundles response", err)
	}
	var rows []any
	switch d := v.(type) {
	case nil:
		return nil, nil
	case []any:
		rows = d
	case map[string]any:
		if offers, ok := d["offers"]; ok {
			switch o := offers.(type) {
			case nil:
			case []any:
				rows = o
			case map[string]any:
				rows = []any{o}
			default:
				return nil, badResponse("%s: offers is a %s, not a list", vastPlatform, jsonKind(o))
			}
			break
		}
		if looksLikeVastOffer(d) {
			rows = []any{d}
			break
		}
		if _, hasErr := d["error"]; hasErr || d["msg"] != nil {
			msg, code := strVal(d["msg"]), strVal(d["error"])
			e := &APIError{Platform: vastPlatform, StatusCode: http.StatusOK, Code: code, Msg: msg}
			e.text = fmt.Sprintf("%s: API error", vastPlatform)
			if code != "" {
				e.text += " (" + code + ")"
			}
			if msg != "" {
				e.text += ": " + msg
			}
			if strings.Contains(strings.ToLower(msg+" "+code), "key") {
				e.kind = stock.ErrUnauthorized
			}
			return nil, e
		}
		return nil, badResponse("%s: response has no offers field", vastPlatform)
	default:
		return nil, badResponse("%s: response is a %s, not an object or list", vastPlatform, jsonKind(v))
	}
	var out []stock.Offer
	for _, el := range rows {
		m, ok := el.(map[string]any)
		if !ok {
			continue
		}
		if r, ok := boolVal(m["rentable"]); ok && !r {
			continue
		}
		if r, ok := boolVal(m["rented"]); ok && r {
			continue
		}
		raw := strVal(m["gpu_name"])
		if raw == "" {
			continue
		}
		n := 1
		if p := countVal(m["num_gpus"]); p != nil && *p >= 1 {
			n = *p
		}
		price := vastPrice(m)
		o := stock.Offer{
			Platform:        vastPlatform,
			GPU:             resolveGPU(c, raw),
			RawGPU:          raw,
			GPUsPerInstance: n,
			Free:            stock.IntPtr(n),
			CNYPerGPUHour:   price / float64(n) * fx,
			OriginalPrice:   price,
			Currency:        "USD",
			Region:          strVal(m["geolocation"]),
			Source:          stock.SourceLive,
			ObservedAt:      at,
			Verified:        true,
			Scope:           stock.ScopeMachine,
		}
		if fx <= 0 {
			o.CNYPerGPUHour = 0
		}
		if vastUnverified(m) {
			o.Note = "unverified host"
		}
		out = append(out, o)
	}
	return out, nil
}

// looksLikeVastOffer tells a bare offer object from an error body.
func looksLikeVastOffer(m map[string]any) bool {
	_, g := m["gpu_name"]
	_, n := m["num_gpus"]
	return g && n
}

// vastPrice is USD per bundle-hour by the fallback chain; 0 when none.
func vastPrice(m map[string]any) float64 {
	var search any
	if s, ok := m["search"].(map[string]any); ok {
		search = s["totalHour"]
	}
	for _, v := range []any{m["dph_total"], m["discounted_dph_total"], search, m["dph_total_adj"]} {
		if f, ok := numVal(v); ok && f > 0 {
			return f
		}
	}
	return 0
}

// vastUnverified reports a host vast marks unverified or deverified.
func vastUnverified(m map[string]any) bool {
	if b, ok := boolVal(m["verified"]); ok {
		return !b
	}
	switch strVal(m["verification"]) {
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
