// Package commands turns a chat message into an answer: the router reads
// the text into a Query (internal/understand), applies the conversation
// (a follow-up edits the member's frame, commands/frame; a pick after an
// ask-back; "确认" of an action asked first; 详情), looks the intent up in
// the registry of package answer and calls its answer with an
// answer.Ask — the Query, who asked where and the services, never the
// text. An intent that changes state is done only on its explicit verb
// (confirm.go), else asked first. Each intent registers itself from the file holding its answer:
// the router's own here (subscriptions, mute, the storage ledger, the
// digest, help, 详情, small talk, ask-backs, version), the areas' in
// commands/offers, estimate, advice and availability. Render turns the
// answer's payload into the reply; the router cuts it to a phone screen
// with the rest behind "详情". It knows nothing of Feishu or WeChat.
package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/mattn/go-runewidth"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/commands/estimate"
	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/commands/storage"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/render/figureview"
	"github.com/labgpu/bot/internal/render/metaview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/workload"
)

// Offers supplies the current stock snapshot (stock.Board implements it).
type Offers = answer.Offers

// OfferRow is one offer as answers show it (render.OfferRow).
type OfferRow = render.OfferRow

// Result is a full answer: the understood query, the rows behind the
// answer and the rendered reply. `bot ask --format json` prints it.
type Result struct {
	Query
	// Figures are the figures of an estimate an advice answer made (an
	// OOM or card question about a job); the estimate intent's are in
	// its payload (estimateview.Estimate, Workload).
	estimate.Figures
	// Question is set when the bot needs more information ("多大参数量？").
	Question string `json:"question,omitempty"`
	// Uses are the question's conditions (Query.Conditions) as the answer
	// used them: applied, or not and why (conditions.go).
	Uses []render.Condition `json:"condition_uses,omitempty"`
	// Confirm: the intent changes state and the message did not clearly
	// ask for it, so the answer asks whether to (nothing was done); the
	// sender's "确认" does it.
	Confirm bool `json:"confirm,omitempty"`
	// Payload is the answer's typed result (an intent registered with
	// answer.Register); its fields are printed beside the Query's.
	Payload render.Payload `json:"-"`
	// Text is the short answer as the console shows it; FullText the long
	// form behind "详情" (empty when the short answer is all of it).
	Text     string     `json:"text"`
	FullText string     `json:"full_text,omitempty"`
	Reply    chat.Reply `json:"-"`

	msg chat.Message
}

// Router understands messages and dispatches them to handlers by intent.
type Router struct {
	cat    *catalog.Catalog
	offers Offers
	now    func() time.Time
	u      *Understander
	in     *Intents
	chatEn bool
	// pasteZh answers a bare English paste in Chinese (chat.language
	// "zh"); otherwise, with chatEn false, it is answered in English.
	pasteZh bool
	// listPriceMaxAge is the months after which a list price is stale
	// (0: catalog.DefaultListPriceMaxAgeMonths).
	listPriceMaxAge int
	// rd renders offers, marks and alerts with the catalog's names.
	rd *render.Renderer

	// Stock alerts (nil when not enabled).
	subs     stock.SubscriptionStore
	alerts   stock.AlertStore
	policy   stock.Policy
	location *time.Location
	// facts are the poll interval and quiet hours answers about how
	// alerts work state (WithAlertFacts; factsSet false: the defaults).
	facts    AlertFacts
	factsSet bool

	// Storage ledger and digest (nil when not enabled).
	storage *answer.Storage

	// advice is the troubleshooting knowledge base (nil when not enabled);
	// loadAdvice, when set, loads it on the first message (WithAdviceLoader).
	advice     *kb.Base
	loadAdvice func() (*kb.Base, error)
	// lazy: the knowledge base, the workload data and the understander
	// are loaded on the first message (WithLazyLoad), once (ready).
	lazy      bool
	readyOnce sync.Once
	// understandErr: the intent definitions did not load (ready panics
	// with it at every use; their tests rule it out).
	understandErr error

	// work is the workload estimator's data (WithWorkloads; the embedded
	// configs/workloads.yaml by default).
	work *workload.Data

	// history is the availability history (nil when not kept).
	history *history.Recorder

	// labPlans are the lab's own plan prices (config plans:); queueRisk
	// the availability history's queue risk (nil: unknown).
	labPlans  []plan.Price
	queueRisk plan.QueueRisk

	// env is what the intents' answers read.
	env *answer.Env

	// frames keeps the conversation's frames (WithFrames; in memory
	// without a store).
	frames FrameStore

	mu sync.Mutex
	// fulls are the recent answers' full forms by member and by chat
	// ("详情"); answered the frames of answers waiting for the channel to
	// name the messages that carried them (LinkAnswer).
	fulls    map[string]*recentFull
	answered map[string][]byte
}

// "详情" shows an answer's full form within FollowUpWindow of it; at most
// maxConversations of them (and frames, without a store) are kept.
const (
	FollowUpWindow   = 30 * time.Minute
	maxConversations = 2000
)

// Option configures a Router.
type Option func(*Router)

// WithLocation sets the time zone of every time replies show (config
// timezone; default render.DefaultTimeZone) and of the weeks and clock
// times questions name.
func WithLocation(l *time.Location) Option { return func(r *Router) { r.location = l } }

// WithClock injects the clock used for ages (tests).
func WithClock(now func() time.Time) Option { return func(r *Router) { r.now = now } }

// WithListPriceMaxAge sets how many months after its date a list price is
// marked stale in answers (the catalog provider's setting; default 12).
func WithListPriceMaxAge(months int) Option { return func(r *Router) { r.listPriceMaxAge = months } }

// WithPlans sets the lab's own observed plan prices ("本组记录"), which
// win over the catalog's in plan answers.
func WithPlans(lab []plan.Price) Option { return func(r *Router) { r.labPlans = lab } }

// WithQueueRisk sets where plan answers read the chance of not getting a
// card (the availability history).
func WithQueueRisk(q plan.QueueRisk) Option { return func(r *Router) { r.queueRisk = q } }

// WithAdvice enables answers from the advice knowledge base.
func WithAdvice(b *kb.Base) Option { return func(r *Router) { r.advice = b } }

// WithAdviceLoader enables answers from the knowledge base load returns,
// called once, when the router first needs it (with WithLazyLoad, the
// first message; else at NewRouter). When it fails the router answers
// without the knowledge base and logs why.
func WithAdviceLoader(load func() (*kb.Base, error)) Option {
	return func(r *Router) { r.loadAdvice = load }
}

// WithLazyLoad defers what only answers need — the knowledge base (see
// WithAdviceLoader), the embedded workload data and the trained intent
// scorer, about 10 MB and 100 ms — to the first message, so a process
// that waits for messages (bot serve, the console) idles small.
func WithLazyLoad() Option { return func(r *Router) { r.lazy = true } }

// WithWorkloads sets the workload estimator's data (a lab's own
// workloads.yaml); without it the embedded one is used.
func WithWorkloads(d *workload.Data) Option { return func(r *Router) { r.work = d } }

// WithChatLanguage sets the language of answers to bare pastes: "zh"
// (the default), "en", or "auto" (a paste of English program output in
// English, any other message without words of its language in Chinese);
// questions are answered in their own language, a paste inside a
// conversation in the conversation's.
func WithChatLanguage(lang string) Option {
	return func(r *Router) { r.chatEn, r.pasteZh = lang == "en", lang == "zh" }
}

// NewRouter builds a router over the catalog and an offer source. It
// trains the intent scorer (or takes it from a cache of routers built on
// the same catalog, knowledge base and definitions). It panics only when
// the embedded intent definitions do not load, which their tests rule
// out.
func NewRouter(cat *catalog.Catalog, board Offers, opts ...Option) *Router {
	r := &Router{cat: cat, offers: board, now: time.Now, fulls: map[string]*recentFull{}, answered: map[string][]byte{}, pasteZh: true}
	for _, o := range opts {
		o(r)
	}
	if r.frames == nil {
		r.frames = frame.NewMem(func() time.Time { return r.now() }, maxConversations)
	}
	r.rd = &render.Renderer{Cat: cat, ListPriceMaxAge: r.listPriceMaxAge, Clock: render.Clock{Loc: r.location}}
	if !r.lazy {
		r.ready()
	}
	return r
}

// Preload does now, for a process that answers one question, what the
// first answer of any router would do first, two things at once: read
// the compiled intents and the trained scorer (understand.Preload), and
// build the terminal-width table the short form measures lines with. A
// one-shot command runs it beside loading the catalog. The gated regexps
// are left to compile when first used: one question uses a few of the
// 173 (compiling them all took 14 ms of the process's CPU).
func Preload() {
	var wg sync.WaitGroup
	wg.Go(understand.Preload)
	wg.Go(func() { runewidth.StringWidth(string(rune(wideRune))) })
	wg.Wait()
}

// wideRune is a character of double width (U+8868, 表): measuring it
// builds the width table.
const wideRune = 0x8868

// ready loads, once, what answers need: the knowledge base (from its
// loader), the workload data and the understander. It panics only when
// the embedded intent definitions do not load, which their tests rule
// out.
func (r *Router) ready() {
	r.readyOnce.Do(func() {
		if r.loadAdvice != nil {
			var err error
			if r.advice, err = r.loadAdvice(); err != nil {
				slog.Error("commands: the knowledge base did not load; answering without it", "err", err)
			}
		}
		if r.work == nil {
			r.work = workload.Default()
		}
		r.answers()
		u, err := understand.Shared(r.cat, r.advice, r.chatEn)
		if err != nil {
			r.understandErr = err
			return
		}
		if r.work != nil {
			u = u.WithWorkloads(r.work)
		}
		r.u, r.in = u, u.Intents()
		r.env.Intents = r.in
	})
	if r.understandErr != nil {
		// Every use says why, not a nil dereference after the first.
		panic(r.understandErr)
	}
}

// Understand reads a message as the router would, without answering.
func (r *Router) Understand(text string) Query { r.ready(); return r.u.Understand(text) }

// Understander returns the router's understanding pipeline.
func (r *Router) Understander() *Understander { r.ready(); return r.u }

// Intents returns the intent definitions help is generated from.
func (r *Router) Intents() *Intents { r.ready(); return r.in }

// Handle answers a message with a reply.
func (r *Router) Handle(ctx context.Context, msg chat.Message) chat.Reply {
	return r.Answer(ctx, msg).Reply
}

// HandleUpdatable answers like Handle and, when the answer read a
// platform's last snapshot because its fetch had not answered within the
// budget, also returns how to answer again once it has (chat.Updater):
// Feishu then replaces its card in place.
func (r *Router) HandleUpdatable(ctx context.Context, msg chat.Message) (chat.Reply, chat.Later) {
	res, later := r.answerMessage(ctx, msg)
	return res.Reply, later
}

// Answer understands the message, applies the conversation (a follow-up
// edits the last answer; a pick after an ask-back; "确认"; "详情") and runs
// the intent's handler (an action not clearly asked for: asks first).
func (r *Router) Answer(ctx context.Context, msg chat.Message) Result {
	res, _ := r.answerMessage(ctx, msg)
	return res
}

// englishPaste reports whether a message that does not say its
// language, outside a conversation, is answered in English: a paste of
// English program output ("ImportError: …", "Killed") when the chat's
// language is "auto".
func (r *Router) englishPaste(q Query, text string) bool {
	if r.chatEn || r.pasteZh {
		return r.chatEn
	}
	return understand.EnglishPaste(text) || q.KB != nil && q.KB.Best != nil && q.KB.Best.Strong
}

// answerMessage is Answer, and the answer again for later when a
// platform was late (nil otherwise).
func (r *Router) answerMessage(ctx context.Context, msg chat.Message) (res Result, later chat.Later) {
	defer func() {
		// A bug in one answer must not leave the chat silent: say so in
		// the asker's language, and log where it happened.
		if p := recover(); p != nil {
			slog.Error("commands: panic while answering", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			en := understand.AnswerEnglish(msg.Text, r.chatEn)
			res = Result{Query: Query{Intent: IntentUnknown, English: en}, Reply: metaview.Failed{Lang: i18n.Of(en)}.Reply(r.rd)}
			res.Text = chat.PlainText(res.Reply)
			later = nil
		}
	}()
	r.ready()
	q := r.u.Understand(msg.Text)
	yesNo := q.YesNo != nil
	ask := figureAskOf(q)
	conv := r.conversation(ctx, msg)
	var edited *Query
	if conv != nil {
		if en, ok := r.threadLanguage(conv); ok && q.Langless {
			// "4090?", "13B?", a bare paste: the conversation's language.
			q.English = en
		} else if q.Langless && r.englishPaste(q, msg.Text) {
			q.English = true
		}
		q, edited = r.inContext(conv, q)
		if q.Same {
			if s, ok := r.sameQuestion(ctx, msg); ok {
				q, edited = s, nil
			}
		}
		conv.edited = edited != nil
	} else if q.Langless && r.englishPaste(q, msg.Text) {
		q.English = true
	}
	q = r.objectOf(ctx, q, msg, conv != nil && conv.frame != nil && storage.Frames[conv.frame.Query.Intent])
	q = cardVRAMAsk(q)
	pctx, pend := stock.WithPending(ctx)
	res = r.answer(pctx, q, msg, edited, yesNo)
	switch {
	case edited != nil && (ask.gap || ask.hours):
		res = r.withFigureLine(pctx, res, figureBases(*edited, conv), ask, msg)
	case ask.pick && q.PickAsk:
		// "那我该选哪个": the last answer again, its pick first.
		res = r.withFigureLine(pctx, res, nil, ask, msg)
	}
	if conv != nil {
		r.remember(ctx, msg, conv, res)
	}
	if pend.Late() && refreshable[res.Intent] && !res.Confirm {
		later = r.later(pend, q, msg, res, edited, yesNo)
	}
	return res, later
}

// refreshable are the intents whose answer only reads the offers: given
// again when a late platform's data comes (never one that changed state).
var refreshable = map[string]bool{IntentStock: true, IntentPrices: true, IntentCompare: true, IntentEstimate: true,
	IntentPlan: true, IntentAdvice: true, IntentFactCheck: true}

// later answers q again once the fetches first answered late have ended,
// from what they brought (fetching nothing more); false when the answer
// reads the same.
func (r *Router) later(pend *stock.Pending, q Query, msg chat.Message, first Result, edited *Query, yesNo bool) chat.Later {
	return func(ctx context.Context) (chat.Reply, bool) {
		if err := pend.Wait(ctx); err != nil {
			return chat.Reply{}, false
		}
		actx, _ := stock.WithPending(stock.WithoutRefresh(ctx))
		res := r.answer(actx, q, msg, edited, yesNo)
		if res.Text == first.Text && res.FullText == first.FullText {
			return chat.Reply{}, false
		}
		r.replaceFull(msg, first.Reply.Full, res.Reply.Full)
		return res.Reply, true
	}
}

// AnswerQuery answers an already parsed query (`bot estimate` builds one
// from flags).
func (r *Router) AnswerQuery(ctx context.Context, q Query) Result {
	ctx, _ = stock.WithPending(ctx)
	return r.answer(ctx, q, chat.Message{Channel: "cli", ChatID: "cli", SenderID: "cli"}, nil, false)
}

// answer runs q's intent (an action not clearly asked for: the question
// whether to do it); edited is the frame's Query q edits (nil: none), and
// the answer then says first what changed (after the verdict when the
// message itself asked yes or no: yesNo).
func (r *Router) answer(ctx context.Context, q Query, msg chat.Message, edited *Query, yesNo bool) Result {
	r.ready()
	res := Result{Query: q, msg: msg}
	in, ok := answer.Lookup(q.Intent)
	if !ok {
		in, _ = answer.Lookup(IntentUnknown) // not something the bot does
	}
	if r.asksFirst(q) {
		in, res.Confirm = r.confirmIntent(q.Intent), true
	}
	out := in.Answer(ctx, &answer.Ask{Query: q, From: askerOf(msg), Env: r.env, Last: r.lastFull(msg)})
	res.Query, res.Payload, res.Reply = out.Query, out.Payload, out.Payload.Reply(r.rd)
	if !out.AskedBack {
		res.Uses = conditionUses(q.Intent, out.Query, out.Uses)
	}
	res.Reply = withConditionLine(res.Reply, res.Uses, res.English)
	if q.Explain != "" && !res.Confirm {
		line := explainLine(q.Explain, i18n.Of(res.English))
		if line == "" {
			line = r.alertHowLine(q.Explain, askerOf(msg).ChatKey(), i18n.Of(res.English))
		}
		res.Reply = withLead(res.Reply, line)
	}
	if !res.Confirm {
		res.Reply = withLead(res.Reply, r.cardVRAMLine(q, i18n.Of(res.English)))
	}
	if q.HourAsk {
		// "是每小时吗": what the figure is per, first.
		res.Reply = withLead(res.Reply, figureview.HourLine(r.rd, i18n.Of(res.English), res.Payload))
	}
	if q.CurrencyAsk {
		// "是美元还是人民币": the figures' currency, first.
		res.Reply = withLead(res.Reply, figureview.CurrencyLine(i18n.Of(res.English), q.Currency == understand.CurrencyUSD))
	}
	if q.TypoGPU != "" && edited == nil && res.GPU != "" {
		res.Reply = withLine(res.Reply, i18n.Of(res.English).T("router.typo_gpu", q.TypoGPU, res.GPU))
	}
	if q.WhyVerdict && q.Intent != IntentEstimate && !res.Confirm {
		res.Reply = whyReply(res.Reply, i18n.Of(res.English))
	}
	if edited != nil && !fitsVerdictFirst(res.Payload) {
		said := res.Query
		if slices.ContainsFunc(res.Uses, func(c render.Condition) bool { return c.Kind == understand.CondRegion && !c.Applied }) {
			// A region no offer is in is not named beside a verdict ("有
			// （西北 地区）" would say there are some there): the answer
			// says it could not apply it.
			said.Region = edited.Region
		}
		res.Reply = frame.WithChange(r.rd, res.Reply, *edited, said, yesNo)
	}
	res.Reply = r.withLateLines(ctx, res.Reply, res.English)
	if q.Intent != IntentMore {
		// "详情" is the full form: it is not cut again.
		res.Reply = r.shortForm(res.Reply, res.English)
	}
	res.Text = chat.PlainText(res.Reply)
	if res.Reply.Full != nil {
		res.FullText = chat.PlainText(*res.Reply.Full)
	}
	return res
}

// fitsVerdictFirst reports whether an answer opens with whether the job
// fits the card asked ("够：…，RTX 3090 有 24 GB"): the verdict names the
// card, and a change line before it would push the yes or no off the
// first clause.
func fitsVerdictFirst(p render.Payload) bool {
	switch e := p.(type) {
	case estimateview.Estimate:
		return e.Verdict != nil && e.Verdict.Kind == render.AskFits && e.Verdict.Card != ""
	case estimateview.Workload:
		return e.Verdict != nil && e.Verdict.Kind == render.AskFits && e.Verdict.Card != ""
	}
	return false
}

// loc is the time zone of the times replies show.
func (r *Router) loc() *time.Location { return r.rd.Clock.Location() }

// askerOf is who sent a message, where.
func askerOf(msg chat.Message) answer.Asker {
	return answer.Asker{Channel: msg.Channel, ChatID: msg.ChatID, SenderID: msg.SenderID, SenderName: msg.SenderName, ChatType: msg.ChatType}
}

// MarshalJSON prints the Query's fields and the result's, then the
// payload's beside them (`bot ask --format json`).
func (res Result) MarshalJSON() ([]byte, error) {
	type plain Result
	b, err := json.Marshal(plain(res))
	if err != nil || res.Payload == nil {
		return b, err
	}
	p, err := json.Marshal(res.Payload)
	if err != nil {
		return nil, err
	}
	if len(p) <= 2 || p[0] != '{' {
		return b, nil
	}
	out := append(b[:len(b)-1:len(b)-1], ',')
	return append(out, p[1:]...), nil
}

// Interim is the short message a chat gets at once when an answer is slow
// (fresh stock being fetched): "查询中…", in the asker's language.
func (r *Router) Interim(msg chat.Message) chat.Reply {
	return metaview.Interim(i18n.Of(understand.AnswerEnglish(msg.Text, r.chatEn)))
}
