package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

type wecomReq struct {
	MsgType string `json:"msgtype"`
	Text    *struct {
		Content       string   `json:"content"`
		MentionedList []string `json:"mentioned_list"`
	} `json:"text"`
	Markdown *struct {
		Content string `json:"content"`
	} `json:"markdown"`
}

func TestWeComText(t *testing.T) {
	for _, tc := range []struct {
		name     string
		r        chat.Reply
		mentions []string
	}{
		{"plain", chat.Reply{Title: "GPU 任务完成", Lines: []string{`job "123" \ done`, "换行\n第二行"}}, nil},
		{"mentions", chat.Reply{Title: "到货了", Mentions: []string{"zhangsan", "all", "zhangsan", "bad id"}}, []string{"zhangsan", "@all"}},
		{"all with table goes as text", chat.Reply{Title: "t", Table: &chat.Table{Header: []string{"a"}, Rows: [][]string{{"1"}}}, Mentions: []string{"@all"}}, []string{"@all"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, wecomOK, nil)
			w, err := NewWeCom(f.wecomURL())
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Send(context.Background(), tc.r); err != nil {
				t.Fatal(err)
			}
			var req wecomReq
			f.decode(0, &req)
			if req.MsgType != "text" || req.Text == nil || req.Markdown != nil {
				t.Fatalf("not text: %s", f.requests()[0])
			}
			if want := strings.TrimRight(chat.PlainText(tc.r), "\n"); req.Text.Content != want {
				t.Errorf("content %q, want %q", req.Text.Content, want)
			}
			if !slices.Equal(req.Text.MentionedList, tc.mentions) {
				t.Errorf("mentioned_list %q, want %q", req.Text.MentionedList, tc.mentions)
			}
			if tc.mentions == nil && strings.Contains(string(f.requests()[0]), "mentioned_list") {
				t.Errorf("empty mentioned_list sent")
			}
		})
	}
}

// TestWeComMarkdown: a table goes as a markdown list (WeCom markdown has no
// tables), mentions as <@userid>.
func TestWeComMarkdown(t *testing.T) {
	f := newFake(t, wecomOK, nil)
	w, _ := NewWeCom(f.wecomURL())
	r := chat.Reply{
		Title:    "RTX 4090 报价",
		Lines:    []string{"共 2 家"},
		Table:    &chat.Table{Header: []string{"平台", "价格", "库存"}, Rows: [][]string{{"京东", "¥12,999", "有货"}, {"淘宝", "¥13,499", ""}}},
		Notes:    []string{"来源：10 分钟前"},
		Mentions: []string{"lisi"},
	}
	if err := w.Send(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	var req wecomReq
	f.decode(0, &req)
	if req.MsgType != "markdown" || req.Markdown == nil || req.Text != nil {
		t.Fatalf("not markdown: %s", f.requests()[0])
	}
	want := "<@lisi>\n\n**RTX 4090 报价**\n\n共 2 家\n\n- **京东** · 价格: ¥12,999 · 库存: 有货\n- **淘宝** · 价格: ¥13,499\n\n<font color=\"comment\">来源：10 分钟前</font>"
	if req.Markdown.Content != want {
		t.Fatalf("markdown:\n%s\nwant:\n%s", req.Markdown.Content, want)
	}
}

// TestWeComSplit: text parts stay under 2048 bytes and markdown parts under
// 4096, lines whole and in order, mentions with the first part only.
func TestWeComSplit(t *testing.T) {
	var lines []string
	for i := range 120 {
		lines = append(lines, fmt.Sprintf("第 %03d 行：显卡到货通知，价格 ¥%d", i, 10000+i))
	}
	var rows [][]string
	for i := range 150 {
		rows = append(rows, []string{fmt.Sprintf("平台%03d", i), fmt.Sprintf("¥%d", 10000+i)})
	}
	for _, tc := range []struct {
		name  string
		r     chat.Reply
		limit int
		want  []string
	}{
		{"text", chat.Reply{Lines: lines, Mentions: []string{"u1"}}, wecomMaxText, lines},
		{"markdown", chat.Reply{Table: &chat.Table{Header: []string{"平台", "价格"}, Rows: rows}, Mentions: []string{"u1"}}, wecomMaxMarkdown, func() []string {
			var out []string
			for _, r := range rows {
				out = append(out, "- **"+r[0]+"** · 价格: "+r[1])
			}
			return out
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, wecomOK, nil)
			w, _ := NewWeCom(f.wecomURL())
			if err := w.Send(context.Background(), tc.r); err != nil {
				t.Fatal(err)
			}
			n := f.count()
			if n < 2 {
				t.Fatalf("%d request(s), want a split", n)
			}
			var got []string
			for i := range n {
				var req wecomReq
				f.decode(i, &req)
				var content string
				if req.Text != nil {
					content = req.Text.Content
					if (len(req.Text.MentionedList) > 0) != (i == 0) {
						t.Errorf("part %d: mentioned_list %q", i, req.Text.MentionedList)
					}
				} else {
					content = req.Markdown.Content
					if strings.Contains(content, "<@u1>") != (i == 0) {
						t.Errorf("part %d: mention placement", i)
					}
				}
				if len(content) > tc.limit {
					t.Errorf("part %d: %d bytes > %d", i, len(content), tc.limit)
				}
				for _, l := range strings.Split(content, "\n") {
					if l != "" && l != "<@u1>" {
						got = append(got, l)
					}
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("lines out of order or broken: got %d lines, want %d", len(got), len(tc.want))
			}
		})
	}
}

func TestWeComErrors(t *testing.T) {
	ok := status(200, wecomOK)
	for _, tc := range []struct {
		name      string
		steps     []func(http.ResponseWriter)
		wantCalls int
		wantErr   []string
	}{
		{"rate limited then ok", []func(http.ResponseWriter){status(200, `{"errcode":45009,"errmsg":"api freq out of limit"}`), ok}, 2, nil},
		{"busy then ok", []func(http.ResponseWriter){status(200, `{"errcode":-1,"errmsg":"system busy"}`), ok}, 2, nil},
		{"429 then ok", []func(http.ResponseWriter){status(429, ``), ok}, 2, nil},
		{"503 then ok", []func(http.ResponseWriter){status(503, `unavailable`), ok}, 2, nil},
		{"bad key", []func(http.ResponseWriter){status(200, `{"errcode":93000,"errmsg":"invalid webhook url, hint: [1700000000_1_abc]"}`)}, 1, []string{"wecom", "93000", "invalid webhook url"}},
		{"too long", []func(http.ResponseWriter){status(200, `{"errcode":40058,"errmsg":"content exceed max length"}`)}, 1, []string{"40058"}},
		{"rate limited always", []func(http.ResponseWriter){status(200, `{"errcode":45009,"errmsg":"api freq out of limit"}`)}, 3, []string{"45009", "giving up after 3 tries"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, "", sequence(tc.steps...))
			w, _ := NewWeCom(f.wecomURL(), fast(3)...)
			err := w.Send(context.Background(), chat.Reply{Title: "x"})
			if f.count() != tc.wantCalls {
				t.Errorf("%d requests, want %d", f.count(), tc.wantCalls)
			}
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range tc.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
			var ae *APIError
			if !errors.As(err, &ae) || ae.Platform != "wecom" {
				t.Errorf("not a wecom *APIError: %v", err)
			}
			if !strings.Contains(err.Error(), "key=***") {
				t.Errorf("error does not name the redacted webhook: %v", err)
			}
			checkRedacted(t, err)
		})
	}
}

func TestNewWeComURL(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=" + testKey, true},
		{"http://[::1]:9/cgi-bin/webhook/send?key=" + testKey, true},
		{"http://localhost:9/cgi-bin/webhook/send?key=" + testKey, true},
		{"http://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=" + testKey, false},
		{"https://qyapi.weixin.qq.com/cgi-bin/webhook/send", false},
		{"https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=", false},
		{"", false},
	} {
		_, err := NewWeCom(tc.url)
		if (err == nil) != tc.ok {
			t.Errorf("%q: err %v", tc.url, err)
		}
		if err != nil {
			checkRedacted(t, err)
		}
	}
}
