package render

import (
	"fmt"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/billing/estimator"
)

// stackNames name the training stacks (billing.Stacks).
var stackNames = map[string][2]string{
	estimator.StackHF:    {"原生 Transformers（无 FlashAttention-2）", "plain Transformers (no FlashAttention-2)"},
	estimator.StackFA2:   {"FlashAttention-2", "FlashAttention-2"},
	estimator.StackTuned: {"优化栈（Unsloth、Liger 等，打包样本）", "a tuned stack (Unsloth, Liger…, packed samples)"},
}

// StackName names a training stack.
func StackName(stack string, en bool) string {
	return TextFor(stackNames, stack, stackNames[estimator.StackFA2], en)
}

// RatioText is a speed ratio as a range, "2.0–2.3" (never one flat
// figure: the ratio depends on the job, the software and the data).
func RatioText(r estimator.Range) string {
	if fmt.Sprintf("%.1f", r.Low) == fmt.Sprintf("%.1f", r.High) {
		return fmt.Sprintf("%.2f–%.2f", r.Low, r.High)
	}
	return fmt.Sprintf("%.1f–%.1f", r.Low, r.High)
}

// paddingShort is the short form's note on tokens: the hours count real
// tokens; padded to seq they take PaddingFactor times as long.
func paddingShort(est *estimator.Estimate, en bool) string {
	if est.PaddingFactor > 1.05 {
		return fmt.Sprintf(pick1(en, "（时长按实际 token，补齐到 seq 则 ×%s）", " (hours count real tokens; ×%s if padded to seq)"), TrimF(est.PaddingFactor))
	}
	return pick1(en, "（时长按实际 token）", " (hours count real tokens)")
}

// tokenNote says which tokens the hours count and what padding costs.
func tokenNote(est *estimator.Estimate, en bool) string {
	note := pick1(en, "时长按数据本身的 token 计（打包，或每个 batch 补齐到其中最长的样本）；如果样本比 seq 短又补齐到 seq，时间乘以 seq ÷ 平均长度",
		"Hours count the data's own tokens (packed, or padded to the longest sample of each batch); if your samples are shorter than seq and padded to it, multiply by seq ÷ average length")
	if est.PaddingFactor > 1.05 {
		note += fmt.Sprintf(pick1(en, "（这里 %d ÷ %d，约 ×%s）", " (here %d ÷ %d, about ×%s)"), est.SeqLen, est.Job.TokensPerSample, TrimF(est.PaddingFactor))
	}
	return note + pick1(en, "。", ".")
}

// stackNote names the stack assumed and, off a tuned stack, how much
// faster one would run the job (a range).
func stackNote(est *estimator.Estimate, en bool) string {
	note := fmt.Sprintf(pick1(en, "按 %s 估算速度", "Speed assumes %s"), StackName(est.Stack, en))
	if r := est.TunedSpeedup; r.High > 0 {
		note += fmt.Sprintf(pick1(en, "；换优化栈（Unsloth、Liger 等，说“用unsloth”）同一张卡约快 %s 倍", "; a tuned stack (Unsloth, Liger…; say “use unsloth”) runs about %s× faster on the same card"), RatioText(r))
	}
	return note + pick1(en, "。", ".")
}

// fitRatio is how many times faster the option fast runs than slow, from
// their fits' speed ranges; the hours' ratio when a fit is missing.
func fitRatio(est *estimator.Estimate, fast, slow estimator.Option) estimator.Range {
	var a, b estimator.Fit
	for _, f := range est.Fits {
		switch f.GPU {
		case fast.GPU:
			a = f
		case slow.GPU:
			b = f
		}
	}
	if r := estimator.SpeedRatio(a, b); r.High > 0 {
		return r
	}
	x := slow.Hours / fast.Hours
	return estimator.Range{Low: x, Typical: x, High: x}
}

// spaceAfterLatin adds a space after s when it ends in a Latin letter or
// digit and Chinese follows ("FlashAttention-2 估算").
func spaceAfterLatin(s string, en bool) string {
	if r, _ := utf8.DecodeLastRuneInString(s); !en && r < utf8.RuneSelf {
		return s + " "
	}
	return s
}
