package slots

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// TestDataDeclared: every pattern, list and word list the slot
// extractors declare (here, in package when and in package words) is in
// configs/slots and compiles, and every one there but the pipeline's is
// read (package understand's test, which declares the rest, checks
// those).
func TestDataDeclared(t *testing.T) {
	err := words.CheckData()
	if err == nil {
		return
	}
	for _, e := range strings.Split(err.Error(), "\n") {
		// package understand's keys are not declared in this test binary.
		if !strings.Contains(e, " pipeline.") {
			t.Error(e)
		}
	}
}

// TestProblemsWorded: each problem is worded by the message catalog as
// the slots wrote it before the catalog (the answers show these
// sentences as they are).
func TestProblemsWorded(t *testing.T) {
	for _, c := range []struct {
		p      Problem
		zh, en string
	}{
		{Problem{Code: ProblemMuteInvalid}, "静音时长无效，按 1 小时", "invalid mute duration; muting for 1 hour"},
		{Problem{Code: ProblemMuteCapped}, "最长静音 7 天", "muting is capped at 7 days"},
		{Problem{Code: ProblemMuteTime}, "没看懂静音到几点，按 1 小时", "could not read the time; muting for 1 hour"},
		{Problem{Code: ProblemPriceLimit}, "价格条件没看懂（要在 0 到 1000 元/卡时之间），这个订阅不限价格",
			"the price limit was not understood (it must be between 0 and 1000 CNY/GPU-h); this subscription has no price limit"},
		{Problem{ProblemBatch, []any{"0"}}, "batch 0 无效，按默认值估算", "batch 0 is not valid; the default is used"},
		{Problem{ProblemQLoRABits, []any{16}}, "QLoRA 是 4/8-bit 量化，16-bit 就是普通 LoRA，按 LoRA 估算",
			"QLoRA means 4- or 8-bit weights; at 16-bit it is plain LoRA, estimated as such"},
		{Problem{ProblemFullBits, []any{4}}, "全量微调不能用 4-bit 权重，按 16-bit 估算；想省显存可以用 QLoRA",
			"a full fine-tune cannot train 4-bit weights; estimated at 16-bit (QLoRA saves memory)"},
		{Problem{ProblemModelSize, []any{"Qwen2.5-7B", "13", 7.6}}, "同时写了 Qwen2.5-7B 和 13B，按 Qwen2.5-7B（7.6B）估算",
			"both Qwen2.5-7B and 13B given; estimated for Qwen2.5-7B (7.6B)"},
	} {
		if got := c.p.Text(i18n.ZH); got != c.zh {
			t.Errorf("%s zh: %q, want %q", c.p.Code, got, c.zh)
		}
		if got := c.p.Text(i18n.EN); got != c.en {
			t.Errorf("%s en: %q, want %q", c.p.Code, got, c.en)
		}
	}
	if len(problemKeys) != 8 {
		t.Errorf("%d problem codes, the test words 8", len(problemKeys))
	}
}

// TestProblemsTyped: a problem is kept as its code and values beside its
// sentence in the question's language.
func TestProblemsTyped(t *testing.T) {
	for _, en := range []bool{false, true} {
		q := &Query{English: en}
		q.problem(ProblemBatch, "-1")
		if len(q.Issues) != 1 || q.Issues[0].Code != ProblemBatch || q.Issues[0].Args[0] != "-1" {
			t.Errorf("issues %+v", q.Issues)
		}
		if len(q.Problems) != 1 || q.Problems[0] != q.Issues[0].Text(i18n.Of(en)) {
			t.Errorf("problems %q", q.Problems)
		}
	}
}
