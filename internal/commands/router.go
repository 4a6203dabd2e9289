// Package commands turns a chat message into an answer: it parses the text
// into an intent with parameters (Parse), runs the intent's handler against
// the catalog, the stock board and the estimator, and returns a chat.Reply.
// It knows nothing of Feishu or WeChat.
package commands

import (
	"context"
	"time"

	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/stock"
)

// Offers supplies the current stock snapshot (stock.Board implements it).
type Offers interface {
	Snapshot(ctx context.Context) stock.Snapshot
}

// Result is a full answer: the parsed query, the rows behind the answer and
// the rendered reply. `bot ask --format json` prints it.
type Result struct {
	Query
	// Offers are the stock rows (intent stock and prices).
	Offers []OfferRow `json:"offers,omitempty"`
	// Estimate and Options are set for intent estimate.
	Estimate *billing.Estimate `json:"estimate,omitempty"`
	Options  []billing.Option  `json:"options,omitempty"`
	// Providers summarises each provider's health (intent stock).
	Providers []ProviderRow `json:"providers,omitempty"`
	// Question is set when the bot needs more information ("多大参数量？").
	Question string     `json:"question,omitempty"`
	Reply    chat.Reply `json:"-"`
}

// OfferRow is one offer as answers show it.
type OfferRow struct {
	Platform string  `json:"platform"`
	GPU      string  `json:"gpu"`
	PriceCNY float64 `json:"price_cny_per_hour"`
	// PriceHighCNY is the top of a list-price range.
	PriceHighCNY float64 `json:"price_high_cny_per_hour,omitempty"`
	// ListPriceCNY is the catalog list price shown beside a live stock
	// count that came without a price.
	ListPriceCNY float64 `json:"list_price_cny_per_hour,omitempty"`
	// Available is true / false when the source says, null when unknown.
	Available *bool  `json:"available"`
	Free      *int   `json:"free,omitempty"`
	Region    string `json:"region,omitempty"`
	Source    string `json:"source"`
	// AsOf is the observation time (RFC 3339) or the list price's date.
	AsOf string `json:"as_of"`
	// AgeSeconds is the age of the figure at answer time (-1 if unknown).
	AgeSeconds int64  `json:"age_seconds"`
	Stale      bool   `json:"stale,omitempty"`
	Verified   bool   `json:"verified"`
	PriceNote  string `json:"price_note,omitempty"`
}

// ProviderRow is a provider's health in an answer.
type ProviderRow struct {
	Provider  string `json:"provider"`
	Status    string `json:"status"`
	FetchedAt string `json:"fetched_at,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Router dispatches messages to handlers by intent.
type Router struct {
	cat    *catalog.Catalog
	offers Offers
	est    *billing.Estimator
	now    func() time.Time
	defs   []Definition
}

// Option configures a Router.
type Option func(*Router)

// WithClock injects the clock used for ages (tests).
func WithClock(now func() time.Time) Option { return func(r *Router) { r.now = now } }

// NewRouter builds a router over the catalog and an offer source.
func NewRouter(cat *catalog.Catalog, offers Offers, opts ...Option) *Router {
	r := &Router{cat: cat, offers: offers, est: &billing.Estimator{Cat: cat}, now: time.Now}
	for _, o := range opts {
		o(r)
	}
	r.defs = definitions()
	return r
}

// Definitions returns the command definitions help is generated from.
func (r *Router) Definitions() []Definition { return r.defs }

// Handle answers a message with a reply.
func (r *Router) Handle(ctx context.Context, msg chat.Message) chat.Reply {
	return r.Answer(ctx, msg).Reply
}

// Answer parses the message and runs its intent's handler.
func (r *Router) Answer(ctx context.Context, msg chat.Message) Result {
	return r.AnswerQuery(ctx, Parse(r.cat, msg.Text))
}

// AnswerQuery runs the handler for an already parsed query (`bot estimate`
// builds one from flags).
func (r *Router) AnswerQuery(ctx context.Context, q Query) Result {
	res := Result{Query: q}
	for _, d := range r.defs {
		if d.Intent == q.Intent && d.handle != nil {
			d.handle(r, ctx, &res)
			return res
		}
	}
	r.unknown(&res)
	return res
}
