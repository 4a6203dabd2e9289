package slots

import (
	"testing"

	"github.com/labgpu/bot/internal/catalog"
)

// TestReadYesNo: a yes/no question and what it asks; a wh-question or a
// statement is none.
func TestReadYesNo(t *testing.T) {
	for _, c := range []struct {
		text string
		want *YesNo
	}{
		{"24G 跑 7B QLoRA 够不够", &YesNo{Kind: YesNoFits, VRAMGB: 24, Enough: true}},
		{"is an A6000 enough for 14b lora", &YesNo{Kind: YesNoFits, Enough: true}},
		{"一天就用两三个小时 3090包月值吗", &YesNo{Kind: YesNoWorth}},
		{"4090 包月值不值 我一周就用十几个小时", &YesNo{Kind: YesNoWorth}},
		{"is monthly worth it for a 3090 if I run it 24/7", &YesNo{Kind: YesNoWorth}},
		{"恒源云3090比AutoDL便宜吗", &YesNo{Kind: YesNoCheaper}},
		{"5090 比 4090 贵很多吗", &YesNo{Kind: YesNoCheaper, Dearer: true}},
		{"A100 80G 周末好抢吗", &YesNo{Kind: YesNoEasy}},
		{"1万条数据 7B LoRA 4090 两小时跑得完吗", &YesNo{Kind: YesNoCan, WithinHours: 2}},
		{"7B LoRA 4090 一晚上能跑完吗", &YesNo{Kind: YesNoCan, WithinHours: 10}},
		{"一张3090能不能一周内把 7B LoRA 跑完", &YesNo{Kind: YesNoCan, WithinHours: 168}},
		{"100块 7B LoRA 能搞定吗", &YesNo{Kind: YesNoCan}},
		{"恒源云有3090吗", &YesNo{Kind: YesNoHave}},
		{"does lambda have an A10 right now", &YesNo{Kind: YesNoHave}},
		{"AutoDL 数据盘 100G 一个月 15 块左右 是吗", &YesNo{Kind: YesNoTrue}},
		{"3090的显存是48G对吧", &YesNo{Kind: YesNoTrue}},
		{"哪家有4090", nil},
		{"7B LoRA 要多少钱", nil},
		{"哪家4090有货吗", nil},
		{"登记存储 AutoDL 数据盘 80G 实验数据", nil},
	} {
		got := ReadYesNo(catalog.Fold(c.text))
		switch {
		case got == nil && c.want == nil:
		case got == nil || c.want == nil || *got != *c.want:
			t.Errorf("%q: %+v, want %+v", c.text, got, c.want)
		}
	}
}

// TestReadScope: what the bot does not do, and what it does that reads
// like it.
func TestReadScope(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"帮我写个pytorch的dataloader", ScopeCode},
		{"写个爬虫把知乎上的回答爬下来", ScopeCode},
		{"help me debug my react app, the state does not update", ScopeCode},
		{"帮我润色一下论文摘要", ScopeText},
		{"write a haiku about GPUs", ScopeText},
		{"帮我在AutoDL上开一台4090", ScopeAct},
		{"can you rent me an A100 instance", ScopeAct},
		{"GPT-4o 的 API 多少钱一百万token", ScopeLLMAPI},
		{"给我生成一张猫猫的图片", ScopeImage},
		{"帮我写个脚本 算一下 7B LoRA 要多少钱", ""},
		{"token 可以写在代码里吗 还是 export HF_TOKEN 好", ""},
		{"帮我算下 qwen2.5-7b qlora 一万条 每条1k token 跑多久", ""},
		{"is it smart to debug my training script on a cheap T4 first?", ""},
		{"帮我开个提醒 4090 有货了告诉我", ""},
		{"SDXL 生成一张图要多少显存", ""},
	} {
		if got := ReadScope(catalog.Fold(c.text)); got != c.want {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}
