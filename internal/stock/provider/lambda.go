package provider

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
)

// Lambda Cloud (see shared/reference/stock-apis.md §8 and
// shared/fixtures/stock-verbatim/SOURCES.md "Lambda").
const (
	lambdaPlatform          = "lambda"
	lambdaInstanceTypesPath = "/api/v1/instance-types"

	// DefaultLambdaBaseURL is the API host (cloud.lambdalabs.com is the
	// deprecated old name).
	DefaultLambdaBaseURL = "https://cloud.lambda.ai"
	// LambdaAPIKeyEnv is the environment variable holding the API key.
	LambdaAPIKeyEnv = "LAMBDA_API_KEY"

	lambdaCapacityNote = "capacity by region (no count)"
)

// LambdaOptions configures the Lambda Cloud provider.
type LambdaOptions struct {
	// BaseURL defaults to https://cloud.lambda.ai.
	BaseURL string
	// APIKey (LAMBDA_API_KEY) is sent as "Authorization: Bearer <key>".
	APIKey string
	// FXUSDCNY converts USD to CNY; 0 means the catalog's rate.
	FXUSDCNY float64
	// Timeout bounds one Fetch; default 10s.
	Timeout time.Duration
	// HTTPClient defaults to a plain client; deadlines come from the context.
	HTTPClient *http.Client
	// Now defaults to time.Now.
	Now func() time.Time
}

// Lambda reads Lambda Cloud's instance types with the regions that have
// capacity. Lambda says where an instance type can be launched, not how
// many: see ParseLambda for how that becomes offers.
type Lambda struct {
	c *catalog.Catalog
	o LambdaOptions
}

// NewLambda returns a Lambda Cloud provider. A missing API key is reported
// by Fetch (wrapping stock.ErrNotConfigured), not here.
func NewLambda(c *catalog.Catalog, o LambdaOptions) *Lambda {
	httpDefaults(&o.BaseURL, DefaultLambdaBaseURL, &o.Timeout, &o.HTTPClient, &o.Now)
	return &Lambda{c: c, o: o}
}

// Name returns "lambda".
func (l *Lambda) Name() string { return lambdaPlatform }

// Fetch lists the instance types (GET /api/v1/instance-types).
func (l *Lambda) Fetch(ctx context.Context) ([]stock.Offer, error) {
	if strings.TrimSpace(l.o.APIKey) == "" {
		return nil, notConfigured(lambdaPlatform, "API key", LambdaAPIKeyEnv)
	}
	ctx, cancel := withTimeout(ctx, l.o.Timeout)
	defer cancel()
	at := l.o.Now()
	method := http.MethodGet
	r, err := doRequest(ctx, l.o.HTTPClient, lambdaPlatform, method, joinURL(l.o.BaseURL, lambdaInstanceTypesPath), lambdaInstanceTypesPath, bearer(l.o.APIKey), nil)
	if err != nil {
		return nil, err
	}
	if r.status != http.StatusOK {
		return nil, lambdaStatusError(method, r)
	}
	return ParseLambda(l.c, r.body, at, fxRate(l.c, l.o.FXUSDCNY))
}

// lambdaStatusError words a non-200 answer, by Lambda's error code when the
// body is the documented {"error":{"code","message","suggestion"}}.
func lambdaStatusError(method string, r *httpResult) error {
	e := statusError(lambdaPlatform, method, lambdaInstanceTypesPath, r)
	code, msg, suggestion, ok := lambdaErrorBody(r.body)
	if !ok {
		return e
	}
	e.Code, e.Msg = code, msg
	if k := lambdaErrorKind(code); k != nil {
		e.kind = k
	}
	where := fmt.Sprintf("HTTP %d", r.status)
	if code != "" {
		where = code + ", " + where
	}
	e.text = fmt.Sprintf("%s: %s (%s) from %s %s", lambdaPlatform, kindWords(e.kind), where, method, lambdaInstanceTypesPath)
	if e.RetryAfter > 0 {
		e.text += fmt.Sprintf(", retry after %v", e.RetryAfter)
	}
	e.text += lambdaErrorTail(msg, suggestion)
	return e
}

// lambdaErrorBody reads {"error":{"code","message","suggestion"}}.
func lambdaErrorBody(body []byte) (code, msg, suggestion string, ok bool) {
	v, err := decodeJSON(body)
	if err != nil {
		return "", "", "", false
	}
	em, _ := dig(v, "error").(map[string]any)
	if em == nil {
		return "", "", "", false
	}
	return strVal(em["code"]), strVal(em["message"]), strVal(em["suggestion"]), true
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

// ParseLambda parses GET /api/v1/instance-types:
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
// resolved from gpu_description, else description. price_cents_per_hour is
// US cents per hour for the whole instance: OriginalPrice is USD per
// instance-hour, CNYPerGPUHour = cents / 100 / gpus × fx (the catalog's
// rate when fx <= 0). Without specs.gpus the count is read from the
// description ("8x ..."), else 1; an instance type with gpus 0 (CPU only)
// is skipped.
//
// A body {"error":{"code","message","suggestion"}} is an *APIError
// (global/invalid-api-key wraps stock.ErrUnauthorized, provider/* stock.ErrServer).
func ParseLambda(c *catalog.Catalog, body []byte, at time.Time, fx float64) ([]stock.Offer, error) {
	fx = fxRate(c, fx)
	v, err := decodeJSON(body)
	if err != nil {
		return nil, malformed(lambdaPlatform, "instance types", err)
	}
	m, ok := v.(map[string]any)
	switch {
	case v == nil:
		return nil, nil
	case !ok:
		return nil, badResponse("%s: response is a %s, not an object", lambdaPlatform, jsonKind(v))
	}
	if code, msg, suggestion, ok := lambdaErrorBody(body); ok {
		kind := lambdaErrorKind(code)
		text := fmt.Sprintf("%s: %s", lambdaPlatform, kindWords(kind))
		if code != "" {
			text += " (" + code + ")"
		}
		return nil, newAPIError(lambdaPlatform, http.StatusOK, code, msg, kind, text+lambdaErrorTail(msg, suggestion))
	}
	if !has(m, "data") {
		return nil, badResponse("%s: response has no data field", lambdaPlatform)
	}
	var data map[string]any
	switch d := m["data"].(type) {
	case nil:
		return nil, nil
	case map[string]any:
		data = d
	default:
		return nil, badResponse("%s: data is a %s, not an object", lambdaPlatform, jsonKind(d))
	}
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []stock.Offer
	for _, k := range keys {
		entry, _ := data[k].(map[string]any)
		it, _ := entry["instance_type"].(map[string]any)
		if it == nil {
			continue
		}
		name := strVal(it["name"])
		if name == "" {
			name = strings.TrimSpace(k)
		}
		gdesc, desc := strVal(it["gpu_description"]), strVal(it["description"])
		raw := gdesc
		if raw == "" {
			raw = desc
		}
		if raw == "" {
			continue
		}
		gpus := lambdaGPUs(it, desc, name)
		if gpus < 1 {
			continue
		}
		usd := priceVal(it["price_cents_per_hour"], 100)
		o := stock.Offer{
			Platform:        lambdaPlatform,
			GPU:             resolveFirst(c, gdesc, desc),
			RawGPU:          raw,
			GPUsPerInstance: gpus,
			CNYPerGPUHour:   usd / float64(gpus) * fx,
			OriginalPrice:   usd,
			Currency:        "USD",
			Source:          stock.SourceLive,
			ObservedAt:      at,
			Verified:        true,
		}
		var regions []string
		rl, _ := entry["regions_with_capacity_available"].([]any)
		for _, r := range rl {
			rn := strVal(dig(r, "name"))
			if rn == "" {
				rn = strVal(r)
			}
			if rn != "" {
				regions = append(regions, rn)
			}
		}
		if len(regions) == 0 {
			o.Free = stock.IntPtr(0)
			o.Level = stock.LevelNone
			o.Scope = stock.ScopePlatform
			o.Note = "instance " + name + ", no region has capacity"
			out = append(out, o)
			continue
		}
		for _, rn := range regions {
			ro := o
			ro.Region = rn
			ro.Free = stock.IntPtr(gpus)
			ro.FreeIsLevel = true
			ro.Level = stock.LevelSome
			ro.Scope = stock.ScopeRegion
			ro.Note = "instance " + name + ", " + lambdaCapacityNote
			out = append(out, ro)
		}
	}
	return out, nil
}

// lambdaCountRe reads the GPU count of "8x A100 (40 GB SXM4)" or
// "gpu_8x_a100".
var lambdaCountRe = regexp.MustCompile(`(?i)(?:^|_)([0-9]{1,3})x(?:[ _]|$)`)

// lambdaGPUs is specs.gpus, else the count in the description or name,
// else 1; 0 means a CPU-only type.
func lambdaGPUs(it map[string]any, desc, name string) int {
	if n := countVal(dig(it, "specs", "gpus")); n != nil {
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
