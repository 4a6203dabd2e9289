package wechat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/eatmoreapple/openwechat"
	"golang.org/x/time/rate"

	"github.com/labgpu/bot/internal/chat"
)

// recorder is a Handler that records the messages it gets.
type recorder struct {
	mu    sync.Mutex
	msgs  []chat.Message
	reply func(chat.Message) chat.Reply
}

func (r *recorder) Handle(_ context.Context, msg chat.Message) chat.Reply {
	r.mu.Lock()
	r.msgs = append(r.msgs, msg)
	r.mu.Unlock()
	if r.reply != nil {
		return r.reply(msg)
	}
	return chat.Reply{Lines: []string{"answer: " + msg.Text}}
}

func (r *recorder) got() []chat.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]chat.Message(nil), r.msgs...)
}

type harness struct {
	f       *fakeWeChat
	b       *Bot
	h       *recorder
	st      *MemoryStorage
	logouts chan error
	cancel  context.CancelFunc
	runDone chan struct{}
	runErr  error
}

// start logs a Bot in against f with the prepared hot-login state and runs
// it; mod may change the options first.
func start(t *testing.T, f *fakeWeChat, mod func(*Options)) *harness {
	t.Helper()
	hs := &harness{f: f, h: &recorder{}, st: NewMemoryStorage([]byte(hotState)), logouts: make(chan error, 4),
		runDone: make(chan struct{})}
	opts := Options{
		Handler:       hs.h,
		Storage:       hs.st,
		Groups:        []string{grpName},
		QRWriter:      io.Discard,
		OnLogout:      func(r error) { hs.logouts <- r },
		Log:           testLogger(t),
		RatePerChat:   rate.Inf,
		HTTPTransport: f.transport(),
	}
	if mod != nil {
		mod(&opts)
	}
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	b.workers = 1 // answers in order, so a sentinel message proves earlier ones were skipped
	b.sendBackoff, b.loginBackoff, b.syncBackoff = 5*time.Millisecond, 5*time.Millisecond, 5*time.Millisecond
	hs.b = b
	ctx, cancel := context.WithCancel(context.Background())
	hs.cancel = cancel
	if err := b.Login(ctx); err != nil {
		cancel()
		t.Fatalf("Login: %v", err)
	}
	go func() {
		defer close(hs.runDone)
		hs.runErr = b.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-hs.runDone:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return after cancel")
		}
	})
	return hs
}

// wait waits for Run to return and gives its error.
func (hs *harness) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-hs.runDone:
		return hs.runErr
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
		return nil
	}
}

var msgSeq atomic.Int64

func groupMsg(fromMember, content string) fakeMsg {
	return fakeMsg{MsgId: fmt.Sprint("g", msgSeq.Add(1)), FromUserName: grpUser, ToUserName: selfUser, MsgType: 1,
		Content: fromMember + ":<br/>" + content, CreateTime: time.Now().Unix()}
}

func privMsg(from, content string) fakeMsg {
	return fakeMsg{MsgId: fmt.Sprint("p", msgSeq.Add(1)), FromUserName: from, ToUserName: selfUser, MsgType: 1,
		Content: content, CreateTime: time.Now().Unix()}
}

// sentinel is a private message from Carol (a friend with a remark name of
// her own) that is always answered: once its answer is out, every message
// queued before it has been decided.
func sentinel() fakeMsg { return privMsg(carolUser, "sentinel") }

// isSentinel reports whether m is the answer to the sentinel.
func isSentinel(m sentMsg) bool { return m.To == carolUser && m.Content == "answer: sentinel" }

func TestInboundMessages(t *testing.T) {
	now := time.Now().Unix()
	cases := []struct {
		name     string
		msgs     []fakeMsg
		wantMsg  *chat.Message // what the Handler gets (nil: not called)
		wantSend *sentMsg      // the reply (nil: none)
	}{
		{
			name:    "group message that @mentions the bot",
			msgs:    []fakeMsg{groupMsg(aliceUser, "@"+botInGrp+"\u2005哪家有4090")},
			wantMsg: &chat.Message{Channel: "wechat", ChatID: grpName, ChatType: chat.Group, SenderID: RemarkIDPrefix + aliceRem, SenderName: aliceDisp, Text: "哪家有4090"},
			wantSend: &sentMsg{To: grpUser, From: selfUser, Type: 1,
				Content: "@" + aliceDisp + "\u2005answer: 哪家有4090"},
		},
		{
			name:    "mention in the middle, HTML entity in the text",
			msgs:    []fakeMsg{groupMsg(bobUser, "请问 @"+botInGrp+"\u2005A100 &amp; H100 价格")},
			wantMsg: &chat.Message{Channel: "wechat", ChatID: grpName, ChatType: chat.Group, SenderID: bobNick, SenderName: bobNick, Text: "请问 A100 & H100 价格"},
			wantSend: &sentMsg{To: grpUser, From: selfUser, Type: 1,
				Content: "@" + bobNick + "\u2005answer: 请问 A100 & H100 价格"},
		},
		{
			name: "@所有人 does not trigger",
			msgs: []fakeMsg{groupMsg(bobUser, "@所有人\u2005明天机房停电")},
		},
		{
			name: "group message without a mention",
			msgs: []fakeMsg{groupMsg(aliceUser, "哪家有4090")},
		},
		{
			name: "self-sent message",
			msgs: []fakeMsg{{MsgId: "self-1", FromUserName: selfUser, ToUserName: grpUser, MsgType: 1,
				Content: "@" + botInGrp + "\u2005哪家有4090", CreateTime: now}},
		},
		{
			name: "group not in the allow-list",
			msgs: []fakeMsg{{MsgId: "g2-1", FromUserName: grp2User, ToUserName: selfUser, MsgType: 1,
				Content: aliceUser + ":<br/>@" + botInGrp + "\u2005哪家有4090", CreateTime: now}},
		},
		{
			name: "mention by nickname while the bot has a group display name (openwechat's IsAt checks the display name)",
			msgs: []fakeMsg{groupMsg(aliceUser, "@"+selfNick+"\u2005哪家有4090")},
		},
		{
			name: "picture in the group",
			msgs: []fakeMsg{{MsgId: "img-1", FromUserName: grpUser, ToUserName: selfUser, MsgType: 3,
				Content: aliceUser + ":<br/>", CreateTime: now}},
		},
		{
			name: "message from before the login (backlog)",
			msgs: []fakeMsg{{MsgId: "old-1", FromUserName: grpUser, ToUserName: selfUser, MsgType: 1,
				Content: aliceUser + ":<br/>@" + botInGrp + "\u2005哪家有4090", CreateTime: now - 3600}},
		},
		{
			name:     "private message from a friend",
			msgs:     []fakeMsg{privMsg(aliceUser, "4090多少钱")},
			wantMsg:  &chat.Message{Channel: "wechat", ChatID: RemarkIDPrefix + aliceRem, ChatType: chat.P2P, SenderID: RemarkIDPrefix + aliceRem, SenderName: aliceNick, Text: "4090多少钱"},
			wantSend: &sentMsg{To: aliceUser, From: selfUser, Type: 1, Content: "answer: 4090多少钱"},
		},
		{
			name: "private message from an official account",
			msgs: []fakeMsg{privMsg(mpUser, "本周GPU资讯")},
		},
		{
			name: "message from the file helper",
			msgs: []fakeMsg{privMsg("filehelper", "4090")},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			hs := start(t, f, nil)
			f.push(append(tc.msgs, sentinel())...)

			var sends []sentMsg
			for {
				m, ok := f.waitSend(5 * time.Second)
				if !ok {
					t.Fatalf("no answer to the sentinel; sends so far: %+v", sends)
				}
				if isSentinel(m) {
					break
				}
				sends = append(sends, m)
			}
			got := hs.h.got()
			got = got[:len(got)-1] // the sentinel
			if tc.wantMsg == nil {
				if len(got) != 0 || len(sends) != 0 {
					t.Fatalf("want no answer; handler got %+v, sends %+v", got, sends)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("handler got %d messages, want 1: %+v", len(got), got)
			}
			g := got[0]
			if g.ID == "" || g.Time.IsZero() {
				t.Errorf("message lacks ID or Time: %+v", g)
			}
			g.ID, g.Time = "", time.Time{}
			if g != *tc.wantMsg {
				t.Errorf("handler got\n %+v\nwant\n %+v", g, *tc.wantMsg)
			}
			if len(sends) != 1 {
				t.Fatalf("got %d sends, want exactly 1: %+v", len(sends), sends)
			}
			s := sends[0]
			s.Host = ""
			if s != *tc.wantSend {
				t.Errorf("sent\n %#v\nwant\n %#v", s, *tc.wantSend)
			}
			if h := sends[0].Host; h != "wx2.qq.com" {
				t.Errorf("webwxsendmsg went to host %q, want wx2.qq.com", h)
			}
		})
	}
}

func TestFakeServedHostsAndSavedState(t *testing.T) {
	f := newFake(t)
	hs := start(t, f, nil)
	f.push(groupMsg(aliceUser, "@"+botInGrp+"\u2005hi"))
	if _, ok := f.waitSend(5 * time.Second); !ok {
		t.Fatal("no reply")
	}
	for path, want := range map[string]string{
		cgi + "webwxinit":            "wx2.qq.com",
		cgi + "webwxstatusnotify":    "wx2.qq.com",
		cgi + "synccheck":            "webpush.wx2.qq.com",
		cgi + "webwxsync":            "wx2.qq.com",
		cgi + "webwxgetcontact":      "wx2.qq.com",
		cgi + "webwxbatchgetcontact": "wx2.qq.com",
	} {
		if got := f.host(path); got != want {
			t.Errorf("%s: host %q, want %q", path, got, want)
		}
	}
	if f.count("/jslogin") != 0 {
		t.Error("hot login asked for a QR code")
	}
	// openwechat saves the state after the login and after each sync.
	state, _ := hs.st.Load(context.Background())
	var item openwechat.HotReloadStorageItem
	if err := json.Unmarshal(state, &item); err != nil {
		t.Fatalf("saved state is not JSON: %v", err)
	}
	if item.LoginInfo == nil || item.LoginInfo.SKey != "@crypt_skey" || item.WechatDomain != "wx2.qq.com" {
		t.Errorf("saved state: %+v", item)
	}
	if item.SyncKey == nil || len(item.SyncKey.List) != 1 || item.SyncKey.List[0].Val < 2 {
		t.Errorf("saved sync key not updated after a sync: %+v", item.SyncKey)
	}
}

func TestDuplicateMsgIDAnsweredOnce(t *testing.T) {
	f := newFake(t)
	hs := start(t, f, nil)
	m := groupMsg(aliceUser, "@"+botInGrp+"\u2005哪家有4090")
	f.push(m, m, sentinel())
	n := 0
	for {
		s, ok := f.waitSend(5 * time.Second)
		if !ok {
			t.Fatal("no answer to the sentinel")
		}
		if isSentinel(s) {
			break
		}
		n++
	}
	if n != 1 || len(hs.h.got()) != 2 {
		t.Errorf("group sends %d, handler calls %d; want 1 and 2 (with the sentinel)", n, len(hs.h.got()))
	}
}

func TestLongReplySplit(t *testing.T) {
	f := newFake(t)
	var lines []string
	for i := range 30 {
		lines = append(lines, fmt.Sprintf("第%02d行：RTX 4090 在 AutoDL 有 %d 张空闲，每小时 2.%02d 元", i, i+1, i))
	}
	hs := start(t, f, func(o *Options) { o.MaxRunes = 120 })
	hs.h.reply = func(chat.Message) chat.Reply { return chat.Reply{Title: "4090 报价", Lines: lines} }
	f.push(groupMsg(aliceUser, "@"+botInGrp+"\u20054090"), sentinel())
	var parts []string
	for {
		s, ok := f.waitSend(5 * time.Second)
		if !ok {
			t.Fatal("no answer to the sentinel")
		}
		if s.To == carolUser { // the sentinel's answer (the same long reply)
			break
		}
		if s.To != grpUser {
			t.Fatalf("sent to %s", s.To)
		}
		parts = append(parts, s.Content)
	}
	if len(parts) < 5 {
		t.Fatalf("got %d parts, want the reply split into several", len(parts))
	}
	prefix := "@" + aliceDisp + "\u2005"
	for i, p := range parts {
		if n := utf8.RuneCountInString(p); n > 120 {
			t.Errorf("part %d has %d runes > 120", i, n)
		}
		if (i == 0) != strings.HasPrefix(p, prefix) {
			t.Errorf("part %d: prefix %q only on the first part: %q", i, prefix, p)
		}
	}
	joined := strings.TrimPrefix(strings.Join(parts, "\n"), prefix)
	want := strings.TrimRight(chat.PlainText(chat.Reply{Title: "4090 报价", Lines: lines}), "\n")
	if joined != want {
		t.Errorf("parts joined:\n%s\nwant:\n%s", joined, want)
	}
}

func TestTooFrequentRetried(t *testing.T) {
	f := newFake(t)
	f.sendRets = []int{int(RetTooFrequent)}
	hs := start(t, f, nil)
	f.push(groupMsg(aliceUser, "@"+botInGrp+"\u2005哪家有4090"))
	s, ok := f.waitSend(5 * time.Second)
	if !ok {
		t.Fatal("no reply after a too-frequent answer")
	}
	if s.To != grpUser || !strings.HasSuffix(s.Content, "answer: 哪家有4090") {
		t.Errorf("sent %+v", s)
	}
	if n := f.count(cgi + "webwxsendmsg"); n != 2 {
		t.Errorf("webwxsendmsg called %d times, want 2 (refused, then accepted)", n)
	}
	if n := len(hs.h.got()); n != 1 {
		t.Errorf("handler called %d times, want 1", n)
	}
}

func TestTooFrequentGivesUpAfterThreeTries(t *testing.T) {
	f := newFake(t)
	f.sendRets = []int{1205, 1205, 1205, 1205}
	hs := start(t, f, nil)
	err := hs.b.SendToGroup(context.Background(), grpName, chat.Reply{Title: "alert"})
	if err == nil || !strings.Contains(err.Error(), "giving up after 3 tries") || !tooFrequent(err) {
		t.Fatalf("err = %v, want giving up after 3 too-frequent answers", err)
	}
	if n := f.count(cgi + "webwxsendmsg"); n != maxSendTries {
		t.Errorf("webwxsendmsg called %d times, want %d", n, maxSendTries)
	}
}

// TestSendRetryAfterAndPermanent: through the Channel (Send, the path of
// alerts and digests), an HTTP 429 is waited out for as long as its
// Retry-After says, and an error that ends the session is not retried.
func TestSendRetryAfterAndPermanent(t *testing.T) {
	cases := []struct {
		name    string
		rets    []int
		calls   int
		ok      bool
		minTook time.Duration
		errHas  string
	}{
		{"429 with Retry-After: 1 s, then sent", []int{http.StatusTooManyRequests}, 2, true, 900 * time.Millisecond, ""},
		{"session ended (1101): one try", []int{1101, 0}, 1, false, 0, "re-login"},
		{"HTTP 502: one try (WeChat may have the message)", []int{502, 0}, 1, false, 0, "HTTP 502"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.sendRets = c.rets
			hs := start(t, f, nil)
			began := time.Now()
			err := hs.b.Send(context.Background(), grpName, chat.Reply{Title: "alert"}, chat.SendOptions{IdempotencyKey: "alert:1"})
			took := time.Since(began)
			if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), c.errHas)) {
				t.Fatalf("err = %v, want ok %v (mentioning %q)", err, c.ok, c.errHas)
			}
			if n := f.count(cgi + "webwxsendmsg"); n != c.calls {
				t.Errorf("webwxsendmsg called %d times, want %d", n, c.calls)
			}
			if took < c.minTook {
				t.Errorf("retried after %v, before the Retry-After", took)
			}
		})
	}
}

func TestSendToGroup(t *testing.T) {
	f := newFake(t)
	hs := start(t, f, nil)
	r := chat.Reply{Title: "RTX 4090 有货了", Table: &chat.Table{Header: []string{"平台", "价格"}, Rows: [][]string{{"AutoDL", "1.98"}, {"恒源云", "2.10"}}},
		Mentions: []string{aliceNick}}
	if err := hs.b.SendToGroup(context.Background(), grpName, r); err != nil {
		t.Fatal(err)
	}
	s, ok := f.waitSend(5 * time.Second)
	if !ok {
		t.Fatal("nothing sent")
	}
	// Alice's nickname is shown by her display name in the group.
	want := "@" + aliceDisp + "\u2005" + strings.TrimRight(chat.PlainText(r), "\n")
	if s.To != grpUser || s.Content != want {
		t.Errorf("sent to %s:\n%q\nwant to %s:\n%q", s.To, s.Content, grpUser, want)
	}
	// Columns aligned by display width: "恒源云" is 6 columns, like "AutoDL".
	if !strings.Contains(s.Content, "AutoDL  1.98") || !strings.Contains(s.Content, "恒源云  2.10") {
		t.Errorf("table not aligned: %q", s.Content)
	}
	// A second push uses the cached contacts.
	if err := hs.b.SendToGroup(context.Background(), grpName, chat.Reply{Title: "again"}); err != nil {
		t.Fatal(err)
	}
	if n := f.count(cgi + "webwxgetcontact"); n != 1 {
		t.Errorf("webwxgetcontact called %d times, want 1 (cached)", n)
	}
	// Send resolves a ChatID to the group, or to a friend by remark name:
	// a private chat's key, and a bare one from before it had a prefix.
	for _, id := range []string{RemarkIDPrefix + aliceRem, aliceRem} {
		if err := hs.b.Send(context.Background(), id, chat.Reply{Title: "私聊提醒 " + id}, chat.SendOptions{}); err != nil {
			t.Fatal(err)
		}
		for {
			s, ok := f.waitSend(5 * time.Second)
			if !ok {
				t.Fatal("nothing sent to the friend")
			}
			if s.To == aliceUser {
				if s.Content != "私聊提醒 "+id {
					t.Errorf("friend got %q", s.Content)
				}
				break
			}
		}
	}
}

// An alert for a subscription made in a WeChat group reaches that group:
// the app's Notifier gets the ChatID and SenderID of the subscribing
// message and calls Send.
func TestAlertToSubscribingGroup(t *testing.T) {
	f := newFake(t)
	hs := start(t, f, nil)
	f.push(groupMsg(bobUser, "@"+botInGrp+"\u2005订阅 4090 低于2.5元"))
	if _, ok := f.waitSend(5 * time.Second); !ok {
		t.Fatal("no reply to the subscription")
	}
	sub := hs.h.got()[0]
	alert := chat.Reply{Title: "RTX 4090 有货了：AutoDL 1.98 元/时", Mentions: []string{sub.SenderID}}
	if err := hs.b.Send(context.Background(), sub.ChatID, alert, chat.SendOptions{}); err != nil {
		t.Fatal(err)
	}
	s, ok := f.waitSend(5 * time.Second)
	if !ok {
		t.Fatal("alert not delivered")
	}
	if s.To != grpUser || s.Content != "@"+bobNick+"\u2005RTX 4090 有货了：AutoDL 1.98 元/时" {
		t.Errorf("alert %+v", s)
	}
}

func TestSendToUnknownGroup(t *testing.T) {
	f := newFake(t)
	hs := start(t, f, nil)
	err := hs.b.SendToGroup(context.Background(), "Secret Group", chat.Reply{Title: "x"})
	if !errors.Is(err, ErrGroupNotFound) || !strings.Contains(err.Error(), "保存到通讯录") {
		t.Fatalf("err = %v, want ErrGroupNotFound telling to save the group to contacts", err)
	}
	// The group is saved to contacts later: the next push refreshes once
	// and finds it.
	f.mu.Lock()
	f.contacts = append(f.contacts, fakeUser{UserName: "@@grp9", NickName: "Secret Group"})
	f.mu.Unlock()
	if err := hs.b.SendToGroup(context.Background(), "Secret Group", chat.Reply{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	if n := f.count(cgi + "webwxgetcontact"); n != 2 {
		t.Errorf("webwxgetcontact called %d times, want 2 (refresh once)", n)
	}
	if s, ok := f.waitSend(5 * time.Second); !ok || s.To != "@@grp9" {
		t.Errorf("sent %+v, want to @@grp9", s)
	}
	if err := hs.b.Send(context.Background(), "Nobody", chat.Reply{Title: "x"}, chat.SendOptions{}); !errors.Is(err, ErrGroupNotFound) {
		t.Errorf("Send to an unknown chat: %v", err)
	}
	if len(f.sends()) != 1 {
		t.Errorf("sends: %+v", f.sends())
	}
}

func TestSendToGroupNotSavedButSeen(t *testing.T) {
	f := newFake(t)
	f.groups["@@grp3"] = fakeUser{UserName: "@@grp3", NickName: "Unsaved Group", MemberList: f.groups[grpUser].MemberList}
	hs := start(t, f, func(o *Options) { o.Groups = []string{"*"} })
	f.push(fakeMsg{MsgId: "u1", FromUserName: "@@grp3", ToUserName: selfUser, MsgType: 1,
		Content: aliceUser + ":<br/>@" + botInGrp + "\u2005订阅 4090", CreateTime: time.Now().Unix()})
	if s, ok := f.waitSend(5 * time.Second); !ok || s.To != "@@grp3" {
		t.Fatalf("reply %+v", s)
	}
	if err := hs.b.SendToGroup(context.Background(), "Unsaved Group", chat.Reply{Title: "4090 有货"}); err != nil {
		t.Fatalf("push to a group that messaged the bot: %v", err)
	}
	if s, ok := f.waitSend(5 * time.Second); !ok || s.To != "@@grp3" {
		t.Errorf("push %+v", s)
	}
}

func TestSessionDrop(t *testing.T) {
	f := newFake(t)
	hs := start(t, f, nil)
	f.setSyncRet("1101")
	err := hs.wait(t)
	var ret openwechat.Ret
	if err == nil || !errors.As(err, &ret) || ret != 1101 || !strings.Contains(err.Error(), "re-login needed") {
		t.Fatalf("Run returned %v, want the 1101 session drop", err)
	}
	select {
	case reason := <-hs.logouts:
		if !errors.As(reason, &ret) || ret != 1101 {
			t.Errorf("OnLogout reason %v", reason)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("OnLogout not called")
	}
	if err := hs.b.SendToGroup(context.Background(), grpName, chat.Reply{Title: "x"}); !errors.Is(err, ErrNotLoggedIn) {
		t.Errorf("send after the drop: %v, want ErrNotLoggedIn", err)
	}
	if err := hs.b.Run(context.Background()); !errors.Is(err, ErrNotLoggedIn) {
		t.Errorf("Run after the drop: %v", err)
	}
}

func TestStopKeepsSession(t *testing.T) {
	f := newFake(t)
	hs := start(t, f, nil)
	hs.cancel()
	if err := hs.wait(t); err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
	select {
	case r := <-hs.logouts:
		t.Fatalf("OnLogout called on a normal stop: %v", r)
	default:
	}
	// No webwxlogout (the fake would fail the test): the state stays valid
	// for the next hot login, and pushes still work without the sync.
	if err := hs.b.SendToGroup(context.Background(), grpName, chat.Reply{Title: "digest"}); err != nil {
		t.Errorf("push after stop: %v", err)
	}
	hs.b.Close()
	if err := hs.b.SendToGroup(context.Background(), grpName, chat.Reply{Title: "digest"}); !errors.Is(err, ErrNotLoggedIn) {
		t.Errorf("push after Close: %v", err)
	}
}

func TestQRLoginWhenNoSavedState(t *testing.T) {
	f := newFake(t)
	dir := t.TempDir()
	png := filepath.Join(dir, "qr.png")
	var pngSeen atomic.Bool
	f.loginCode = []string{"408", "201", "200"}
	f.onCheck = func() {
		if b, err := os.ReadFile(png); err == nil && bytes.HasPrefix(b, []byte("\x89PNG")) {
			pngSeen.Store(true)
		}
	}
	var qr bytes.Buffer
	st := &MemoryStorage{}
	b, err := New(Options{Handler: &recorder{}, Storage: st, QRCodePNG: png, QRWriter: &qr, Log: testLogger(t),
		HTTPTransport: f.transport()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := b.Login(ctx); err != nil {
		t.Fatalf("Login: %v", err)
	}
	defer b.Close()
	if !pngSeen.Load() {
		t.Error("the QR code PNG was not there while waiting for the scan")
	}
	if _, err := os.Stat(png); !os.IsNotExist(err) {
		t.Errorf("QR PNG not removed after the login: %v", err)
	}
	if !strings.Contains(qr.String(), "扫码登录") || !strings.ContainsAny(qr.String(), "█▀▄") {
		t.Errorf("terminal QR output: %q", qr.String())
	}
	if h := f.host("/jslogin"); h != "login.wx.qq.com" {
		t.Errorf("jslogin host %q", h)
	}
	state, _ := st.Load(ctx)
	var item openwechat.HotReloadStorageItem
	if err := json.Unmarshal(state, &item); err != nil || item.LoginInfo == nil || item.LoginInfo.WxSid != "sid-1" {
		t.Errorf("state not saved after the QR login: %v %s", err, state)
	}
	if b.Self() != selfNick {
		t.Errorf("Self() = %q", b.Self())
	}
}

func TestStaleSavedSessionFallsBackToQR(t *testing.T) {
	f := newFake(t)
	f.initRets = []int{1101} // the saved session is no longer valid
	f.loginCode = []string{"200"}
	var qr bytes.Buffer
	st := NewMemoryStorage([]byte(hotState))
	b, err := New(Options{Handler: &recorder{}, Storage: st, QRWriter: &qr, Log: testLogger(t), HTTPTransport: f.transport()})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Login(context.Background()); err != nil {
		t.Fatalf("Login: %v", err)
	}
	defer b.Close()
	if f.count("/jslogin") != 1 || f.count(cgi+"webwxinit") != 2 || qr.Len() == 0 {
		t.Errorf("jslogin %d, webwxinit %d, QR drawn %v: want the QR fallback after the refused hot login",
			f.count("/jslogin"), f.count(cgi+"webwxinit"), qr.Len() > 0)
	}
	if st.Saves() == 0 {
		t.Error("the new session was not saved")
	}
}

func TestLoginFailsAtOnceOnPermanentError(t *testing.T) {
	f := newFake(t)
	f.jslogin = `window.QRLogin.code = 400;` // no uuid: WeChat refuses this client
	b, err := New(Options{Handler: &recorder{}, Log: testLogger(t), QRWriter: io.Discard, HTTPTransport: f.transport()})
	if err != nil {
		t.Fatal(err)
	}
	b.loginBackoff = time.Millisecond
	err = b.Login(context.Background())
	if err == nil || !strings.Contains(err.Error(), "uuid does not match") {
		t.Fatalf("Login = %v", err)
	}
	if n := f.count("/jslogin"); n != 1 {
		t.Errorf("jslogin asked %d times, want 1 (no retry of a permanent failure)", n)
	}
}

func TestSyncErrorsBackOff(t *testing.T) {
	b, _ := New(Options{Handler: &recorder{}, Log: testLogger(t)})
	b.syncBackoff = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	e := &syncErrors{b: b, ctx: ctx}
	t0 := time.Now()
	if err := e.handle(errors.Join(openwechat.NetworkErr, errors.New("dial"))); err != nil {
		t.Errorf("network error ends the session: %v", err)
	}
	if err := e.handle(openwechat.Ret(1205)); err != nil {
		t.Errorf("1205 ends the session: %v", err)
	}
	if d := time.Since(t0); d < 60*time.Millisecond {
		t.Errorf("two failures waited %v, want 20 ms + 40 ms", d)
	}
	e.ok(openwechat.SyncCheckResponse{RetCode: "0"})
	if e.failures != 0 {
		t.Error("a good sync check does not reset the backoff")
	}
	for _, code := range []int{1100, 1101, 1102} {
		if err := e.handle(openwechat.Ret(code)); err == nil {
			t.Errorf("ret %d does not end the session", code)
		}
	}
	cancel()
	t0 = time.Now()
	_ = e.handle(errors.New("context canceled"))
	if time.Since(t0) > 10*time.Millisecond {
		t.Error("waited while stopping")
	}
}

func TestLoginRetriesNetworkErrors(t *testing.T) {
	f := newFake(t)
	tr := f.transport()
	var n atomic.Int64
	// openwechat's client repeats a request 5 times; 10 failures break
	// the hot login and its QR fallback (jslogin) in the first try.
	tr.fail = func(*http.Request) error {
		if n.Add(1) <= 10 {
			return errNetwork
		}
		return nil
	}
	b, err := New(Options{Handler: &recorder{}, Storage: NewMemoryStorage([]byte(hotState)), Log: testLogger(t),
		QRWriter: io.Discard, HTTPTransport: tr})
	if err != nil {
		t.Fatal(err)
	}
	b.loginBackoff = 5 * time.Millisecond
	if err := b.Login(context.Background()); err != nil {
		t.Fatalf("Login after transient failures: %v", err)
	}
	defer b.Close()
	if f.count(cgi+"webwxinit") != 1 {
		t.Errorf("webwxinit answered %d times", f.count(cgi+"webwxinit"))
	}
}

func TestLoginStopsWithContext(t *testing.T) {
	f := newFake(t)
	// No saved state and a QR code nobody scans: Login waits until ctx ends.
	b, err := New(Options{Handler: &recorder{}, Log: testLogger(t), QRWriter: io.Discard, HTTPTransport: f.transport()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	err = b.Login(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Login = %v, want the context's deadline", err)
	}
	if err := b.Run(context.Background()); !errors.Is(err, ErrNotLoggedIn) {
		t.Errorf("Run without login: %v", err)
	}
}

func TestRatePerChat(t *testing.T) {
	f := newFake(t)
	hs := start(t, f, func(o *Options) { o.RatePerChat = 10 }) // burst 3, then one per 100 ms
	t0 := time.Now()
	for range 5 {
		if err := hs.b.SendToGroup(context.Background(), grpName, chat.Reply{Title: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(t0); d < 150*time.Millisecond {
		t.Errorf("5 sends took %v; the limiter (10/s, burst 3) should hold the last two", d)
	}
}

// TestChartSentAsImage: a reply with a chart goes out as text (with the
// chart as bars) and then as a PNG image uploaded to WeChat; a failing
// image does not fail the send.
func TestChartSentAsImage(t *testing.T) {
	f := newFake(t)
	png := []byte("\x89PNG\r\n\x1a\nfake-image-bytes")
	fail := false
	hs := start(t, f, func(o *Options) {
		o.ChartPNG = func(c *chat.BarChart) ([]byte, error) {
			if fail {
				return nil, errors.New("no fonts")
			}
			return png, nil
		}
	})
	r := chat.Reply{Title: "存储花费周报", Chart: &chat.BarChart{Labels: []string{"W47", "W48"}, Values: []float64{2.1, 10.5}, Unit: " 元"}}
	if err := hs.b.SendToGroup(context.Background(), grpName, r); err != nil {
		t.Fatal(err)
	}
	text, ok1 := f.waitSend(5 * time.Second)
	img, ok2 := f.waitSend(5 * time.Second)
	if !ok1 || !ok2 || text.Type != 1 || !strings.Contains(text.Content, "W48 ████████████████████ 10.50 元") ||
		img.Type != 3 || img.To != grpUser || img.Content != "image:@media-1" {
		t.Fatalf("sent %+v then %+v", text, img)
	}
	f.mu.Lock()
	up := f.uploads
	f.mu.Unlock()
	if len(up) != 1 || string(up[0].Data) != string(png) || up[0].Ticket != "ticket-1" {
		t.Errorf("uploads %+v", up)
	}
	fail = true
	if err := hs.b.SendToGroup(context.Background(), grpName, r); err != nil {
		t.Errorf("a failing chart failed the send: %v", err)
	}
	if _, ok := f.waitSend(5 * time.Second); !ok {
		t.Error("the text was not sent")
	}
}

// slowRecorder answers after a delay and has a "查询中…".
type slowRecorder struct {
	*recorder
	delay time.Duration
}

func (s slowRecorder) Handle(ctx context.Context, msg chat.Message) chat.Reply {
	time.Sleep(s.delay)
	return s.recorder.Handle(ctx, msg)
}

func (s slowRecorder) Interim(chat.Message) chat.Reply { return chat.Reply{Title: "查询中…"} }

// TestSlowAnswerInterim: a slow answer is preceded by "查询中…" in the same
// chat (WeChat cannot edit a message, so the answer follows as another).
func TestSlowAnswerInterim(t *testing.T) {
	f := newFake(t)
	start(t, f, func(o *Options) {
		o.Handler = slowRecorder{recorder: &recorder{}, delay: 400 * time.Millisecond}
		o.InterimAfter = 50 * time.Millisecond
	})
	f.push(groupMsg(aliceUser, "@"+botInGrp+"\u2005哪家有4090"))
	var got []string
	for len(got) < 2 {
		s, ok := f.waitSend(5 * time.Second)
		if !ok {
			t.Fatalf("sends so far %q, want an interim then the answer", got)
		}
		if s.To != grpUser {
			t.Fatalf("sent to %s", s.To)
		}
		got = append(got, s.Content)
	}
	if !strings.Contains(got[0], "查询中") || !strings.Contains(got[1], "answer: 哪家有4090") {
		t.Errorf("sends %q: want 查询中… then the answer", got)
	}
}
