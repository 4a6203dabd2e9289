package wechat

import (
	"context"
	"errors"
	"fmt"
	"strings"
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

// sendParts sends the parts, in order, to the chat with UserName to. It
// stops at the first part that fails.
func (b *Bot) sendParts(ctx context.Context, s *session, to, chatName string, parts []string) error {
	for i, p := range parts {
		if err := b.sendText(ctx, s, to, chatName, p); err != nil {
			if len(parts) > 1 {
				return fmt.Errorf("part %d of %d: %w", i+1, len(parts), err)
			}
			return err
		}
	}
	return nil
}

// sendText waits for the chat's rate limiter and posts one text message
// through openwechat's webwxsendmsg, retrying with backoff while WeChat
// answers RetTooFrequent (at most maxSendTries tries). Other failures are
// not retried here: openwechat's client already repeats a request that
// got no HTTP answer (MaxRetryTimes 5), and a repeated send could post
// the message twice.
func (b *Bot) sendText(ctx context.Context, s *session, to, chatName, text string) error {
	if err := s.alive(); err != nil {
		return err
	}
	if err := b.limiters.For(to).Wait(ctx); err != nil {
		return fmt.Errorf("wechat: send to %q: rate limiter: %w", chatName, err)
	}
	tries := 0
	err := retry.Do(ctx, retry.Policy{Tries: maxSendTries, Initial: b.sendBackoff, Max: 4 * b.sendBackoff}, func(ctx context.Context) error {
		if tries++; tries > 1 {
			b.log.Warn("wechat: WeChat says messages are too frequent; retrying", "chat", chatName, "attempt", tries)
		}
		msg := openwechat.NewTextSendMessage(text, s.selfUserName, to)
		_, err := s.ow.Caller.WebWxSendMsg(ctx, &openwechat.CallerWebWxSendMsgOptions{
			LoginInfo:   s.loginInfo,
			BaseRequest: s.baseRequest,
			Message:     msg,
		})
		return redact(err)
	}, func(err error) retry.Verdict { return retry.Verdict{Retry: tooFrequent(err) && ctx.Err() == nil} })
	switch {
	case err == nil:
		return nil
	case sessionEnded(err):
		return fmt.Errorf("wechat: send to %q: %w (the WeChat session has ended; re-login needed)", chatName, err)
	case tooFrequent(err) && tries >= maxSendTries:
		return fmt.Errorf("wechat: send to %q: giving up after %d tries: %w", chatName, maxSendTries, err)
	}
	return fmt.Errorf("wechat: send to %q: %w", chatName, err)
}
