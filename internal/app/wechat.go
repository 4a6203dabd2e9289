package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/wechat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// blobStore is a store that keeps opaque named bytes (both stores do).
type blobStore interface {
	GetBlob(ctx context.Context, name string) ([]byte, error)
	PutBlob(ctx context.Context, name string, data []byte) error
}

// WeChatStateBlob is the store blob holding the WeChat hot-login state.
const WeChatStateBlob = "wechat-hot-login"

// storeHot keeps the WeChat hot-login state in the store, so a restart
// (or another replica, with Redis) logs in without a QR scan.
type storeHot struct{ s blobStore }

func (h storeHot) Load(ctx context.Context) ([]byte, error) { return h.s.GetBlob(ctx, WeChatStateBlob) }
func (h storeHot) Save(ctx context.Context, b []byte) error {
	return h.s.PutBlob(ctx, WeChatStateBlob, b)
}

// adminTitle is an admin notice's title: its mark, then the Chinese and
// the English title of key (an admin notice is written in both).
func adminTitle(mark, key string) string {
	return mark + " " + i18n.ZH.T(key) + " / " + i18n.EN.T(key)
}

// both is the text of key in Chinese, then in English.
func both(key string, args ...any) []string {
	return []string{i18n.ZH.T(key, args...), i18n.EN.T(key, args...)}
}

// WeChatDropNotice is the admin notice sent when the WeChat session drops.
func WeChatDropNotice(reason error, at time.Time) chat.Reply {
	return chat.Reply{Title: adminTitle("⚠️", "app.wechat.dropped.title"),
		Lines: []string{i18n.ZH.T("app.wechat.dropped.what", render.ClockOf(at).Zoned(at), reason), i18n.ZH.T("app.wechat.dropped.todo"),
			i18n.EN.T("app.wechat.dropped.what", render.ClockOf(at).Zoned(at), reason), i18n.EN.T("app.wechat.dropped.todo")}}
}

// weChatOnLogout returns the Options.OnLogout callback: it tells the admin
// chat (cfg wechat.admin) through admin, and logs when that fails or no
// admin chat is set.
func (a *App) weChatOnLogout(ctx context.Context, admin chat.Channels) func(error) {
	return func(reason error) {
		target := a.Cfg.WeChat.Admin
		if target == "" {
			a.Log.Warn("wechat session dropped and wechat.admin is not set: nobody is told")
			return
		}
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if err := admin.Send(sctx, target, WeChatDropNotice(reason, a.Clock().In(a.now())), chat.SendOptions{}); err != nil {
			a.Log.Error("wechat session dropped; telling the admin failed", "admin", target, "err", err)
			return
		}
		a.Log.Info("wechat session dropped; admin told", "admin", target)
	}
}

// weChatOnScanNeeded returns the Options.OnScanNeeded callback: it tells
// the admin chat that a QR scan is needed and where the code is, at most
// once an hour (a QR code expires in minutes and a new one follows).
func (a *App) weChatOnScanNeeded(ctx context.Context, admin chat.Channels, png string) func() {
	var last time.Time
	return func() {
		target := a.Cfg.WeChat.Admin
		if target == "" || time.Since(last) < time.Hour {
			return
		}
		last = time.Now()
		r := chat.Reply{Title: adminTitle("🔑", "app.wechat.scan.title"), Lines: both("app.wechat.scan.what", png)}
		// Sent in the background: the QR code must stay on screen meanwhile.
		a.tellAdmin(ctx, admin, r)
	}
}

// WeChatUnidentifiedNotice is the admin notice about a friend who wrote
// privately without a remark name of their own (the channel names each
// contact once): they get no private-chat actions until the bot's account
// gives them one.
func WeChatUnidentifiedNotice(u wechat.Unidentified) chat.Reply {
	r := chat.Reply{Title: adminTitle("👤", "app.wechat.unidentified.title")}
	if u.Remark != "" {
		r.Lines = both("app.wechat.unidentified.shared", u.Nick, u.Remark)
		return r
	}
	r.Lines = both("app.wechat.unidentified.none", u.Nick)
	return r
}

// weChatOnUnidentified returns the Options.OnUnidentified callback: it
// tells the admin chat (wechat.admin), or logs when none is set.
func (a *App) weChatOnUnidentified(ctx context.Context, admin chat.Channels) func(wechat.Unidentified) {
	return func(u wechat.Unidentified) {
		if a.Cfg.WeChat.Admin == "" {
			a.Log.Warn("wechat: a friend without a remark name of their own wrote privately; set wechat.admin to be told", "shared_remark", u.Remark != "")
			return
		}
		a.tellAdmin(ctx, admin, WeChatUnidentifiedNotice(u))
	}
}

// newWeChat creates the WeChat channel. Its Run holds the replica lock,
// logs in and answers, and after a session drop logs in again with
// backoff (1 min doubling to 30 min) until ctx ends; a login waiting for
// a QR scan holds up nothing else. admin is where notices about the
// session go (wechat.admin).
func (a *App) newWeChat(ctx context.Context, m *Metrics, admin chat.Channels) (*weChatChannel, error) {
	wc := a.Cfg.WeChat
	var hot wechat.HotStorage
	if bs, ok := a.Store.(blobStore); ok {
		hot = storeHot{bs}
	} else {
		hot = wechat.FileStorage(filepath.Join(a.Cfg.DataDir, "wechat-hot-login.json"))
	}
	qr := wc.QRCodePNG
	if qr == "" {
		qr = filepath.Join(a.Cfg.DataDir, "wechat-qr.png")
	}
	bot, err := wechat.New(wechat.Options{Handler: countingHandler{a: a, m: m}, InterimAfter: a.Cfg.Stock.InterimAfter.D(), Storage: hot, Groups: wc.Groups,
		ChartPNG: chartPNG, QRCodePNG: qr, OnLogout: a.weChatOnLogout(ctx, admin), OnScanNeeded: a.weChatOnScanNeeded(ctx, admin, qr), OnUnidentified: a.weChatOnUnidentified(ctx, admin),
		Log: a.Log, HTTPTransport: a.WeChatTransport, Delivered: a.deliveryLog()})
	if err != nil {
		return nil, fmt.Errorf("wechat: %w", err)
	}
	w := &weChatChannel{Bot: bot, a: a, m: m, admin: admin}
	w.status("standing by for the replica lock")
	groups := strings.Join(wc.Groups, ", ")
	if groups == "" || groups == "*" {
		groups = "all"
	}
	a.Log.Info("wechat channel starting", "groups", groups)
	return w, nil
}

// weChatChannel is the WeChat Bot run under the app's replica lock, with
// logins retried and the admin told (chat.Channel).
type weChatChannel struct {
	*wechat.Bot
	a     *App
	m     *Metrics
	admin chat.Channels

	lastFailNotice time.Time
	moved          bool // old private-chat keys moved (once per process)
}

// Ready reports whether WeChat is logged in and answering (/readyz).
func (w *weChatChannel) Ready() error {
	if st := w.a.weChatStatus.Load(); st != nil && *st != weChatUp {
		return errors.New(*st)
	}
	return nil
}

// status records the channel's state for /readyz and the metrics.
func (w *weChatChannel) status(st string) {
	w.a.weChatStatus.Store(&st)
	up := 0.0
	if st == weChatUp {
		up = 1
	}
	w.m.ChannelUp.WithLabelValues("wechat").Set(up)
}

// Run holds the replica lock (one replica runs WeChat: two logged in with
// the same state would both answer every message), then logs in and
// answers until ctx ends, logging in again after failures and drops.
func (w *weChatChannel) Run(ctx context.Context) error {
	a := w.a
	if !a.holdWeChatLock(ctx) {
		return nil
	}
	defer a.Store.Unlock(context.WithoutCancel(ctx), WeChatLock, a.replicaID)
	backoff := time.Minute
	for ctx.Err() == nil {
		w.status("logging in")
		if err := w.Login(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			w.loginFailed(ctx, err, backoff)
		} else {
			w.moveOldKeys(ctx)
			if w.status(weChatUp); w.Bot.Run(ctx) == nil || ctx.Err() != nil {
				return nil
			}
			w.status("session dropped, re-login needed")
			backoff = time.Minute
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 30*time.Minute)
	}
	return nil
}

// loginFailed logs a failed login and tells the admin, at most hourly.
func (w *weChatChannel) loginFailed(ctx context.Context, err error, backoff time.Duration) {
	w.status("login failed, retrying")
	w.a.Log.Error("wechat login failed; retrying", "err", err, "in", backoff)
	if w.a.Cfg.WeChat.Admin == "" || time.Since(w.lastFailNotice) <= time.Hour {
		return
	}
	w.lastFailNotice = time.Now()
	w.a.tellAdmin(ctx, w.admin, chat.Reply{Title: adminTitle("⚠️", "app.wechat.login_failed.title"),
		Lines: both("app.wechat.login_failed.what", backoff.String(), err.Error())})
}

// weChatUp is the WeChat status when logged in.
const weChatUp = "up"

// tellAdmin sends r to the admin chat (wechat.admin) in the background,
// logging a failure.
func (a *App) tellAdmin(ctx context.Context, admin chat.Channels, r chat.Reply) {
	target := a.Cfg.WeChat.Admin
	go func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if err := admin.Send(sctx, target, r, chat.SendOptions{}); err != nil {
			a.Log.Error("wechat: telling the admin failed", "admin", target, "err", err)
		}
	}()
}

// WeChatLock is the store lock held by the replica that runs WeChat.
const WeChatLock = "wechat"

// weChatLockTTL is the lock's lifetime; the holder renews it every third.
const weChatLockTTL = 90 * time.Second

// weChatStandbyEvery is how often a standby replica tries the lock.
var weChatStandbyEvery = 30 * time.Second

// holdWeChatLock waits until this replica holds WeChatLock (checking every
// 30 s, so a standby takes over within two minutes of the holder dying),
// then renews it in the background until ctx ends. It returns false when
// ctx ends first.
func (a *App) holdWeChatLock(ctx context.Context) bool {
	logged := false
	for {
		held, err := a.Store.TryLock(ctx, WeChatLock, a.replicaID, weChatLockTTL)
		if err != nil && ctx.Err() == nil {
			a.Log.Warn("wechat: cannot take the replica lock; retrying", "err", err)
		}
		if held {
			break
		}
		if !logged && err == nil {
			a.Log.Info("wechat: another replica runs WeChat; this one stands by")
			logged = true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(weChatStandbyEvery):
		}
	}
	go func() {
		t := time.NewTicker(weChatLockTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if held, err := a.Store.TryLock(ctx, WeChatLock, a.replicaID, weChatLockTTL); (err != nil || !held) && ctx.Err() == nil {
					a.Log.Warn("wechat: renewing the replica lock failed", "held", held, "err", err)
				}
			}
		}
	}()
	return true
}

// moveOldKeys gives the subscriptions made in a private chat before
// private chats were keyed "remark:<备注>" (ChatID the bare remark name)
// their new ChatID, once per process after the first login (the contacts
// decide it: no group of that name, one friend with that remark, who is
// the subscription's owner), so their alerts, mutes and "my
// subscriptions" follow the new key. The messages are not answered yet
// (Run has not started) and no other replica runs WeChat, so nothing
// changes them meanwhile. Failures are logged; the old key still reaches
// that friend (wechat's Wire).
func (w *weChatChannel) moveOldKeys(ctx context.Context) {
	if w.moved {
		return
	}
	w.moved = true
	a := w.a
	subs, err := a.Store.Subscriptions(ctx)
	if err != nil {
		a.Log.Warn("wechat: cannot read subscriptions to move old private-chat keys; their alerts still reach the friend", "err", err)
	}
	moved := 0
	for _, s := range subs {
		if s.Channel != "wechat" || s.OwnerID != wechat.PrivateChatID(s.ChatID) {
			continue
		}
		id, err := w.OldPrivateChat(ctx, s.ChatID)
		if err != nil {
			a.Log.Warn("wechat: cannot check an old private-chat key", "subscription", s.ID, "err", err)
			continue
		}
		if id == "" {
			continue
		}
		old := s.ChatKey()
		s.ChatID = id
		if err := a.Store.AddSubscription(ctx, s); err != nil {
			a.Log.Warn("wechat: cannot move a subscription to its private chat's new key", "subscription", s.ID, "err", err)
			continue
		}
		moved++
		// A mute of the old chat holds for the new one.
		if until, err := a.Store.MutedUntil(ctx, old); err == nil && a.now().Before(until) {
			if err := a.Store.SetMute(ctx, s.ChatKey(), until); err != nil {
				a.Log.Warn("wechat: cannot carry a chat's mute to its new key", "err", err)
			}
		}
	}
	if moved > 0 {
		a.Log.Info("wechat: subscriptions of private chats moved to the remark: key", "count", moved)
	}
	w.moveOldDigests(ctx)
}

// moveOldDigests moves a private chat's weekly digest switch from its old
// key to the remark: key when the old chat kept no ledger of its own (the
// digest then reads the same, empty or configured, lab). One whose old
// chat has a ledger stays, with a warning naming the storage.labs entry
// that keeps that ledger under the new key: moving it alone would send an
// empty digest.
func (w *weChatChannel) moveOldDigests(ctx context.Context) {
	a := w.a
	chats, err := a.Store.DigestChats(ctx)
	if err != nil {
		a.Log.Warn("wechat: cannot read the digest chats to move old private-chat keys", "err", err)
		return
	}
	labs := a.Cfg.Storage.LabOfChat()
	for _, key := range chats {
		old, ok := strings.CutPrefix(key, "wechat/")
		if !ok {
			continue
		}
		id, err := w.OldPrivateChat(ctx, old)
		if err != nil || id == "" {
			continue
		}
		newKey := "wechat/" + id
		labOld, labNew := cmp.Or(labs[key], key), cmp.Or(labs[newKey], newKey)
		if labOld != labNew {
			if ev, err := a.Store.StorageEvents(ctx, labOld); err != nil || len(ev) > 0 {
				a.Log.Warn(i18n.EN.T("app.wechat.digest_stays"), "old", key, "new", newKey, "lab", labOld)
				continue
			}
		}
		if err := a.Store.SetDigestChat(ctx, newKey, true); err != nil {
			a.Log.Warn("wechat: cannot move a digest chat to its new key", "err", err)
			continue
		}
		if err := a.Store.SetDigestChat(ctx, key, false); err != nil {
			a.Log.Warn("wechat: digest moved, but the old key could not be turned off", "err", err)
		}
	}
}
