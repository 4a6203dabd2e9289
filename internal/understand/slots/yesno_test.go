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

// TestReadClaimTerms: a claim's own terms — a plan's price written
// without a currency word, an hour's, per GB-month, a month for a size,
// dollars, hours before a wipe, billing while stopped, a card's memory.
func TestReadClaimTerms(t *testing.T) {
	for _, c := range []struct {
		text string
		want func(*Claim) bool
	}{
		{"文章说AutoDL 4090包月1200左右 靠谱吗", func(c *Claim) bool { return c.PlanCNY == 1200 }},
		{"听说阿里云 A100 包月一万五 是真的吗", func(c *Claim) bool { return c.PlanCNY == 15000 }},
		{"I read runpod charges 0.79/hr for an L40S", func(c *Claim) bool { return c.HourlyCNY == 0.79 && !c.USD }},
		{"群里说runpod 4090 0.34刀一小时", func(c *Claim) bool { return c.USD }},
		{"矩池云网盘 0.5元一个G一个月 对吗", func(c *Claim) bool { return c.PerGBMonth && !c.Month }},
		{"someone said autodl data disk is 0.5 yuan per GB per month", func(c *Claim) bool { return c.PerGBMonth }},
		{"有人说恒源云存储20G一个月才5块", func(c *Claim) bool { return c.Month && !c.PerGBMonth }},
		{"网上说恒源云关机后 /hy-tmp 24小时清空", func(c *Claim) bool { return c.HasDays && c.Days == 1 && c.Delete }},
		{"师兄说 runpod 停机了存储也收钱 而且更贵", func(c *Claim) bool { return c.Stopped && c.Dearer }},
		{"3090的显存是48G对吧", func(c *Claim) bool { return c.VRAMGB == 48 }},
	} {
		if got := ReadClaim(catalog.Fold(c.text)); !c.want(got) {
			t.Errorf("%q: %+v", c.text, *got)
		}
	}
	for s, want := range map[string]float64{"1200": 1200, "一万五": 15000, "两千": 2000, "1.5万": 15000, "三万": 30000, "x": 0} {
		if got := bigNum(s); got != want {
			t.Errorf("bigNum(%q) = %g, want %g", s, got, want)
		}
	}
}
