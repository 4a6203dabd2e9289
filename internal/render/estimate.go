package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/i18n"
)

// The words the estimate answers (render/estimateview, render/planview)
// share with the others: money, the training methods, a platform's hidden
// costs, the billing modes.

// Money formats CNY with two decimals below 100 and none above (as
// fmt's %.2f and %.0f; strconv spares an answer's tables an allocation
// per cell).
func Money(x float64) string {
	if math.Abs(x) >= 100 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// MethodName names a training or inference method ("QLoRA 4-bit").
func MethodName(m string, bits int, en bool) string {
	l := i18n.Of(en)
	switch m {
	case estimator.MethodFull:
		if bits == 32 {
			return l.T("estimate.method.full_fp32")
		}
		return l.T("estimate.method.full")
	case estimator.MethodQLoRA:
		return l.T("estimate.method.qlora", bits)
	case estimator.MethodInference:
		return l.T("estimate.method.inference", bits)
	}
	return l.T("estimate.method.lora")
}

// HiddenCostNote names a platform's storage and retention traps.
func (r *Renderer) HiddenCostNote(platform string, en bool) string {
	p, ok := r.Cat.Platform(platform)
	if !ok {
		return ""
	}
	l := i18n.Of(en)
	var parts []string
	if p.Storage.BilledWhileStopped {
		parts = append(parts, l.T("estimate.hidden.stopped"))
	}
	for _, rt := range p.Retention {
		parts = append(parts, strings.TrimRightFunc(rt.Text.Pick(en), endStop))
	}
	if len(parts) == 0 {
		return ""
	}
	return l.T("estimate.hidden.note", p.DisplayName(en), strings.Join(parts, l.T("estimate.sep")))
}

// endStop: a rule's text ends in a full stop ("。", ".") or a space,
// which a note joining rules drops.
func endStop(r rune) bool { return r == ideographicFullStop || r == '.' || r == ' ' }

// ideographicFullStop is "。" (U+3002).
const ideographicFullStop = 0x3002

// modeKeys name the billing modes (catalog.PlanModes' keys, "hourly" and
// "spot").
var modeKeys = map[string]string{"daily": "plan.mode.daily", "weekly": "plan.mode.weekly", "monthly": "plan.mode.monthly",
	"yearly": "plan.mode.yearly", "spot": "plan.mode.spot", "hourly": "plan.mode.hourly"}

// ModeName names a billing mode ("包月", "monthly"); "" for an unknown one.
func ModeName(mode string, en bool) string {
	if k, ok := modeKeys[mode]; ok {
		return i18n.Of(en).T(k)
	}
	return ""
}
