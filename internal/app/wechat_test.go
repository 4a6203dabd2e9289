package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/config"
)

// A minimal fake of WeChat's web API for the app-level test: the hot login
// (webwxinit), contacts, the sync loop and sends. The adapter's own tests
// (internal/chat/wechat) cover the protocol in depth; this one checks the
// wiring in `bot serve`. openwechat hard-codes its hosts, so App.WeChatTransport
// sends every request here.
type miniWeChat struct {
	srv     *httptest.Server
	mu      sync.Mutex
	queue   []map[string]any
	syncRet string
	sent    []map[string]any
	// initCalls counts webwxinit: one per login.
	initCalls int
	// allowQR lets a QR login start (jslogin).
	allowQR bool
	// uploads are the files posted to webwxuploadmedia; images the
	// chats that webwxsendmsgimg sent an image to.
	uploads [][]byte
	images  []string
	// contacts, when set, is what webwxgetcontact lists (default: the
	// group only).
	contacts []map[string]any
}

const wxHotState = `{"Jar":{},"BaseRequest":{"Uin":1001,"Sid":"sid-1","Skey":"@crypt_skey","DeviceID":"e123456789012345"},` +
	`"LoginInfo":{"Ret":0,"WxUin":1001,"IsGrayScale":1,"Message":"","SKey":"@crypt_skey","WxSid":"sid-1","PassTicket":"pt-1"},` +
	`"WechatDomain":"wx2.qq.com","SyncKey":{"Count":1,"List":[{"Key":1,"Val":1}]},"UUID":""}`

func newMiniWeChat(t *testing.T) *miniWeChat {
	f := &miniWeChat{}
	members := []map[string]any{{"UserName": "@alice", "NickName": "Alice"}, {"UserName": "@self", "NickName": "LabBot"}}
	group := map[string]any{"UserName": "@@lab", "NickName": "Lab Group", "MemberList": members, "MemberCount": 2}
	ok := map[string]any{"Ret": 0, "ErrMsg": ""}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		js := func(v any) { w.Header().Set("Content-Type", "application/json"); json.NewEncoder(w).Encode(v) }
		f.mu.Lock()
		defer f.mu.Unlock()
		switch strings.TrimPrefix(r.URL.Path, "/cgi-bin/mmwebwx-bin/") {
		case "webwxinit":
			f.initCalls++
			// Image uploads need this cookie; the real login sets it for .qq.com.
			http.SetCookie(w, &http.Cookie{Name: "webwx_data_ticket", Value: "ticket-1", Domain: ".qq.com", Path: "/"})
			js(map[string]any{"BaseResponse": ok, "User": map[string]any{"UserName": "@self", "NickName": "LabBot"},
				"SyncKey": map[string]any{"Count": 1, "List": []map[string]int{{"Key": 1, "Val": 1}}}, "ContactList": []any{}})
		case "webwxstatusnotify":
			js(map[string]any{"BaseResponse": ok, "MsgID": "n1"})
		case "webwxgetcontact":
			list := []map[string]any{{"UserName": "@@lab", "NickName": "Lab Group"}}
			if f.contacts != nil {
				list = f.contacts
			}
			js(map[string]any{"BaseResponse": ok, "MemberCount": len(list), "MemberList": list})
		case "webwxbatchgetcontact":
			js(map[string]any{"BaseResponse": ok, "Count": 1, "ContactList": []any{group}})
		case "synccheck":
			switch {
			case f.syncRet != "":
				fmt.Fprintf(w, `window.synccheck={retcode:"%s",selector:"0"}`, f.syncRet)
			case len(f.queue) > 0:
				fmt.Fprint(w, `window.synccheck={retcode:"0",selector:"2"}`)
			default:
				f.mu.Unlock()
				time.Sleep(50 * time.Millisecond)
				f.mu.Lock()
				fmt.Fprint(w, `window.synccheck={retcode:"0",selector:"0"}`)
			}
		case "webwxsync":
			msgs := f.queue
			f.queue = nil
			if msgs == nil {
				msgs = []map[string]any{}
			}
			js(map[string]any{"BaseResponse": ok, "AddMsgCount": len(msgs), "AddMsgList": msgs,
				"SyncKey": map[string]any{"Count": 1, "List": []map[string]int{{"Key": 1, "Val": 2}}}})
		case "webwxsendmsg":
			var req struct{ Msg map[string]any }
			json.Unmarshal(body, &req)
			f.sent = append(f.sent, req.Msg)
			js(map[string]any{"BaseResponse": ok, "MsgID": "m1", "LocalID": "l1"})
		case "webwxuploadmedia":
			r.Body = io.NopCloser(bytes.NewReader(body))
			if file, _, err := r.FormFile("filename"); err == nil {
				b, _ := io.ReadAll(file)
				f.uploads = append(f.uploads, b)
			} else {
				t.Errorf("fake wechat: upload without a file: %v", err)
			}
			js(map[string]any{"BaseResponse": ok, "MediaId": fmt.Sprint("@media-", len(f.uploads))})
		case "webwxsendmsgimg":
			var req struct {
				Msg struct{ ToUserName, MediaId string }
			}
			json.Unmarshal(body, &req)
			f.images = append(f.images, req.Msg.ToUserName+" "+req.Msg.MediaId)
			js(map[string]any{"BaseResponse": ok, "MsgID": "img1", "LocalID": "l2"})
		case "/jslogin":
			if !f.allowQR {
				t.Errorf("fake wechat: QR login, but the stored state should have been used")
			}
			fmt.Fprint(w, `window.QRLogin.code = 200; window.QRLogin.uuid = "uuid-abc==";`)
		case "login": // the scan check: nobody scans
			f.mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			f.mu.Lock()
			fmt.Fprint(w, `window.code=408;`)
		default:
			t.Errorf("fake wechat: unexpected %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *miniWeChat) RoundTrip(r *http.Request) (*http.Response, error) {
	u, _ := url.Parse(f.srv.URL)
	c := r.Clone(r.Context())
	c.URL.Scheme, c.URL.Host, c.Host = u.Scheme, u.Host, u.Host
	return f.srv.Client().Transport.RoundTrip(c)
}

var wxSeq int

// say queues a text from Alice in the group.
func (f *miniWeChat) say(text string) { f.push("@@lab", "@self", "@alice:<br/>"+text) }

// push queues a text message for webwxsync.
func (f *miniWeChat) push(from, to, content string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	wxSeq++
	f.queue = append(f.queue, map[string]any{"MsgId": fmt.Sprint("w", wxSeq), "FromUserName": from, "ToUserName": to,
		"MsgType": 1, "Content": content, "CreateTime": time.Now().Unix()})
}

func (f *miniWeChat) inits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.initCalls
}

func (f *miniWeChat) sends() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, m := range f.sent {
		out = append(out, fmt.Sprint(m["ToUserName"], " ", m["Content"]))
	}
	return out
}

// TestServeWeChat runs `bot serve` with the WeChat channel on a fake WeChat:
// the stored hot-login state logs in without a QR code; a group message
// that @mentions the bot gets one reply in that group, @所有人 and a message
// the bot's account sent itself get none; a
// subscription made in the group gets its alert in the group; when the
// session drops, the admin is told on the other channel (a WeCom robot).
func TestServeWeChat(t *testing.T) {
	needShared(t, fixtures)
	wx := newMiniWeChat(t)
	wecom := newFakeWeCom(t)
	cfg, rec := replayConfig(t)
	cfg.Webhooks = []config.WebhookConf{{Name: "ops", Kind: "wecom", URL: wecom.url}}
	cfg.WeChat = config.WeChatConf{Enabled: true, Groups: []string{"Lab Group"}, Admin: "webhook/ops"}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a, _ := startWeChatServe(t, cfg, wx, nil)
	wx.say("@所有人 今晚停电")
	wx.push("@self", "@@lab", "@LabBot\u2005哪家有4090") // sent by the bot's account itself
	wx.say("@LabBot\u2005哪家有4090")
	waitFor(t, "the reply in the group", func() bool { return len(wx.sends()) >= 1 })
	s := wx.sends()
	if !strings.HasPrefix(s[0], "@@lab @Alice") || !strings.Contains(s[0], "4090") {
		t.Errorf("reply %q: want it in @@lab, @Alice, about the 4090", s[0])
	}

	wx.say("@LabBot\u2005AutoDL 4090 有货了提醒我")
	waitFor(t, "the subscription's confirmation", func() bool { return len(wx.sends()) >= 2 })
	stockArrives(t, a, rec)
	waitFor(t, "the alert in the group", func() bool { return len(wx.sends()) >= 3 })
	s = wx.sends()
	if len(s) != 3 || !strings.HasPrefix(s[2], "@@lab ") || !strings.Contains(s[2], "4090") {
		t.Fatalf("sends %q: want 3 (reply, confirmation, alert in @@lab); @所有人 and the self-sent message must get none", s)
	}

	wx.mu.Lock()
	wx.syncRet = "1101"
	wx.mu.Unlock()
	waitFor(t, "the admin alert", func() bool { return len(wecom.got()) == 1 })
	if admin := wecom.got()[0]; !strings.Contains(admin, "微信登录已掉线") || !strings.Contains(admin, "failed login check") {
		t.Errorf("admin alert %q", admin)
	}
}

// startWeChatServe runs Serve with the WeChat channel on wx, the hot-login
// state already in the store; before runs first (nil: nothing).
func startWeChatServe(t *testing.T, cfg config.Config, wx *miniWeChat, before func(*app.App)) (*app.App, string) {
	t.Helper()
	a := openApp(t, cfg)
	if before != nil {
		before(a)
	}
	blobs, ok := a.Store.(interface {
		PutBlob(context.Context, string, []byte) error
	})
	if !ok {
		t.Fatal("the embedded store keeps no blobs")
	}
	if wx.allowQR {
		return startServeApp(t, a, wx)
	}
	if err := blobs.PutBlob(context.Background(), app.WeChatStateBlob, []byte(wxHotState)); err != nil {
		t.Fatal(err)
	}
	return startServeApp(t, a, wx)
}

func startServeApp(t *testing.T, a *app.App, wx *miniWeChat) (*app.App, string) {
	a.WeChatTransport = wx
	base, stop := serve(t, a, false)
	t.Cleanup(stop)
	return a, base
}

// TestWeChatOneReplica: while another replica holds the WeChat lock this
// one does not log in (two would both answer every message); when the
// lock is free it takes over.
func TestWeChatOneReplica(t *testing.T) {
	defer app.SetWeChatStandbyEvery(50 * time.Millisecond)()
	wx := newMiniWeChat(t)
	cfg := manualConfig(t.TempDir())
	cfg.WeChat = config.WeChatConf{Enabled: true}
	a, base := startWeChatServe(t, cfg, wx, func(a *app.App) {
		if held, err := a.Store.TryLock(context.Background(), app.WeChatLock, "replica-other", time.Hour); err != nil || !held {
			t.Fatalf("take the lock: %v %v", held, err)
		}
	})
	wx.say("@LabBot /help")
	time.Sleep(300 * time.Millisecond)
	if s := wx.sends(); len(s) != 0 || wx.inits() != 0 {
		t.Fatalf("standby replica logged in (%d webwxinit) and sent %q", wx.inits(), s)
	}
	if h := get(t, base+"/readyz"); !strings.Contains(h, `"ready": false`) || !strings.Contains(h, "standing by") {
		t.Errorf("/readyz of the standby: %q", h)
	}
	if h := get(t, base+"/healthz"); h != "ok\n" {
		t.Errorf("/healthz (liveness) of the standby: %q", h)
	}
	if err := a.Store.Unlock(context.Background(), app.WeChatLock, "replica-other"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the takeover's reply", func() bool { return len(wx.sends()) >= 1 })
	if h := get(t, base+"/readyz"); !strings.Contains(h, `"ready": true`) {
		t.Errorf("/readyz after the takeover: %q", h)
	}
	if m := get(t, base+"/metrics"); !strings.Contains(m, `labgpu_channel_up{channel="wechat"} 1`) {
		t.Error("/metrics: labgpu_channel_up for wechat is not 1")
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestWeChatScanNeededTellsAdmin: with no saved session the bot shows a QR
// code, saves it as a PNG and tells the admin chat that a scan is needed.
func TestWeChatScanNeededTellsAdmin(t *testing.T) {
	wx := newMiniWeChat(t)
	wx.allowQR = true
	wecom := newFakeWeCom(t)
	cfg := manualConfig(t.TempDir())
	cfg.Webhooks = []config.WebhookConf{{Name: "ops", Kind: "wecom", URL: wecom.url}}
	cfg.WeChat = config.WeChatConf{Enabled: true, Admin: "webhook/ops"}
	startWeChatServe(t, cfg, wx, nil)
	waitFor(t, "the scan notice", func() bool { return len(wecom.got()) == 1 })
	png := filepath.Join(cfg.DataDir, "wechat-qr.png")
	if got := wecom.got()[0]; !strings.Contains(got, "扫码") || !strings.Contains(got, png) {
		t.Errorf("scan notice %q: want 扫码 and the PNG path %s", got, png)
	}
	if b, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("QR code PNG: %v (%d bytes)", err, len(b))
	}
}
