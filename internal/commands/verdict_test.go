package commands_test

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/commands"
)

// firstLine is the first line of a result's short form.
func firstLine(res commands.Result) string {
	first, _, _ := strings.Cut(res.Text, "\n")
	return first
}

// TestVerdictFirst: a yes/no question's first line is the verdict with
// the figure that decides it, from the estimate, the plan, the stock,
// the comparison and the card choice (issue 28, item 4); the short form
// fits one phone screen.
func TestVerdictFirst(t *testing.T) {
	r := adviceRouter(t)
	cases := []struct {
		text, intent, prefix string
		has                  []string
	}{
		// Is the card or the VRAM enough: the job's need against it.
		{"24G 跑 7B QLoRA 够不够", commands.IntentEstimate, "够：", []string{"24 GB 放得下"}},
		{"4090跑7B全参微调够吗", commands.IntentEstimate, "不够：", []string{"RTX 4090 只有 24 GB"}},
		{"两张3090 能跑 7B 全参吗", commands.IntentEstimate, "不够：", []string{"2 张 RTX 3090 每张只有 24 GB"}},
		{"is 24GB enough to serve a 7b model", commands.IntentEstimate, "Yes, it fits:", []string{"24 GB holds it"}},
		{"can a single 4090 handle qlora on a 32b model", commands.IntentEstimate, "No, it doesn't fit:", []string{"RTX 4090 has only 24 GB"}},
		// Within a time or a budget: the run's hours or cost against it.
		{"1万条数据 7B LoRA 4090 两小时跑得完吗", commands.IntentEstimate, "不能：", []string{"2 小时内跑不完"}},
		{"一张3090能不能一周内把 7B LoRA 跑完", commands.IntentEstimate, "能：", []string{"7 天内跑得完"}},
		{"20块钱能不能把 7B LoRA 10万条跑完", commands.IntentEstimate, "不能：", []string{"20 元不够"}},
		{"100块 7B LoRA 能搞定吗", commands.IntentEstimate, "能：", []string{"100 元够"}},
		{"50块钱能不能跑完 SDXL 出1000张图", commands.IntentEstimate, "能：", []string{"50 元够"}},
		// Worth it, cheaper: one run or price against the other.
		{"为了快一点上H100值不值 就跑个7B LoRA", commands.IntentEstimate, "不划算：", []string{"最省的"}},
		{"用4090训比3090贵吗 7B LoRA", commands.IntentEstimate, "不贵：", []string{"RTX 3090 约"}},
		// Plans: for the usage stated, against pay-as-you-go; a budget.
		{"一天就用两三个小时 3090包月值吗", commands.IntentPlan, "不划算：", []string{"按量约", "包月约"}},
		{"24小时不停跑一个月 3090 包月划算吗", commands.IntentPlan, "划算：", []string{"包月约 700-900"}},
		{"200块能包一个月4090吗", commands.IntentPlan, "不能：", []string{"200 元不够"}},
		{"4090 包月值不值 我一周就用十几个小时", commands.IntentPlan, "不划算：", []string{"比按量跑满一整月"}},
		// Stock and prices: in stock, within an hourly budget.
		{"两张A100 一小时12块能搞定吗", commands.IntentStock, "能：", []string{"5.00 元/卡时，2 张约 10 元/小时"}},
		{"vast 有 H100 吗", commands.IntentStock, "不确定：", nil},
		{"秘塔有4090吗", commands.IntentStock, "没有：", nil},
		// Comparisons: the first named against the second.
		{"恒源云3090比AutoDL便宜吗", commands.IntentCompare, "不：", []string{"贵约"}},
		{"5090 比 4090 贵很多吗", commands.IntentCompare, "贵：", []string{"贵约"}},
		// The card named for a workload of the knowledge base.
		{"SDXL 出图 3090 够吗", commands.IntentAdvice, "够：", []string{"RTX 3090 有 24G"}},
	}
	for _, c := range cases {
		res := ask(r, c.text)
		first := firstLine(res)
		if res.Intent != c.intent || !strings.HasPrefix(first, c.prefix) {
			t.Errorf("%q: intent %s, first line %q; want %s, %q first", c.text, res.Intent, first, c.intent, c.prefix)
		}
		for _, h := range c.has {
			if !strings.Contains(first, h) {
				t.Errorf("%q: first line %q lacks %q", c.text, first, h)
			}
		}
		if n := commands.ShortLines(res.Reply); n > commands.MaxShortLines {
			t.Errorf("%q: %d lines on a phone:\n%s", c.text, n, res.Text)
		}
	}
	// Not a yes/no question: no verdict word.
	if res := ask(r, "7B LoRA 要多少钱"); strings.HasPrefix(firstLine(res), "够") || strings.HasPrefix(firstLine(res), "能") {
		t.Errorf("a question with no yes or no got a verdict: %q", firstLine(res))
	}
}

// TestOutOfScopePlainly: what the bot does not do is said so, with the
// nearest thing it does, whatever the scorer read (issue 28, item 5).
func TestOutOfScopePlainly(t *testing.T) {
	r := adviceRouter(t)
	for _, c := range []struct{ text, want string }{
		{"帮我写个pytorch的dataloader", "写代码我不做"},
		{"帮我写个训练脚本 用transformers 微调qwen", "估这个训练要多少钱"},
		{"写个爬虫把知乎上的回答爬下来", "写代码我不做"},
		{"帮我在AutoDL上开一台4090", "不能替你在平台上开机"},
		{"GPT-4o 的 API 多少钱一百万token", "大模型 API 的价格我不查"},
		{"给我生成一张猫猫的图片", "出图我不做"},
		{"帮我润色一下论文摘要", "润色和翻译我不做"},
		{"can you write me a bash script to sync checkpoints to s3", "I don't write code"},
		{"今晚食堂吃啥", "这个我帮不上"},
	} {
		res := ask(r, c.text)
		if res.Intent != commands.IntentUnknown || !strings.Contains(res.Text, c.want) || strings.Contains(res.Text, "你是想问") {
			t.Errorf("%q: intent %s:\n%s\nwant %q", c.text, res.Intent, res.Text, c.want)
		}
	}
	// What the bot does is not taken for what it does not: a script's
	// cost, an SDXL run's card, a pasted error.
	for _, q := range []string{"帮我算下 qwen2.5-7b qlora 一万条 每条1k token 跑多久", "生成一张图要多少显存 SDXL", "我的代码报错了 ValueError 怎么办"} {
		if res := ask(r, q); res.Intent == commands.IntentUnknown {
			t.Errorf("%q: answered as something the bot does not do:\n%s", q, res.Text)
		}
	}
}

// TestAskBackFits: an ask-back never offers to cancel alerts to a member
// without any, nor an action to a question; with one reading left that
// the message names, it answers it (issue 28, item 5).
func TestAskBackFits(t *testing.T) {
	r := adviceRouter(t)
	for _, q := range []string{"那A100呢", "换成4090", "我是不是订了4090的", "A100也帮我订一个"} {
		res := say(r, "askback-"+q, "bob", q)
		if strings.Contains(res.Text, "取消订阅") || strings.Contains(res.Text, "静音") {
			t.Errorf("%q: offers an action that does not fit:\n%s", q, res.Text)
		}
	}
	if res := say(r, "askback-a100", "bob", "那A100呢"); res.Intent != commands.IntentStock {
		t.Errorf("a card named with nothing else fitting: intent %s:\n%s", res.Intent, res.Text)
	}
	if res := say(r, "askback-thanks", "bob", "Killed the old kernel, thanks"); res.Intent != commands.IntentChitChat {
		t.Errorf("thanks with nothing fitting: intent %s:\n%s", res.Intent, res.Text)
	}
	// Readings none of which fits: not understood, with how to ask; a
	// faint action alone is not offered.
	for _, q := range []string{"training nonstop for 5 days, which billing mode", "打卡"} {
		res := say(r, "askback-unclear", "bob", q)
		if res.Intent != commands.IntentUnknown || !strings.Contains(res.Text, "“") || strings.Contains(res.Text, "静音") {
			t.Errorf("%q: intent %s:\n%s", q, res.Intent, res.Text)
		}
	}
}

// TestFactCheckOwnTerms: a claim is checked in its own billing mode,
// unit, size and currency (issue 28, item 6).
func TestFactCheckOwnTerms(t *testing.T) {
	r := adviceRouter(t)
	cases := []struct {
		text, prefix string
		has          []string
		not          string
	}{
		{"文章说AutoDL 4090包月1200左右 靠谱吗", "对：", []string{"包月价是 1200-1500"}, "倍"},
		{"听说AutoDL 3090 包周250 真的吗", "对：", []string{"250-300"}, "倍"},
		{"听说阿里云 A100 包月一万五 是真的吗", "对：", []string{"15000-20000"}, ""},
		{"网上说矩池云 4090 包月 1000 块 真的吗", "查不到：", []string{"包月价", "跑满一月"}, "倍"},
		{"有人说恒源云存储20G一个月才5块 真的假的", "不对：", []string{"20 GB 数据盘一个月", "10.08 元", "差了约 2 倍"}, ""},
		{"AutoDL 数据盘 100G 一个月 15 块左右 是吗", "对：", []string{"免费 50 GB"}, ""},
		{"矩池云网盘 0.5元一个G一个月 对吗", "对：", []string{"0.5 元/GB·月"}, ""},
		{"群里说runpod 4090 0.34刀一小时 真的吗", "部分对：", []string{"约 0.34", "最低价"}, ""},
		{"有人说lambda H100 $2.49/hr 真的吗", "不对：", []string{"2.49 美元/卡时"}, ""},
		{"I read runpod charges 0.79/hr for an L40S, true?", "Partly:", []string{"about 0.79", "low end"}, ""},
		{"师兄说 runpod 停机了存储也收钱 而且更贵 真的吗", "对：", []string{"照收"}, ""},
		{"网上说恒源云关机后 /hy-tmp 24小时清空 对吗", "对：", nil, ""},
		{"3090的显存是48G对吧", "不对：", []string{"24 GB", "48 GB"}, ""},
	}
	for _, c := range cases {
		res := ask(r, c.text)
		first := firstLine(res)
		if res.Intent != commands.IntentFactCheck || !strings.HasPrefix(first, c.prefix) {
			t.Errorf("%q: intent %s, first line %q; want %q first", c.text, res.Intent, first, c.prefix)
			continue
		}
		for _, h := range c.has {
			if !strings.Contains(res.Text, h) {
				t.Errorf("%q lacks %q:\n%s", c.text, h, res.Text)
			}
		}
		if c.not != "" && strings.Contains(first, c.not) {
			t.Errorf("%q: %q in %q", c.text, c.not, first)
		}
	}
	// The /hy-tmp rule is quoted, with its 24 hours.
	mustContain(t, ask(r, "网上说恒源云关机后 /hy-tmp 24小时清空 对吗").Text, "24 小时后清空")
}
