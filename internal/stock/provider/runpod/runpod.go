// Package runpod reads RunPod's GPU catalog (REST v2, GraphQL gpuTypes or
// runpodctl output): stock levels (not counts) per data center, prices in
// USD per GPU-hour converted to CNY.
package runpod

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// RunPod (see shared/reference/stock-apis.md §7 and
// shared/fixtures/stock-verbatim/SOURCES.md "RunPod").
const (
	runpodPlatform    = "runpod"
	runpodCatalogPath = "/v2/catalog/gpus"

	// DefaultBaseURL is the REST API v2 host: the servers entry of
	// the v2 OpenAPI document and the base URL of its overview page
	// (https://api.runpod.io/v2). rest.runpod.io serves the older v1 REST
	// API, which has no catalog.
	DefaultBaseURL = "https://api.runpod.io"
	// APIKeyEnv is the environment variable holding the API key.
	APIKeyEnv = "RUNPOD_API_KEY"
)

// RunPod stock levels, as the REST v2 API spells them. GraphQL's
// stockStatus ("High", "Medium", "Low", null) and runpodctl's are mapped to
// these.
const (
	runpodNone   = "NONE"
	runpodLow    = "LOW"
	runpodMedium = "MEDIUM"
	runpodHigh   = "HIGH"
)

// RunPod clouds: the availability of the REST catalog is computed for one
// cloud (the cloud query parameter; SECURE when it is left out).
const (
	runpodCommunity = "community"
	runpodSecure    = "secure"
)

// Options configures the RunPod provider.
type Options struct {
	// BaseURL defaults to https://api.runpod.io.
	BaseURL string
	// APIKey (RUNPOD_API_KEY) is sent as "Authorization: Bearer <key>".
	APIKey string
	// FXUSDCNY converts USD to CNY; 0 means the catalog's rate.
	FXUSDCNY float64
	// Timeout bounds one whole Fetch (both requests); default 10s.
	Timeout time.Duration
	// HTTPClient defaults to a plain client; deadlines come from the context.
	HTTPClient *http.Client
	// Now defaults to time.Now.
	Now func() time.Time
}

// Provider reads RunPod's GPU catalog with pod availability (REST API v2,
// GET /v2/catalog/gpus?include=AVAILABILITY&product=POD).
//
// RunPod gives a stock level (NONE, LOW, MEDIUM, HIGH), not a count.
// Offers encode it as Free 0 for NONE and Free 1 for any other level, with
// "stock level HIGH (a level, not a count)" in Note; Free is nil when the
// level is unknown. Prices are USD per GPU-hour (OriginalPrice, Currency
// USD), converted at FXUSDCNY.
type Provider struct {
	c *catalog.Catalog
	o Options
}

// New returns a RunPod provider. A missing API key is reported by
// Fetch (wrapping stock.ErrNotConfigured), not here.
func New(c *catalog.Catalog, o Options) *Provider {
	httpx.Defaults(&o.BaseURL, DefaultBaseURL, &o.Timeout, &o.HTTPClient, &o.Now)
	return &Provider{c: c, o: o}
}

// Name returns "runpod".
func (p *Provider) Name() string { return runpodPlatform }

// Fetch asks the catalog twice, with cloud=COMMUNITY and cloud=SECURE: a
// level is computed for one cloud only, and the two clouds' prices differ.
// Each (GPU, data center) offer then carries the cheaper cloud that has
// stock (or, with none in stock, the cheaper offered price and Free 0).
// Either request failing fails the fetch.
func (p *Provider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	if strings.TrimSpace(p.o.APIKey) == "" {
		return nil, httpx.NotConfigured(runpodPlatform, "API key", APIKeyEnv)
	}
	ctx, cancel := httpx.WithTimeout(ctx, p.o.Timeout)
	defer cancel()
	at := p.o.Now()
	h := httpx.Bearer(p.o.APIKey)
	var all []*runpodEntry
	for _, cloud := range []string{runpodCommunity, runpodSecure} {
		q := url.Values{"include": {"AVAILABILITY"}, "product": {"POD"}, "cloud": {strings.ToUpper(cloud)}}
		method := http.MethodGet
		r, err := httpx.Do(ctx, p.o.HTTPClient, runpodPlatform, method, httpx.JoinURL(p.o.BaseURL, runpodCatalogPath)+"?"+q.Encode(), runpodCatalogPath, h, nil)
		if err != nil {
			return nil, fmt.Errorf("%w (cloud %s)", err, strings.ToUpper(cloud))
		}
		if r.Status != http.StatusOK {
			return nil, fmt.Errorf("%w (cloud %s)", runpodStatusError(method, runpodCatalogPath, r), strings.ToUpper(cloud))
		}
		entries, err := runpodEntries(r.Body, cloud)
		if err != nil {
			return nil, fmt.Errorf("%w (cloud %s)", err, strings.ToUpper(cloud))
		}
		all = append(all, entries...)
	}
	return runpodOffers(p.c, mergeRunPod(all), at, httpx.FXRate(p.c, p.o.FXUSDCNY)), nil
}

// runpodStatusError words a non-200 answer, quoting an RFC 7807 problem
// body by its title and detail rather than as raw JSON.
func runpodStatusError(method, path string, r *httpx.Result) error {
	if t, d := runpodProblem(r.Body); t != "" || d != "" {
		r2 := *r
		r2.Body = []byte(strings.Trim(t+": "+d, ": "))
		return httpx.StatusError(runpodPlatform, method, path, &r2)
	}
	return httpx.StatusError(runpodPlatform, method, path, r)
}

// runpodProblem returns the title and detail of an RFC 7807 body.
func runpodProblem(body []byte) (title, detail string) {
	v, err := httpx.DecodeJSON(body)
	if err != nil {
		return "", ""
	}
	m, _ := v.(map[string]any)
	if m == nil || !httpx.Has(m, "status") || !httpx.Has(m, "title") && !httpx.Has(m, "detail") {
		return "", ""
	}
	return httpx.Str(m["title"]), httpx.Str(m["detail"])
}

// Parse parses a recorded RunPod answer of any of these shapes,
// told apart by content:
//
//   - REST v2 catalog: {"gpus":[{"id","name","secure","community",
//     "price":{"secure","community"},"availability":"HIGH",
//     "dataCenters":[{"id","availability"}]}]}, or one such GPU object;
//   - GraphQL gpuTypes: {"data":{"gpuTypes":[{"id","displayName",
//     "securePrice","communityPrice","lowestPrice":{"stockStatus":"High"}}]}},
//     a bare list of gpuTypes, or one (the SDK's get_gpu);
//   - runpodctl gpu list: [{"gpuId","displayName","available","stockStatus"}];
//   - runpodctl datacenter list: [{"id","gpuAvailability":[{"gpuId","stockStatus"}]}].
//
// Levels map to Free as for the RunPod provider: NONE (GraphQL's null
// stockStatus) 0, LOW/MEDIUM/HIGH 1 with "stock level HIGH (a level, not a
// count)" in Note, unknown (no level field) nil. Which cloud a recorded
// level is for is unknown, so the price is the cheaper of the offered
// clouds' prices (Note says which), USD per GPU-hour converted at fx (the
// catalog's rate when fx <= 0). runpodctl output has no price (0). Region is
// the data center id where a level is given per data center, else "". A
// GPU with neither a level nor a price gives no offer.
//
// A GraphQL {"errors":[...]} body and an RFC 7807 problem body are
// *httpx.APIErrors (an API key complaint wraps stock.ErrUnauthorized; a problem's
// status 401/403, 429 and 5xx wrap stock.ErrUnauthorized, stock.ErrRateLimited and
// stock.ErrServer).
func Parse(c *catalog.Catalog, body []byte, at time.Time, fx float64) ([]stock.Offer, error) {
	entries, err := runpodEntries(body, "")
	if err != nil {
		return nil, err
	}
	return runpodOffers(c, entries, at, httpx.FXRate(c, fx)), nil
}

// runpodEntry is one GPU type (in one data center, when Region is set)
// with the prices of its offered clouds and the levels seen.
type runpodEntry struct {
	id, name, region string
	// prices maps runpodCommunity/runpodSecure to USD per GPU-hour, for
	// clouds offered with a positive price.
	prices map[string]float64
	// levels maps a cloud ("" when unknown) to a level (runpodNone ...).
	levels map[string]string
}

func (e *runpodEntry) key() string { return e.id + "\x00" + e.name + "\x00" + e.region }

// runpodEntries reads any recorded shape; cloud is the cloud the levels
// are for ("" when unknown).
func runpodEntries(body []byte, cloud string) ([]*runpodEntry, error) {
	v, err := httpx.DecodeJSON(body)
	if err != nil {
		return nil, httpx.Malformed(runpodPlatform, "RunPod response", err)
	}
	var out []*runpodEntry
	switch d := v.(type) {
	case nil:
		return nil, nil
	case []any:
		for _, el := range d {
			if m, ok := el.(map[string]any); ok {
				out = append(out, runpodElement(m, cloud)...)
			}
		}
		return out, nil
	case map[string]any:
		if e := runpodBodyError(d); e != nil {
			return nil, e
		}
		switch {
		case httpx.Has(d, "gpus"):
			switch l := d["gpus"].(type) {
			case nil:
				return nil, nil
			case []any:
				for _, el := range l {
					if m, ok := el.(map[string]any); ok {
						out = append(out, runpodREST(m, cloud)...)
					}
				}
				return out, nil
			default:
				return nil, httpx.BadResponse("%s: gpus is a %s, not a list", runpodPlatform, httpx.JSONKind(l))
			}
		case httpx.Has(d, "data"):
			data, _ := d["data"].(map[string]any)
			if data == nil && d["data"] != nil {
				return nil, httpx.BadResponse("%s: GraphQL data is a %s, not an object", runpodPlatform, httpx.JSONKind(d["data"]))
			}
			if g, ok := data["gpuType"].(map[string]any); ok {
				return runpodGraphQL(g, cloud), nil
			}
			switch l := data["gpuTypes"].(type) {
			case nil:
				if data == nil || httpx.Has(data, "gpuTypes") {
					return nil, nil
				}
				return nil, httpx.BadResponse("%s: GraphQL data has no gpuTypes", runpodPlatform)
			case []any:
				for _, el := range l {
					if m, ok := el.(map[string]any); ok {
						out = append(out, runpodGraphQL(m, cloud)...)
					}
				}
				return out, nil
			default:
				return nil, httpx.BadResponse("%s: gpuTypes is a %s, not a list", runpodPlatform, httpx.JSONKind(l))
			}
		case httpx.Has(d, "id") || httpx.Has(d, "gpuId") || httpx.Has(d, "displayName"):
			return runpodElement(d, cloud), nil
		}
		return nil, httpx.BadResponse("%s: no RunPod response shape recognised (want gpus, data.gpuTypes or a list)", runpodPlatform)
	}
	return nil, httpx.BadResponse("%s: response is a %s, not an object or list", runpodPlatform, httpx.JSONKind(v))
}

// runpodElement reads one object of a list by its fields.
func runpodElement(m map[string]any, cloud string) []*runpodEntry {
	switch {
	case httpx.Has(m, "gpuAvailability"):
		return runpodDataCenter(m)
	case httpx.Has(m, "gpuId"):
		return runpodCtlGPU(m)
	case httpx.Has(m, "price") || httpx.Has(m, "availability") || httpx.Has(m, "dataCenters") || httpx.Has(m, "pool"):
		return runpodREST(m, cloud)
	}
	return runpodGraphQL(m, cloud)
}

// runpodBodyError recognises a GraphQL errors body and an RFC 7807
// problem body.
func runpodBodyError(d map[string]any) *httpx.APIError {
	// Errors beside usable data (a partial GraphQL answer) are ignored.
	if errs, ok := d["errors"].([]any); ok && len(errs) > 0 && httpx.Dig(d, "data", "gpuTypes") == nil && httpx.Dig(d, "data", "gpuType") == nil {
		var msgs []string
		for _, e := range errs {
			if s := httpx.Str(httpx.Dig(e, "message")); s != "" {
				msgs = append(msgs, s)
			}
		}
		msg := strings.Join(msgs, "; ")
		var kind error
		lm := strings.ToLower(msg)
		if strings.Contains(lm, "api key") || strings.Contains(lm, "unauthori") || strings.Contains(lm, "authenticat") {
			kind = stock.ErrUnauthorized
		}
		text := runpodPlatform + ": GraphQL error"
		if msg != "" {
			text += ": " + msg
		}
		return httpx.NewAPIError(runpodPlatform, http.StatusOK, "", msg, kind, text)
	}
	if !httpx.Has(d, "status") || !httpx.Has(d, "title") && !httpx.Has(d, "detail") || httpx.Has(d, "gpus") {
		return nil
	}
	st, ok := httpx.Num(d["status"])
	if !ok || st < 400 || st > 599 {
		return nil
	}
	status := int(st)
	title, detail := httpx.Str(d["title"]), httpx.Str(d["detail"])
	var kind error
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		kind = stock.ErrUnauthorized
	case status == http.StatusTooManyRequests:
		kind = stock.ErrRateLimited
	case status >= 500:
		kind = stock.ErrServer
	}
	text := fmt.Sprintf("%s: %s (status %d)", runpodPlatform, httpx.KindWords(kind), status)
	if s := strings.Trim(title+": "+detail, ": "); s != "" {
		text += ": " + s
	}
	return httpx.NewAPIError(runpodPlatform, status, title, detail, kind, text)
}

// runpodREST reads one GPU of the REST v2 catalog: one entry per data
// center listed with a level, else one for the GPU as a whole.
func runpodREST(m map[string]any, cloud string) []*runpodEntry {
	base := runpodEntry{id: httpx.Str(m["id"]), name: httpx.Str(m["name"])}
	if base.id == "" && base.name == "" {
		return nil
	}
	price, _ := m["price"].(map[string]any)
	base.prices = runpodPrices(price["secure"], m["secure"], price["community"], m["community"])
	var out []*runpodEntry
	leveled := false
	if dcs, ok := m["dataCenters"].([]any); ok {
		for _, el := range dcs {
			dc, ok := el.(map[string]any)
			if !ok {
				continue
			}
			region := httpx.Str(dc["id"])
			if region == "" {
				region = httpx.Str(dc["name"])
			}
			e := base
			e.region = region
			e.levels = runpodLevels(cloud, dc["availability"], false)
			leveled = leveled || len(e.levels) > 0
			out = append(out, &e)
		}
	}
	// Data centers without levels say nothing: use the GPU's own level.
	if !leveled {
		out = nil
		base.levels = runpodLevels(cloud, m["availability"], false)
		out = append(out, &base)
	}
	return out
}

// runpodGraphQL reads one GraphQL gpuTypes element. lowestPrice.stockStatus
// null means no stock; a lowestPrice without the field (the SDK's query
// does not ask for it) leaves the level unknown.
func runpodGraphQL(m map[string]any, cloud string) []*runpodEntry {
	e := &runpodEntry{id: httpx.Str(m["id"]), name: httpx.Str(m["displayName"])}
	if e.id == "" && e.name == "" {
		return nil
	}
	e.prices = runpodPrices(m["securePrice"], m["secureCloud"], m["communityPrice"], m["communityCloud"])
	if lp, ok := m["lowestPrice"].(map[string]any); ok && httpx.Has(lp, "stockStatus") {
		e.levels = runpodLevels(cloud, lp["stockStatus"], true)
	}
	return []*runpodEntry{e}
}

// runpodCtlGPU reads one row of runpodctl gpu list (no price). Without a
// stockStatus, available false means no stock.
func runpodCtlGPU(m map[string]any) []*runpodEntry {
	e := &runpodEntry{id: httpx.Str(m["gpuId"]), name: httpx.Str(m["displayName"])}
	if e.id == "" && e.name == "" {
		return nil
	}
	e.levels = runpodLevels("", m["stockStatus"], false)
	if len(e.levels) == 0 {
		if a, ok := httpx.Bool(m["available"]); ok && !a {
			e.levels = map[string]string{"": runpodNone}
		}
	}
	return []*runpodEntry{e}
}

// runpodDataCenter reads one data center of runpodctl datacenter list (or
// the v2 data center catalog): one entry per GPU listed, Region the data
// center id. An empty or null level there means none.
func runpodDataCenter(m map[string]any) []*runpodEntry {
	region := httpx.Str(m["id"])
	if region == "" {
		region = httpx.Str(m["name"])
	}
	gpus, _ := m["gpuAvailability"].([]any)
	var out []*runpodEntry
	for _, el := range gpus {
		g, ok := el.(map[string]any)
		if !ok {
			continue
		}
		e := &runpodEntry{region: region, name: httpx.Str(g["displayName"])}
		for _, k := range []string{"gpuId", "gpuTypeId", "id"} {
			if e.id = httpx.Str(g[k]); e.id != "" {
				break
			}
		}
		if e.id == "" && e.name == "" {
			continue
		}
		lv := g["stockStatus"]
		if !httpx.Has(g, "stockStatus") {
			lv = g["availability"]
		}
		e.levels = runpodLevels("", lv, true)
		out = append(out, e)
	}
	return out
}

// runpodPrices collects the offered clouds' positive prices; a cloud whose
// flag is false is not offered.
func runpodPrices(secure, secureFlag, community, communityFlag any) map[string]float64 {
	out := map[string]float64{}
	add := func(cloud string, p, flag any) {
		if f, ok := httpx.Bool(flag); ok && !f {
			return
		}
		if v := httpx.Price(p, 1); v > 0 {
			out[cloud] = v
		}
	}
	add(runpodSecure, secure, secureFlag)
	add(runpodCommunity, community, communityFlag)
	return out
}

// runpodLevels maps a level value to {cloud: level}: nil when it is absent
// or not a level RunPod documents; nullIsNone makes null and "" NONE
// (GraphQL's stockStatus, runpodctl's data center rows).
func runpodLevels(cloud string, v any, nullIsNone bool) map[string]string {
	s, isStr := v.(string)
	if v == nil || isStr && strings.TrimSpace(s) == "" {
		if nullIsNone {
			return map[string]string{cloud: runpodNone}
		}
		return nil
	}
	if !isStr {
		return nil
	}
	switch l := strings.ToUpper(strings.TrimSpace(s)); l {
	case runpodNone, runpodLow, runpodMedium, runpodHigh:
		return map[string]string{cloud: l}
	}
	return nil
}

// mergeRunPod joins the entries of the per-cloud answers by GPU and data
// center, keeping first-seen order.
func mergeRunPod(entries []*runpodEntry) []*runpodEntry {
	idx := map[string]*runpodEntry{}
	var out []*runpodEntry
	for _, e := range entries {
		k := e.key()
		prev, ok := idx[k]
		if !ok {
			cp := *e
			cp.prices = map[string]float64{}
			cp.levels = map[string]string{}
			idx[k] = &cp
			out = append(out, &cp)
			prev = &cp
		}
		for c, p := range e.prices {
			if _, set := prev.prices[c]; !set {
				prev.prices[c] = p
			}
		}
		for c, l := range e.levels {
			prev.levels[c] = l
		}
	}
	return out
}

// runpodOffers turns entries into offers.
func runpodOffers(c *catalog.Catalog, entries []*runpodEntry, at time.Time, fx float64) []stock.Offer {
	var out []stock.Offer
	for _, e := range entries {
		level, cloud := e.pick()
		usd := e.prices[cloud]
		if level == "" && usd == 0 {
			continue
		}
		var free *int
		var notes []string
		switch level {
		case "":
			notes = append(notes, "stock level unknown")
		case runpodNone:
			free = stock.IntPtr(0)
			notes = append(notes, "stock level NONE")
		default:
			free = stock.IntPtr(1)
			notes = append(notes, "stock level "+level+" (a level, not a count)")
		}
		if usd > 0 {
			notes = append(notes, cloud+" cloud price")
		} else {
			notes = append(notes, "no price")
		}
		raw := e.id
		if raw == "" {
			raw = e.name
		}
		out = append(out, stock.Offer{
			Platform:        runpodPlatform,
			GPU:             httpx.ResolveFirst(c, e.name, e.id),
			RawGPU:          raw,
			GPUsPerInstance: 1,
			Free:            free,
			FreeIsLevel:     free != nil && *free > 0,
			Level:           runpodLevel(level),
			Scope:           stock.ScopePlatform,
			CNYPerGPUHour:   usd * fx,
			OriginalPrice:   usd,
			Currency:        "USD",
			Region:          e.region,
			Source:          stock.SourceLive,
			ObservedAt:      at,
			Verified:        true,
			Note:            strings.Join(notes, ", "),
		})
	}
	return out
}

// runpodLevel maps stockStatus (HIGH, MEDIUM, LOW, NONE) to stock.Offer.Level;
// "" when unknown.
func runpodLevel(level string) string {
	switch strings.ToUpper(level) {
	case "HIGH":
		return stock.LevelHigh
	case "MEDIUM":
		return stock.LevelMedium
	case "LOW":
		return stock.LevelLow
	case "NONE":
		return stock.LevelNone
	}
	return ""
}

// pick chooses the level and the priced cloud of an entry: with a level of
// unknown cloud, that level and the cheaper offered cloud; else the cheaper
// cloud with stock (LOW or better); else NONE if a cloud said so, or an
// unknown level, with the cheaper offered cloud. The cloud is "" when no
// price is known.
func (e *runpodEntry) pick() (level, cloud string) {
	clouds := []string{runpodCommunity, runpodSecure}
	cheapest := func(cands []string) string {
		best := ""
		for _, cl := range cands {
			if p := e.prices[cl]; p > 0 && (best == "" || p < e.prices[best]) {
				best = cl
			}
		}
		return best
	}
	if l, ok := e.levels[""]; ok {
		return l, cheapest(clouds)
	}
	var stocked []string
	for _, cl := range clouds {
		if l := e.levels[cl]; l != "" && l != runpodNone {
			stocked = append(stocked, cl)
		}
	}
	if len(stocked) > 0 {
		cl := cheapest(stocked)
		if cl == "" {
			return e.levels[stocked[0]], ""
		}
		return e.levels[cl], cl
	}
	for _, cl := range clouds {
		if e.levels[cl] == runpodNone {
			level = runpodNone
		}
	}
	return level, cheapest(clouds)
}
