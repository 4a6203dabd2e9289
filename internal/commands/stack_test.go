package commands_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/commands"
)

// flatRatio is a speed ratio given as one figure ("快 2.2 倍", "2.2x
// faster") rather than a range.
var flatRatio = regexp.MustCompile(`快约? ?\d+(?:\.\d+)? ?倍|\d+(?:\.\d+)?[x×] faster`)

// TestStackAndLowMemoryPhrasings: "用unsloth" picks the tuned stack (also
// as a follow-up), "原生transformers" the plain one, "低显存全参" and
// "8bit adam" the low-memory full fine-tune; the answer names the stack,
// the token basis and the speed-up as a range.
func TestStackAndLowMemoryPhrasings(t *testing.T) {
	r := newRouter(t)
	cases := []struct {
		text, stack, method, optimizer string
	}{
		{"用unsloth跑 qwen2.5-7b lora 5万条 要多久", estimator.StackTuned, "lora", ""},
		{"how long for llama 3 8b lora with unsloth on a 4090", estimator.StackTuned, "lora", ""},
		{"原生transformers 跑 7b lora 要多久", estimator.StackHF, "lora", ""},
		{"低显存全参 7B 一张卡够吗", estimator.StackFA2, "full", estimator.OptimizerAdamW8bit},
		{"7b 全参 8bit adam 要多少显存", estimator.StackFA2, "full", estimator.OptimizerAdamW8bit},
	}
	for _, c := range cases {
		res := say(r, "s-"+c.text, "alice", c.text)
		est := figures(res).Estimate
		if res.Intent != commands.IntentEstimate || est == nil {
			t.Errorf("%q: intent %q, no estimate", c.text, res.Intent)
			continue
		}
		if est.Stack != c.stack || est.Method != c.method || est.Job.Optimizer != c.optimizer {
			t.Errorf("%q: stack %q method %q optimizer %q, want %q %q %q", c.text, est.Stack, est.Method, est.Job.Optimizer, c.stack, c.method, c.optimizer)
		}
	}
	res := say(r, "s-follow", "alice", "Qwen2.5-7B LoRA 5万条 要多少钱")
	if figures(res).Estimate == nil || figures(res).Estimate.Stack != estimator.StackFA2 {
		t.Fatalf("first: %+v", figures(res).Estimate)
	}
	full := whole(res)
	for _, want := range []string{"FlashAttention-2", "时长按数据本身的 token 计", "seq ÷ 平均长度", "换优化栈"} {
		if !strings.Contains(full, want) {
			t.Errorf("answer lacks %q:\n%s", want, full)
		}
	}
	if flatRatio.MatchString(full) {
		t.Errorf("a speed ratio stated flatly (%q):\n%s", flatRatio.FindString(full), full)
	}
	// A faster card that is the cheaper job says how much faster as a range.
	res = say(r, "s-cards", "alice", "Qwen2.5-7B lora 5万条 在autodl 3090还是4090")
	if full := whole(res); !strings.Contains(full, "贵的卡反而省钱") || !strings.Contains(full, "快约") || flatRatio.MatchString(full) {
		t.Errorf("no faster-and-cheaper line with a ratio range:\n%s", full)
	}
	res = say(r, "s-follow", "alice", "用unsloth呢")
	if figures(res).Estimate == nil || figures(res).Estimate.Stack != estimator.StackTuned || figures(res).Estimate.Job.Samples != 50000 {
		t.Fatalf("follow-up 用unsloth: intent %q est %+v", res.Intent, figures(res).Estimate)
	}
}
