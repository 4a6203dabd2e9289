package wechat

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eatmoreapple/openwechat"

	"github.com/labgpu/bot/internal/chat"
)

func TestRenderParts(t *testing.T) {
	r := chat.Reply{Title: "GPU 报价", Table: &chat.Table{Header: []string{"平台", "GPU", "价格"},
		Rows: [][]string{{"AutoDL", "4090", "1.98"}, {"恒源云", "4090", "2.10"}}}, Notes: []string{"来源：官网"}}
	parts := renderParts(r, mentionPrefix([]string{"阿丽", "", "阿丽", "Bob"}), DefaultMaxRunes)
	if len(parts) != 1 {
		t.Fatalf("parts %q", parts)
	}
	want := "@阿丽\u2005@Bob\u2005GPU 报价\n" +
		"平台    GPU   价格\n" +
		"AutoDL  4090  1.98\n" +
		"恒源云  4090  2.10\n" +
		"来源：官网"
	if parts[0] != want {
		t.Errorf("got\n%s\nwant\n%s", parts[0], want)
	}
	if strings.ContainsAny(parts[0], "|*#`") {
		t.Error("markdown in a WeChat text")
	}
	if got := renderParts(chat.Reply{}, "@x\u2005", 100); got != nil {
		t.Errorf("empty reply rendered %q", got)
	}
	// The prefix counts against the first part's limit.
	lines := make([]string, 10)
	for i := range lines {
		lines[i] = strings.Repeat("x", 18)
	}
	parts = renderParts(chat.Reply{Lines: lines}, "@"+strings.Repeat("n", 20)+"\u2005", 100)
	for i, p := range parts {
		if n := utf8.RuneCountInString(p); n > 100 {
			t.Errorf("part %d has %d runes", i, n)
		}
	}
}

func TestErrorClassification(t *testing.T) {
	wrapped := fmt.Errorf("send: %w", openwechat.Ret(1205))
	if !tooFrequent(wrapped) || tooFrequent(openwechat.Ret(1101)) || tooFrequent(errors.New("1205")) {
		t.Error("tooFrequent")
	}
	for _, code := range []int{1100, 1101, 1102} {
		if !sessionEnded(fmt.Errorf("x: %w", openwechat.Ret(code))) {
			t.Errorf("sessionEnded(%d) = false", code)
		}
	}
	if sessionEnded(openwechat.Ret(1205)) || sessionEnded(errors.New("boom")) {
		t.Error("sessionEnded of other errors")
	}
	if got := describe(openwechat.Ret(1101)); got != "failed login check (ret 1101)" {
		t.Errorf("describe = %q", got)
	}
	if !transientLoginError(errors.Join(openwechat.NetworkErr, errors.New("dial"))) ||
		!transientLoginError(fmt.Errorf("x: %w", openwechat.ErrLoginTimeout)) ||
		transientLoginError(openwechat.Ret(1203)) || transientLoginError(openwechat.ErrForbidden) {
		t.Error("transientLoginError")
	}
	if h := loginHint(openwechat.Ret(1203)); !strings.Contains(h, "web WeChat") {
		t.Errorf("hint for 1203: %q", h)
	}
	if h := loginHint(errors.New("为了你的帐号安全，此微信号不能登录网页微信")); !strings.Contains(h, "spare account") {
		t.Errorf("hint for the web-login block: %q", h)
	}
	if h := loginHint(openwechat.ErrForbidden); !strings.Contains(h, "实名认证") {
		t.Errorf("hint for forbidden: %q", h)
	}
}
