package estimateview

import (
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/render"
)

// What decides a job's verdict (Verdict.Why).
const (
	// WhyVRAM: the VRAM the job needs against the card or size asked.
	WhyVRAM = "vram"
	// WhyBudget: the run's cost against the money asked.
	WhyBudget = "budget"
	// WhyTime: the run's hours against the time asked.
	WhyTime = "time"
	// WhyCost: the card named against the cheapest run (worth it?).
	WhyCost = "cost"
	// WhyCards: the first card named against the second (cheaper?).
	WhyCards = "cards"
)

// Verdict answers a yes/no question about a job (render.Verdict) with the
// figures that decide it (Why): for WhyVRAM the card asked (Card, ""
// for a size alone) and how many (Count), the VRAM of one (HaveGB), what
// the job needs on one at the layout tried (NeedGB), the micro-batch it
// needs with gradient accumulation (MicroBatch, 0: the whole batch) and
// the cards it takes when more than asked (FitsOn, 0: none); for the
// others the run that decides it (Option) and the one it is weighed
// against (Other), the budget (CNY) and the time (hours) asked.
type Verdict struct {
	render.Verdict
	Why        string  `json:"why"`
	Card       string  `json:"card,omitempty"`
	Count      int     `json:"count,omitempty"`
	HaveGB     float64 `json:"have_gb,omitempty"`
	NeedGB     float64 `json:"need_gb,omitempty"`
	MicroBatch int     `json:"micro_batch,omitempty"`
	FitsOn     int     `json:"fits_on,omitempty"`
	// ShortCard is a variant of the family asked that the job does not
	// fit (V100 16GB beside a V100 32GB that it fits), ShortGB its VRAM.
	ShortCard string  `json:"short_card,omitempty"`
	ShortGB   float64 `json:"short_gb,omitempty"`
	// TotalGB is the job's need on one card unsplit: a total within all
	// the cards asked that still does not fit is explained.
	TotalGB float64 `json:"total_gb,omitempty"`
	// Int8Card holds 16-bit inference it does not fit at 8 bits, in
	// Int8GB.
	Int8Card  string            `json:"int8_card,omitempty"`
	Int8GB    float64           `json:"int8_gb,omitempty"`
	Option    *estimator.Option `json:"option,omitempty"`
	Other     *estimator.Option `json:"other,omitempty"`
	BudgetCNY float64           `json:"budget_cny,omitempty"`
	// BudgetSaid: how the budget was said (in dollars, per card).
	BudgetSaid  render.BudgetSaid `json:"budget_said,omitzero"`
	WithinHours float64           `json:"within_hours,omitempty"`
	// Job names a workload's job (SDXL, BERT-base …): its verdict has no
	// language-model estimate to name it from.
	Job string `json:"job,omitempty"`
}

// verdictLine is the first line of an estimate that answers a yes/no
// question: the verdict and the figure that decides it.
func (e Estimate) verdictLine(rd *render.Renderer) string {
	v, l := e.Verdict, e.Lang
	en := l.English()
	yes := v.Answer == render.VerdictYes
	why := ""
	switch v.Why {
	case WhyVRAM:
		why = e.vramWhy()
	case WhyBudget:
		o := v.Option
		if yes {
			why = l.T("estimate.yesno.budget_yes", rd.PlatformName(o.Platform, en), o.GPU, o.GPUCount, render.Money(o.TotalCNY),
				render.Money(o.TotalLowCNY), render.Money(o.TotalHighCNY), render.BudgetText(l, v.BudgetCNY, v.BudgetSaid))
		} else {
			why = l.T("estimate.yesno.budget_no", render.Money(o.TotalCNY), rd.PlatformName(o.Platform, en), o.GPU, o.GPUCount, o.Hours, render.BudgetText(l, v.BudgetCNY, v.BudgetSaid))
		}
	case WhyTime:
		key := "estimate.yesno.time_no"
		if yes {
			key = "estimate.yesno.time_yes"
		}
		why = l.T(key, v.Option.GPU, v.Option.GPUCount, v.Option.Hours, e.limitText())
	case WhyCost:
		o, b := v.Option, v.Other
		switch {
		case o.GPU == b.GPU && o.GPUCount == b.GPUCount:
			why = l.T("estimate.yesno.worth_best", o.GPU, render.Money(o.TotalCNY), o.Hours)
		case yes:
			why = l.T("estimate.yesno.worth_yes", o.GPU, render.Money(o.TotalCNY), o.Hours, b.GPU, render.Money(b.TotalCNY), b.Hours)
		default:
			why = l.T("estimate.yesno.worth_no", o.GPU, render.Money(o.TotalCNY), o.Hours, b.GPU, render.Money(b.TotalCNY), b.Hours)
		}
	case WhyCards:
		o, b := v.Option, v.Other
		why = l.T("estimate.yesno.cards", o.GPU, render.Money(o.TotalCNY), o.Hours, b.GPU, render.Money(b.TotalCNY), b.Hours)
	}
	return v.Line(why, l)
}

// vramWhy is the VRAM the job needs against what the card or size asked
// has.
func (e Estimate) vramWhy() string {
	v, l := e.Verdict, e.Lang
	job := e.shortJob()
	need := l.T("estimate.yesno.need_one", job, v.NeedGB)
	if v.Count > 1 {
		need = l.T("estimate.yesno.need_many", job, v.NeedGB, v.Count)
	}
	if v.MicroBatch > 0 {
		need += l.T("estimate.yesno.micro", v.MicroBatch)
	}
	yes := v.Answer == render.VerdictYes
	var has string
	switch {
	case v.Card == "" && yes:
		has = l.T("estimate.yesno.size_fits", render.TrimF(v.HaveGB))
	case v.Card == "":
		has = l.T("estimate.yesno.size_short", render.TrimF(v.HaveGB))
	case yes && v.Count > 1:
		has = l.T("estimate.yesno.each_has", e.cardLabel(), render.TrimF(v.HaveGB))
	case yes:
		has = l.T("estimate.yesno.has", e.cardLabel(), render.TrimF(v.HaveGB))
	case v.Count > 1:
		has = l.T("estimate.yesno.each_only", e.cardLabel(), render.TrimF(v.HaveGB))
	default:
		has = l.T("estimate.yesno.has_only", e.cardLabel(), render.TrimF(v.HaveGB))
	}
	more := ""
	if v.FitsOn > v.Count {
		more = l.T("estimate.yesno.needs_more", v.FitsOn)
	}
	if !yes && v.Count > 1 && v.Card != "" && v.TotalGB > 0 && v.TotalGB <= v.HaveGB*float64(v.Count) {
		more += l.T("estimate.yesno.per_card", v.Count, render.TrimF(v.HaveGB*float64(v.Count)))
	}
	if yes && v.ShortCard != "" {
		more += l.T("estimate.yesno.variant_short", v.ShortCard, render.TrimF(v.ShortGB))
	}
	if v.Int8Card != "" {
		more += l.T("estimate.yesno.int8_fits", v.Int8GB, v.Int8Card)
	}
	return l.T("estimate.yesno.vram", need, has, more)
}

// cardLabel names the cards asked: "RTX 3090", "2 张 RTX 3090".
func (e Estimate) cardLabel() string {
	if e.Verdict.Count > 1 {
		return e.Lang.T("estimate.yesno.cards_label", e.Verdict.Count, e.Verdict.Card)
	}
	return e.Verdict.Card
}

// limitText is the time asked: "10 小时", "7 天".
func (e Estimate) limitText() string {
	h := e.Verdict.WithinHours
	if h >= 24 && h == float64(int(h/24))*24 {
		return e.Lang.T("estimate.yesno.days", render.TrimF(h/24))
	}
	return e.Lang.T("estimate.yesno.hours", render.TrimF(h))
}

// shortJob names the job in a few words: "7B QLoRA 4-bit",
// "Qwen2.5-32B LoRA".
func (e Estimate) shortJob() string {
	est, l := e.Estimate, e.Lang
	if est == nil {
		return e.Verdict.Job
	}
	model := est.ModelID
	if est.Typical || est.Scaled || e.UnknownModel != "" {
		model = l.T("estimate.yesno.size", render.TrimF(est.ParamsB))
	}
	return l.T("estimate.job", model, methodName(est, l))
}
