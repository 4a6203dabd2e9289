package httpx

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
)

// Options are the settings every HTTP provider has; each platform's
// Options embeds them and documents its own defaults.
type Options struct {
	// BaseURL is the API host; empty means the platform's DefaultBaseURL.
	BaseURL string
	// Timeout bounds one whole Fetch (all its requests); zero means
	// DefaultTimeout (10s).
	Timeout time.Duration
	// Concurrency is how many requests of one Fetch (the pages of a paged
	// list) are in flight at once; zero means DefaultConcurrency (10), 1
	// one after another.
	Concurrency int
	// HTTPClient defaults to a plain client; deadlines come from the context.
	HTTPClient *http.Client
	// Now defaults to time.Now.
	Now func() time.Time
}

// Client is one platform's HTTP access, its Options' defaults filled in:
// what each HTTP provider embeds.
type Client struct {
	// Platform is the provider id ("autodl"), also its Name.
	Platform string
	// Catalog resolves GPU names and gives the USD→CNY rate; may be nil.
	Catalog *catalog.Catalog
	Options
}

// NewClient fills o's zero fields: BaseURL with baseURL, Timeout with
// DefaultTimeout, Concurrency with DefaultConcurrency, HTTPClient with a
// plain client and Now with time.Now.
func NewClient(platform, baseURL string, c *catalog.Catalog, o Options) Client {
	if strings.TrimSpace(o.BaseURL) == "" {
		o.BaseURL = baseURL
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.HTTPClient == nil {
		o.HTTPClient = defaultClient
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return Client{Platform: platform, Catalog: c, Options: o}
}

// Name returns the platform id.
func (c Client) Name() string { return c.Platform }

// Start begins a Fetch: ctx bounded by the timeout (WithTimeout) and the
// time the answers are observed at.
func (c Client) Start(ctx context.Context) (context.Context, context.CancelFunc, time.Time) {
	ctx, cancel := WithTimeout(ctx, c.Timeout)
	return ctx, cancel, c.Now()
}

// Call sends one request to path below BaseURL, with query when it is
// not empty (Do); errors name the platform and path, not the query.
func (c Client) Call(ctx context.Context, method, path string, query url.Values, header http.Header, payload any) (*Result, error) {
	u := JoinURL(c.BaseURL, path)
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return Do(ctx, c.HTTPClient, c.Platform, method, u, path, header, payload)
}
