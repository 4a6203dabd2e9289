package feishu_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	larkevent "github.com/larksuite/oapi-sdk-go/v3/event"
	larkws "github.com/larksuite/oapi-sdk-go/v3/ws"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/claim"
	"github.com/labgpu/bot/internal/chat/feishu"
)

// TestFixtureCrypto: the test helpers encrypt and sign exactly as the
// fixtures (and so Feishu) do.
func TestFixtureCrypto(t *testing.T) {
	for _, name := range []string{"event_im_message_receive_group_at_bot", "event_url_verification"} {
		t.Run(name, func(t *testing.T) {
			body := bytes.TrimRight(readFixture(t, name+".encrypted.json"), "\n")
			var hdr map[string]string
			if err := json.Unmarshal(readFixture(t, name+".encrypted.headers.json"), &hdr); err != nil {
				t.Fatal(err)
			}
			if got := sign(hdr["X-Lark-Request-Timestamp"], hdr["X-Lark-Request-Nonce"], encryptKey, body); got != hdr["X-Lark-Signature"] {
				t.Errorf("signature %s, fixture %s", got, hdr["X-Lark-Signature"])
			}
			var plain bytes.Buffer
			if err := json.Compact(&plain, readFixture(t, name+".json")); err != nil {
				t.Fatal(err)
			}
			var enc struct{ Encrypt string }
			_ = json.Unmarshal(encrypt(plain.Bytes(), encryptKey), &enc)
			got, err := larkevent.EventDecrypt(enc.Encrypt, encryptKey)
			if err != nil || !bytes.Equal(got, plain.Bytes()) {
				t.Errorf("round trip: %q, %v", got, err)
			}
		})
	}
}

// TestCallback drives the HTTP callback with re-encrypted, re-signed
// fixture events and checks the status codes, what the Handler was asked
// and what was posted to the fake open platform.
func TestCallback(t *testing.T) {
	fixtureDir(t)
	now := time.Now()
	bot := mention("@_user_1", botOpenID, "LabBot")
	alice := mention("@_user_2", aliceOpenID, "Alice")

	type tc struct {
		name       string
		opts       func(*feishu.Options)
		deliveries func(t *testing.T) []delivery
		wantStatus []int
		wantTexts  []string // what the Handler got, in order
		wantSent   int      // messages posted
		check      func(t *testing.T, resps []string, sent []sent)
	}
	cases := []tc{
		{
			name: "group message at bot: one reply to that message",
			deliveries: func(t *testing.T) []delivery {
				return []delivery{sealed(groupEvent(t, groupEventID, groupMsgID, "", nil), now)}
			},
			wantStatus: []int{200},
			wantTexts:  []string{"/status A100 queue, cc @Zhang San"},
			wantSent:   1,
			check: func(t *testing.T, _ []string, s []sent) {
				if s[0].Path != "/open-apis/im/v1/messages/"+groupMsgID+"/reply" || s[0].MsgType != "text" {
					t.Errorf("sent %+v", s[0])
				}
				if got := s[0].text(t); got != "echo: /status A100 queue, cc @Zhang San" {
					t.Errorf("reply text %q", got)
				}
				if !strings.HasPrefix(s[0].Auth, "Bearer t-") || s[0].UUID == "" {
					t.Errorf("auth %q uuid %q", s[0].Auth, s[0].UUID)
				}
			},
		},
		{
			name: "fixture body unchanged, re-signed with a fresh timestamp",
			deliveries: func(t *testing.T) []delivery {
				body := bytes.TrimRight(readFixture(t, "event_im_message_receive_group_at_bot.encrypted.json"), "\n")
				// The fixture message is from 2024: Started must be older for it to count.
				return []delivery{signedDelivery(body, now, encryptKey)}
			},
			opts:       func(o *feishu.Options) { o.Started = time.UnixMilli(1718013600000) },
			wantStatus: []int{200},
			wantTexts:  []string{"/status A100 queue, cc @Zhang San"},
			wantSent:   1,
		},
		{
			name: "same event delivered three times: one reply",
			deliveries: func(t *testing.T) []delivery {
				ev := groupEvent(t, "ev-dup", "om-dup", "", nil)
				return []delivery{sealed(ev, now), sealed(ev, now), sealed(ev, now.Add(-time.Minute))}
			},
			wantStatus: []int{200, 200, 200},
			wantTexts:  []string{"/status A100 queue, cc @Zhang San"},
			wantSent:   1,
		},
		{
			name: "same message_id under another event_id: one reply",
			deliveries: func(t *testing.T) []delivery {
				return []delivery{
					sealed(groupEvent(t, "ev-a", "om-same", "", nil), now),
					sealed(groupEvent(t, "ev-b", "om-same", "", nil), now),
				}
			},
			wantStatus: []int{200, 200},
			wantTexts:  []string{"/status A100 queue, cc @Zhang San"},
			wantSent:   1,
		},
		{
			name: "bad signature: 401, nothing posted",
			deliveries: func(t *testing.T) []delivery {
				d := sealed(groupEvent(t, "ev-badsig", "om-badsig", "", nil), now)
				d.header.Set("X-Lark-Signature", strings.Repeat("0", 64))
				return []delivery{d}
			},
			wantStatus: []int{401},
		},
		{
			name: "signed with another key: 401",
			deliveries: func(t *testing.T) []delivery {
				body := encrypt([]byte(mustJSON(groupEvent(t, "ev-key", "om-key", "", nil))), encryptKey)
				return []delivery{signedDelivery(body, now, "some-other-key")}
			},
			wantStatus: []int{401},
		},
		{
			name: "stale timestamp: 401",
			deliveries: func(t *testing.T) []delivery {
				return []delivery{sealed(groupEvent(t, "ev-stale", "om-stale", "", nil), now.Add(-6*time.Minute))}
			},
			wantStatus: []int{401},
			check: func(t *testing.T, resps []string, _ []sent) {
				if !strings.Contains(resps[0], "stale or missing timestamp") {
					t.Errorf("body %s", resps[0])
				}
			},
		},
		{
			name: "timestamp from the future: 401",
			deliveries: func(t *testing.T) []delivery {
				return []delivery{sealed(groupEvent(t, "ev-future", "om-future", "", nil), now.Add(6*time.Minute))}
			},
			wantStatus: []int{401},
		},
		{
			name: "missing timestamp on an event: 401",
			deliveries: func(t *testing.T) []delivery {
				d := sealed(groupEvent(t, "ev-nots", "om-nots", "", nil), now)
				d.header.Del("X-Lark-Request-Timestamp")
				return []delivery{d}
			},
			wantStatus: []int{401},
		},
		{
			name: "wrong header.token, correctly encrypted and signed: 401",
			deliveries: func(t *testing.T) []delivery {
				ev := groupEvent(t, "ev-tok", "om-tok", "", nil)
				sub(ev, "header")["token"] = "not-the-token"
				return []delivery{sealed(ev, now)}
			},
			wantStatus: []int{401},
		},
		{
			name: "body over the limit: 413",
			opts: func(o *feishu.Options) { o.MaxBodyBytes = 512 },
			deliveries: func(t *testing.T) []delivery {
				return []delivery{sealed(groupEvent(t, "ev-big", "om-big", "", nil), now)}
			},
			wantStatus: []int{413},
		},
		{
			name: "body over the limit without Content-Length: 413",
			opts: func(o *feishu.Options) { o.MaxBodyBytes = 512 },
			deliveries: func(t *testing.T) []delivery {
				d := sealed(groupEvent(t, "ev-big2", "om-big2", "", nil), now)
				d.method = "POST-chunked"
				return []delivery{d}
			},
			wantStatus: []int{413},
		},
		{
			name: "dedup store down: 503, nothing posted",
			opts: func(o *feishu.Options) { o.Dedup = brokenDedup{} },
			deliveries: func(t *testing.T) []delivery {
				return []delivery{sealed(p2pEvent(t, "ev-broken", "om-broken", ""), now)}
			},
			wantStatus: []int{503},
		},
		{
			name:       "GET: 405",
			deliveries: func(t *testing.T) []delivery { return []delivery{{method: http.MethodGet}} },
			wantStatus: []int{405},
		},
		{
			name: "@all only: nothing",
			deliveries: func(t *testing.T) []delivery {
				ev := groupEvent(t, "ev-all", "om-all", "@_all 4090有吗", []any{mention("@_all", "", "所有人")})
				return []delivery{sealed(ev, now)}
			},
			wantStatus: []int{200},
		},
		{
			name: "@all without a mentions entry: nothing",
			deliveries: func(t *testing.T) []delivery {
				ev := groupEvent(t, "ev-all2", "om-all2", "@_all 4090有吗", []any{})
				return []delivery{sealed(ev, now)}
			},
			wantStatus: []int{200},
		},
		{
			name: "only @alice: nothing",
			deliveries: func(t *testing.T) []delivery {
				alice1 := mention("@_user_1", aliceOpenID, "Alice")
				return []delivery{sealed(groupEvent(t, "ev-alice", "om-alice", "@_user_1 4090有吗", []any{alice1}), now)}
			},
			wantStatus: []int{200},
		},
		{
			name: "@bot @alice 4090有吗: answered with 4090有吗",
			deliveries: func(t *testing.T) []delivery {
				ev := groupEvent(t, "ev-both", "om-both", "@_user_1 @_user_2 4090有吗", []any{bot, alice})
				return []delivery{sealed(ev, now)}
			},
			wantStatus: []int{200},
			wantTexts:  []string{"4090有吗"},
			wantSent:   1,
		},
		{
			name: "@alice @bot, bot second: answered",
			deliveries: func(t *testing.T) []delivery {
				a := mention("@_user_1", aliceOpenID, "Alice")
				b := mention("@_user_2", botOpenID, "LabBot")
				return []delivery{sealed(groupEvent(t, "ev-ab", "om-ab", "@_user_1 @_user_2 哪家有4090", []any{a, b}), now)}
			},
			wantStatus: []int{200},
			wantTexts:  []string{"哪家有4090"},
			wantSent:   1,
		},
		{
			name: "p2p /help: answered",
			deliveries: func(t *testing.T) []delivery {
				return []delivery{sealed(p2pEvent(t, "ev-p2p", "om-p2p", ""), now)}
			},
			wantStatus: []int{200},
			wantTexts:  []string{"/help"},
			wantSent:   1,
			check: func(t *testing.T, _ []string, s []sent) {
				if s[0].Path != "/open-apis/im/v1/messages/om-p2p/reply" {
					t.Errorf("path %s", s[0].Path)
				}
			},
		},
		{
			name: "bot's own message: ignored",
			deliveries: func(t *testing.T) []delivery {
				ev := groupEvent(t, "ev-self", "om-self", "", nil)
				sender := sub(sub(ev, "event"), "sender")
				sub(sender, "sender_id")["open_id"] = botOpenID
				return []delivery{sealed(ev, now)}
			},
			wantStatus: []int{200},
		},
		{
			name: "sender_type app: ignored",
			deliveries: func(t *testing.T) []delivery {
				ev := p2pEvent(t, "ev-app", "om-app", "")
				sub(sub(ev, "event"), "sender")["sender_type"] = "app"
				return []delivery{sealed(ev, now)}
			},
			wantStatus: []int{200},
		},
		{
			name: "created 2 min before start: ignored",
			deliveries: func(t *testing.T) []delivery {
				ev := p2pEvent(t, "ev-old", "om-old", "")
				setIDs(ev, "ev-old", "om-old", now.Add(-2*time.Minute))
				return []delivery{sealed(ev, now)}
			},
			wantStatus: []int{200},
		},
		{
			name: "image at bot: short note",
			deliveries: func(t *testing.T) []delivery {
				ev := groupEvent(t, "ev-img", "om-img", "", []any{bot})
				msg := sub(sub(ev, "event"), "message")
				msg["message_type"] = "image"
				msg["content"] = `{"image_key":"img_v2_x"}`
				return []delivery{sealed(ev, now)}
			},
			wantStatus: []int{200},
			wantSent:   1,
			check: func(t *testing.T, _ []string, s []sent) {
				if got := s[0].text(t); got != "目前只支持文字消息" {
					t.Errorf("note %q", got)
				}
			},
		},
		{
			name: "url_verification, encrypted and signed",
			deliveries: func(t *testing.T) []delivery {
				return []delivery{sealed(readFixture(t, "event_url_verification.json"), now)}
			},
			wantStatus: []int{200},
			check: func(t *testing.T, r []string, _ []sent) {
				if r[0] != `{"challenge":"ajls384kdjx98XX"}` {
					t.Errorf("challenge reply %s", r[0])
				}
			},
		},
		{
			name: "url_verification fixture body, no headers",
			deliveries: func(t *testing.T) []delivery {
				body := bytes.TrimRight(readFixture(t, "event_url_verification.encrypted.json"), "\n")
				return []delivery{{method: http.MethodPost, body: body}}
			},
			wantStatus: []int{200},
			check: func(t *testing.T, r []string, _ []sent) {
				if r[0] != `{"challenge":"ajls384kdjx98XX"}` {
					t.Errorf("challenge reply %s", r[0])
				}
			},
		},
		{
			name: "url_verification with the wrong token: 401",
			deliveries: func(t *testing.T) []delivery {
				return []delivery{sealed(map[string]any{"challenge": "x", "token": "wrong", "type": "url_verification"}, now)}
			},
			wantStatus: []int{401},
		},
		{
			name: "no encrypt key allowed: plain url_verification",
			opts: func(o *feishu.Options) { o.EncryptKey, o.AllowNoEncryptKey = "", true },
			deliveries: func(t *testing.T) []delivery {
				return []delivery{{method: http.MethodPost, body: readFixture(t, "event_url_verification.json")}}
			},
			wantStatus: []int{200},
			check: func(t *testing.T, r []string, _ []sent) {
				if r[0] != `{"challenge":"ajls384kdjx98XX"}` {
					t.Errorf("challenge reply %s", r[0])
				}
			},
		},
		{
			name: "no encrypt key allowed: plain event answered, wrong token refused",
			opts: func(o *feishu.Options) { o.EncryptKey, o.AllowNoEncryptKey = "", true },
			deliveries: func(t *testing.T) []delivery {
				bad := p2pEvent(t, "ev-plain-bad", "om-plain-bad", "forged")
				sub(bad, "header")["token"] = "forged"
				return []delivery{
					plainDelivery(p2pEvent(t, "ev-plain", "om-plain", ""), now),
					plainDelivery(bad, now),
					plainDelivery(p2pEvent(t, "ev-plain-nots", "om-plain-nots", ""), time.Time{}),
				}
			},
			wantStatus: []int{200, 401, 401},
			wantTexts:  []string{"/help"},
			wantSent:   1,
		},
		{
			name: "encrypted bot gets a plain body: 401",
			deliveries: func(t *testing.T) []delivery {
				return []delivery{plainDelivery(p2pEvent(t, "ev-pl", "om-pl", ""), now)}
			},
			wantStatus: []int{401},
		},
	}

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			h := &recHandler{}
			logs := &syncBuffer{}
			opts := baseOptions(f, h, logs)
			if c.opts != nil {
				c.opts(&opts)
			}
			b := newBot(t, opts)
			handler := b.HTTPHandler()
			var resps []string
			for i, d := range c.deliveries(t) {
				rec := deliver(handler, d)
				resps = append(resps, rec.Body.String())
				if i < len(c.wantStatus) && rec.Code != c.wantStatus[i] {
					t.Errorf("delivery %d: status %d, want %d (body %s)", i, rec.Code, c.wantStatus[i], rec.Body)
				}
			}
			if err := b.Close(); err != nil { // drains the queue
				t.Fatal(err)
			}
			if got := h.texts(); !slices.Equal(got, c.wantTexts) {
				t.Errorf("handler got %q, want %q", got, c.wantTexts)
			}
			s := f.messages()
			if len(s) != c.wantSent {
				t.Fatalf("posted %d messages, want %d: %+v", len(s), c.wantSent, s)
			}
			if c.check != nil {
				c.check(t, resps, s)
			}
			for _, secret := range []string{appSecret, encryptKey, verifyToken, "t-g1046ahJKQGS5VJBE2ZUXGVIVM3ZKBWU7YEDTUSE"} {
				if strings.Contains(logs.String(), secret) {
					t.Errorf("logs contain a secret %q:\n%s", secret, logs)
				}
			}
		})
	}
}

// TestMessageFields: the chat.Message handed to the Handler.
func TestMessageFields(t *testing.T) {
	f := newFake(t)
	h := &recHandler{}
	b := newBot(t, baseOptions(f, h, nil))
	ev := groupEvent(t, "ev-fields", "om-fields", "", nil)
	if rec := deliver(b.HTTPHandler(), sealed(ev, time.Now())); rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	_ = b.Close()
	ms := h.messages()
	if len(ms) != 1 {
		t.Fatalf("messages %+v", ms)
	}
	m := ms[0]
	if m.Channel != "feishu" || m.ID != "om-fields" || m.ChatID != groupChat || m.ChatType != "group" ||
		m.SenderID != humanOpenID || time.Since(m.Time) > time.Minute {
		t.Errorf("message %+v", m)
	}
	if b.BotOpenID() != botOpenID {
		t.Errorf("bot open id %q", b.BotOpenID())
	}
}

// TestQueueFull: a full queue answers 503 without claiming the event, so
// Feishu's retry is answered later.
func TestQueueFull(t *testing.T) {
	f := newFake(t)
	h := &recHandler{gate: make(chan struct{}), got: make(chan struct{}, 8)}
	opts := baseOptions(f, h, nil)
	opts.Workers, opts.QueueSize = 1, 1
	b := newBot(t, opts)
	hh := b.HTTPHandler()
	now := time.Now()
	if rec := deliver(hh, sealed(p2pEvent(t, "ev-q1", "om-q1", "one"), now)); rec.Code != 200 {
		t.Fatalf("first: %d", rec.Code)
	}
	<-h.got // the worker is busy with the first
	if rec := deliver(hh, sealed(p2pEvent(t, "ev-q2", "om-q2", "two"), now)); rec.Code != 200 {
		t.Fatalf("second: %d", rec.Code)
	}
	third := sealed(p2pEvent(t, "ev-q3", "om-q3", "three"), now)
	if rec := deliver(hh, third); rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("third: %d, want 503", rec.Code)
	}
	close(h.gate)
	<-h.got // second
	// Feishu retries the third.
	var rec = deliver(hh, sealed(p2pEvent(t, "ev-q3", "om-q3", "three"), now))
	for i := 0; rec.Code == http.StatusServiceUnavailable && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
		rec = deliver(hh, sealed(p2pEvent(t, "ev-q3", "om-q3", "three"), now))
	}
	if rec.Code != 200 {
		t.Fatalf("retry: %d", rec.Code)
	}
	go func() {
		for range h.got {
		}
	}()
	_ = b.Close()
	close(h.got)
	if got := h.texts(); !slices.Equal(got, []string{"one", "two", "three"}) {
		t.Errorf("handled %q", got)
	}
	if n := len(f.messages()); n != 3 {
		t.Errorf("sent %d", n)
	}
	// After Close the callback refuses with 503 (Feishu retries elsewhere or later).
	if rec := deliver(hh, sealed(p2pEvent(t, "ev-q4", "om-q4", "four"), now)); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("after close: %d", rec.Code)
	}
}

// TestNew: validation, the bot info request and the per-Bot token cache.
func TestNew(t *testing.T) {
	f := newFake(t)
	cases := []struct {
		name    string
		mutate  func(*feishu.Options)
		info    *reply
		wantErr string
	}{
		{name: "ok"},
		{name: "no app id", mutate: func(o *feishu.Options) { o.AppID = "" }, wantErr: "FEISHU_APP_ID"},
		{name: "no app secret", mutate: func(o *feishu.Options) { o.AppSecret = "" }, wantErr: "FEISHU_APP_SECRET"},
		{name: "webhook without encrypt key", mutate: func(o *feishu.Options) { o.EncryptKey = "" }, wantErr: "FEISHU_ENCRYPT_KEY"},
		{name: "webhook without encrypt key, allowed", mutate: func(o *feishu.Options) { o.EncryptKey, o.AllowNoEncryptKey = "", true }},
		{name: "webhook without verification token", mutate: func(o *feishu.Options) { o.VerificationToken = "" }, wantErr: "FEISHU_VERIFICATION_TOKEN"},
		{name: "websocket needs neither", mutate: func(o *feishu.Options) {
			o.Mode, o.EncryptKey, o.VerificationToken = feishu.ModeWebsocket, "", ""
		}},
		{name: "unknown mode", mutate: func(o *feishu.Options) { o.Mode = "poll" }, wantErr: "FEISHU_MODE"},
		{name: "bad base url", mutate: func(o *feishu.Options) { o.BaseURL = "open.feishu.cn" }, wantErr: "FEISHU_BASE_URL"},
		{name: "no handler", mutate: func(o *feishu.Options) { o.Handler = nil }, wantErr: "Handler"},
		{name: "wrong secret", mutate: func(o *feishu.Options) { o.AppSecret = "wrong" }, wantErr: "tenant_access_token"},
		{name: "bot info refused", info: &reply{status: 400, body: `{"code":10003,"msg":"app has no bot"}`}, wantErr: "/open-apis/bot/v3/info"},
		{name: "bot info without bot", info: &reply{status: 200, body: `{"code":0,"msg":"ok","data":{}}`}, wantErr: "bot.open_id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f.mu.Lock()
			f.infoReply = c.info
			f.mu.Unlock()
			opts := baseOptions(f, &recHandler{}, nil)
			if c.mutate != nil {
				c.mutate(&opts)
			}
			b, err := feishu.New(context.Background(), opts)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				_ = b.Close()
				return
			}
			if err == nil {
				_ = b.Close()
				t.Fatalf("New succeeded, want an error naming %s", c.wantErr)
			}
			if !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("error %q does not name %s", err, c.wantErr)
			}
			if strings.Contains(err.Error(), appSecret) || strings.Contains(err.Error(), encryptKey) {
				t.Errorf("error leaks a secret: %v", err)
			}
		})
	}

	t.Run("bot info times out", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		blocked := make(chan struct{})
		defer close(blocked)
		slow := newFake(t)
		slow.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-blocked:
			case <-r.Context().Done():
			}
		})
		b, err := feishu.New(ctx, baseOptions(slow, &recHandler{}, nil))
		if err != nil {
			t.Fatalf("New with the open platform not answering: %v (want a degraded start)", err)
		}
		defer b.Close()
		if b.BotOpenID() != "" || b.Ready() == nil {
			t.Errorf("open_id %q, ready %v: want unknown and not ready", b.BotOpenID(), b.Ready())
		}
	})

	// The info endpoint down (HTTP 502) at start: New succeeds, group
	// events are refused for Feishu to redeliver while p2p ones are
	// answered, and the bot info is fetched again in the background.
	t.Run("bot info down: starts degraded", func(t *testing.T) {
		g := newFake(t)
		g.mu.Lock()
		g.infoReply = &reply{status: 502, body: `<html>bad gateway</html>`}
		g.mu.Unlock()
		h := &recHandler{}
		b, err := feishu.New(context.Background(), baseOptions(g, h, nil))
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		defer b.Close()
		hh := b.HTTPHandler()
		now := time.Now()
		if rec := deliver(hh, sealed(groupEvent(t, "ev-d1", "om-d1", "", nil), now)); rec.Code != http.StatusServiceUnavailable {
			t.Errorf("group event without bot info: HTTP %d, want 503 (Feishu redelivers)", rec.Code)
		}
		if rec := deliver(hh, sealed(p2pEvent(t, "ev-d2", "om-d2", "4090"), now)); rec.Code != http.StatusOK {
			t.Errorf("p2p event without bot info: HTTP %d, want 200", rec.Code)
		}
	})

	// §1d: the SDK's token cache is process-wide and keyed by app id only;
	// two bots with the same app id against two servers must each fetch
	// their own token.
	t.Run("token cache per bot", func(t *testing.T) {
		f1, f2 := newFake(t), newFake(t)
		b1 := newBot(t, baseOptions(f1, &recHandler{}, nil))
		b2 := newBot(t, baseOptions(f2, &recHandler{}, nil))
		for _, b := range []*feishu.Bot{b1, b2} {
			if err := b.Send(context.Background(), groupChat, replyOf("hi"), chat.SendOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		for i, f := range []*fake{f1, f2} {
			f.mu.Lock()
			calls := f.tokenCalls
			f.mu.Unlock()
			if calls != 1 || len(f.messages()) != 1 {
				t.Errorf("fake %d: %d token calls, %d messages", i+1, calls, len(f.messages()))
			}
		}
	})
}

// TestRunWebsocket: the long connection reports the SDK's client error
// (bad credentials) and returns when ctx ends.
func TestRunWebsocket(t *testing.T) {
	f := newFake(t)
	opts := baseOptions(f, &recHandler{}, nil)
	opts.Mode = feishu.ModeWebsocket
	b := newBot(t, opts)
	err := b.RunWebsocket(context.Background())
	var ce *larkws.ClientError
	if !errors.As(err, &ce) || ce.Code != 1000040345 {
		t.Fatalf("err %v, want *ws.ClientError 1000040345", err)
	}

	// A server error makes the SDK retry forever; ctx ends RunWebsocket.
	f.mu.Lock()
	f.wsReply = &reply{status: 200, body: `{"code":1,"msg":"system busy"}`}
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := b.RunWebsocket(ctx); err != nil {
		t.Errorf("RunWebsocket after ctx end: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if rec := deliver(b.HTTPHandler(), sealed(p2pEvent(t, "e", "m", ""), time.Now())); rec.Code != http.StatusNotFound {
		t.Errorf("callback in websocket mode: %d", rec.Code)
	}

	wb := newBot(t, baseOptions(f, &recHandler{}, nil))
	if err := wb.RunWebsocket(context.Background()); err == nil || !strings.Contains(err.Error(), "FEISHU_MODE") {
		t.Errorf("webhook bot RunWebsocket: %v", err)
	}
}

// brokenDedup is a store that is down.
type brokenDedup struct{}

func (brokenDedup) ClaimAlert(context.Context, string, time.Duration) (bool, error) {
	return false, errors.New("redis: connection refused")
}

func (brokenDedup) ReleaseAlert(context.Context, string) error {
	return errors.New("redis: connection refused")
}

// TestShutdownDrainsQueue: events accepted before the caller's ctx ends
// are still answered by Close (not dropped with their claims taken).
func TestShutdownDrainsQueue(t *testing.T) {
	f := newFake(t)
	h := &recHandler{gate: make(chan struct{}), got: make(chan struct{}, 8)}
	opts := baseOptions(f, h, nil)
	opts.Workers = 1
	ctx, cancel := context.WithCancel(context.Background())
	b, err := feishu.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	hh := b.HTTPHandler()
	now := time.Now()
	for _, id := range []string{"a", "b"} {
		if rec := deliver(hh, sealed(p2pEvent(t, "ev-sd-"+id, "om-sd-"+id, id), now)); rec.Code != 200 {
			t.Fatalf("%s: %d", id, rec.Code)
		}
	}
	<-h.got
	cancel() // SIGTERM
	close(h.gate)
	go func() {
		for range h.got {
		}
	}()
	_ = b.Close()
	if n := len(f.messages()); n != 2 {
		t.Fatalf("%d replies after shutdown, want 2 (the queue drained)", n)
	}
}

// TestFailedReplyIsRetriedByFeishu: when the reply cannot be sent, the
// claims are released, so Feishu's redelivery is answered.
func TestFailedReplyIsRetriedByFeishu(t *testing.T) {
	f := newFake(t)
	h := &recHandler{}
	b := newBot(t, baseOptions(f, h, nil))
	hh := b.HTTPHandler()
	f.setScript(reply{status: 500}, reply{status: 500}, reply{status: 500})
	if rec := deliver(hh, sealed(p2pEvent(t, "ev-fr", "om-fr", "hi"), time.Now())); rec.Code != 200 {
		t.Fatal(rec.Code)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(h.texts()) < 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // three failed tries with backoff
	var rec = deliver(hh, sealed(p2pEvent(t, "ev-fr", "om-fr", "hi"), time.Now()))
	if rec.Code != 200 {
		t.Fatal(rec.Code)
	}
	for len(h.texts()) < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	for len(f.messages()) < 4 && time.Now().Before(deadline) { // 3 failed tries, then the answer
		time.Sleep(10 * time.Millisecond)
	}
	if got := h.texts(); len(got) != 2 || len(f.messages()) != 4 {
		t.Errorf("handled %q, want the message twice (the redelivery answered)", got)
	}
}

// TestShutdownGrace: with a backlog that cannot be answered in time,
// Close returns within the configured grace (plus the hand-back), hands
// the rest back (a redelivery after the restart is answered) and says so
// in one log line with the count, not one per event.
func TestShutdownGrace(t *testing.T) {
	f := newFake(t)
	h := &recHandler{gate: make(chan struct{})} // answers never finish on their own
	var logs syncBuffer
	opts := baseOptions(f, h, &logs)
	opts.Workers, opts.DrainTimeout = 1, 300*time.Millisecond
	dedup := claim.NewMemoryDeduper()
	opts.Dedup = dedup
	b, err := feishu.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	hh := b.HTTPHandler()
	now := time.Now()
	const n = 30
	for i := range n {
		if rec := deliver(hh, sealed(p2pEvent(t, fmt.Sprintf("ev-g%d", i), fmt.Sprintf("om-g%d", i), "q"), now)); rec.Code != http.StatusOK {
			t.Fatalf("event %d: HTTP %d", i, rec.Code)
		}
	}
	began := time.Now()
	_ = b.Close()
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("Close took %v with a 300 ms grace", took)
	}
	out := logs.String()
	if strings.Count(out, "handed back") != 1 || !strings.Contains(out, "handed_back=") {
		t.Errorf("want one summary line with the count; log:\n%s", out)
	}
	// Handed back: a claim of a queued event is free again.
	if ok, _ := dedup.ClaimAlert(context.Background(), "feishu:msg:om-g29", time.Minute); !ok {
		t.Error("the last queued event is still claimed after shutdown")
	}
}

// TestBurstMerged: twelve questions in one group within a moment, at one
// message a second per chat: every answer arrives, within a few seconds,
// in fewer messages (replies that piled up are merged), none twice.
func TestBurstMerged(t *testing.T) {
	f := newFake(t)
	h := &recHandler{reply: func(m chat.Message) chat.Reply { return chat.Reply{Title: "answer to " + m.ID} }}
	opts := baseOptions(f, h, nil)
	opts.RatePerChat = 1
	b := newBot(t, opts)
	hh := b.HTTPHandler()
	now := time.Now()
	const n = 12
	began := time.Now()
	for i := range n {
		if rec := deliver(hh, sealed(groupEvent(t, fmt.Sprintf("ev-b%d", i), fmt.Sprintf("om-b%d", i), "", nil), now)); rec.Code != http.StatusOK {
			t.Fatalf("event %d: HTTP %d", i, rec.Code)
		}
	}
	all := func() string {
		var s strings.Builder
		for _, m := range f.messages() {
			s.WriteString(m.Content)
		}
		return s.String()
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := all()
		done := true
		for i := range n {
			if len(regexp.MustCompile(fmt.Sprintf(`answer to om-b%d\b`, i)).FindAllString(got, -1)) == 0 {
				done = false
			}
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not every answer arrived: %s", got)
		}
		time.Sleep(50 * time.Millisecond)
	}
	took := time.Since(began)
	msgs := len(f.messages())
	if msgs >= n || took > 8*time.Second {
		t.Errorf("%d answers took %d messages and %v; want them merged and well under %d s", n, msgs, took, n)
	}
	for i := range n {
		if c := len(regexp.MustCompile(fmt.Sprintf(`answer to om-b%d\b`, i)).FindAllString(all(), -1)); c != 1 {
			t.Errorf("answer %d appears %d times", i, c)
		}
	}
}
