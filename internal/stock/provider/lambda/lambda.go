// Package lambda reads Lambda Cloud's instance types (GET
// /api/v1/instance-types): the regions with capacity (no counts), prices
// in US cents per instance-hour converted to CNY per GPU-hour. Parse
// decodes an answer into typed structs; New builds the stock.Provider.
package lambda

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// Lambda Cloud (see docs/reference/stock-apis.md §8 and
// testdata/stock-verbatim/SOURCES.md "Lambda").
const (
	lambdaPlatform          = "lambda"
	lambdaInstanceTypesPath = "/api/v1/instance-types"

	// DefaultBaseURL is the API host (cloud.lambdalabs.com is the
	// deprecated old name).
	DefaultBaseURL = "https://cloud.lambda.ai"
	// APIKeyEnv is the environment variable holding the API key.
	APIKeyEnv = "LAMBDA_API_KEY"

	lambdaCapacityNote = "capacity by region (no count)"
)

// Options configures the Lambda Cloud provider.
type Options struct {
	// Options: BaseURL defaults to DefaultBaseURL
	// (https://cloud.lambda.ai), Timeout (one Fetch) to 10s.
	httpx.Options
	// APIKey (LAMBDA_API_KEY) is sent as "Authorization: Bearer <key>".
	APIKey string
	// FXUSDCNY converts USD to CNY; 0 means the catalog's rate.
	FXUSDCNY float64
}

// Provider reads Lambda Cloud's instance types with the regions that have
// capacity. Lambda says where an instance type can be launched, not how
// many: see Parse for how that becomes offers. Name is "lambda".
//
// Empty answers. The endpoint lists every instance type, with or without
// capacity, so data that lists none ({} or null) is unknown, not sold out:
// Fetch fails with stock.ErrEmpty and the Board keeps the last offers,
// marked stale. An instance type listed with regions_with_capacity_available
// [] is Lambda saying explicitly that none is free: a known zero. Without
// that list (absent, null, not a list, or no region name readable in it)
// its capacity is unknown.
type Provider struct {
	httpx.Client
	o Options
}

// Build is New from the provider's settings (its registry line; the API
// key is its token).
func Build(c *catalog.Catalog, s httpx.Settings) stock.Provider {
	return New(c, Options{Options: s.HTTP(), APIKey: s.Token, FXUSDCNY: s.FXUSDCNY})
}

// Recordings are the replayed instance type answers (lambda-*); the
// recorded error answers (lambda-error-*) carry no offers.
var Recordings = []httpx.Recording{{Prefix: "lambda-error-"}, {Prefix: "lambda-", Parse: Parse}}

// New returns a Lambda Cloud provider. A missing API key is reported
// by Fetch (wrapping stock.ErrNotConfigured), not here.
func New(c *catalog.Catalog, o Options) *Provider {
	return &Provider{Client: httpx.NewClient(lambdaPlatform, DefaultBaseURL, c, o.Options), o: o}
}

// Fetch lists the instance types (GET /api/v1/instance-types).
func (l *Provider) Fetch(ctx context.Context) ([]stock.Offer, error) {
	return l.Run(ctx, []httpx.Credential{{Value: l.o.APIKey, What: "API key", Env: APIKeyEnv}}, func(ctx context.Context, at time.Time) ([]stock.Offer, error) {
		body, err := l.Answer(ctx, httpx.Request{Method: http.MethodGet, Path: lambdaInstanceTypesPath, Header: httpx.Bearer(l.o.APIKey), Refused: lambdaStatusError})
		if err != nil {
			return nil, err
		}
		return Parse(l.Catalog, body, at, httpx.FXRate(l.Catalog, l.o.FXUSDCNY))
	})
}

// lambdaStatusError words a non-200 answer, by Lambda's error code when the
// body is the documented {"error":{"code","message","suggestion"}}.
func lambdaStatusError(r *httpx.Result) error {
	e := httpx.StatusError(lambdaPlatform, http.MethodGet, lambdaInstanceTypesPath, r)
	code, msg, suggestion, ok := lambdaErrorBody(r.Body)
	if !ok {
		return e
	}
	kind := e.Unwrap()
	if k := lambdaErrorKind(code); k != nil {
		kind = k
	}
	where := fmt.Sprintf("HTTP %d", r.Status)
	if code != "" {
		where = code + ", " + where
	}
	text := fmt.Sprintf("%s: %s (%s) from %s %s", lambdaPlatform, httpx.KindWords(kind), where, http.MethodGet, lambdaInstanceTypesPath)
	if e.RetryAfter > 0 {
		text += fmt.Sprintf(", retry after %v", e.RetryAfter)
	}
	text += lambdaErrorTail(msg, suggestion)
	ne := httpx.NewAPIError(lambdaPlatform, r.Status, code, msg, kind, text)
	ne.RetryAfter = e.RetryAfter
	return ne
}

// lambdaAnswer is the top level of GET /api/v1/instance-types:
// {"data":{...}} or {"error":{"code","message","suggestion"}}. Data is
// kept raw to tell absent, null and other types apart.
type lambdaAnswer struct {
	Error httpx.Object[lambdaError] `json:"error"`
	Data  json.RawMessage           `json:"data"`
}

// lambdaError is Lambda's documented error body.
type lambdaError struct {
	Code       httpx.Text `json:"code"`
	Message    httpx.Text `json:"message"`
	Suggestion httpx.Text `json:"suggestion"`
}

// lambdaEntry is one value of data, keyed by the instance type's name.
type lambdaEntry struct {
	InstanceType httpx.Object[lambdaInstanceType] `json:"instance_type"`
	Regions      httpx.List[lambdaRegion]         `json:"regions_with_capacity_available"`
}

// lambdaInstanceType: price_cents_per_hour is US cents per hour for the
// whole instance of specs.gpus GPUs.
type lambdaInstanceType struct {
	Name              httpx.Text   `json:"name"`
	Description       httpx.Text   `json:"description"`
	GPUDescription    httpx.Text   `json:"gpu_description"`
	PriceCentsPerHour httpx.Number `json:"price_cents_per_hour"`
	Specs             httpx.Object[struct {
		GPUs httpx.Number `json:"gpus"`
	}] `json:"specs"`
}

// lambdaRegion is a region's name: {"name":"us-east-1",...}, or a bare
// string; "" for anything else.
type lambdaRegion string

// UnmarshalJSON never fails.
func (r *lambdaRegion) UnmarshalJSON(b []byte) error {
	var o httpx.Object[struct {
		Name httpx.Text `json:"name"`
	}]
	_ = o.UnmarshalJSON(b)
	n := string(o.V.Name)
	if n == "" {
		n = httpx.RawText(b)
	}
	*r = lambdaRegion(n)
	return nil
}

// lambdaErrorBody reads {"error":{"code","message","suggestion"}}.
func lambdaErrorBody(body []byte) (code, msg, suggestion string, ok bool) {
	raw, err := httpx.DecodeRaw(body)
	if err != nil {
		return "", "", "", false
	}
	var a httpx.Object[lambdaAnswer]
	httpx.Decode(raw, &a)
	e := a.V.Error
	return string(e.V.Code), string(e.V.Message), string(e.V.Suggestion), e.OK
}

// lambdaErrorKind maps Lambda's error codes: global/invalid-api-key and
// global/account-inactive are credential errors, provider/* an upstream
// outage; nil for others.
func lambdaErrorKind(code string) error {
	switch {
	case code == "global/invalid-api-key" || code == "global/account-inactive":
		return stock.ErrUnauthorized
	case strings.HasPrefix(code, "provider/"):
		return stock.ErrServer
	}
	return nil
}

func lambdaErrorTail(msg, suggestion string) string {
	s := ""
	if msg != "" {
		s += ": " + msg
	}
	if suggestion != "" {
		s += " (" + strings.TrimRight(suggestion, ".") + ")"
	}
	return s
}

// Parse parses GET /api/v1/instance-types:
//
//	{"data":{"gpu_1x_h100_sxm5":{"instance_type":{"name","description":"1x H100 (80 GB SXM5)",
//	  "gpu_description":"H100 (80 GB SXM5)","price_cents_per_hour":329,"specs":{"gpus":1}},
//	  "regions_with_capacity_available":[{"name":"us-east-1","description":"Virginia, USA"}]}}}
//
// Instance types are read in name order. Each gives one offer per region
// with capacity: Region the region name, GPUsPerInstance and Free
// specs.gpus (a whole instance is launchable there; Lambda gives no count),
// Note "capacity by region (no count)". An instance type with no region
// with capacity gives one offer with Free 0 and Region "". The GPU is
// resolved from gpu_description, else description. Without a
// regions_with_capacity_available list (absent or null) the one offer has
// Free nil: unknown, not sold out. Data that lists no instance type ({} or
// null, or a null answer) is stock.ErrEmpty. price_cents_per_hour is
// US cents per hour for the whole instance: OriginalPrice is USD per
// instance-hour, CNYPerGPUHour = cents / 100 / gpus × fx (the catalog's
// rate when fx <= 0). Without specs.gpus the count is read from the
// description ("8x ..."), else 1; an instance type with gpus 0 (CPU only)
// is skipped.
//
// A body {"error":{"code","message","suggestion"}} is an *httpx.APIError
// (global/invalid-api-key wraps stock.ErrUnauthorized, provider/* stock.ErrServer).
func Parse(c *catalog.Catalog, body []byte, at time.Time, fx float64) ([]stock.Offer, error) {
	fx = httpx.FXRate(c, fx)
	data, err := lambdaData(body)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, httpx.Empty("%s: GET %s", lambdaPlatform, lambdaInstanceTypesPath)
	}
	var out []stock.Offer
	for _, k := range slices.Sorted(maps.Keys(data)) {
		out = append(out, lambdaOffers(c, k, data[k], at, fx)...)
	}
	return out, nil
}

// lambdaData decodes the answer down to its data object; nil without an
// error for a null answer or null data.
func lambdaData(body []byte) (map[string]httpx.Object[lambdaEntry], error) {
	raw, err := httpx.DecodeRaw(body)
	if err != nil {
		return nil, httpx.Malformed(lambdaPlatform, "instance types", err)
	}
	switch k := httpx.RawKind(raw); k {
	case "null":
		return nil, nil
	case "object":
	default:
		return nil, httpx.BadResponse("%s: response is a %s, not an object", lambdaPlatform, k)
	}
	var a httpx.Object[lambdaAnswer]
	httpx.Decode(raw, &a)
	if e := a.V.Error; e.OK {
		code, msg := string(e.V.Code), string(e.V.Message)
		kind := lambdaErrorKind(code)
		text := fmt.Sprintf("%s: %s", lambdaPlatform, httpx.KindWords(kind))
		if code != "" {
			text += " (" + code + ")"
		}
		return nil, httpx.NewAPIError(lambdaPlatform, http.StatusOK, code, msg, kind, text+lambdaErrorTail(msg, string(e.V.Suggestion)))
	}
	switch k := httpx.RawKind(a.V.Data); k {
	case "":
		return nil, httpx.BadResponse("%s: response has no data field", lambdaPlatform)
	case "null":
		return nil, nil
	case "object":
	default:
		return nil, httpx.BadResponse("%s: data is a %s, not an object", lambdaPlatform, k)
	}
	var data map[string]httpx.Object[lambdaEntry]
	httpx.Decode(a.V.Data, &data)
	return data, nil
}

// lambdaOffers turns one instance type (data key k) into its offers: one
// per region with capacity, or one sold-out offer when the list of regions
// is empty, or one of unknown stock when there is no such list; none for
// an entry that is not an object, has no GPU description or no GPUs.
func lambdaOffers(c *catalog.Catalog, k string, e httpx.Object[lambdaEntry], at time.Time, fx float64) []stock.Offer {
	if !e.OK || !e.V.InstanceType.OK {
		return nil
	}
	it := e.V.InstanceType.V
	name := string(it.Name)
	if name == "" {
		name = strings.TrimSpace(k)
	}
	gdesc, desc := string(it.GPUDescription), string(it.Description)
	raw := gdesc
	if raw == "" {
		raw = desc
	}
	if raw == "" {
		return nil
	}
	gpus := it.gpus(desc, name)
	if gpus < 1 {
		return nil
	}
	usd := it.PriceCentsPerHour.Price(100)
	o := stock.Offer{
		Platform:        lambdaPlatform,
		GPU:             httpx.ResolveFirst(c, gdesc, desc),
		RawGPU:          raw,
		GPUsPerInstance: gpus,
		CNYPerGPUHour:   usd / float64(gpus) * fx,
		OriginalPrice:   usd,
		Currency:        "USD",
		Source:          stock.SourceLive,
		ObservedAt:      at,
		Verified:        true,
	}
	var out []stock.Offer
	for _, rn := range e.V.Regions.V {
		if rn == "" {
			continue
		}
		ro := o
		ro.Region = string(rn)
		ro.Free = stock.IntPtr(gpus)
		ro.FreeIsLevel = true
		ro.Level = stock.LevelSome
		ro.Scope = stock.ScopeRegion
		ro.Note = "instance " + name + ", " + lambdaCapacityNote
		out = append(out, ro)
	}
	switch {
	case len(out) > 0:
	case !e.V.Regions.OK || len(e.V.Regions.V) > 0:
		// No list of regions (or none readable in it): Lambda did not say.
		o.Scope = stock.ScopePlatform
		o.Note = "instance " + name + ", capacity not given"
		out = append(out, o)
	default:
		o.Free = stock.IntPtr(0)
		o.Level = stock.LevelNone
		o.Scope = stock.ScopePlatform
		o.Note = "instance " + name + ", no region has capacity"
		out = append(out, o)
	}
	return out
}

// lambdaCountRe reads the GPU count of "8x A100 (40 GB SXM4)" or
// "gpu_8x_a100".
var lambdaCountRe = regexp.MustCompile(`(?i)(?:^|_)([0-9]{1,3})x(?:[ _]|$)`)

// gpus is specs.gpus, else the count in the description or name, else 1;
// 0 means a CPU-only type.
func (it lambdaInstanceType) gpus(desc, name string) int {
	if n := it.Specs.V.GPUs.Count(); n != nil {
		return *n
	}
	for _, s := range []string{desc, name} {
		if mm := lambdaCountRe.FindStringSubmatch(s); mm != nil {
			if n, err := strconv.Atoi(mm[1]); err == nil && n >= 1 {
				return n
			}
		}
	}
	return 1
}
