// Package runpod reads RunPod's GPU catalog (REST v2, GraphQL gpuTypes or
// runpodctl output): stock levels (not counts) per data center, prices in
// USD per GPU-hour converted to CNY.
package runpod

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// RunPod (see docs/reference/stock-apis.md §7 and
// testdata/stock-verbatim/SOURCES.md "RunPod").
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
	// Options: BaseURL defaults to DefaultBaseURL
	// (https://api.runpod.io), Timeout (one whole Fetch, both requests) to
	// 10s.
	httpx.Options
	// APIKey (RUNPOD_API_KEY) is sent as "Authorization: Bearer <key>".
	APIKey string
	// FXUSDCNY converts USD to CNY; 0 means the catalog's rate.
	FXUSDCNY float64
}

// Provider reads RunPod's GPU catalog with pod availability (REST API v2,
// GET /v2/catalog/gpus?include=AVAILABILITY&product=POD); Name "runpod".
//
// RunPod gives a stock level (NONE, LOW, MEDIUM, HIGH), not a count.
// Offers encode it as Free 0 for NONE and Free 1 for any other level, with
// "stock level HIGH (a level, not a count)" in Note; Free is nil when the
// level is unknown. Prices are USD per GPU-hour (OriginalPrice, Currency
// USD), converted at FXUSDCNY.
//
// Empty answers. Only an explicit NONE (or runpodctl's available false) is
// a known zero. A level that is null, "" or absent is unknown, never NONE.
// The catalog lists every GPU type, so an answer of either cloud that lists
// none (gpus [], null or missing, GraphQL gpuTypes [] or null) is unknown,
// not sold out: Fetch fails with stock.ErrEmpty and the Board keeps the
// last offers, marked stale.
type Provider struct {
	httpx.Client
	o Options
}

// Build is New from the provider's settings (its registry line; the API
// key is its token).
func Build(c *catalog.Catalog, s httpx.Settings) stock.Provider {
	return New(c, Options{Options: s.HTTP(), APIKey: s.Token, FXUSDCNY: s.FXUSDCNY})
}

// Recordings are the replayed catalog answers (runpod-*, REST v2, GraphQL
// or runpodctl, told apart by content); the recorded error answers
// (runpod-rest-v2-error-*) carry no offers.
var Recordings = []httpx.Recording{{Prefix: "runpod-rest-v2-error-"}, {Prefix: "runpod-", Parse: Parse}}

// New returns a RunPod provider. A missing API key is reported by
// Fetch (wrapping stock.ErrNotConfigured), not here.
func New(c *catalog.Catalog, o Options) *Provider {
	return &Provider{Client: httpx.NewClient(runpodPlatform, DefaultBaseURL, c, o.Options), o: o}
}

// Fetch asks the catalog twice, with cloud=COMMUNITY and cloud=SECURE: a
// level is computed for one cloud only, and the two clouds' prices differ.
// Each (GPU, data center) offer then carries the cheaper cloud that has
// stock (or, with none in stock, the cheaper offered price and Free 0).
// Both requests are in flight at once (unless Options.Concurrency is 1);
// either failing fails the fetch (COMMUNITY's error named first when
// both fail).
func (p *Provider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	return p.Run(ctx, []httpx.Credential{{Value: p.o.APIKey, What: "API key", Env: APIKeyEnv}}, p.fetch)
}

func (p *Provider) fetch(ctx context.Context, at time.Time) ([]stock.Offer, error) {
	clouds := []string{runpodCommunity, runpodSecure}
	res, errs := httpx.Parallel(ctx, p.Concurrency, len(clouds), func(ctx context.Context, i int) ([]*runpodEntry, error) {
		return p.fetchCloud(ctx, clouds[i])
	})
	var all []*runpodEntry
	for i, entries := range res {
		if errs[i] != nil {
			return nil, fmt.Errorf("%w (cloud %s)", errs[i], strings.ToUpper(clouds[i]))
		}
		all = append(all, entries...)
	}
	offers := runpodOffers(p.Catalog, mergeRunPod(all), at, httpx.FXRate(p.Catalog, p.o.FXUSDCNY))
	if len(offers) == 0 {
		// GPU types, but none with a level or a price.
		return nil, httpx.Empty("%s: GPU catalog", runpodPlatform)
	}
	return offers, nil
}

// fetchCloud asks the catalog with the levels of one cloud.
func (p *Provider) fetchCloud(ctx context.Context, cloud string) ([]*runpodEntry, error) {
	q := url.Values{"include": {"AVAILABILITY"}, "product": {"POD"}, "cloud": {strings.ToUpper(cloud)}}
	body, err := p.Answer(ctx, httpx.Request{Method: http.MethodGet, Path: runpodCatalogPath, Query: q, Header: httpx.Bearer(p.o.APIKey), Refused: runpodStatusError})
	if err != nil {
		return nil, err
	}
	return runpodEntries(body, cloud)
}

// runpodStatusError words a non-200 answer, quoting an RFC 7807 problem
// body by its title and detail rather than as raw JSON.
func runpodStatusError(r *httpx.Result) error {
	if raw, err := httpx.DecodeRaw(r.Body); err == nil {
		var a httpx.Object[runpodAnswer]
		httpx.Decode(raw, &a)
		if t, d := httpx.RawText(a.V.Title), httpx.RawText(a.V.Detail); a.OK && a.V.isProblem() && (t != "" || d != "") {
			r2 := *r
			r2.Body = []byte(strings.Trim(t+": "+d, ": "))
			return httpx.StatusError(runpodPlatform, http.MethodGet, runpodCatalogPath, &r2)
		}
	}
	return nil
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
// Levels map to Free as for the RunPod provider: NONE 0, LOW/MEDIUM/HIGH 1
// with "stock level HIGH (a level, not a count)" in Note, unknown (no
// level field, or a null or empty one such as GraphQL's stockStatus null)
// nil. An answer that lists no GPU type is stock.ErrEmpty. Which cloud a recorded
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

// runpodAnswer is the top level of an answer that is an object: the REST
// catalog {"gpus":[...]}, GraphQL {"data":{"gpuTypes":[...]}} or
// {"errors":[...]}, an RFC 7807 problem {"status","title","detail"}, or
// one bare GPU (read as a runpodRow). Fields whose presence matters are
// kept raw.
type runpodAnswer struct {
	GPUs   json.RawMessage `json:"gpus"`
	Data   json.RawMessage `json:"data"`
	Errors httpx.List[httpx.Object[struct {
		Message httpx.Text `json:"message"`
	}]] `json:"errors"`
	Status json.RawMessage `json:"status"`
	Title  json.RawMessage `json:"title"`
	Detail json.RawMessage `json:"detail"`
	// A bare GPU.
	ID          json.RawMessage `json:"id"`
	GPUID       json.RawMessage `json:"gpuId"`
	DisplayName json.RawMessage `json:"displayName"`
}

// isProblem reports an RFC 7807 body: status with a title or detail.
func (a runpodAnswer) isProblem() bool {
	return len(a.Status) > 0 && (len(a.Title) > 0 || len(a.Detail) > 0)
}

// runpodData is GraphQL's data: the gpuTypes list or one gpuType.
type runpodData struct {
	GPUType  json.RawMessage `json:"gpuType"`
	GPUTypes json.RawMessage `json:"gpuTypes"`
}

// runpodRow is one object of any shape: a REST catalog GPU (id, name,
// price, secure/community flags, availability, dataCenters), a GraphQL
// gpuType (id, displayName, securePrice, lowestPrice.stockStatus, …), a
// runpodctl GPU (gpuId, stockStatus, available) or data center (id,
// gpuAvailability), or an entry of dataCenters or gpuAvailability. Fields
// whose presence matters, or that are read only for some shapes, are kept
// raw.
type runpodRow struct {
	ID          httpx.Text      `json:"id"`
	Name        httpx.Text      `json:"name"`
	DisplayName httpx.Text      `json:"displayName"`
	GPUID       json.RawMessage `json:"gpuId"`
	GPUTypeID   httpx.Text      `json:"gpuTypeId"`
	// REST catalog.
	Price        json.RawMessage `json:"price"`
	Pool         json.RawMessage `json:"pool"`
	Secure       httpx.Flag      `json:"secure"`
	Community    httpx.Flag      `json:"community"`
	Availability json.RawMessage `json:"availability"`
	DataCenters  json.RawMessage `json:"dataCenters"`
	// GraphQL.
	SecurePrice    httpx.Number `json:"securePrice"`
	SecureCloud    httpx.Flag   `json:"secureCloud"`
	CommunityPrice httpx.Number `json:"communityPrice"`
	CommunityCloud httpx.Flag   `json:"communityCloud"`
	LowestPrice    httpx.Object[struct {
		StockStatus json.RawMessage `json:"stockStatus"`
	}] `json:"lowestPrice"`
	// runpodctl.
	StockStatus     json.RawMessage `json:"stockStatus"`
	Available       httpx.Flag      `json:"available"`
	GPUAvailability json.RawMessage `json:"gpuAvailability"`
}

// runpodEntries reads any recorded shape; cloud is the cloud the levels
// are for ("" when unknown). An answer that lists no GPU type is
// stock.ErrEmpty.
func runpodEntries(body []byte, cloud string) ([]*runpodEntry, error) {
	entries, err := runpodRead(body, cloud)
	if err == nil && len(entries) == 0 {
		return nil, httpx.Empty("%s: GPU catalog", runpodPlatform)
	}
	return entries, err
}

// runpodRead reads any recorded shape into its entries.
func runpodRead(body []byte, cloud string) ([]*runpodEntry, error) {
	raw, err := httpx.DecodeRaw(body)
	if err != nil {
		return nil, httpx.Malformed(runpodPlatform, "RunPod response", err)
	}
	switch k := httpx.RawKind(raw); k {
	case "null":
		return nil, nil
	case "list":
		return runpodList(raw, func(m runpodRow) []*runpodEntry { return runpodElement(m, cloud) }), nil
	case "object":
		return runpodObject(raw, cloud)
	default:
		return nil, httpx.BadResponse("%s: response is a %s, not an object or list", runpodPlatform, k)
	}
}

// runpodList reads the object rows of a raw list with read; other rows
// are skipped.
func runpodList(raw json.RawMessage, read func(m runpodRow) []*runpodEntry) []*runpodEntry {
	var out []*runpodEntry
	for _, m := range httpx.Objects[runpodRow](raw) {
		if m.OK {
			out = append(out, read(m.V)...)
		}
	}
	return out
}

// runpodObject reads an answer that is an object.
func runpodObject(raw json.RawMessage, cloud string) ([]*runpodEntry, error) {
	var a httpx.Object[runpodAnswer]
	httpx.Decode(raw, &a)
	d := a.V
	var data httpx.Object[runpodData]
	httpx.Decode(d.Data, &data)
	if e := runpodBodyError(d, data); e != nil {
		return nil, e
	}
	switch {
	case len(d.GPUs) > 0:
		switch k := httpx.RawKind(d.GPUs); k {
		case "null":
			return nil, nil
		case "list":
			return runpodList(d.GPUs, func(m runpodRow) []*runpodEntry { return runpodREST(m, cloud) }), nil
		default:
			return nil, httpx.BadResponse("%s: gpus is a %s, not a list", runpodPlatform, k)
		}
	case len(d.Data) > 0:
		return runpodGraphQLData(d.Data, data, cloud)
	case len(d.ID) > 0 || len(d.GPUID) > 0 || len(d.DisplayName) > 0:
		var m httpx.Object[runpodRow]
		httpx.Decode(raw, &m)
		return runpodElement(m.V, cloud), nil
	}
	return nil, httpx.BadResponse("%s: no RunPod response shape recognised (want gpus, data.gpuTypes or a list)", runpodPlatform)
}

// runpodGraphQLData reads GraphQL's data: one gpuType or the gpuTypes.
func runpodGraphQLData(raw json.RawMessage, data httpx.Object[runpodData], cloud string) ([]*runpodEntry, error) {
	if !data.OK && httpx.RawKind(raw) != "null" {
		return nil, httpx.BadResponse("%s: GraphQL data is a %s, not an object", runpodPlatform, httpx.RawKind(raw))
	}
	if httpx.RawKind(data.V.GPUType) == "object" {
		var m httpx.Object[runpodRow]
		httpx.Decode(data.V.GPUType, &m)
		return runpodGraphQL(m.V, cloud), nil
	}
	switch k := httpx.RawKind(data.V.GPUTypes); k {
	case "", "null":
		if !data.OK || k == "null" {
			return nil, nil
		}
		return nil, httpx.BadResponse("%s: GraphQL data has no gpuTypes", runpodPlatform)
	case "list":
		return runpodList(data.V.GPUTypes, func(m runpodRow) []*runpodEntry { return runpodGraphQL(m, cloud) }), nil
	default:
		return nil, httpx.BadResponse("%s: gpuTypes is a %s, not a list", runpodPlatform, k)
	}
}

// runpodElement reads one object of a list by its fields.
func runpodElement(m runpodRow, cloud string) []*runpodEntry {
	switch {
	case len(m.GPUAvailability) > 0:
		return runpodDataCenter(m)
	case len(m.GPUID) > 0:
		return runpodCtlGPU(m)
	case len(m.Price) > 0 || len(m.Availability) > 0 || len(m.DataCenters) > 0 || len(m.Pool) > 0:
		return runpodREST(m, cloud)
	}
	return runpodGraphQL(m, cloud)
}

// runpodBodyError recognises a GraphQL errors body and an RFC 7807
// problem body.
func runpodBodyError(d runpodAnswer, data httpx.Object[runpodData]) *httpx.APIError {
	// Errors beside usable data (a partial GraphQL answer) are ignored.
	usable := data.OK && (httpx.Present(data.V.GPUTypes) || httpx.Present(data.V.GPUType))
	if len(d.Errors.V) > 0 && !usable {
		var msgs []string
		for _, e := range d.Errors.V {
			if s := string(e.V.Message); s != "" {
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
	if !d.isProblem() || len(d.GPUs) > 0 {
		return nil
	}
	st := httpx.RawNumber(d.Status)
	if !st.OK || st.F < 400 || st.F > 599 {
		return nil
	}
	return runpodProblemError(int(st.F), httpx.RawText(d.Title), httpx.RawText(d.Detail))
}

// runpodProblemError is the *httpx.APIError of an RFC 7807 body in a 200
// answer.
func runpodProblemError(status int, title, detail string) *httpx.APIError {
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
func runpodREST(m runpodRow, cloud string) []*runpodEntry {
	base := runpodEntry{id: string(m.ID), name: string(m.Name)}
	if base.id == "" && base.name == "" {
		return nil
	}
	var price httpx.Object[struct {
		Secure    httpx.Number `json:"secure"`
		Community httpx.Number `json:"community"`
	}]
	httpx.Decode(m.Price, &price)
	base.prices = runpodPrices(price.V.Secure, m.Secure, price.V.Community, m.Community)
	var out []*runpodEntry
	leveled := false
	for _, dc := range httpx.Objects[runpodRow](m.DataCenters) {
		if !dc.OK {
			continue
		}
		e := base
		e.region = cmp.Or(string(dc.V.ID), string(dc.V.Name))
		e.levels = runpodLevels(cloud, dc.V.Availability)
		leveled = leveled || len(e.levels) > 0
		out = append(out, &e)
	}
	// Data centers without levels say nothing: use the GPU's own level.
	if !leveled {
		base.levels = runpodLevels(cloud, m.Availability)
		out = []*runpodEntry{&base}
	}
	return out
}

// runpodGraphQL reads one GraphQL gpuTypes element. A lowestPrice.stockStatus
// that is null, or a lowestPrice without the field (the SDK's query does
// not ask for it), leaves the level unknown: only "None" says none.
func runpodGraphQL(m runpodRow, cloud string) []*runpodEntry {
	e := &runpodEntry{id: string(m.ID), name: string(m.DisplayName)}
	if e.id == "" && e.name == "" {
		return nil
	}
	e.prices = runpodPrices(m.SecurePrice, m.SecureCloud, m.CommunityPrice, m.CommunityCloud)
	if lp := m.LowestPrice; lp.OK && len(lp.V.StockStatus) > 0 {
		e.levels = runpodLevels(cloud, lp.V.StockStatus)
	}
	return []*runpodEntry{e}
}

// runpodCtlGPU reads one row of runpodctl gpu list (no price). Without a
// stockStatus, available false means no stock.
func runpodCtlGPU(m runpodRow) []*runpodEntry {
	e := &runpodEntry{id: httpx.RawText(m.GPUID), name: string(m.DisplayName)}
	if e.id == "" && e.name == "" {
		return nil
	}
	e.levels = runpodLevels("", m.StockStatus)
	if len(e.levels) == 0 && m.Available.OK && !m.Available.V {
		e.levels = map[string]string{"": runpodNone}
	}
	return []*runpodEntry{e}
}

// runpodDataCenter reads one data center of runpodctl datacenter list (or
// the v2 data center catalog): one entry per GPU listed, Region the data
// center id. An empty or null level there is unknown, not none.
func runpodDataCenter(m runpodRow) []*runpodEntry {
	region := cmp.Or(string(m.ID), string(m.Name))
	var out []*runpodEntry
	for _, g := range httpx.Objects[runpodRow](m.GPUAvailability) {
		if !g.OK {
			continue
		}
		e := &runpodEntry{region: region, name: string(g.V.DisplayName)}
		e.id = cmp.Or(httpx.RawText(g.V.GPUID), string(g.V.GPUTypeID), string(g.V.ID))
		if e.id == "" && e.name == "" {
			continue
		}
		lv := g.V.StockStatus
		if len(lv) == 0 {
			lv = g.V.Availability
		}
		e.levels = runpodLevels("", lv)
		out = append(out, e)
	}
	return out
}

// runpodPrices collects the offered clouds' positive prices; a cloud whose
// flag is false is not offered.
func runpodPrices(secure httpx.Number, secureFlag httpx.Flag, community httpx.Number, communityFlag httpx.Flag) map[string]float64 {
	out := map[string]float64{}
	add := func(cloud string, p httpx.Number, flag httpx.Flag) {
		if flag.OK && !flag.V {
			return
		}
		if v := p.Price(1); v > 0 {
			out[cloud] = v
		}
	}
	add(runpodSecure, secure, secureFlag)
	add(runpodCommunity, community, communityFlag)
	return out
}

// runpodLevels maps a raw level to {cloud: level}: nil (unknown) when it
// is absent, null, empty or not a level RunPod documents. Only an explicit
// "NONE" says none: a null stockStatus is unknown, never sold out.
func runpodLevels(cloud string, raw json.RawMessage) map[string]string {
	var s string
	if httpx.RawKind(raw) != "string" {
		return nil
	}
	_ = json.Unmarshal(raw, &s)
	if strings.TrimSpace(s) == "" {
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
