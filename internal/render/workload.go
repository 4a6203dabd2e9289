package render

import (
	"fmt"

	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/chat"
)

// WorkloadCost is a non-LLM job's cost on one card at one platform, scaled
// from the workload's reference run: hours = reference hours ÷ s^k, where
// s is the card's BF16 tensor TFLOPS over the reference card's and k runs
// from 1 (compute-bound, the low end) to 0.5 (data loading and small
// kernels eat part of the speed-up, the high end); plus SetupHours.
// Prices are CNY per GPU-hour; totals are GPU time only.
type WorkloadCost struct {
	Platform  string        `json:"platform"`
	GPU       string        `json:"gpu"`
	Hours     billing.Range `json:"hours"`
	PriceCNY  float64       `json:"price_cny_per_gpu_hour"`
	TotalCNY  billing.Range `json:"total_cny"`
	Source    string        `json:"price_source"`
	AsOf      string        `json:"price_as_of"`
	Verified  bool          `json:"verified"`
	MemoryGB  float64       `json:"memory_gb"`
	Reference string        `json:"reference"`
}

// WorkloadRun is the measured run a workload's costs are scaled from, in
// the reader's language: the workload's name, the run's setting, card and
// hours, the line saying how the question scaled it ("" when it did not)
// and the line saying what the run's source paid.
type WorkloadRun struct {
	Name     string
	Setting  string
	GPU      string
	Hours    float64
	Scaled   string
	Reported string
}

// Workload is a non-LLM job's answer ("训练一个ResNet50要多少钱"): the
// cheapest card first, the run it is scaled from, a row per card and
// platform, and how the hours were scaled.
func (r *Renderer) Workload(run WorkloadRun, costs []WorkloadCost, en bool) chat.Reply {
	if len(costs) == 0 {
		return chat.Reply{Title: fmt.Sprintf(pick1(en, "%s：没有已知价格的卡放得下。", "%s: no card with a known price holds it."), run.Name)}
	}
	c := costs[0]
	rep := chat.Reply{Title: fmt.Sprintf(pick1(en, "%s：最便宜 %s %s 约 %s 元（%s–%s），%.1f 小时。", "%s: cheapest %s %s, about %s CNY (%s–%s), %.1f h."),
		run.Name, r.PlatformName(c.Platform, en), c.GPU, Money(c.TotalCNY.Typical), Money(c.TotalCNY.Low), Money(c.TotalCNY.High), c.Hours.Typical)}
	if en {
		rep.Lines = append(rep.Lines, fmt.Sprintf("Scaled from a measured run: %s, about %g h on a %s.", run.Setting, run.Hours, run.GPU))
	} else {
		rep.Lines = append(rep.Lines, fmt.Sprintf("按原文的实测任务估算：%s，%s 约 %g 小时。", run.Setting, run.GPU, run.Hours))
	}
	if run.Scaled != "" {
		rep.Lines = append(rep.Lines, run.Scaled)
	}
	t := &chat.Table{Header: picks(en, []string{"平台", "GPU", "时长(h)", "元/卡时", "合计（范围）"}, []string{"platform", "GPU", "hours", "CNY/GPU-h", "total (range)"})}
	unverified := false
	for _, wc := range costs {
		star := unverifiedMark(wc.Verified)
		unverified = unverified || !wc.Verified
		t.Rows = append(t.Rows, []string{r.PlatformName(wc.Platform, en), wc.GPU, fmt.Sprintf("%.1f", wc.Hours.Typical),
			fmt.Sprintf("%.2f%s", wc.PriceCNY, star), fmt.Sprintf("%s (%s-%s)", Money(wc.TotalCNY.Typical), Money(wc.TotalCNY.Low), Money(wc.TotalCNY.High))})
	}
	rep.Table = t
	rep.Notes = append(rep.Notes, run.Reported)
	if unverified {
		rep.Notes = append(rep.Notes, UnverifiedPriceNote(en))
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf(pick1(en, "时长按各卡 BF16 算力相对 %s 换算（范围：完全按算力到只快一半的平方根），含 %.0f 分钟环境准备；只算 GPU 费，数据盘另计。换数据量或轮数就按比例放大。",
		"Hours scale with each card's BF16 TFLOPS against the %s (range: fully compute-bound to the square root of the speed-up) plus %.0f min of setup; GPU time only, disk extra. Scale with your data size and epochs."),
		run.GPU, billing.SetupHours*60))
	return rep
}
