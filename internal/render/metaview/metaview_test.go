package metaview

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// TestOneLiners: the short answers say what they should, in the asker's
// language, and the reply is marked English when it is.
func TestOneLiners(t *testing.T) {
	cases := []struct {
		rep  chat.Reply
		want string
	}{
		{SmallTalk{Lang: i18n.ZH, Kind: Thanks}.Reply(nil), "不客气！"},
		{SmallTalk{Lang: i18n.EN, Kind: Greeting}.Reply(nil), "Hi! Say “help” to see what I can do."},
		{SmallTalk{Lang: i18n.ZH}.Reply(nil), "👌"},
		{Clarify{Lang: i18n.ZH, Readings: []Reading{{Name: "查价"}, {Name: "CUDA OOM", Troubleshooting: true}}}.Reply(nil), "你是想问“查价”还是“排错：CUDA OOM”？\n回 1 或 2，或者换个说法再问一次。"},
		{NothingMore{Lang: i18n.EN}.Reply(nil), "Nothing to expand"},
		{Failed{Lang: i18n.EN}.Reply(nil), "Something went wrong on my side"},
		{Interim(i18n.ZH), "查询中…\n正在取最新数据"},
		{Help{Lang: i18n.ZH, Areas: []HelpArea{{Name: "估算费用", Examples: []string{"7B LoRA 要多少钱", "显存够吗"}}}}.Reply(nil), "• 估算费用：“7B LoRA 要多少钱”"},
		{*Help{Lang: i18n.ZH, Areas: []HelpArea{{Name: "估算费用", Examples: []string{"7B LoRA 要多少钱", "显存够吗"}}}}.Reply(nil).Full, "• 估算费用：“7B LoRA 要多少钱”“显存够吗”"},
		{Clarify{Lang: i18n.ZH, Readings: []Reading{{Name: "静音"}}}.Reply(nil), "你是想问“静音”吗？\n回 1"},
		{Unknown{Lang: i18n.ZH, Kind: "code"}.Reply(nil), "写代码我不做；我能帮你估这个训练要多少钱"},
		{Unknown{Lang: i18n.EN, Kind: "act"}.Reply(nil), "I can't start, rent or buy anything on a platform for you"},
		{*Help{Lang: i18n.EN, Areas: []HelpArea{{Name: "cost estimates", Examples: []string{"a", "b"}}}}.Reply(nil).Full, "• cost estimates: “a” “b”"},
	}
	for _, c := range cases {
		if got := chat.PlainText(c.rep); !strings.Contains(got, c.want) {
			t.Errorf("%q lacks %q", got, c.want)
		}
	}
	if !(Failed{Lang: i18n.EN}).Reply(nil).English || !Interim(i18n.EN).English || Interim(i18n.ZH).English {
		t.Error("the language mark")
	}
}

// TestAreaHelpTopics: the troubleshooting area names its topics behind
// "详情", with their count up front.
func TestAreaHelpTopics(t *testing.T) {
	rep := AreaHelp{Lang: i18n.ZH, Title: "排错和选卡", Intents: []HelpIntent{{Name: "排错", Description: "报错原因和解决办法。", Examples: []string{"CUDA out of memory 怎么办"}}},
		KB: true, Topics: []string{"显存不够", "SSH 连不上"}}.Reply(nil)
	if rep.Full == nil || !strings.Contains(chat.PlainText(*rep.Full), "我认识的问题：显存不够；SSH 连不上") || !strings.Contains(chat.PlainText(rep), "我认识 2 类常见问题") {
		t.Errorf("short:\n%s\nfull: %+v", chat.PlainText(rep), rep.Full)
	}
}
