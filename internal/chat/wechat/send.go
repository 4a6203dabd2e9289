package wechat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eatmoreapple/openwechat"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/retry"
)

// RetTooFrequent is the BaseResponse.Ret WeChat answers a send with when
// the account sends too often: openwechat v1.4.10 names it optTooOften
// ("operate too often", base_response.go). Such a send is retried with
// backoff, at most maxSendTries times in all.
const RetTooFrequent = openwechat.Ret(1205)

// maxSendTries bounds the tries of one message part.
const maxSendTries = 3

// Session-ending codes (openwechat's defaultMessageErrorHandler exits on
// them): a send answered with one of them is not retried.
const (
	retFailedLoginWarn  = openwechat.Ret(1100)
	retFailedLoginCheck = openwechat.Ret(1101)
	retCookieInvalid    = openwechat.Ret(1102)
)

// sessionEnded reports whether err carries a Ret that means the web
// session is gone.
func sessionEnded(err error) bool {
	var ret openwechat.Ret
	if errors.As(err, &ret) {
		switch ret {
		case retFailedLoginWarn, retFailedLoginCheck, retCookieInvalid:
			return true
		}
	}
	return false
}

// tooFrequent reports whether err is WeChat's "operate too often".
func tooFrequent(err error) bool {
	var ret openwechat.Ret
	return errors.As(err, &ret) && ret == RetTooFrequent
}

// mentionPrefix renders "@name\u2005" for each name, skipping empty ones
// and repeats. It is plain text: the web protocol cannot attach a real
// mention, so whether the member is notified is up to WeChat.
func mentionPrefix(names []string) string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		b.WriteString("@" + n + "\u2005")
	}
	return b.String()
}

// renderParts renders r as WeChat text (WeChat shows markdown raw, so
// chat.PlainText: columns aligned by display width), split into parts of
// at most maxRunes runes at line boundaries, with prefix (the @mentions)
// at the start of the first part.
func renderParts(r chat.Reply, prefix string, maxRunes int) []string {
	body := strings.TrimRight(chat.PlainText(r), "\n")
	if strings.TrimSpace(body) == "" {
		return nil
	}
	limit := max(maxRunes, 1)
	first := max(limit-utf8.RuneCountInString(prefix), 1)
	parts := chat.SplitText(body, chat.SplitOptions{Budget: limit, First: first, Cost: chat.RuneCost})
	if len(parts) > 0 {
		parts[0] = prefix + parts[0]
	}
	return parts
}

// maxRetryAfter caps how long a send waits out an HTTP 429's Retry-After.
const maxRetryAfter = time.Minute

// wxPart is a WeChat part's payload: the session and the chat's UserName
// it goes to, and a text or a PNG image.
type wxPart struct {
	s    *session
	to   string
	text string
	img  []byte
}

// textParts are the parts of a text split by renderParts.
func textParts(s *session, to string, texts []string) []chat.Part {
	out := make([]chat.Part, len(texts))
	for i, t := range texts {
		out[i] = chat.Part{Kind: "text", Payload: wxPart{s: s, to: to, text: t}}
	}
	return out
}

// chartPart is a reply's chart as an optional PNG part after its text (a
// failure is logged only: the text already carries the chart as bars);
// nil without a chart or a renderer.
func (b *Bot) chartPart(s *session, to string, c *chat.BarChart) []chat.Part {
	if c == nil || b.opts.ChartPNG == nil {
		return nil
	}
	img, err := b.opts.ChartPNG(c)
	if err != nil {
		b.log.Warn("wechat: chart image not rendered (the text has it as bars)", "err", err)
		return nil
	}
	return []chat.Part{{Kind: "image", Payload: wxPart{s: s, to: to, img: img}, Optional: true}}
}

// out is the channel's chat.Outbox, made on first use (tests shorten
// sendBackoff after New). Every WeChat send goes through it: one reply
// at a time per chat, the chat's rate limit, "too often" and HTTP 429/5xx
// answers retried with backoff (at most maxSendTries tries), errors
// without the session's credentials.
func (b *Bot) out() *chat.Outbox {
	b.outOnce.Do(func() {
		b.outbox = chat.NewOutbox("wechat", wire{b}, chat.OutboxOptions{
			Retry: retry.Policy{Tries: maxSendTries, Initial: b.sendBackoff, Max: 4 * b.sendBackoff},
			Limit: b.limiters, Clean: redactText, Log: b.log, Delivered: b.opts.Delivered,
			Describe: func(id string) string { return fmt.Sprintf("%q", id) },
		})
	})
	return b.outbox
}

// wire is WeChat's chat.Wire.
type wire struct{ b *Bot }

// Parts renders r for the chat chatID names (alerts and notices carry
// only the ChatID), by its kind (identity.go): "remark:<备注>" the friend
// with that unique remark, "group:<name>" the group; a bare name the
// group, or, when no group has that name, the friend whose unique remark
// it is (a private chat's key from before the prefix). A bare name that
// is both a group's and a friend's remark is refused: which chat it meant
// cannot be told, and a group named like a member must not get her
// messages. A nickname never names a chat.
func (w wire) Parts(ctx context.Context, chatID string, r chat.Reply, _ chat.SendOptions) ([]chat.Part, error) {
	kind, name := parseChatID(chatID)
	switch kind {
	case chatFriend:
		return w.b.friendParts(ctx, name, r)
	case chatGroup:
		return w.b.groupParts(ctx, name, r, nil)
	case chatNone:
		return nil, fmt.Errorf("wechat: %q is a nickname, which names no chat", chatID)
	}
	parts, err := w.b.groupParts(ctx, name, r, nil)
	switch {
	case err == nil:
		if s := w.b.current(); s != nil && w.b.remarkCount(s, name) > 0 {
			return nil, fmt.Errorf("wechat: %q names a group and a friend's remark name, so which chat is meant is unclear; "+
				"nothing sent (subscribe again in the chat meant, or rename the group)", name)
		}
		return parts, nil
	case !errors.Is(err, ErrGroupNotFound):
		return nil, err
	}
	parts, ferr := w.b.friendParts(ctx, name, r)
	if errors.Is(ferr, errFriendNotFound) {
		return nil, fmt.Errorf("%w (nor is there a friend with that remark name)", err)
	}
	if ferr == nil {
		w.b.log.Info("wechat: an old private-chat key (no remark: prefix) sent to the friend with that remark name", "chat", chatID)
	}
	return parts, ferr
}

// Post makes one webwxsendmsg (or image) call. The HTTP status and
// Retry-After of the answer are read by statusHook.
func (w wire) Post(ctx context.Context, _ string, p chat.Part, _ chat.PostOptions) error {
	wp := p.Payload.(wxPart)
	s := wp.s
	if err := s.alive(); err != nil {
		return err
	}
	cs := &callStatus{}
	ctx = context.WithValue(ctx, callStatusKey{}, cs)
	var err error
	if wp.img != nil {
		_, err = s.ow.Caller.WebWxSendImageMsg(ctx, bytes.NewReader(wp.img), &openwechat.CallerWebWxSendImageMsgOptions{
			FromUserName: s.selfUserName, ToUserName: wp.to, BaseRequest: s.baseRequest, LoginInfo: s.loginInfo})
	} else {
		_, err = s.ow.Caller.WebWxSendMsg(ctx, &openwechat.CallerWebWxSendMsgOptions{
			LoginInfo: s.loginInfo, BaseRequest: s.baseRequest,
			Message: openwechat.NewTextSendMessage(wp.text, s.selfUserName, wp.to),
		})
	}
	switch {
	case err == nil:
		return nil
	case cs.status == http.StatusTooManyRequests || cs.status >= 500:
		return &HTTPError{Status: cs.status, RetryAfter: cs.after, Err: err}
	case sessionEnded(err):
		return fmt.Errorf("%w (the WeChat session has ended; re-login needed)", err)
	}
	return err
}

// Retry: WeChat's "operate too often", an HTTP 429 and a 503 that says
// when to come back are tried again (after their Retry-After); anything
// else is not: openwechat's client already repeats a request that got no
// HTTP answer (MaxRetryTimes 5), and WeChat has no idempotency key, so a
// send repeated after another 5xx (perhaps from a proxy, after WeChat
// took the message) could post it twice.
func (wire) Retry(err error) retry.Verdict {
	var he *HTTPError
	if errors.As(err, &he) {
		ok := he.Status == http.StatusTooManyRequests || (he.Status == http.StatusServiceUnavailable && he.RetryAfter > 0)
		return retry.Verdict{Retry: ok, After: he.RetryAfter}
	}
	return retry.Verdict{Retry: tooFrequent(err)}
}

// HTTPError is a send WeChat's server answered with HTTP 429 or a 5xx.
type HTTPError struct {
	Status     int
	RetryAfter time.Duration // the answer's Retry-After, at most a minute
	Err        error
}

func (e *HTTPError) Error() string { return fmt.Sprintf("HTTP %d: %v", e.Status, e.Err) }
func (e *HTTPError) Unwrap() error { return e.Err }

// callStatus records the HTTP answer of one call (statusHook).
type callStatus struct {
	status int
	after  time.Duration
}

type callStatusKey struct{}

// statusHook is an openwechat HttpHook that records, for a call whose
// context carries a *callStatus, the answer's status and Retry-After
// (openwechat itself reads only the body).
type statusHook struct{}

func (statusHook) BeforeRequest(*http.Request) {}

func (statusHook) AfterRequest(resp *http.Response, _ error) {
	if resp == nil || resp.Request == nil {
		return
	}
	if cs, ok := resp.Request.Context().Value(callStatusKey{}).(*callStatus); ok {
		cs.status = resp.StatusCode
		cs.after = retry.ParseAfter(resp.Header.Get("Retry-After"), maxRetryAfter)
	}
}
