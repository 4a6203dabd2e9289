// Package commands turns a chat message into an answer: it parses the text
// into an intent with parameters (Parse), runs the intent's handler against
// the catalog, the stock board and the estimator, and returns a chat.Reply.
// It knows nothing of Feishu or WeChat.
package commands

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/labgpu/bot/internal/advice"
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
	// Estimate and Options are set for intent estimate; VRAMGB, Fits,
	// TokensTrained, FLOPs and Hours repeat its main figures at the top
	// level of the JSON (hours per GPU id: low / typical / high).
	Estimate      *billing.Estimate        `json:"estimate,omitempty"`
	VRAMGB        *billing.VRAM            `json:"vram_gb,omitempty"`
	Fits          []billing.Fit            `json:"fits,omitempty"`
	TokensTrained float64                  `json:"tokens_trained,omitempty"`
	FLOPs         float64                  `json:"flops,omitempty"`
	Hours         map[string]billing.Range `json:"hours,omitempty"`
	Options       []billing.Option         `json:"options,omitempty"`
	// Providers summarises each provider's health (intent stock).
	Providers []ProviderRow `json:"providers,omitempty"`
	// Question is set when the bot needs more information ("多大参数量？").
	Question string `json:"question,omitempty"`
	// Subscription is the subscription made or found (intent subscribe);
	// Subscriptions the member's list (intent subscriptions).
	Subscription  *stock.Subscription  `json:"subscription,omitempty"`
	Subscriptions []stock.Subscription `json:"subscriptions,omitempty"`
	// Digest is the storage digest (intent digest).
	Digest *billing.Digest `json:"digest,omitempty"`
	// Advice is the knowledge-base answer (intent advice).
	Advice *AdviceResult `json:"advice,omitempty"`
	// Text is the reply as plain text, as the console shows it.
	Text  string     `json:"text"`
	Reply chat.Reply `json:"-"`

	msg chat.Message
}

// OfferRow is one offer as answers show it.
type OfferRow struct {
	Platform string `json:"platform"`
	GPU      string `json:"gpu"`
	// PriceCNY is CNY per GPU-hour; null when the source gives no price.
	PriceCNY *float64 `json:"price_cny_per_hour"`
	// PriceHighCNY is the top of a list-price range.
	PriceHighCNY float64 `json:"price_high_cny_per_hour,omitempty"`
	// ListPriceCNY is the catalog list price shown beside a live stock
	// count that came without a price.
	ListPriceCNY     float64 `json:"list_price_cny_per_hour,omitempty"`
	ListPriceHighCNY float64 `json:"list_price_high_cny_per_hour,omitempty"`
	// Available is true / false when the source says, null when unknown.
	Available *bool  `json:"available"`
	Free      *int   `json:"free,omitempty"`
	Region    string `json:"region,omitempty"`
	// GPUsPerInstance is the GPUs in one rental unit (a vast.ai bundle).
	GPUsPerInstance int    `json:"gpus_per_instance,omitempty"`
	Source          string `json:"source"`
	// AsOf is the observation time (RFC 3339) or the list price's date.
	AsOf string `json:"as_of"`
	// AgeSeconds is the age of the figure at answer time (-1 if unknown).
	AgeSeconds int64 `json:"age_seconds"`
	Stale      bool  `json:"stale"`
	// OriginalPrice and Currency are the price as the platform gave it,
	// per rental unit (GPUsPerInstance GPUs) per hour (USD for vast.ai).
	OriginalPrice float64 `json:"original_price,omitempty"`
	Currency      string  `json:"currency,omitempty"`
	Verified      bool    `json:"verified"`
	PriceNote     string  `json:"price_note,omitempty"`
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

	// Stock alerts (nil when not enabled).
	subs     stock.SubscriptionStore
	alerts   stock.AlertStore
	policy   stock.Policy
	location *time.Location

	// Storage ledger and digest (nil when not enabled).
	storage *StorageOptions

	// advice is the troubleshooting knowledge base (nil when not enabled).
	advice *advice.Base

	mu sync.Mutex
	// last holds each conversation's last estimate question, so that a
	// follow-up such as "seq 4096" changes it.
	last map[string]lastQuery
}

type lastQuery struct {
	q  Query
	at time.Time
}

// Follow-ups apply within FollowUpWindow of the question they change; at
// most maxConversations conversations are remembered.
const (
	FollowUpWindow   = 30 * time.Minute
	maxConversations = 2000
)

// Option configures a Router.
type Option func(*Router)

// WithLocation sets the time zone of times shown in replies (mute ends).
func WithLocation(l *time.Location) Option { return func(r *Router) { r.location = l } }

// WithClock injects the clock used for ages (tests).
func WithClock(now func() time.Time) Option { return func(r *Router) { r.now = now } }

// NewRouter builds a router over the catalog and an offer source.
func NewRouter(cat *catalog.Catalog, offers Offers, opts ...Option) *Router {
	r := &Router{cat: cat, offers: offers, est: &billing.Estimator{Cat: cat}, now: time.Now, last: map[string]lastQuery{}}
	for _, o := range opts {
		o(r)
	}
	for _, d := range definitions() {
		if d.Intent == IntentAdvice && r.advice == nil {
			continue
		}
		r.defs = append(r.defs, d)
	}
	return r
}

// Definitions returns the command definitions help is generated from.
func (r *Router) Definitions() []Definition { return r.defs }

// Handle answers a message with a reply.
func (r *Router) Handle(ctx context.Context, msg chat.Message) chat.Reply {
	return r.Answer(ctx, msg).Reply
}

// Answer parses the message and runs its intent's handler. A message that
// only changes parameters ("seq 4096", "5万条", "7B") after an estimate in
// the same conversation re-runs that estimate with the change.
func (r *Router) Answer(ctx context.Context, msg chat.Message) Result {
	q := Parse(r.cat, msg.Text)
	r.adviceQuery(&q, msg.Text)
	key := msg.Channel + "/" + msg.ChatID + "/" + msg.SenderID
	switch {
	case msg.ChatID == "":
	case q.Intent != IntentAdvice:
		q = r.followUp(key, q)
	default:
		r.adviceJob(key, &q)
	}
	res := r.answer(ctx, q, msg)
	if msg.ChatID != "" && (res.Intent == IntentEstimate || res.Intent == IntentAdvice && res.Estimate != nil) {
		// An OOM or card answer with an estimate can be followed up
		// ("seq 2048") like an estimate.
		fq := res.Query
		fq.Intent, fq.match, fq.text, fq.Topic, fq.Score = IntentEstimate, nil, "", "", 0
		r.remember(key, fq)
	}
	res.Text = chat.PlainText(res.Reply)
	return res
}

// MaxQuestion is how much of a long message Parse reads, bytes: the first
// and last halves of this. A longer message is a paste (a traceback, a log)
// with the question before or after it; the advice matcher reads all of
// it, and the parser's regular expressions stay fast.
const MaxQuestion = 320

// questionPart is the text the parser reads (see MaxQuestion).
func questionPart(text string) string {
	if len(text) <= MaxQuestion {
		return text
	}
	head := strings.ToValidUTF8(text[:MaxQuestion/2], "")
	tail := strings.ToValidUTF8(text[len(text)-MaxQuestion/2:], "")
	return head + "\n" + tail
}

// followUp merges q into the conversation's last estimate question when q
// names no model or size of its own but changes a parameter.
func (r *Router) followUp(key string, q Query) Query {
	r.mu.Lock()
	prev, ok := r.last[key]
	r.mu.Unlock()
	if !ok || r.now().Sub(prev.at) > FollowUpWindow {
		return q
	}
	switch {
	case q.Intent == IntentUnknown:
	case q.Intent == IntentEstimate && q.Model == "" && q.ParamsB == 0 && q.ModelText == "":
	case (q.Intent == IntentStock || q.Intent == IntentPrices) && q.switchTo:
		// "用4090", "在恒源云呢": the same estimate on another card or platform.
	default:
		return q
	}
	m := prev.q
	changed := false
	set := func(cond bool, f func()) {
		if cond {
			f()
			changed = true
		}
	}
	set(q.sizeB > 0 && m.Model == "" && m.ParamsB == 0, func() { m.ParamsB = q.sizeB })
	set(q.SeqLen > 0, func() { m.SeqLen = q.SeqLen })
	set(q.Batch > 0, func() { m.Batch = q.Batch })
	set(q.Samples > 0, func() { m.Samples = q.Samples; m.Tokens = 0 })
	set(q.Tokens > 0, func() { m.Tokens = q.Tokens })
	set(q.TokensPerSample > 0, func() { m.TokensPerSample = q.TokensPerSample })
	set(q.Epochs > 0, func() { m.Epochs = q.Epochs })
	set(q.Bits > 0, func() { m.Bits = q.Bits })
	set(q.LoRARank > 0, func() { m.LoRARank = q.LoRARank })
	set(q.LoRATargets != "", func() { m.LoRATargets = q.LoRATargets })
	set(q.Optimizer != "", func() { m.Optimizer = q.Optimizer })
	set(q.NoGradCkpt, func() { m.NoGradCkpt = true })
	set(q.NoFlashAttn, func() { m.NoFlashAttn = true })
	set(q.ZeRO > 0, func() { m.ZeRO = q.ZeRO })
	set(q.Method != "", func() { m.Method = q.Method })
	set(q.GPUCount > 0, func() { m.GPUCount = q.GPUCount })
	set(len(q.GPUs) > 0, func() { m.GPU, m.GPUs, m.GPUFamily = q.GPU, q.GPUs, q.GPUFamily })
	set(len(q.Platforms) > 0, func() { m.Platform, m.Platforms = q.Platform, q.Platforms })
	if !changed {
		return q
	}
	if m.Method == "qlora" && m.Bits == 16 {
		m.Method = "lora"
	}
	if m.Method == "lora" && m.Bits > 0 && m.Bits < 16 {
		m.Method = "qlora"
	}
	m.Intent = IntentEstimate
	m.Problems = q.Problems
	if reCJK.MatchString(strings.Join(q.Problems, "")) {
		m.English = false
	}
	return m
}

// adviceJob gives an OOM or card question that names no job ("爆显存了")
// the job of the conversation's last estimate, within FollowUpWindow.
func (r *Router) adviceJob(key string, q *Query) {
	t, ok := r.topic(q.Topic)
	if !ok || q.Model != "" || q.ParamsB > 0 || t.Tie != advice.TieOOM && t.Tie != advice.TieCard {
		return
	}
	r.mu.Lock()
	prev, ok := r.last[key]
	r.mu.Unlock()
	if !ok || r.now().Sub(prev.at) > FollowUpWindow {
		return
	}
	// The question keeps what makes it advice (topic, match, language, a
	// card it names); the job comes from the estimate.
	p := prev.q
	p.Intent, p.Topic, p.Score, p.match, p.text, p.English, p.Problems = q.Intent, q.Topic, q.Score, q.match, q.text, q.English, q.Problems
	p.Platform, p.Platforms = q.Platform, q.Platforms
	if len(q.GPUs) > 0 {
		p.GPU, p.GPUs, p.GPUFamily, p.GPUCount = q.GPU, q.GPUs, q.GPUFamily, q.GPUCount
	}
	*q = p
}

func (r *Router) remember(key string, q Query) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.last) >= maxConversations {
		// Drop the oldest conversation.
		oldest, at := "", r.now()
		for k, v := range r.last {
			if v.at.Before(at) {
				oldest, at = k, v.at
			}
		}
		delete(r.last, oldest)
	}
	r.last[key] = lastQuery{q: q, at: r.now()}
}

// AnswerQuery runs the handler for an already parsed query (`bot estimate`
// builds one from flags).
func (r *Router) AnswerQuery(ctx context.Context, q Query) Result {
	return r.answer(ctx, q, chat.Message{Channel: "cli", ChatID: "cli", SenderID: "cli"})
}

func (r *Router) answer(ctx context.Context, q Query, msg chat.Message) Result {
	res := Result{Query: q, msg: msg}
	for _, d := range r.defs {
		if (d.Intent == q.Intent || containsStr(d.Also, q.Intent)) && d.handle != nil {
			d.handle(r, ctx, &res)
			res.Text = chat.PlainText(res.Reply)
			return res
		}
	}
	r.unknown(&res)
	res.Text = chat.PlainText(res.Reply)
	return res
}
