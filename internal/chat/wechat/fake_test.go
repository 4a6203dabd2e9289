package wechat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// The fake WeChat web server. openwechat hard-codes its hosts
// (https://wx2.qq.com, https://webpush.wx2.qq.com, https://login.wx.qq.com,
// ...), so the bot's HTTP transport is replaced by rewriteTransport, which
// sends every request to the httptest server and keeps the original host
// in a header for assertions.

const (
	selfUser  = "@self0001"
	selfNick  = "LabBot"
	botInGrp  = "GPU助手" // the bot's display name in "Lab Group"
	grpUser   = "@@grp1"
	grpName   = "Lab Group"
	grp2User  = "@@grp2"
	grp2Name  = "Other Group"
	aliceUser = "@alice0001"
	aliceNick = "Alice"
	aliceDisp = "阿丽"
	aliceRem  = "alice-lab"
	bobUser   = "@bob0001"
	bobNick   = "Bob" // a friend the bot's account gave no remark name
	carolUser = "@carol0001"
	carolNick = "Carol"
	carolRem  = "carol-lab"
	mpUser    = "@mp0001"
)

// hotState is a prepared hot-login state (§3): HotLogin reads it and goes
// straight to webwxinit, no QR code.
const hotState = `{"Jar":{},"BaseRequest":{"Uin":1001,"Sid":"sid-1","Skey":"@crypt_skey","DeviceID":"e123456789012345"},` +
	`"LoginInfo":{"Ret":0,"WxUin":1001,"IsGrayScale":1,"Message":"","SKey":"@crypt_skey","WxSid":"sid-1","PassTicket":"pt-1"},` +
	`"WechatDomain":"wx2.qq.com","SyncKey":{"Count":1,"List":[{"Key":1,"Val":1}]},"UUID":""}`

const origHostHeader = "X-Fake-Orig-Host"

type rewriteTransport struct {
	target *url.URL
	base   http.RoundTripper
	// fail, when set, may fail a request before it is sent.
	fail func(r *http.Request) error
}

func (t *rewriteTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.fail != nil {
		if err := t.fail(r); err != nil {
			return nil, err
		}
	}
	c := r.Clone(r.Context())
	c.Header.Set(origHostHeader, r.URL.Host)
	c.URL.Scheme = t.target.Scheme
	c.URL.Host = t.target.Host
	c.Host = t.target.Host
	return t.base.RoundTrip(c)
}

// fakeMsg is one entry of webwxsync's AddMsgList.
type fakeMsg struct {
	MsgId        string
	FromUserName string
	ToUserName   string
	MsgType      int
	Content      string
	CreateTime   int64
	Url          string `json:",omitempty"`
}

// sentMsg is one recorded webwxsendmsg.
type sentMsg struct {
	To, From, Content string
	Type              int
	Host              string
}

type fakeUser struct {
	UserName    string
	NickName    string
	DisplayName string `json:",omitempty"`
	RemarkName  string `json:",omitempty"`
	VerifyFlag  int
	MemberList  []fakeUser `json:",omitempty"`
	MemberCount int        `json:",omitempty"`
}

type fakeWeChat struct {
	t   testing.TB
	srv *httptest.Server

	mu        sync.Mutex
	queue     [][]fakeMsg // batches for webwxsync
	syncRet   string      // synccheck retcode; "" = "0"
	sent      []sentMsg
	sendRets  []int // Ret of the next sends (then 0); 429: an HTTP 429 with Retry-After: 1; 5xx: that HTTP status
	contacts  []fakeUser
	groups    map[string]fakeUser // UserName → group with members
	calls     map[string]int      // path → count
	hosts     map[string]string   // path → last original host
	syncKey   int
	sentCh    chan sentMsg
	wake      chan struct{}
	loginCode []string // answers of the QR login check (window.code=…)
	initRets  []int    // Ret of the next webwxinit calls (then 0)
	jslogin   string   // body of jslogin; "" = a valid uuid
	onCheck   func()   // called when the login check is hit
	uploads   []upload // webwxuploadmedia files
}

// upload is one file posted to webwxuploadmedia.
type upload struct {
	Name   string
	Data   []byte
	Ticket string
}

func newFake(t testing.TB) *fakeWeChat {
	f := &fakeWeChat{
		t:       t,
		calls:   map[string]int{},
		hosts:   map[string]string{},
		syncKey: 1,
		sentCh:  make(chan sentMsg, 100),
		wake:    make(chan struct{}, 1),
	}
	members := []fakeUser{
		{UserName: aliceUser, NickName: aliceNick, DisplayName: aliceDisp},
		{UserName: bobUser, NickName: bobNick},
		{UserName: selfUser, NickName: selfNick, DisplayName: botInGrp},
	}
	f.groups = map[string]fakeUser{
		grpUser:  {UserName: grpUser, NickName: grpName, MemberList: members, MemberCount: len(members)},
		grp2User: {UserName: grp2User, NickName: grp2Name, MemberList: members, MemberCount: len(members)},
	}
	f.contacts = []fakeUser{
		{UserName: aliceUser, NickName: aliceNick, RemarkName: aliceRem},
		{UserName: bobUser, NickName: bobNick},
		{UserName: carolUser, NickName: carolNick, RemarkName: carolRem},
		{UserName: grpUser, NickName: grpName},
		{UserName: grp2User, NickName: grp2Name},
		{UserName: mpUser, NickName: "GPU News", VerifyFlag: 24},
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeWeChat) transport() *rewriteTransport {
	u, _ := url.Parse(f.srv.URL)
	return &rewriteTransport{target: u, base: f.srv.Client().Transport}
}

// push queues one webwxsync batch and wakes the pending synccheck.
func (f *fakeWeChat) push(msgs ...fakeMsg) {
	f.mu.Lock()
	f.queue = append(f.queue, msgs)
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *fakeWeChat) setSyncRet(code string) {
	f.mu.Lock()
	f.syncRet = code
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *fakeWeChat) count(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[path]
}

func (f *fakeWeChat) host(path string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hosts[path]
}

func (f *fakeWeChat) sends() []sentMsg {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sentMsg(nil), f.sent...)
}

// waitSend returns the next recorded send, failing after a timeout.
func (f *fakeWeChat) waitSend(d time.Duration) (sentMsg, bool) {
	select {
	case m := <-f.sentCh:
		return m, true
	case <-time.After(d):
		return sentMsg{}, false
	}
}

const cgi = "/cgi-bin/mmwebwx-bin/"

func (f *fakeWeChat) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.calls[r.URL.Path]++
	f.hosts[r.URL.Path] = r.Header.Get(origHostHeader)
	f.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	switch r.URL.Path {
	case "/jslogin":
		if f.jslogin != "" {
			fmt.Fprint(w, f.jslogin)
			return
		}
		fmt.Fprint(w, `window.QRLogin.code = 200; window.QRLogin.uuid = "uuid-abc==";`)
	case cgi + "login":
		if f.onCheck != nil {
			f.onCheck()
		}
		f.mu.Lock()
		code := "408"
		if len(f.loginCode) > 0 {
			code, f.loginCode = f.loginCode[0], f.loginCode[1:]
		}
		f.mu.Unlock()
		if code == "200" {
			fmt.Fprint(w, `window.code=200;window.redirect_uri="https://wx2.qq.com/cgi-bin/mmwebwx-bin/webwxnewloginpage?ticket=t1&uuid=uuid-abc==&lang=zh_CN&scan=1";`)
			return
		}
		if code == "408" {
			// The real check long-polls ~25 s before "still waiting".
			select {
			case <-time.After(20 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		fmt.Fprintf(w, `window.code=%s;`, code)
	case cgi + "webwxnewloginpage":
		fmt.Fprint(w, `<error><ret>0</ret><message></message><skey>@crypt_skey</skey><wxsid>sid-1</wxsid>`+
			`<wxuin>1001</wxuin><pass_ticket>pt-1</pass_ticket><isgrayscale>1</isgrayscale></error>`)
	case cgi + "webwxinit":
		f.mu.Lock()
		ret := 0
		if len(f.initRets) > 0 {
			ret, f.initRets = f.initRets[0], f.initRets[1:]
		}
		f.mu.Unlock()
		if ret != 0 {
			writeJSON(w, map[string]any{"BaseResponse": map[string]any{"Ret": ret, "ErrMsg": ""}})
			return
		}
		// The upload needs this cookie; the real login sets it for .qq.com.
		http.SetCookie(w, &http.Cookie{Name: "webwx_data_ticket", Value: "ticket-1", Domain: ".qq.com", Path: "/"})
		writeJSON(w, map[string]any{
			"BaseResponse": map[string]any{"Ret": 0, "ErrMsg": ""},
			"User":         fakeUser{UserName: selfUser, NickName: selfNick},
			"SyncKey":      map[string]any{"Count": 1, "List": []map[string]int{{"Key": 1, "Val": 1}}},
			"ContactList":  []fakeUser{},
		})
	case cgi + "webwxstatusnotify":
		writeJSON(w, map[string]any{"BaseResponse": map[string]any{"Ret": 0}, "MsgID": "notify-1"})
	case cgi + "synccheck":
		f.synccheck(w, r)
	case cgi + "webwxsync":
		f.mu.Lock()
		var batch []fakeMsg
		if len(f.queue) > 0 {
			batch, f.queue = f.queue[0], f.queue[1:]
		}
		f.syncKey++
		key := f.syncKey
		f.mu.Unlock()
		if batch == nil {
			batch = []fakeMsg{}
		}
		writeJSON(w, map[string]any{
			"BaseResponse": map[string]any{"Ret": 0},
			"AddMsgCount":  len(batch),
			"AddMsgList":   batch,
			"SyncKey":      map[string]any{"Count": 1, "List": []map[string]int{{"Key": 1, "Val": key}}},
		})
	case cgi + "webwxgetcontact":
		f.mu.Lock()
		contacts := append([]fakeUser(nil), f.contacts...)
		f.mu.Unlock()
		writeJSON(w, map[string]any{
			"BaseResponse": map[string]any{"Ret": 0},
			"MemberCount":  len(contacts),
			"MemberList":   contacts,
			"Seq":          0,
		})
	case cgi + "webwxbatchgetcontact":
		var req struct{ List []struct{ UserName string } }
		_ = json.Unmarshal(body, &req)
		var out []fakeUser
		for _, it := range req.List {
			f.mu.Lock()
			g, ok := f.groups[it.UserName]
			f.mu.Unlock()
			if !ok {
				g = fakeUser{UserName: it.UserName}
				for _, c := range f.contacts {
					if c.UserName == it.UserName {
						g = c
					}
				}
			}
			out = append(out, g)
		}
		writeJSON(w, map[string]any{"BaseResponse": map[string]any{"Ret": 0}, "Count": len(out), "ContactList": out})
	case cgi + "webwxsendmsg":
		var req struct {
			Msg struct {
				Type                              int
				Content, FromUserName, ToUserName string
			}
		}
		if err := json.Unmarshal(body, &req); err != nil {
			f.t.Errorf("webwxsendmsg: bad body %q: %v", body, err)
		}
		f.mu.Lock()
		ret := 0
		if len(f.sendRets) > 0 {
			ret, f.sendRets = f.sendRets[0], f.sendRets[1:]
		}
		m := sentMsg{To: req.Msg.ToUserName, From: req.Msg.FromUserName, Content: req.Msg.Content, Type: req.Msg.Type,
			Host: r.Header.Get(origHostHeader)}
		if ret == 0 {
			f.sent = append(f.sent, m)
		}
		f.mu.Unlock()
		if ret >= 500 && ret < 600 {
			http.Error(w, "upstream trouble", ret)
			return
		}
		if ret == http.StatusTooManyRequests {
			// An HTTP rate limit in front of the API, not a Ret.
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many requests", http.StatusTooManyRequests)
			return
		}
		if ret != 0 {
			writeJSON(w, map[string]any{"BaseResponse": map[string]any{"Ret": ret, "ErrMsg": ""}})
			return
		}
		f.sentCh <- m
		writeJSON(w, map[string]any{"BaseResponse": map[string]any{"Ret": 0}, "MsgID": "srv-1", "LocalID": "l-1"})
	case cgi + "webwxuploadmedia":
		r.Body = io.NopCloser(bytes.NewReader(body)) // read above
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			f.t.Errorf("webwxuploadmedia: %v", err)
		}
		f.mu.Lock()
		if file, hdr, err := r.FormFile("filename"); err == nil {
			b, _ := io.ReadAll(file)
			f.uploads = append(f.uploads, upload{Name: hdr.Filename, Data: b, Ticket: r.FormValue("webwx_data_ticket")})
		} else {
			f.t.Errorf("webwxuploadmedia: no file: %v", err)
		}
		f.mu.Unlock()
		writeJSON(w, map[string]any{"BaseResponse": map[string]any{"Ret": 0, "ErrMsg": ""}, "MediaId": "@media-1"})
	case cgi + "webwxsendmsgimg":
		var req struct {
			Msg struct {
				Type                              int
				MediaId, FromUserName, ToUserName string
			}
		}
		if err := json.Unmarshal(body, &req); err != nil {
			f.t.Errorf("webwxsendmsgimg: bad body %q: %v", body, err)
		}
		m := sentMsg{To: req.Msg.ToUserName, From: req.Msg.FromUserName, Content: "image:" + req.Msg.MediaId, Type: req.Msg.Type,
			Host: r.Header.Get(origHostHeader)}
		f.mu.Lock()
		f.sent = append(f.sent, m)
		f.mu.Unlock()
		f.sentCh <- m
		writeJSON(w, map[string]any{"BaseResponse": map[string]any{"Ret": 0}, "MsgID": "srv-img", "LocalID": "l-img"})
	default:
		f.t.Errorf("fake wechat: unexpected request %s %s (host %s)", r.Method, r.URL.Path, r.Header.Get(origHostHeader))
		http.NotFound(w, r)
	}
}

// synccheck answers at once when a batch is queued or the retcode is set,
// else after a short long-poll (the real one lasts ~25 s).
func (f *fakeWeChat) synccheck(w http.ResponseWriter, r *http.Request) {
	reply := func() (string, bool) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.syncRet != "" && f.syncRet != "0" {
			return fmt.Sprintf(`window.synccheck={retcode:"%s",selector:"0"}`, f.syncRet), true
		}
		if len(f.queue) > 0 {
			return `window.synccheck={retcode:"0",selector:"2"}`, true
		}
		return "", false
	}
	if s, ok := reply(); ok {
		fmt.Fprint(w, s)
		return
	}
	select {
	case <-f.wake:
	case <-time.After(100 * time.Millisecond):
	case <-r.Context().Done():
		return
	}
	if s, ok := reply(); ok {
		fmt.Fprint(w, s)
		return
	}
	fmt.Fprint(w, `window.synccheck={retcode:"0",selector:"0"}`)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// testLogger writes slog output to the test log until the test ends
// (goroutines of openwechat may outlive Run by a moment).
func testLogger(t testing.TB) *slog.Logger {
	w := &testWriter{t: t}
	t.Cleanup(func() {
		w.mu.Lock()
		w.done = true
		w.mu.Unlock()
	})
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct {
	t    testing.TB
	mu   sync.Mutex
	done bool
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// errNetwork is what the failing transport returns.
var errNetwork = errors.New("fake network down")
