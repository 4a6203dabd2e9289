package commands_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
)

// FuzzAnswer drives the whole answer path with arbitrary text in one
// conversation (so follow-ups, ask-back picks and "详情" are exercised):
// never a panic, always a known intent, a confidence in [0, 1], a short
// answer that fits a phone screen (except "详情", which is the whole
// answer) and valid UTF-8.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{"哪家有4090", "4090降到1块5以下提醒我", "取消全部订阅", "7B LoRA 要多少钱", "seq 4096", "1", "详情",
		"恒源云和AutoDL哪个便宜", "A100 80G 包月多少", "文章里说AutoDL数据盘0.5元/GB/天，是真的吗", "Killed", "登记存储 AutoDL 80G",
		"存储 -3 扩容到 -5G", "删除存储 abc", "块半", "￥", "$", "0.5元/GB/天", "２块５以内", "包月包周一天spot", "§gpu §money", "\xff\xfe",
		"显存40G以上 国内平台 挂两周 预算3000 晚上才跑 0.4刀以内 两张卡 华东", "2x 48GB in europe under $3/hr total for a weekend",
		"那A100呢", "要是两张呢", "40G的呢", "and on vast?", "周末呢", "换成按量", "静音的话会怎样", "确认", "再便宜点的",
		strings.Repeat("哪家有4090 ", 200), "Traceback (most recent call last):\n  File \"x.py\", line 1\nRuntimeError: CUDA out of memory."} {
		f.Add(s)
	}
	r := adviceRouter(f)
	known := map[string]bool{commands.IntentClarify: true, commands.IntentUnknown: true}
	for _, d := range r.Intents().Defs {
		known[d.Intent] = true
	}
	f.Fuzz(func(t *testing.T, text string) {
		msg := chat.Message{Channel: "fuzz", ChatID: "c", SenderID: "u", ChatType: chat.Group, Text: text}
		res := r.Answer(context.Background(), msg)
		if !known[res.Intent] {
			t.Fatalf("%q: intent %q", text, res.Intent)
		}
		if res.Confidence < 0 || res.Confidence > 1 {
			t.Fatalf("%q: confidence %v", text, res.Confidence)
		}
		if res.Reply.Empty() || res.Text == "" {
			t.Fatalf("%q: empty answer", text)
		}
		if !utf8.ValidString(res.Text) || !utf8.ValidString(res.FullText) {
			t.Fatalf("%q: invalid UTF-8 in the answer", text)
		}
		if res.Intent == commands.IntentMore {
			return // "详情" is the whole answer by design
		}
		if n := commands.ShortLines(res.Reply); n > commands.MaxShortLines+2 {
			t.Fatalf("%q: short answer of %d lines:\n%s", text, n, res.Text)
		}
		if res.Reply.Table != nil && len(res.Reply.Table.Rows) > commands.MaxShortRows {
			t.Fatalf("%q: short answer with %d rows", text, len(res.Reply.Table.Rows))
		}
	})
}
