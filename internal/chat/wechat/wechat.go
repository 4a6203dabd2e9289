// Package wechat is the personal-WeChat channel, built on
// github.com/eatmoreapple/openwechat v1.4.10 (the web/UOS protocol; see
// docs/reference/chat-platforms.md §3 and README.md here).
//
// It logs in in Desktop (UOS) mode, with the hot-login state kept in a
// HotStorage so that a restart needs no new scan, and falls back to a QR
// code shown in the terminal and saved as a PNG. It answers group messages
// that @mention the bot (in allowed groups) and private messages from
// friends, as plain text; pushes alerts and digests to groups found by
// name; rate-limits sends per chat and retries when WeChat says they are
// too frequent. When the web session drops (WeChat does that: nightly
// logouts, risk control), Run logs it, calls Options.OnLogout so that the
// app can alert the admin through another channel, and returns.
//
// This is best effort: the web protocol is unofficial, some accounts cannot
// log in at all, and accounts that use it risk bans. Use a spare account.
//
// Concurrency: openwechat's Self keeps its contact caches without locks
// and updates them from its message-sync goroutine. This package therefore
// reads openwechat's objects only on that goroutine (inside the message
// handler) and, elsewhere, only state that is fixed at login; SendToGroup
// looks groups up through its own webwxgetcontact call and cache.
package wechat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eatmoreapple/openwechat"
	"golang.org/x/time/rate"

	"github.com/labgpu/bot/internal/chat"
)

// Defaults applied by New to zero Options fields, and fixed limits.
const (
	// DefaultRatePerChat is one message per two seconds per chat, with a
	// burst of RateBurst: WeChat punishes accounts that send fast.
	DefaultRatePerChat = rate.Limit(0.5)
	// RateBurst is the per-chat limiter's burst.
	RateBurst = 3
	// DefaultMaxRunes is the longest message part sent, in runes; longer
	// replies are split at line boundaries.
	DefaultMaxRunes = 1800
	// LoginTries is how many times Login tries when a try fails for a
	// transient reason (network, QR code not scanned in time).
	LoginTries = 3
	// DrainTimeout bounds how long Run, when it ends, waits for queued
	// messages to be answered.
	DrainTimeout = 10 * time.Second
	// QueueSize is the number of messages waiting for an answer; when it is
	// full, new messages are dropped (with a log line).
	QueueSize = 256
)

// Options configures a Bot. Handler is required.
type Options struct {
	// Handler answers messages. Required.
	Handler chat.Handler
	// InterimAfter is how long a slow answer may take before the chat gets
	// the Handler's "查询中…" (when it implements chat.Interimer);
	// default chat.DefaultInterimAfter, negative never.
	InterimAfter time.Duration
	// Storage keeps the hot-login state. Default: a MemoryStorage, so every
	// start needs a QR scan.
	Storage HotStorage
	// Groups is the allow-list of group names (NickName) the bot answers
	// in; empty or ["*"] allows all groups. Pushes (SendToGroup) are not
	// restricted by it.
	Groups []string
	// QRCodePNG is where the login QR code is saved as a PNG when a scan is
	// needed (for servers without a usable terminal); empty: not saved.
	// The file is removed after the login.
	QRCodePNG string
	// QRWriter receives the QR code drawn with Unicode half blocks;
	// default os.Stdout.
	QRWriter io.Writer
	// OnLogout is called by Run when the WeChat session drops, with the
	// reason (an openwechat.Ret such as 1101 for a logout). The app alerts
	// the admin through another channel; a re-login (Login, which may need
	// a new scan) is needed.
	OnLogout func(reason error)
	// OnScanNeeded is called each time a login needs a QR scan (no saved
	// session, or WeChat refused it): someone has to scan, so the app tells
	// the admin. It must not block for long.
	OnScanNeeded func()
	// Log receives structured logs; message texts and the hot-login state
	// are never logged. Default slog.Default().
	Log *slog.Logger
	// RatePerChat limits sent messages per chat (burst RateBurst); default
	// DefaultRatePerChat. rate.Inf disables the limit.
	RatePerChat rate.Limit
	// MaxRunes is the longest message part; default DefaultMaxRunes.
	MaxRunes int
	// HTTPTransport replaces the transport of openwechat's HTTP client
	// (tests point it at a fake WeChat; a proxy could be set here). The
	// library hard-codes its hosts, so this is the only way in.
	HTTPTransport http.RoundTripper
	// ChartPNG draws a reply's bar chart as a PNG image, sent after the
	// text (which has the chart as text bars, so a failed image loses
	// nothing); nil sends no images.
	ChartPNG func(c *chat.BarChart) ([]byte, error)
	// Now is the clock for message ages; default time.Now.
	Now func() time.Time
	// OnUnidentified is called once per contact (per Bot) when a friend
	// without a remark name (备注) of their own writes privately: one the
	// bot's account never gave a remark, or one whose remark another
	// friend also has. Such a friend gets no private-chat actions, only a
	// short answer saying why (identity.go); the app tells the admin, who
	// can set a unique remark. It must not block for long.
	OnUnidentified func(Unidentified)
	// Delivered keeps the parts a keyed send (an alert, a digest)
	// delivered beyond the process (the bot's store); nil: in the
	// process only.
	Delivered chat.DeliveryLog
}

// ErrNotLoggedIn is returned by sends before a successful Login, or after
// the session has dropped or the Bot was closed.
var ErrNotLoggedIn = errors.New("wechat: not logged in")

// ErrGroupNotFound is wrapped by SendToGroup's error when no group of that
// name is among the account's contacts.
var ErrGroupNotFound = errors.New("wechat: group not found")

// Bot is the WeChat channel. Create it with New, then Login and Run. Its
// methods are safe for concurrent use.
type Bot struct {
	opts  Options
	log   *slog.Logger
	allow allowList

	loginMu sync.Mutex // one Login at a time

	mu       sync.Mutex
	sess     *session
	contacts *contactCache
	seen     map[string]bool // MsgIds answered recently
	seenRing []string
	seenNext int
	// told holds the unidentified contacts the admin was told about
	// (by UserName and by nickname and remark).
	told map[string]bool

	limiters *chat.Limiters
	outOnce  sync.Once
	outbox   *chat.Outbox

	jobs    chan job
	running atomic.Bool

	// Tunables, shortened by tests.
	workers      int
	sendBackoff  time.Duration // first retry delay of a too-frequent send
	loginBackoff time.Duration // first delay between login tries
	syncBackoff  time.Duration // first delay after a failed message sync
}

// session is one openwechat login.
type session struct {
	ow     *openwechat.Bot
	cancel context.CancelFunc // ends ow's context (stops the message sync)
	// started is when the login began: older messages are a backlog.
	started time.Time
	// qrShown: the login needed a QR scan (UUIDCallback ran).
	qrShown bool
	closed  atomic.Bool

	// Fixed at login, read by any goroutine afterwards.
	selfUserName string
	selfNick     string
	loginInfo    *openwechat.LoginInfo
	baseRequest  *openwechat.BaseRequest
}

// alive returns nil while the session can send: not dropped, not closed.
// A session whose sync was stopped because Run's ctx ended can still send.
func (s *session) alive() error {
	if s == nil {
		return ErrNotLoggedIn
	}
	if s.closed.Load() {
		return fmt.Errorf("%w: the bot was closed", ErrNotLoggedIn)
	}
	select {
	case <-s.ow.Context().Done():
		// openwechat sets the reason before it cancels the context.
		if r := s.ow.CrashReason(); r != nil {
			return fmt.Errorf("%w: the session dropped (%s); re-login needed", ErrNotLoggedIn, describe(r))
		}
	default:
	}
	return nil
}

// job is a message waiting for an answer.
type job struct {
	s   *session
	msg chat.Message
	to  string // the chat's UserName
	// reply, when set, is the answer, without the Handler (a friend
	// who cannot be identified: unidentifiedReply).
	reply *chat.Reply
}

// New checks opts and applies the defaults. It does not log in.
func New(opts Options) (*Bot, error) {
	if opts.Handler == nil {
		return nil, errors.New("wechat: Options.Handler is nil")
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	log := opts.Log.With("channel", "wechat")
	if opts.Storage == nil {
		log.Warn("wechat: no hot-login storage configured: every start will need a QR scan")
		opts.Storage = &MemoryStorage{}
	}
	if opts.QRWriter == nil {
		opts.QRWriter = os.Stdout
	}
	if opts.RatePerChat <= 0 {
		opts.RatePerChat = DefaultRatePerChat
	}
	if opts.MaxRunes <= 0 {
		opts.MaxRunes = DefaultMaxRunes
	}
	if opts.MaxRunes < 100 {
		return nil, fmt.Errorf("wechat: MaxRunes %d is too small (at least 100)", opts.MaxRunes)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Bot{
		opts:         opts,
		log:          log,
		allow:        newAllowList(opts.Groups),
		seen:         map[string]bool{},
		told:         map[string]bool{},
		seenRing:     make([]string, 1024),
		limiters:     chat.NewLimiters(opts.RatePerChat, RateBurst, 1024),
		jobs:         make(chan job, QueueSize),
		workers:      4,
		sendBackoff:  3 * time.Second,
		loginBackoff: 5 * time.Second,
		syncBackoff:  time.Second,
	}, nil
}

// current returns the installed session (nil before Login).
func (b *Bot) current() *session {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sess
}

// Self returns the logged-in account's NickName ("" before Login).
func (b *Bot) Self() string {
	if s := b.current(); s != nil {
		return s.selfNick
	}
	return ""
}

// Run answers messages until ctx ends or the WeChat session drops. When
// ctx ends it stops the message sync (without logging out, so the saved
// state still works for the next hot login), waits up to DrainTimeout for
// queued answers, and returns nil. When the session drops it logs "wechat
// session dropped: <reason>; re-login needed", calls Options.OnLogout and
// returns an error with the reason. Run needs a successful Login first.
func (b *Bot) Run(ctx context.Context) error {
	s := b.current()
	if s == nil {
		return fmt.Errorf("%w: call Login before Run", ErrNotLoggedIn)
	}
	if err := s.alive(); err != nil {
		return err
	}
	if s.ow.Context().Err() != nil {
		return fmt.Errorf("%w: the message sync of this session has stopped; call Login again", ErrNotLoggedIn)
	}
	if !b.running.CompareAndSwap(false, true) {
		return errors.New("wechat: Run is already running")
	}
	defer b.running.Store(false)

	jctx, jcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer jcancel()
	stopping := make(chan struct{})
	var wg sync.WaitGroup
	for range b.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.worker(jctx, stopping)
		}()
	}
	b.log.Info("wechat: answering messages", "account", s.selfNick, "groups", b.groupsDesc())

	stop := context.AfterFunc(ctx, s.cancel)
	<-s.ow.Context().Done()
	stop()

	close(stopping)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(DrainTimeout)
	select {
	case <-done:
		t.Stop()
	case <-t.C:
		b.log.Warn("wechat: shutdown deadline; unanswered messages are dropped")
		jcancel()
		<-done
	}

	if reason := s.ow.CrashReason(); reason != nil {
		reason = redact(reason)
		b.log.Error("wechat session dropped: "+describe(reason)+"; re-login needed "+
			"(restart the bot or call Login: it tries the saved session, then shows a QR code)",
			"account", s.selfNick, "reason", reason)
		if b.opts.OnLogout != nil {
			b.opts.OnLogout(reason)
		}
		return fmt.Errorf("wechat: session dropped: %s; re-login needed: %w", describe(reason), reason)
	}
	if s.closed.Load() {
		b.log.Info("wechat: stopped: the bot was closed")
		return nil
	}
	b.log.Info("wechat: stopped; the session is kept for the next hot login")
	return nil
}

// Close stops the message sync and makes sends fail with ErrNotLoggedIn.
// It does not log out of WeChat, so the saved state still works for the
// next hot login. It is idempotent.
func (b *Bot) Close() error {
	if s := b.current(); s != nil {
		s.closed.Store(true)
		s.cancel()
	}
	return nil
}

func (b *Bot) groupsDesc() string {
	if b.allow.all {
		return "all"
	}
	names := make([]string, 0, len(b.allow.names))
	for n := range b.allow.names {
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// worker answers queued messages until stopping is closed, then finishes
// the ones still queued.
func (b *Bot) worker(ctx context.Context, stopping <-chan struct{}) {
	for {
		select {
		case j := <-b.jobs:
			b.answer(ctx, j)
		case <-stopping:
			for {
				select {
				case j := <-b.jobs:
					b.answer(ctx, j)
				default:
					return
				}
			}
		}
	}
}

// interim returns what sends the Handler's "查询中…" for a slow answer
// (nil when the Handler has none). WeChat cannot edit a message: the
// answer follows as a new one.
func (b *Bot) interim(ctx context.Context, j job) func() {
	ir, ok := b.opts.Handler.(chat.Interimer)
	if !ok {
		return nil
	}
	return func() {
		parts := textParts(j.s, j.to, renderParts(ir.Interim(j.msg), "", b.opts.MaxRunes))
		if err := b.out().SendParts(ctx, j.msg.ChatID, parts, chat.SendOptions{}); err != nil {
			b.log.Warn("wechat: interim message failed", "chat", j.msg.ChatID, "err", err)
		}
	}
}

// answer runs the Handler for one message and sends the reply.
func (b *Bot) answer(ctx context.Context, j job) {
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("wechat: panic while answering", "panic", r, "chat", j.msg.ChatID)
		}
	}()
	if ctx.Err() != nil {
		return
	}
	if b.current() != j.s {
		b.log.Warn("wechat: dropping a message from an earlier session", "chat", j.msg.ChatID)
		return
	}
	var reply chat.Reply
	if j.reply != nil {
		reply = *j.reply
	} else {
		reply = chat.AnswerWithInterim(ctx, b.opts.InterimAfter, func() chat.Reply { return b.opts.Handler.Handle(ctx, j.msg) }, b.interim(ctx, j))
	}
	if reply.Empty() {
		return
	}
	var mentions []string
	if j.msg.ChatType == chat.Group {
		// The asker by the name WeChat shows in the group, then anyone
		// else the reply mentions (by their SenderID, a NickName).
		mentions = append(mentions, j.msg.SenderName)
		var others []string
		for _, id := range reply.Mentions {
			if id != j.msg.SenderID {
				others = append(others, id)
			}
		}
		if len(others) > 0 {
			// SenderIDs are not names (identity.go): show them as the group does.
			mentions = append(mentions, b.displayNames(ctx, j.s, j.to, others)...)
		}
	}
	parts := textParts(j.s, j.to, renderParts(reply, mentionPrefix(mentions), b.opts.MaxRunes))
	parts = append(parts, b.chartPart(j.s, j.to, reply.Chart)...)
	if err := b.out().SendParts(ctx, j.msg.ChatID, parts, chat.SendOptions{ReplyTo: j.msg.ID}); err != nil {
		b.log.Error("wechat: reply failed", "chat", j.msg.ChatID, "chat_type", j.msg.ChatType, "err", err)
		return
	}
	b.log.Info("wechat: replied", "chat", j.msg.ChatID, "chat_type", j.msg.ChatType, "parts", len(parts))
}
