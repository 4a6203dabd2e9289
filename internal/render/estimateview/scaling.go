package estimateview

import (
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/i18n"
)

// Why more cards do not make a job faster (Scaling.Why).
const (
	// ScaleSmall: one card finishes in less than the setup time.
	ScaleSmall = "small"
	// ScaleInference: one request's inference runs on one card.
	ScaleInference = "inference"
)

// Scaling compares a job on N cards of a GPU with one card of it: the
// hours on each (typical, setup included), the share of each card's
// speed assumed kept (Eff), whether one card holds the job, and why more
// cards would not help ("" when they do).
type Scaling struct {
	GPU     string          `json:"gpu"`
	N       int             `json:"gpu_count"`
	HoursN  float64         `json:"hours"`
	Hours1  float64         `json:"hours_one_gpu"`
	Eff     estimator.Range `json:"efficiency"`
	OneFits bool            `json:"one_gpu_fits"`
	Why     string          `json:"not_faster,omitempty"`
}

// line is the comparison in one line: "4 张 A100 80GB 约 0.9 小时，1 张约
// 2.6 小时：快约 3.2 倍（多卡效率按每张 80% 算，70–92%）。"
func (s *Scaling) line(l i18n.Lang) string {
	if s == nil || s.N < 2 {
		return ""
	}
	switch {
	case s.Why == ScaleInference:
		return l.T("estimate.scaling.inference", s.N, s.GPU)
	case !s.OneFits:
		return l.T("estimate.scaling.one_no_fit", s.N, s.GPU, hoursText(s.HoursN))
	case s.Why == ScaleSmall:
		return l.T("estimate.scaling.small", s.N, s.GPU, hoursText(s.HoursN), hoursText(s.Hours1), estimator.SetupHours*60)
	}
	return l.T("estimate.scaling.faster", s.N, s.GPU, hoursText(s.HoursN), hoursText(s.Hours1), s.Hours1/s.HoursN,
		100*s.Eff.Typical, 100*s.Eff.Low, 100*s.Eff.High)
}
