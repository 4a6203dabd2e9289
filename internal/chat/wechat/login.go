package wechat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/eatmoreapple/openwechat"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/mdp/qrterminal/v3"
	"github.com/skip2/go-qrcode"
)

// Login logs in: in Desktop (UOS) mode, with the hot-login state from
// Options.Storage (openwechat's HotLogin with NewRetryLoginOption), and
// when that state is missing or no longer valid, with a QR code: drawn on
// Options.QRWriter, saved to Options.QRCodePNG, and its URL logged. It
// blocks until the login completes, fails or ctx ends; a QR login waits
// for the scan, so call it where blocking is fine (the app runs it beside
// the other channels).
//
// A try that fails for a transient reason (network errors, a QR code not
// scanned before it expired) is repeated, LoginTries in all, with
// backoff. Other failures, such as an account WeChat does not let log in
// to the web (1203), are returned at once with a hint.
//
// On success the message sync runs in the background; messages wait in
// a queue until Run answers them. Calling Login while logged in does
// nothing.
func (b *Bot) Login(ctx context.Context) error {
	b.loginMu.Lock()
	defer b.loginMu.Unlock()
	if s := b.current(); s != nil && s.alive() == nil && s.ow.Context().Err() == nil {
		return nil
	}
	var last error
	for attempt := 1; attempt <= LoginTries; attempt++ {
		if attempt > 1 {
			d := b.loginBackoff << (attempt - 2)
			b.log.Warn("wechat: login failed; trying again", "attempt", attempt, "of", LoginTries, "in", d, "err", describe(last))
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				return fmt.Errorf("wechat: login: %w (last error: %s)", ctx.Err(), describe(last))
			case <-t.C:
			}
		}
		s, err := b.loginOnce(ctx)
		if err == nil {
			b.install(s)
			how := "hot login with the saved session, no scan needed"
			if s.qrShown {
				how = "QR code scanned"
			}
			b.log.Info("wechat: logged in", "account", s.selfNick, "how", how, "mode", "desktop")
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("wechat: login: %w", ctx.Err())
		}
		last = err
		if !transientLoginError(err) {
			return fmt.Errorf("wechat: login failed: %s%s", describe(err), loginHint(err))
		}
	}
	return fmt.Errorf("wechat: login failed after %d tries: %s%s", LoginTries, describe(last), loginHint(last))
}

// loginOnce makes one openwechat Bot and logs it in.
func (b *Bot) loginOnce(ctx context.Context) (*session, error) {
	owCtx, cancel := context.WithCancel(context.Background())
	ow := openwechat.NewBot(owCtx)
	openwechat.Desktop.Prepare(ow)
	if b.opts.HTTPTransport != nil {
		ow.Caller.Client.HTTPClient().Transport = b.opts.HTTPTransport
	}
	ow.Caller.Client.AddHttpHook(statusHook{})
	s := &session{ow: ow, cancel: cancel, started: b.opts.Now()}
	ow.UUIDCallback = func(uuid string) {
		s.qrShown = true
		b.showQR(uuid)
	}
	ow.ScanCallBack = func(openwechat.CheckLoginResponse) {
		b.log.Info(i18n.EN.T("wechat.log.scanned"))
	}
	ow.LoginCallBack = func(openwechat.CheckLoginResponse) {
		b.log.Info("wechat: login confirmed on the phone")
	}
	se := &syncErrors{b: b, ctx: ow.Context()}
	ow.SyncCheckCallback = se.ok
	ow.MessageErrorHandler = se.handle
	ow.MessageHandler = func(m *openwechat.Message) { b.onMessage(s, m) }

	if has, err := hasState(ctx, b.opts.Storage); err != nil {
		b.log.Warn("wechat: cannot read the saved session; a QR scan will be needed", "err", err)
	} else if has {
		b.log.Info("wechat: logging in with the saved session (hot login)")
	} else {
		b.log.Info("wechat: no saved session; a QR scan is needed")
	}

	stop := context.AfterFunc(ctx, cancel)
	err := ow.HotLogin(newHotReloadAdapter(b.opts.Storage, b.log), &hotLoginFailed{log: b.log}, openwechat.NewRetryLoginOption())
	if !stop() || err != nil {
		cancel()
		if err == nil {
			err = ctx.Err()
		}
		return nil, err
	}
	if s.qrShown && b.opts.QRCodePNG != "" {
		_ = os.Remove(b.opts.QRCodePNG)
	}
	// Fixed from here on; ow.Storage.Response.User is the *User that
	// openwechat's Self wraps, written before the sync goroutine started.
	s.loginInfo = ow.Storage.LoginInfo
	s.baseRequest = ow.Storage.Request
	if r := ow.Storage.Response; r != nil && r.User != nil {
		s.selfUserName = r.User.UserName
		s.selfNick = r.User.NickName
	}
	if s.selfUserName == "" || s.loginInfo == nil || s.baseRequest == nil {
		cancel()
		return nil, errors.New("wechat: login answered without the account's identity")
	}
	return s, nil
}

// hotLoginFailed is a login option that logs why the hot login failed
// before openwechat's RetryLoginOption (next in the group) falls back to
// the QR code: the library itself says nothing. RetryLoginOption's scan
// login runs with the same option group, so OnError is called again when
// the QR login fails too; only the first call (the hot login's) logs.
type hotLoginFailed struct {
	log  *slog.Logger
	once bool
}

// Prepare does nothing.
func (*hotLoginFailed) Prepare(*openwechat.Bot) {}

// OnSuccess does nothing.
func (*hotLoginFailed) OnSuccess(*openwechat.Bot) error { return nil }

// OnError logs err (once) and hands it on unchanged to the next option.
func (h *hotLoginFailed) OnError(_ *openwechat.Bot, err error) error {
	if !h.once && !errors.Is(err, openwechat.ErrInvalidStorage) {
		h.log.Warn("wechat: the saved session was not accepted; falling back to a QR code", "err", describe(err))
	}
	h.once = true
	return err
}

// install makes s the current session, ending the previous one.
func (b *Bot) install(s *session) {
	b.mu.Lock()
	old := b.sess
	b.sess = s
	b.contacts = nil
	b.mu.Unlock()
	if old != nil && old != s {
		old.closed.Store(true)
		old.cancel()
	}
}

// qrLoginURL is what the login QR code encodes (openwechat docs/bot.md).
const qrLoginURL = "https://login.weixin.qq.com/l/"

// showQR draws the login QR code on QRWriter, saves it to QRCodePNG and
// logs how to scan it.
func (b *Bot) showQR(uuid string) {
	content := qrLoginURL + uuid
	png := b.opts.QRCodePNG
	if png != "" {
		img, err := qrcode.Encode(content, qrcode.Medium, 320)
		if err == nil {
			err = os.WriteFile(png, img, 0o600)
		}
		if err != nil {
			b.log.Warn("wechat: cannot save the login QR code as PNG", "path", png, "err", err)
			png = ""
		}
	}
	b.log.Warn(i18n.EN.T("wechat.log.scan_needed"), "qr_png", png, "qr_image_url", openwechat.GetQrcodeUrl(uuid))
	w := b.opts.QRWriter
	fmt.Fprintln(w, i18n.EN.T("wechat.qr_prompt"))
	// GenerateWithConfig, not Generate: Generate probes os.Stdout for sixel
	// support by writing an escape sequence and reading the terminal.
	qrterminal.GenerateWithConfig(content, qrterminal.Config{
		Level:      qrterminal.L,
		Writer:     w,
		HalfBlocks: true,
		QuietZone:  2,
	})
	if b.opts.OnScanNeeded != nil {
		b.opts.OnScanNeeded()
	}
	if png != "" {
		fmt.Fprintf(w, "The QR code is also saved to %s\n", png)
	}
}

// syncErrors is openwechat's MessageErrorHandler for one session. The
// library's default ends the session on 1100, 1101 and 1102 and ignores
// every other error, retrying at once, which loops hot while the network
// is down. This one ends the session on the same codes and waits with
// backoff after the others.
type syncErrors struct {
	b        *Bot
	ctx      context.Context
	failures int // consecutive; touched only on the sync goroutine
}

// ok is the SyncCheckCallback: a sync check answered.
func (e *syncErrors) ok(openwechat.SyncCheckResponse) { e.failures = 0 }

// handle returns err to end the session, nil to go on.
func (e *syncErrors) handle(err error) error {
	if sessionEnded(err) {
		return err
	}
	if e.ctx.Err() != nil {
		return nil // stopping
	}
	e.failures++
	d := min(e.b.syncBackoff<<min(e.failures-1, 6), time.Minute)
	e.b.log.Warn("wechat: message sync failed; retrying", "err", describe(err), "failures", e.failures, "in", d)
	t := time.NewTimer(d)
	select {
	case <-e.ctx.Done():
		t.Stop()
	case <-t.C:
	}
	return nil
}

// transientLoginError reports whether a failed login is worth another try.
func transientLoginError(err error) bool {
	return openwechat.IsNetworkError(err) || errors.Is(err, openwechat.ErrLoginTimeout)
}

// describe renders an error, naming openwechat's Ret codes with their
// number ("failed login check (ret 1101)").
func describe(err error) string {
	if err == nil {
		return "unknown reason"
	}
	// openwechat joins its network errors with errors.Join (newlines).
	msg := redactText(strings.ReplaceAll(err.Error(), "\n", ": "))
	var ret openwechat.Ret
	if errors.As(err, &ret) {
		return fmt.Sprintf("%s (ret %d)", msg, int(ret))
	}
	return msg
}

// loginHint explains the login failures seen in openwechat's issues
// (chat-platforms.md §3).
func loginHint(err error) string {
	var ret openwechat.Ret
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	switch {
	case errors.As(err, &ret) && ret == openwechat.Ret(1203),
		containsAny(msg, chat.ReadWords().WeChatWebRefused), strings.Contains(msg, "1203"):
		return "; " + i18n.EN.T("wechat.login.no_web")
	case errors.Is(err, openwechat.ErrForbidden), strings.Contains(msg, "Location"):
		return "; " + i18n.EN.T("wechat.login.refused")
	case errors.Is(err, openwechat.ErrLoginTimeout):
		return "; the QR code was not scanned in time"
	case openwechat.IsNetworkError(err):
		return "; check the network connection to WeChat"
	}
	return ""
}

// containsAny reports whether s contains one of words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if w != "" && strings.Contains(s, w) {
			return true
		}
	}
	return false
}
