// Package feishu is the Feishu (Lark) channel: it receives
// im.message.receive_v1 events over the HTTP callback or the SDK's long
// connection, decides whether the bot is addressed (Gate), hands the
// message to the command router and sends the answer back as an
// interactive card (tables) or text.
//
// It is built on github.com/larksuite/oapi-sdk-go/v3 v3.5.4 and closes the
// gaps that SDK version leaves open (see docs/reference/chat-platforms.md §1):
//
//   - the callback rejects stale or missing X-Lark-Request-Timestamp headers
//     (the SDK checks signatures but not their age, so replays would pass);
//   - every event's header.token is compared with the verification token
//     (the SDK compares it only for url_verification);
//   - request bodies are size-limited;
//   - the handler deduplicates (message_id), writes an event it will answer
//     in the inbox in the store (Options.Inbox) and enqueues it before
//     Feishu gets its 200; workers answer and reply, then clear the inbox
//     entry; a live replica takes over the entries of one that died;
//   - the tenant_access_token is cached per Bot, not in the SDK's
//     process-wide cache (which is keyed by app id only, §1d);
//   - message content is built with encoding/json (the SDK's text builder
//     does not escape).
package feishu

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	lark "github.com/larksuite/oapi-sdk-go/v3"
	larkcore "github.com/larksuite/oapi-sdk-go/v3/core"
	larkevent "github.com/larksuite/oapi-sdk-go/v3/event"
	"github.com/larksuite/oapi-sdk-go/v3/event/dispatcher"
	"golang.org/x/time/rate"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/claim"
)

// Deduper is the stores' SET NX (claim.Deduper): ClaimAlert returns true
// for the first caller with key within ttl and false for every later one.
// The embedded and Redis stores implement it; claim.StoreDeduper is the
// one `bot serve` passes, claim.MemoryDeduper a process-local one.
type Deduper = claim.Deduper

// Modes accepted in Options.Mode.
const (
	// ModeWebhook receives events on the HTTP callback (HTTPHandler).
	ModeWebhook = "webhook"
	// ModeWebsocket receives events over the SDK's long connection
	// (RunWebsocket); no public URL is needed.
	ModeWebsocket = "websocket"
)

// DedupTTL is how long an event_id or message_id is remembered. Feishu
// retries a delivery for a few hours; a day and an hour covers that and a
// restart.
const DedupTTL = 25 * time.Hour

// Defaults applied by New to zero Options fields.
const (
	// DefaultMaxBodyBytes is the default callback body limit (1 MiB).
	DefaultMaxBodyBytes = 1 << 20
	// DefaultMaxSkew is the default tolerance for X-Lark-Request-Timestamp.
	DefaultMaxSkew = 5 * time.Minute
	// DefaultWorkers is the default number of event workers.
	DefaultWorkers = 4
	// DefaultQueueSize is the default number of queued events.
	DefaultQueueSize = 1024
	// DefaultRatePerChat is one message per second per chat, with a burst
	// of RateBurst.
	DefaultRatePerChat rate.Limit = 1
	// RateBurst is the per-chat limiter's burst.
	RateBurst = 5
)

// MaxMessageAge: messages created more than this long before
// Options.Started are ignored (a restart must not answer a backlog).
const MaxMessageAge = 60 * time.Second

// Options configures a Bot. AppID and AppSecret are always required; the
// webhook mode also needs VerificationToken and EncryptKey (or
// AllowNoEncryptKey).
type Options struct {
	// OnSend, when set, is called after every Send (replies and pushes)
	// with its outcome: for metrics.
	OnSend func(err error)

	// AppID and AppSecret identify the self-built app (FEISHU_APP_ID,
	// FEISHU_APP_SECRET).
	AppID, AppSecret string
	// VerificationToken is compared with every event's header.token
	// (FEISHU_VERIFICATION_TOKEN). EncryptKey decrypts events and verifies
	// X-Lark-Signature (FEISHU_ENCRYPT_KEY).
	VerificationToken, EncryptKey string
	// AllowNoEncryptKey lets the webhook mode run without an Encrypt Key:
	// events are then neither encrypted nor signed, and only the
	// verification token and the timestamp protect the callback.
	AllowNoEncryptKey bool
	// BaseURL is the open platform's address; default lark.FeishuBaseUrl
	// (lark.LarkBaseUrl for Lark). Tests point it at a fake.
	BaseURL string
	// Mode is "webhook" (default) or "websocket".
	Mode string
	// MaxBodyBytes limits callback request bodies; default 1 MiB.
	MaxBodyBytes int64
	// MaxSkew is the largest accepted difference between
	// X-Lark-Request-Timestamp and Now; default 5 minutes.
	MaxSkew time.Duration
	// Started is the process start; messages created more than 60 s before
	// it are ignored. Default: the time New is called.
	Started time.Time
	// Dedup remembers events: one claim each, on the message id
	// ("feishu:msg:<id>"; "feishu:event:<id>" for an event without one),
	// TTL DedupTTL. Default: a claim.MemoryDeduper, which
	// is neither shared between replicas nor kept across restarts.
	Dedup Deduper
	// Handler answers messages. Required.
	Handler chat.Handler
	// InterimAfter is how long a slow answer may take before the chat gets
	// the Handler's "查询中…" (when it implements chat.Interimer);
	// default chat.DefaultInterimAfter, negative never.
	InterimAfter time.Duration
	// Log receives structured logs; it never gets a secret. Default
	// slog.Default().
	Log *slog.Logger
	// RatePerChat limits sent messages per chat (burst RateBurst); default
	// one per second. rate.Inf disables the limit.
	RatePerChat rate.Limit
	// HTTPClient sends requests to the open platform; default a client
	// with a 15 s timeout. (The SDK's long connection uses
	// http.DefaultClient for its endpoint request regardless.)
	HTTPClient *http.Client
	// Now is the clock used for timestamp checks; default time.Now.
	Now func() time.Time
	// Workers handle queued events; default 4.
	Workers int
	// DrainTimeout is the shutdown grace: how long Close lets the workers
	// answer queued events; what is left then is put back in the Inbox, of
	// no owner, for another replica or the next start, or, without an
	// Inbox, handed back (released, so a redelivery would be answered: but
	// Feishu had its 200 and does not redeliver); default
	// DefaultDrainTimeout.
	DrainTimeout time.Duration
	// QueueSize is the number of events waiting for a worker; when it is
	// full the callback answers 503 so that Feishu retries. Default 1024.
	QueueSize int
	// Inbox keeps every event the bot will answer from before its 200
	// until its answer is sent (Feishu does not deliver an event again
	// after a 200): the callback answers 503 when it cannot write it, and
	// a live replica takes over the events of one killed while answering,
	// and those a shutdown cut off. Nil: acknowledged events live in
	// memory only, and are lost with the process.
	Inbox Inbox
	// Replica names this process in the Inbox (with a random part per
	// start); default "feishu".
	Replica string
	// LeaseTTL is how long this process's inbox lease lasts without
	// renewal (renewed every third of it); default DefaultLeaseTTL.
	LeaseTTL time.Duration
	// Delivered keeps the parts a keyed send delivered beyond the process
	// (the bot's store): a send repeated after a restart or on another
	// replica skips them. Nil: in the process only.
	Delivered chat.DeliveryLog
}

// Bot is a Feishu channel: it receives events, answers them through the
// Handler and sends messages. Create it with New; it is safe for
// concurrent use.
type Bot struct {
	opts   Options
	log    *slog.Logger
	client *lark.Client
	disp   *dispatcher.EventDispatcher
	// botOpenID is the bot's open_id ("" until /bot/v3/info answered).
	botOpenID atomic.Pointer[string]
	// refusals counts events refused under load, logged as a rate.
	refusals rateLog
	// handedBack counts events released unanswered at shutdown; parked
	// those put back in the inbox (Options.Inbox).
	handedBack atomic.Int64
	parked     atomic.Int64
	// unkept counts events acknowledged while the store was down, kept
	// in memory only (Unkept).
	unkept atomic.Int64
	// owner is this process's name in the inbox.
	owner string
	// toDrop are inbox entries of answers sent while the store was down,
	// cleared when it answers (dropPending).
	dropMu sync.Mutex
	toDrop map[string]bool
	// stopLease ends the lease loop (tests: a process gone).
	stopLease context.CancelFunc

	tokMu  sync.Mutex
	tok    string
	tokExp time.Time
	// tokState is the last token fetch's outcome, for Ready (read
	// without tokMu, which a fetch holds).
	tokState atomic.Pointer[tokenState]
	// intake records the callback's accepted and refused events, for
	// Ready; rejects the requests it refuses (token, signature …), for
	// Degraded; ws the long connection's state, for Ready.
	intake  intake
	rejects rejections
	ws      wsState

	limiters *chat.Limiters
	// out is the one path every message takes out (chat.Outbox).
	out *chat.Outbox

	// chatTypes remembers chat ids seen as p2p, so that Send leaves
	// @mentions out of private chats.
	chatTypes sync.Map // chat id -> chat.ChatType

	runCtx    context.Context
	parent    context.Context
	cancel    context.CancelFunc
	mu        sync.RWMutex // guards closed and sends on jobs
	closed    bool
	slots     chan struct{}
	jobs      chan job
	wg        sync.WaitGroup
	closeOnce sync.Once
	// followers are the answers waiting to be updated with fresh data
	// (followUp); Close ends and waits for them.
	followers sync.WaitGroup

	// backoff is the first retry delay of Send; it doubles per retry.
	backoff time.Duration
}

// botInfoTimeout bounds the start-up request for the bot's open_id.
const botInfoTimeout = 10 * time.Second

// New validates opts, builds the SDK client and the event dispatcher,
// fetches the bot's open_id from GET /open-apis/bot/v3/info and starts the
// workers.
//
// ctx bounds the Bot's life: when it ends the workers stop (so does Close).
// The bot-info request gets its own 10 s timeout within ctx.
//
// Token cache: the SDK keeps tenant_access_tokens in a process-wide cache
// keyed by app id only, so two clients with the same app id (tests, or a
// changed base URL) would share a token. New therefore disables the SDK
// cache (lark.WithEnableTokenCache(false)); the Bot fetches the token
// itself through the SDK's GetTenantAccessTokenBySelfBuiltApp, caches it
// per Bot until 3 minutes before it expires, passes it to every call with
// larkcore.WithTenantAccessToken, and refetches it when Feishu answers
// with a token-invalid code.
func New(ctx context.Context, opts Options) (*Bot, error) {
	opts, err := checkOptions(opts)
	if err != nil {
		return nil, err
	}
	log := opts.Log.With("channel", "feishu")
	sdkLog := sdkLogger{log.With("component", "lark-sdk")}
	b := &Bot{
		opts:     opts,
		log:      log,
		limiters: chat.NewLimiters(opts.RatePerChat, RateBurst, 4096),
		slots:    make(chan struct{}, opts.QueueSize),
		jobs:     make(chan job, opts.QueueSize),
		backoff:  200 * time.Millisecond,
		owner:    newOwner(opts.Replica),
	}
	b.out = b.newOutbox()
	b.client = lark.NewClient(opts.AppID, opts.AppSecret,
		lark.WithOpenBaseUrl(opts.BaseURL),
		lark.WithEnableTokenCache(false),
		lark.WithHttpClient(statusRecorder{opts.HTTPClient}),
		lark.WithLogger(sdkLog),
		// Info and Debug could print request URLs and bodies.
		lark.WithLogLevel(larkcore.LogLevelWarn),
	)
	b.disp = dispatcher.NewEventDispatcher(opts.VerificationToken, opts.EncryptKey)
	// Without InitConfig the dispatcher's logger has no level filter and
	// prints every request (headers and body) to stdout at Debug.
	b.disp.InitConfig(larkevent.WithLogger(sdkLog), larkevent.WithLogLevel(larkcore.LogLevelWarn))
	b.disp.OnP2MessageReceiveV1(b.onMessage)

	id, err := b.startBotInfo(ctx)
	if err != nil {
		return nil, err
	}

	// Workers outlive a cancelled ctx until Close has drained the queue:
	// a claimed event must be answered (or released), not dropped.
	b.runCtx, b.cancel = context.WithCancel(context.WithoutCancel(ctx))
	b.parent = ctx
	for range opts.Workers {
		b.wg.Add(1)
		go b.worker()
	}
	go func() {
		// When the caller's ctx ends, stop taking events; the workers
		// finish the queue (Close waits for them).
		<-ctx.Done()
		b.shutdown()
	}()
	leaseCtx, stopLease := context.WithCancel(b.runCtx)
	b.stopLease = stopLease
	go b.tendInbox(leaseCtx)
	log.Info("feishu bot ready", "mode", opts.Mode, "base_url", opts.BaseURL, "bot_open_id", id,
		"encrypted", opts.EncryptKey != "")
	return b, nil
}

// checkOptions validates opts and fills in the defaults.
func checkOptions(opts Options) (Options, error) {
	if strings.TrimSpace(opts.AppID) == "" {
		return opts, errors.New("feishu: app id is empty: set FEISHU_APP_ID")
	}
	if strings.TrimSpace(opts.AppSecret) == "" {
		return opts, errors.New("feishu: app secret is empty: set FEISHU_APP_SECRET")
	}
	if opts.Handler == nil {
		return opts, errors.New("feishu: Options.Handler is nil")
	}
	switch opts.Mode {
	case "":
		opts.Mode = ModeWebhook
	case ModeWebhook, ModeWebsocket:
	default:
		return opts, fmt.Errorf("feishu: FEISHU_MODE %q: want %q or %q", opts.Mode, ModeWebhook, ModeWebsocket)
	}
	if opts.Mode == ModeWebhook {
		if opts.VerificationToken == "" {
			return opts, errors.New("feishu: webhook mode needs the verification token: set FEISHU_VERIFICATION_TOKEN")
		}
		if opts.EncryptKey == "" && !opts.AllowNoEncryptKey {
			return opts, errors.New("feishu: webhook mode refuses to start without an Encrypt Key " +
				"(unsigned events could be forged): set FEISHU_ENCRYPT_KEY, or allow it explicitly")
		}
	}
	if opts.BaseURL == "" {
		opts.BaseURL = lark.FeishuBaseUrl
	}
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	if u, err := url.Parse(opts.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return opts, fmt.Errorf("feishu: FEISHU_BASE_URL %q is not an http(s) URL", opts.BaseURL)
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxSkew <= 0 {
		opts.MaxSkew = DefaultMaxSkew
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Started.IsZero() {
		opts.Started = opts.Now()
	}
	if opts.Dedup == nil {
		opts.Dedup = claim.NewMemoryDeduper()
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.RatePerChat <= 0 {
		opts.RatePerChat = DefaultRatePerChat
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 15 * time.Second}
	}
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.LeaseTTL <= 0 {
		opts.LeaseTTL = DefaultLeaseTTL
	}
	return opts, nil
}

// BotOpenID is the bot's own open_id, as reported by /open-apis/bot/v3/info.
func (b *Bot) BotOpenID() string {
	if p := b.botOpenID.Load(); p != nil {
		return *p
	}
	return ""
}

// botInfoRetryMax caps the wait between tries of the bot info request.
const botInfoRetryMax = 5 * time.Minute

// startBotInfo fetches the bot's open_id. Wrong credentials or a disabled
// bot capability fail New; a token or info endpoint that does not answer
// (Feishu or the network down) does not: the bot starts, group messages
// are refused for Feishu to redeliver until the open_id is known (only
// then can it tell an @mention of itself), p2p messages are answered, and
// the request is retried in the background (5 s doubling to 5 min).
func (b *Bot) startBotInfo(ctx context.Context) (string, error) {
	ictx, cancel := context.WithTimeout(ctx, botInfoTimeout)
	id, err := b.fetchBotOpenID(ictx)
	cancel()
	switch {
	case err == nil:
		b.botOpenID.Store(&id)
		return id, nil
	case errors.Is(err, errCredentials):
		return "", err
	}
	b.log.Error("feishu: the open platform does not answer; starting without the bot's open_id, retrying (group messages wait for it)", "err", err)
	go func() {
		wait := 5 * time.Second
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			ictx, cancel := context.WithTimeout(ctx, botInfoTimeout)
			id, err := b.fetchBotOpenID(ictx)
			cancel()
			if err == nil {
				b.botOpenID.Store(&id)
				b.log.Info("feishu: bot info fetched; answering group messages", "bot_open_id", id)
				return
			}
			wait = min(2*wait, botInfoRetryMax)
			b.log.Warn("feishu: bot info still unavailable; retrying", "in", wait, "err", err)
		}
	}()
	return "", nil
}

// errCredentials marks a refusal of the app's credentials or settings:
// retrying cannot help.
var errCredentials = errors.New("the open platform refused the app's credentials or settings")

// DefaultDrainTimeout bounds how long Close waits for queued events; what
// is left then is put back in the inbox (Options.Inbox).
const DefaultDrainTimeout = 10 * time.Second

// DrainTimeout is DefaultDrainTimeout (the name older callers use).
const DrainTimeout = DefaultDrainTimeout

// Close stops accepting events (the callback then answers 503, so Feishu
// retries them), lets the workers finish the queued ones for up to
// DrainTimeout, then cuts off what is still being answered or sent and
// puts it back in the inbox (Options.Inbox), of no owner, with the
// queued events not started, for another replica or the next start; it
// waits for the workers. It is idempotent.
func (b *Bot) Close() error {
	began := time.Now()
	b.shutdown()
	done := make(chan struct{})
	go func() { b.wg.Wait(); close(done) }()
	grace := b.opts.DrainTimeout
	if grace <= 0 {
		grace = DefaultDrainTimeout
	}
	select {
	case <-done:
	case <-time.After(grace):
		b.cancel()
		<-done
	}
	b.cancel()
	b.followers.Wait()
	if n := b.handedBack.Load(); n > 0 {
		b.log.Warn("feishu: stopped; events not answered in the shutdown grace were handed back for Feishu to redeliver",
			"handed_back", n, "grace", grace, "took", time.Since(began).Round(time.Millisecond))
	}
	if n := b.parked.Load(); n > 0 {
		b.log.Warn("feishu: stopped; answers not sent in the shutdown grace are kept in the inbox for another replica or the next start",
			"parked", n, "grace", grace, "took", time.Since(began).Round(time.Millisecond))
	}
	return nil
}
func (b *Bot) shutdown() {
	b.closeOnce.Do(func() {
		b.mu.Lock()
		b.closed = true
		close(b.jobs)
		b.mu.Unlock()
	})
}

// token returns the cached tenant_access_token, fetching a new one when
// there is none or it is about to expire.
func (b *Bot) token(ctx context.Context) (string, error) {
	b.tokMu.Lock()
	defer b.tokMu.Unlock()
	now := time.Now()
	if b.tok != "" && now.Before(b.tokExp) {
		return b.tok, nil
	}
	resp, err := b.client.GetTenantAccessTokenBySelfBuiltApp(ctx, &larkcore.SelfBuiltTenantAccessTokenReq{
		AppID: b.opts.AppID, AppSecret: b.opts.AppSecret,
	})
	if err != nil {
		err = fmt.Errorf("feishu: get tenant_access_token from %s: %w", b.opts.BaseURL, err)
		b.tokState.Store(&tokenState{err: err, expires: b.tokExp})
		return "", err
	}
	if !resp.Success() || resp.TenantAccessToken == "" {
		err := fmt.Errorf("feishu: get tenant_access_token from %s: code %d: %s (check FEISHU_APP_ID and FEISHU_APP_SECRET): %w",
			b.opts.BaseURL, resp.Code, resp.Msg, errCredentials)
		b.tokState.Store(&tokenState{err: err, expires: b.tokExp})
		return "", err
	}
	ttl := time.Duration(resp.Expire)*time.Second - 3*time.Minute
	if ttl < 30*time.Second {
		ttl = 30 * time.Second
	}
	b.tok, b.tokExp = resp.TenantAccessToken, now.Add(ttl)
	b.tokState.Store(&tokenState{expires: b.tokExp})
	return b.tok, nil
}

// Ready reports whether the bot can serve, from what it recorded (it
// calls nobody, so /readyz answers at once whatever Feishu does): not
// closed, its open_id known, the last tenant_access_token fetch fine (or
// a token still held), the long connection connected (websocket mode),
// and the callback not refusing every verified event for the last 30 s.
func (b *Bot) Ready() error {
	b.mu.RLock()
	closed := b.closed
	b.mu.RUnlock()
	if closed {
		return errors.New("closed")
	}
	if b.BotOpenID() == "" {
		return errors.New("bot info not fetched yet (the open platform did not answer at start); group messages wait for it")
	}
	now := b.opts.Now()
	if err := b.tokenHealth(now); err != nil {
		return err
	}
	if b.opts.Mode == ModeWebsocket {
		if err := b.ws.state(now); err != nil {
			return err
		}
	}
	return b.intake.state(now)
}

// invalidateToken forgets tok if it is still the cached token.
func (b *Bot) invalidateToken(tok string) {
	b.tokMu.Lock()
	if b.tok == tok {
		b.tok = ""
	}
	b.tokMu.Unlock()
}

// botInfoPath is where the bot's own identity is read.
const botInfoPath = "/open-apis/bot/v3/info"

// fetchBotOpenID asks GET /open-apis/bot/v3/info for the bot's open_id. The
// answer has "bot" at the top level, not under "data".
func (b *Bot) fetchBotOpenID(ctx context.Context) (string, error) {
	wrap := func(err error) error {
		return fmt.Errorf("feishu: fetch bot open_id from %s%s: %w", b.opts.BaseURL, botInfoPath, err)
	}
	for attempt := 0; attempt < 2; attempt++ {
		tok, err := b.token(ctx)
		if err != nil {
			return "", err
		}
		resp, err := b.client.Get(ctx, botInfoPath, nil, larkcore.AccessTokenTypeTenant, larkcore.WithTenantAccessToken(tok))
		if err != nil {
			return "", wrap(err)
		}
		var info struct {
			Code int    `json:"code"`
			Msg  string `json:"msg"`
			Bot  *struct {
				OpenID  string `json:"open_id"`
				AppName string `json:"app_name"`
			} `json:"bot"`
		}
		if err := json.Unmarshal(resp.RawBody, &info); err != nil {
			return "", wrap(fmt.Errorf("HTTP %d, body is not JSON: %w", resp.StatusCode, err))
		}
		if tokenInvalid(info.Code) && attempt == 0 {
			b.invalidateToken(tok)
			continue
		}
		if info.Code != 0 {
			return "", wrap(fmt.Errorf("HTTP %d, code %d: %s (is the bot capability enabled for the app?): %w", resp.StatusCode, info.Code, info.Msg, errCredentials))
		}
		if info.Bot == nil || info.Bot.OpenID == "" {
			return "", wrap(fmt.Errorf(`answer has no "bot.open_id": %w`, errCredentials))
		}
		return info.Bot.OpenID, nil
	}
	return "", wrap(errors.New("tenant_access_token rejected twice"))
}

// tokenInvalid reports Feishu's "access token invalid" codes, after which
// the token is fetched again.
func tokenInvalid(code int) bool {
	return code == 99991663 || code == 99991664 || code == 99991671
}

// callStatus is where statusRecorder leaves the HTTP status of the last
// response for a request made with its context.
type callStatus struct{ status int }

type callStatusKey struct{}

// statusRecorder wraps the HTTP client given to the SDK so that Send sees
// the HTTP status even when the SDK returns only an error (a non-JSON
// 502 page, a 504).
type statusRecorder struct{ c *http.Client }

// Do implements larkcore.HttpClient.
func (r statusRecorder) Do(req *http.Request) (*http.Response, error) {
	resp, err := r.c.Do(req)
	if cs, ok := req.Context().Value(callStatusKey{}).(*callStatus); ok && resp != nil {
		cs.status = resp.StatusCode
	}
	return resp, err
}

// sdkLogger sends the SDK's logs to slog. The SDK runs at Warn, so its
// Debug/Info lines (request dumps, the long connection's URL with its
// ticket) never reach it.
type sdkLogger struct{ l *slog.Logger }

func (s sdkLogger) Debug(ctx context.Context, args ...any) {
	s.l.DebugContext(ctx, fmt.Sprint(args...))
}
func (s sdkLogger) Info(ctx context.Context, args ...any) { s.l.InfoContext(ctx, fmt.Sprint(args...)) }
func (s sdkLogger) Warn(ctx context.Context, args ...any) { s.l.WarnContext(ctx, fmt.Sprint(args...)) }
func (s sdkLogger) Error(ctx context.Context, args ...any) {
	msg := fmt.Sprint(args...)
	if strings.HasPrefix(msg, "event handle err:") || strings.HasPrefix(msg, "handle event,path:") {
		// A request the dispatcher refused: the callback logs its likely
		// cause once a minute (rejections); the SDK's words mislead
		// ("encrypted message is blank" for a wrong token).
		s.l.DebugContext(ctx, msg)
		return
	}
	// The SDK logs rejected requests (bad signature, unknown event type)
	// as errors; they are the sender's problem, not ours.
	s.l.WarnContext(ctx, msg)
}
