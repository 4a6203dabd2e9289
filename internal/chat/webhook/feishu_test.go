package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/chat"
)

type feishuReq struct {
	Timestamp *string `json:"timestamp"`
	Sign      *string `json:"sign"`
	MsgType   string  `json:"msg_type"`
	Content   *struct {
		Text string `json:"text"`
	} `json:"content"`
	Card *struct {
		Schema string `json:"schema"`
		Header *struct {
			Title struct{ Tag, Content string } `json:"title"`
		} `json:"header"`
		Body struct {
			Elements []struct{ Tag, Content string } `json:"elements"`
		} `json:"body"`
	} `json:"card"`
}

func (r feishuReq) markdown(t *testing.T) string {
	t.Helper()
	if r.Card == nil || len(r.Card.Body.Elements) != 1 || r.Card.Body.Elements[0].Tag != "markdown" {
		t.Fatalf("not a one-markdown card: %+v", r)
	}
	return r.Card.Body.Elements[0].Content
}

// TestFeishuSignature recomputes the documented signature: base64 of
// HMAC-SHA256 keyed with "<ts>\n<secret>" over empty data, ts in seconds.
func TestFeishuSignature(t *testing.T) {
	now := time.Date(2026, 11, 29, 8, 0, 0, 123e6, time.UTC)
	for _, tc := range []struct {
		name, secret string
	}{
		{"with secret", testSecret},
		{"chinese secret", "密钥-" + testSecret},
		{"no secret", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, feishuOK, nil)
			b, err := NewFeishuBot(f.feishuURL(), tc.secret, WithNow(func() time.Time { return now }))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Send(context.Background(), chat.Reply{Title: "hi"}); err != nil {
				t.Fatal(err)
			}
			var req feishuReq
			f.decode(0, &req)
			if tc.secret == "" {
				if req.Timestamp != nil || req.Sign != nil {
					t.Fatalf("unsigned bot sent timestamp/sign: %s", f.requests()[0])
				}
				return
			}
			if req.Timestamp == nil || *req.Timestamp != "1795939200" {
				t.Fatalf("timestamp %v, want seconds 1795939200", req.Timestamp)
			}
			mac := hmac.New(sha256.New, []byte("1795939200\n"+tc.secret))
			want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
			if req.Sign == nil || *req.Sign != want {
				t.Fatalf("sign %v, want %s", req.Sign, want)
			}
			if FeishuSign(tc.secret, 1795939200) != want {
				t.Fatal("FeishuSign disagrees")
			}
		})
	}
}

// TestFeishuSignedPerAttempt: a retry is signed again with the time of the
// retry.
func TestFeishuSignedPerAttempt(t *testing.T) {
	var mu sync.Mutex
	clock := time.Unix(1700000000, 0)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second)
		return clock
	}
	f := newFake(t, "", sequence(status(500, "busy"), status(200, feishuOK)))
	b, _ := NewFeishuBot(f.feishuURL(), testSecret, append(fast(3), WithNow(now))...)
	if err := b.Send(context.Background(), chat.Reply{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	var a, c feishuReq
	f.decode(0, &a)
	f.decode(1, &c)
	if *a.Timestamp == *c.Timestamp {
		t.Fatalf("retry reused timestamp %s", *a.Timestamp)
	}
	ts, _ := strconv.ParseInt(*c.Timestamp, 10, 64)
	if *c.Sign != FeishuSign(testSecret, ts) {
		t.Fatal("retry signature does not match its timestamp")
	}
}

// TestFeishuTextBody: quotes, backslashes, newlines, tags and Chinese
// arrive intact as valid JSON.
func TestFeishuTextBody(t *testing.T) {
	for _, tc := range []chat.Reply{
		{Title: `RTX 4090 报价（按价格从低到高）`, Lines: []string{`他说 "有货" \ 路径 C:\tmp`, "tab\there", "a < b && c > d"}},
		{Title: "多行", Lines: []string{"第一行\n第二行"}, Notes: []string{"来源：京东 · 10 分钟前"}},
		{Lines: []string{"emoji 🚀 and \u2028 line separator"}},
	} {
		t.Run(tc.Title, func(t *testing.T) {
			f := newFake(t, feishuOK, nil)
			b, _ := NewFeishuBot(f.feishuURL(), "")
			if err := b.Send(context.Background(), tc); err != nil {
				t.Fatal(err)
			}
			var req feishuReq
			f.decode(0, &req)
			if req.MsgType != "text" || req.Content == nil {
				t.Fatalf("not a text message: %s", f.requests()[0])
			}
			if want := strings.TrimRight(chat.PlainText(tc), "\n"); req.Content.Text != want {
				t.Fatalf("text %q, want %q", req.Content.Text, want)
			}
		})
	}
}

// TestFeishuCard: a reply with a table goes as a JSON 2.0 card object
// under "card", the table as a markdown table with escaped pipes.
func TestFeishuCard(t *testing.T) {
	f := newFake(t, feishuOK, nil)
	b, _ := NewFeishuBot(f.feishuURL(), testSecret)
	r := chat.Reply{
		Title:    "RTX 4090 报价",
		Lines:    []string{"共 2 家"},
		Table:    &chat.Table{Header: []string{"平台", "价格"}, Rows: [][]string{{"京东|自营", "¥12,999"}, {"淘宝", "¥13,499", "多余"}}},
		Notes:    []string{"来源：10 分钟前"},
		Mentions: []string{"ou_alice"},
	}
	if err := b.Send(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	var req feishuReq
	f.decode(0, &req)
	if req.MsgType != "interactive" || req.Card == nil || req.Content != nil {
		t.Fatalf("not a card: %s", f.requests()[0])
	}
	if req.Card.Schema != "2.0" || req.Card.Header == nil || req.Card.Header.Title.Content != r.Title || req.Card.Header.Title.Tag != "plain_text" {
		t.Fatalf("card header: %+v", req.Card)
	}
	md := req.markdown(t)
	for _, want := range []string{
		"<at id=ou_alice></at>",
		"共 2 家",
		"| 平台 | 价格 |   |\n| --- | --- | --- |",
		`| 京东\|自营 | ¥12,999 |   |`,
		"| 淘宝 | ¥13,499 | 多余 |",
		"来源：10 分钟前",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(md, "共 2 家\n\n| 平台") {
		t.Errorf("no blank line before the table:\n%s", md)
	}
}

// TestFeishuMentions renders mentions for text and card messages.
func TestFeishuMentions(t *testing.T) {
	table := &chat.Table{Header: []string{"a"}, Rows: [][]string{{"1"}}}
	for _, tc := range []struct {
		name     string
		r        chat.Reply
		want     []string
		mustNot  []string
		wantCard bool
	}{
		{"text user", chat.Reply{Title: "t", Mentions: []string{"ou_1", "ou_2", "ou_1"}}, []string{`<at user_id="ou_1"></at> <at user_id="ou_2"></at>` + "\nt"}, []string{"ou_1\"></at> <at user_id=\"ou_1"}, false},
		{"text all", chat.Reply{Title: "t", Mentions: []string{"all"}}, []string{`<at user_id="all">所有人</at>`}, nil, false},
		{"text bad id dropped", chat.Reply{Title: "t", Mentions: []string{`ou_"x`, "<b>"}}, []string{"t"}, []string{"<at", "<b>"}, false},
		{"card user", chat.Reply{Title: "t", Table: table, Mentions: []string{"ou_1"}}, []string{"<at id=ou_1></at>"}, nil, true},
		{"card all", chat.Reply{Title: "t", Table: table, Mentions: []string{"@all"}}, []string{"<at id=all></at>"}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, feishuOK, nil)
			b, _ := NewFeishuBot(f.feishuURL(), "")
			if err := b.Send(context.Background(), tc.r); err != nil {
				t.Fatal(err)
			}
			var req feishuReq
			f.decode(0, &req)
			var got string
			if tc.wantCard {
				got = req.markdown(t)
			} else {
				got = req.Content.Text
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q: %q", w, got)
				}
			}
			for _, w := range tc.mustNot {
				if strings.Contains(got, w) {
					t.Errorf("has %q: %q", w, got)
				}
			}
		})
	}
}

// TestFeishuSplit: long replies go as several messages, each body under
// 20,000 bytes, lines whole and in order, mentions only in the first, a
// card's table header in every part.
func TestFeishuSplit(t *testing.T) {
	var lines []string
	for i := range 600 {
		lines = append(lines, fmt.Sprintf("第 %03d 行：\"引号\" 和 \\ 反斜杠，价格 ¥%d", i, 10000+i))
	}
	var rows [][]string
	for i := range 500 {
		rows = append(rows, []string{fmt.Sprintf("平台 %03d", i), fmt.Sprintf("¥%d", 10000+i), "有货 \"现货\""})
	}
	for _, tc := range []struct {
		name string
		r    chat.Reply
		card bool
	}{
		{"text", chat.Reply{Title: "长回复", Lines: lines, Mentions: []string{"ou_1"}}, false},
		{"card", chat.Reply{Title: "长表格", Table: &chat.Table{Header: []string{"平台", "价格", "库存"}, Rows: rows}, Mentions: []string{"ou_1"}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, feishuOK, nil)
			b, _ := NewFeishuBot(f.feishuURL(), testSecret)
			if err := b.Send(context.Background(), tc.r); err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) < 2 {
				t.Fatalf("%d request(s), want a split", len(reqs))
			}
			var all []string
			for i, body := range reqs {
				if len(body) > feishuMaxBody {
					t.Errorf("part %d: body %d bytes", i, len(body))
				}
				var req feishuReq
				f.decode(i, &req)
				var text string
				if tc.card {
					text = req.markdown(t)
					if want := fmt.Sprintf("长表格 (%d/%d)", i+1, len(reqs)); req.Card.Header.Title.Content != want {
						t.Errorf("part %d title %q, want %q", i, req.Card.Header.Title.Content, want)
					}
					if !strings.Contains(text, "| 平台 | 价格 | 库存 |\n| --- | --- | --- |") {
						t.Errorf("part %d lacks the table header", i)
					}
				} else {
					text = req.Content.Text
				}
				if got := strings.Contains(text, "ou_1"); got != (i == 0) {
					t.Errorf("part %d: mention present %v", i, got)
				}
				all = append(all, strings.Split(text, "\n")...)
			}
			// Every source line arrives whole, once, in order.
			var want []string
			if tc.card {
				for _, r := range rows {
					want = append(want, "| "+strings.Join([]string{r[0], r[1], r[2]}, " | ")+" |")
				}
			} else {
				want = lines
			}
			j := 0
			for _, l := range all {
				if j < len(want) && l == want[j] {
					j++
				}
			}
			if j != len(want) {
				t.Fatalf("only %d of %d lines arrived whole and in order", j, len(want))
			}
		})
	}
}

// TestFeishuErrors: codes become errors naming code and message; rate
// limits, 429 and 5xx are retried, other errors are not.
func TestFeishuErrors(t *testing.T) {
	ok := status(200, feishuOK)
	for _, tc := range []struct {
		name      string
		steps     []func(http.ResponseWriter)
		wantCalls int
		wantErr   []string // empty: success
		retryable bool
	}{
		{"sign mismatch", []func(http.ResponseWriter){status(200, `{"code":19021,"msg":"sign match fail or timestamp is not within one hour from current time","data":{}}`)}, 1, []string{"19021", "sign match fail"}, false},
		{"bad request", []func(http.ResponseWriter){status(400, `{"code":9499,"msg":"Bad Request","data":{}}`)}, 1, []string{"9499", "Bad Request"}, false},
		{"keyword", []func(http.ResponseWriter){status(200, `{"code":19024,"msg":"Key Words Not Found"}`)}, 1, []string{"19024"}, false},
		{"legacy status code", []func(http.ResponseWriter){status(200, `{"StatusCode":19021,"StatusMessage":"sign match fail"}`)}, 1, []string{"19021"}, false},
		{"not json", []func(http.ResponseWriter){status(200, `<html>gateway</html>`)}, 1, []string{"unexpected response", "<html>gateway"}, false},
		{"rate limited then ok", []func(http.ResponseWriter){status(200, `{"code":11232,"msg":"frequency limited psm[lark.oapi.app_platform_runtime]appID[1]"}`), ok}, 2, nil, false},
		{"429 then ok", []func(http.ResponseWriter){status(429, `{"code":99991400,"msg":"too many request"}`), ok}, 2, nil, false},
		{"502 then ok", []func(http.ResponseWriter){status(502, `bad gateway`), ok}, 2, nil, false},
		{"500 always", []func(http.ResponseWriter){status(500, `oops`)}, 3, []string{"giving up after 3 tries", "HTTP 500"}, true},
		{"rate limited always", []func(http.ResponseWriter){status(200, `{"code":11232,"msg":"frequency limited"}`)}, 3, []string{"11232", "retryable"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, "", sequence(tc.steps...))
			b, _ := NewFeishuBot(f.feishuURL(), testSecret, fast(3)...)
			err := b.Send(context.Background(), chat.Reply{Title: "x"})
			if f.count() != tc.wantCalls {
				t.Errorf("%d requests, want %d", f.count(), tc.wantCalls)
			}
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("not an *APIError: %v", err)
			}
			if IsRetryable(err) != tc.retryable {
				t.Errorf("retryable %v, want %v", IsRetryable(err), tc.retryable)
			}
			checkRedacted(t, err)
		})
	}
}

// TestFeishuCardFallback: a card Feishu refuses is sent again as text; a
// security rejection is not.
func TestFeishuCardFallback(t *testing.T) {
	r := chat.Reply{Title: "t", Table: &chat.Table{Header: []string{"a", "b"}, Rows: [][]string{{"1", "2"}}}}
	t.Run("card refused", func(t *testing.T) {
		f := newFake(t, "", sequence(status(400, `{"code":9499,"msg":"Bad Request"}`), status(200, feishuOK)))
		b, _ := NewFeishuBot(f.feishuURL(), "", fast(3)...)
		if err := b.Send(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		var first, second feishuReq
		f.decode(0, &first)
		f.decode(1, &second)
		if first.MsgType != "interactive" || second.MsgType != "text" || !strings.Contains(second.Content.Text, "1  2") {
			t.Fatalf("got %s then %s", first.MsgType, second.MsgType)
		}
	})
	t.Run("sign refused", func(t *testing.T) {
		f := newFake(t, "", sequence(status(200, `{"code":19021,"msg":"sign match fail"}`)))
		b, _ := NewFeishuBot(f.feishuURL(), testSecret, fast(3)...)
		if err := b.Send(context.Background(), r); err == nil || f.count() != 1 {
			t.Fatalf("err %v after %d requests", err, f.count())
		}
	})
	t.Run("plain text option", func(t *testing.T) {
		f := newFake(t, feishuOK, nil)
		b, _ := NewFeishuBot(f.feishuURL(), "", WithPlainText())
		if err := b.Send(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		var req feishuReq
		f.decode(0, &req)
		if req.MsgType != "text" {
			t.Fatalf("msg_type %s", req.MsgType)
		}
	})
}

func TestNewFeishuBotURL(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://open.feishu.cn/open-apis/bot/v2/hook/" + testHook, true},
		{"https://open.larksuite.com/open-apis/bot/v2/hook/" + testHook, true},
		{"http://127.0.0.1:8080/open-apis/bot/v2/hook/" + testHook, true},
		{"http://open.feishu.cn/open-apis/bot/v2/hook/" + testHook, false},
		{"ftp://open.feishu.cn/open-apis/bot/v2/hook/" + testHook, false},
		{"https://open.feishu.cn/", false},
		{"open.feishu.cn/open-apis/bot/v2/hook/" + testHook, false},
		{"https://open.feishu.cn/open-apis/bot/v2/hook/%zz" + testHook, false},
	} {
		_, err := NewFeishuBot(tc.url, testSecret)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v", tc.url, err)
		}
		if err != nil {
			checkRedacted(t, err)
		}
	}
}

// checkRedacted fails when an error's text carries a secret.
func checkRedacted(t *testing.T, err error) {
	t.Helper()
	for _, s := range []string{testHook, testKey, testSecret, "SECRET"} {
		if strings.Contains(err.Error(), s) {
			t.Errorf("error text leaks %q: %v", s, err)
		}
	}
}

// TestFeishuLongTitle: a huge title is shortened in the card header
// rather than crowding out the content.
func TestFeishuLongTitle(t *testing.T) {
	f := newFake(t, feishuOK, nil)
	b, _ := NewFeishuBot(f.feishuURL(), "")
	title := strings.Repeat("标题", 20000)
	r := chat.Reply{Title: title, Table: &chat.Table{Header: []string{"a"}, Rows: [][]string{{"1"}}}}
	if err := b.Send(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if f.count() != 1 {
		t.Fatalf("%d requests", f.count())
	}
	var req feishuReq
	f.decode(0, &req)
	if got := []rune(req.Card.Header.Title.Content); len(got) != maxCardTitle || got[len(got)-1] != '…' {
		t.Fatalf("title %d runes", len(got))
	}
}
