package feishu_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/time/rate"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/feishu"
)

func replyOf(lines ...string) chat.Reply { return chat.Reply{Lines: lines} }

// parsedCard is the part of a card 2.0 the tests look at.
type parsedCard struct {
	Schema string `json:"schema"`
	Config struct {
		UpdateMulti bool `json:"update_multi"`
	} `json:"config"`
	Header *struct {
		Title struct {
			Tag     string `json:"tag"`
			Content string `json:"content"`
		} `json:"title"`
	} `json:"header"`
	Body struct {
		Elements []struct {
			Tag     string `json:"tag"`
			Content string `json:"content"`
		} `json:"elements"`
	} `json:"body"`
}

func parseCard(t *testing.T, content string) parsedCard {
	t.Helper()
	var c parsedCard
	dec := json.NewDecoder(strings.NewReader(content))
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("card is not JSON: %v\n%s", err, content)
	}
	if c.Schema != "2.0" || !c.Config.UpdateMulti || len(c.Body.Elements) == 0 {
		t.Errorf("card: schema %q, update_multi %v, %d elements", c.Schema, c.Config.UpdateMulti, len(c.Body.Elements))
	}
	for _, e := range c.Body.Elements {
		if e.Tag != "markdown" || e.Content == "" {
			t.Errorf("element %+v", e)
		}
	}
	return c
}

func offersReply(rows int) chat.Reply {
	r := chat.Reply{
		Title: "RTX 4090 报价（按价格从低到高）",
		Lines: []string{"共 3 家有货 <实时>"},
		Table: &chat.Table{Header: []string{"平台", "GPU", "空闲", "元/卡时"}},
		Notes: []string{"数据来源：平台 API，1 分钟前"},
	}
	for i := range rows {
		r.Table.Rows = append(r.Table.Rows, []string{fmt.Sprintf("平台%03d", i), "RTX 4090 | 24G", "3", "1.98"})
	}
	return r
}

// TestSend covers rendering, splitting, idempotency uuids, retries and the
// card fallback against the fake open platform.
func TestSend(t *testing.T) {
	fixtureDir(t)
	ctx := context.Background()
	long := make([]string, 300)
	for i := range long {
		long[i] = fmt.Sprintf("%03d ", i) + strings.Repeat("卡", 36)
	}
	cases := []struct {
		name    string
		reply   chat.Reply
		replyTo string
		script  []reply
		before  func(f *fake)
		wantErr bool
		check   func(t *testing.T, f *fake, s []sent)
	}{
		{
			name:  "table: one card 2.0",
			reply: offersReply(3),
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) != 1 || s[0].MsgType != "interactive" || s[0].ReceiveIDType != "chat_id" || s[0].ReceiveID != groupChat ||
					s[0].Path != "/open-apis/im/v1/messages" {
					t.Fatalf("sent %+v", s)
				}
				c := parseCard(t, s[0].Content)
				if c.Header == nil || c.Header.Title.Content != "RTX 4090 报价（按价格从低到高）" || c.Header.Title.Tag != "plain_text" {
					t.Errorf("header %+v", c.Header)
				}
				all := ""
				for _, e := range c.Body.Elements {
					all += e.Content + "\n"
				}
				for _, want := range []string{"| 平台 | GPU | 空闲 | 元/卡时 |", "| --- |", `| 平台002 | RTX 4090 \| 24G | 3 | 1.98 |`, "数据来源", "&lt;实时&gt;"} {
					if !strings.Contains(all, want) {
						t.Errorf("card lacks %q:\n%s", want, all)
					}
				}
			},
		},
		{
			name:  "big table: several cards under the limit",
			reply: offersReply(700),
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) < 2 {
					t.Fatalf("%d cards", len(s))
				}
				rows := 0
				for i, m := range s {
					if len(m.Content) > feishu.MaxCardBytes || m.MsgType != "interactive" {
						t.Errorf("card %d: %d bytes, %s", i, len(m.Content), m.MsgType)
					}
					for _, e := range parseCard(t, m.Content).Body.Elements {
						rows += strings.Count(e.Content, "| RTX 4090")
					}
				}
				if rows != 700 {
					t.Errorf("%d rows in the cards", rows)
				}
				if !strings.Contains(s[len(s)-1].Content, "数据来源") || strings.Contains(s[0].Content, "数据来源") {
					t.Error("notes belong in the last card only")
				}
			},
		},
		{
			name:  "text with mentions",
			reply: chat.Reply{Lines: []string{"4090 到货了"}, Mentions: []string{"ou_x", "ou_y"}},
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) != 1 || s[0].MsgType != "text" {
					t.Fatalf("sent %+v", s)
				}
				if got := s[0].text(t); got != `<at user_id="ou_x"></at> <at user_id="ou_y"></at> 4090 到货了` {
					t.Errorf("text %q", got)
				}
			},
		},
		{
			name:  "quotes, backslashes and newlines stay valid JSON",
			reply: chat.Reply{Title: `他说 "4090 没货"`, Lines: []string{"第一行\n第二行", `C:\data\ckpt <b>&`}},
			check: func(t *testing.T, f *fake, s []sent) {
				if !json.Valid([]byte(s[0].Content)) {
					t.Fatalf("content %q", s[0].Content)
				}
				if got := s[0].text(t); got != "他说 \"4090 没货\"\n第一行\n第二行\nC:\\data\\ckpt <b>&" {
					t.Errorf("text %q", got)
				}
			},
		},
		{
			name:  "long reply split at lines, under the limit, distinct uuids",
			reply: chat.Reply{Lines: long},
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) < 3 {
					t.Fatalf("%d parts", len(s))
				}
				var texts, uuids []string
				for _, m := range s {
					txt := m.text(t)
					if n := utf8.RuneCountInString(txt); n > feishu.MaxTextRunes || len(m.Content) > feishu.MaxTextBytes {
						t.Errorf("part of %d runes, %d bytes", n, len(m.Content))
					}
					texts = append(texts, txt)
					uuids = append(uuids, m.UUID)
				}
				if strings.Join(texts, "\n") != strings.Join(long, "\n") {
					t.Error("parts do not add up to the reply (or were cut mid-line)")
				}
				if u := slices.Compact(slices.Sorted(slices.Values(uuids))); len(u) != len(uuids) {
					t.Errorf("uuids not distinct: %q", uuids)
				}
			},
		},
		{
			name:  "one over-long line: cut between runes",
			reply: replyOf(strings.Repeat("显存", 4500) + "尾"),
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) != 3 {
					t.Fatalf("%d parts", len(s))
				}
				var all strings.Builder
				for _, m := range s {
					txt := m.text(t)
					if n := utf8.RuneCountInString(txt); n > feishu.MaxTextRunes {
						t.Errorf("part of %d runes", n)
					}
					all.WriteString(txt)
				}
				if all.String() != strings.Repeat("显存", 4500)+"尾" {
					t.Error("parts do not add up to the line")
				}
			},
		},
		{
			name: "a row too big for any card: text instead",
			reply: chat.Reply{Title: "T", Table: &chat.Table{Header: []string{"k", "v"},
				Rows: [][]string{{"big", strings.Repeat("x", 30<<10)}}}},
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) < 2 {
					t.Fatalf("%d parts", len(s))
				}
				for _, m := range s {
					if m.MsgType != "text" {
						t.Errorf("msg type %s", m.MsgType)
					}
				}
			},
		},
		{
			name:   "429 then success: retried with the same uuid",
			reply:  replyOf("hi"),
			script: []reply{{status: 429, body: `{"code":99991400,"msg":"request trigger frequency limit"}`}},
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) != 2 || s[0].UUID != s[1].UUID || s[0].Content != s[1].Content {
					t.Errorf("sent %+v", s)
				}
			},
		},
		{
			name:    "500 three times: error",
			reply:   replyOf("hi"),
			script:  []reply{{status: 500, body: `{"code":1,"msg":"internal"}`}, {status: 500, body: `{"code":1,"msg":"internal"}`}, {status: 500, body: `<html>oops</html>`}},
			wantErr: true,
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) != 3 {
					t.Errorf("%d tries", len(s))
				}
			},
		},
		{
			name:   "502 page without JSON, then success",
			reply:  replyOf("hi"),
			script: []reply{{status: 502, body: `<html>bad gateway</html>`}},
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) != 2 {
					t.Errorf("%d tries", len(s))
				}
			},
		},
		{
			name:   "token invalid: refreshed and retried",
			reply:  replyOf("hi"),
			before: func(f *fake) { f.revoke() },
			check: func(t *testing.T, f *fake, s []sent) {
				f.mu.Lock()
				calls := f.tokenCalls
				f.mu.Unlock()
				if len(s) != 2 || calls != 2 || s[0].Auth == s[1].Auth || s[0].UUID != s[1].UUID {
					t.Errorf("token calls %d, sent %+v", calls, s)
				}
			},
		},
		{
			name:   "card rejected: plain-text fallback",
			reply:  offersReply(2),
			script: []reply{{status: 400, body: `{"code":230099,"msg":"Failed to create card content"}`}},
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) != 2 || s[0].MsgType != "interactive" || s[1].MsgType != "text" {
					t.Fatalf("sent %+v", s)
				}
				if got, want := s[1].text(t), strings.TrimRight(chat.PlainText(offersReply(2)), "\n"); got != want {
					t.Errorf("fallback %q, want %q", got, want)
				}
			},
		},
		{
			name:    "other errors: returned, not retried",
			reply:   replyOf("hi"),
			script:  []reply{{status: 400, body: `{"code":230002,"msg":"Bot/User can NOT be out of the chat."}`}},
			wantErr: true,
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) != 1 {
					t.Errorf("%d tries", len(s))
				}
			},
		},
		{
			name:    "reply endpoint",
			reply:   replyOf("hi"),
			replyTo: groupMsgID,
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) != 1 || s[0].Path != "/open-apis/im/v1/messages/"+groupMsgID+"/reply" || s[0].ReceiveIDType != "" {
					t.Errorf("sent %+v", s)
				}
			},
		},
		{
			name:  "empty reply: nothing",
			reply: chat.Reply{},
			check: func(t *testing.T, f *fake, s []sent) {
				if len(s) != 0 {
					t.Errorf("sent %+v", s)
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			b := newBot(t, baseOptions(f, &recHandler{}, nil))
			f.setScript(c.script...)
			if c.before != nil {
				c.before(f)
			}
			err := b.Send(ctx, groupChat, c.reply, chat.SendOptions{ReplyTo: c.replyTo, IdempotencyKey: "idem-" + c.name})
			if (err != nil) != c.wantErr {
				t.Fatalf("Send: %v, want error %v", err, c.wantErr)
			}
			c.check(t, f, f.messages())
		})
	}
}

// TestSendIdempotent: a Send repeated with the same key posts nothing
// again (the outbox remembers the delivered parts); after a restart (a new
// Bot) it reuses every part's uuid, so Feishu drops the repeats; another
// key gets other uuids.
func TestSendIdempotent(t *testing.T) {
	f := newFake(t)
	b := newBot(t, baseOptions(f, &recHandler{}, nil))
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = strings.Repeat("长", 50)
	}
	r := chat.Reply{Lines: lines}
	uuids := func() []string {
		var u []string
		for _, s := range f.messages() {
			u = append(u, s.UUID)
		}
		f.mu.Lock()
		f.sent = nil
		f.mu.Unlock()
		return u
	}
	ctx := context.Background()
	if err := b.Send(ctx, groupChat, r, chat.SendOptions{IdempotencyKey: "alert:s-1:7"}); err != nil {
		t.Fatal(err)
	}
	first := uuids()
	if err := b.Send(ctx, groupChat, r, chat.SendOptions{IdempotencyKey: "alert:s-1:7"}); err != nil {
		t.Fatal(err)
	}
	if again := uuids(); len(again) != 0 {
		t.Errorf("a repeated Send posted %d parts again", len(again))
	}
	restarted := newBot(t, baseOptions(f, &recHandler{}, nil))
	if err := restarted.Send(ctx, groupChat, r, chat.SendOptions{IdempotencyKey: "alert:s-1:7"}); err != nil {
		t.Fatal(err)
	}
	again := uuids()
	if err := b.Send(ctx, groupChat, r, chat.SendOptions{IdempotencyKey: "alert:s-1:8"}); err != nil {
		t.Fatal(err)
	}
	other := uuids()
	if len(first) < 2 || !slices.Equal(first, again) {
		t.Errorf("uuids after a restart %q vs %q", again, first)
	}
	for _, u := range other {
		if slices.Contains(first, u) {
			t.Errorf("uuid %s reused under another key", u)
		}
	}
}

// TestSendRateLimit: parts beyond the burst wait for the per-chat limiter;
// another chat is not held up.
func TestSendRateLimit(t *testing.T) {
	f := newFake(t)
	opts := baseOptions(f, &recHandler{}, nil)
	opts.RatePerChat = rate.Limit(20)
	b := newBot(t, opts)
	ctx := context.Background()
	start := time.Now()
	for i := range feishu.RateBurst + 3 {
		if err := b.Send(ctx, groupChat, replyOf(fmt.Sprint(i)), chat.SendOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d < 120*time.Millisecond {
		t.Errorf("%d sends in %v: not rate limited", feishu.RateBurst+3, d)
	}
	start = time.Now()
	if err := b.Send(ctx, p2pChat, replyOf("x"), chat.SendOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("another chat waited %v", d)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := b.Send(cctx, groupChat, replyOf("late"), chat.SendOptions{}); err == nil {
		t.Error("Send with a cancelled context succeeded")
	}
}

// TestSendRetryAfter: a rate limit is waited out for as long as Feishu's
// x-ogw-ratelimit-reset says, and a permanent error is not retried.
func TestSendRetryAfter(t *testing.T) {
	limited := reply{status: 429, body: `{"code":99991400,"msg":"request trigger frequency limit"}`,
		header: http.Header{"X-Ogw-Ratelimit-Reset": {"1"}}}
	cases := []struct {
		name     string
		script   []reply
		requests int
		ok       bool
		minTook  time.Duration
	}{
		{"429 with x-ogw-ratelimit-reset: waited out, then sent", []reply{limited}, 2, true, 900 * time.Millisecond},
		{"bot not in the chat: permanent, one request", []reply{{status: 400, body: `{"code":230002,"msg":"Bot/User can NOT be out of the chat."}`}}, 1, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			b := newBot(t, baseOptions(f, &recHandler{}, nil))
			f.setScript(c.script...)
			start := time.Now()
			err := b.Send(context.Background(), groupChat, replyOf("hi"), chat.SendOptions{})
			took := time.Since(start)
			if (err == nil) != c.ok || len(f.messages()) != c.requests {
				t.Fatalf("err %v after %d requests; want ok %v after %d", err, len(f.messages()), c.ok, c.requests)
			}
			if took < c.minTook {
				t.Errorf("retried after %v, before the reset", took)
			}
		})
	}
}
