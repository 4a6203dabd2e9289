package estimateview

import (
	"fmt"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// stackKeys name the training stacks (estimator.Stacks).
var stackKeys = map[string]string{estimator.StackHF: "estimate.stack.hf", estimator.StackFA2: "estimate.stack.fa2", estimator.StackTuned: "estimate.stack.tuned"}

// stackName names a training stack (FlashAttention-2 when unknown).
func stackName(stack string, l i18n.Lang) string {
	return l.T(keyOr(stackKeys, stack, "estimate.stack.fa2"))
}

// RatioText is a speed ratio as a range, "2.0–2.3" (never one flat
// figure: the ratio depends on the job, the software and the data).
func RatioText(r estimator.Range) string {
	if fmt.Sprintf("%.1f", r.Low) == fmt.Sprintf("%.1f", r.High) {
		return fmt.Sprintf("%.2f–%.2f", r.Low, r.High)
	}
	return fmt.Sprintf("%.1f–%.1f", r.Low, r.High)
}

// tokenNote says which tokens the hours count and what padding costs.
func tokenNote(est *estimator.Estimate, l i18n.Lang) string {
	note := l.T("estimate.stack.token_note")
	if est.PaddingFactor > 1.05 {
		note += l.T("estimate.stack.padding_here", est.SeqLen, est.Job.TokensPerSample, render.TrimF(est.PaddingFactor))
	}
	return note + l.T("estimate.stop")
}

// stackNote names the stack assumed and, off a tuned stack, how much
// faster one would run the job (a range).
func stackNote(est *estimator.Estimate, l i18n.Lang) string {
	note := l.T("estimate.stack.speed", stackName(est.Stack, l))
	if r := est.TunedSpeedup; r.High > 0 {
		note += l.T("estimate.stack.tuned_speedup", RatioText(r))
	}
	return note + l.T("estimate.stop")
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
func spaceAfterLatin(s string, l i18n.Lang) string {
	if r, _ := utf8.DecodeLastRuneInString(s); !l.English() && r < utf8.RuneSelf {
		return s + " "
	}
	return s
}
