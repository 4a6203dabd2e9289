package estimate

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand"
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

// workloadCosts scales the reference run to every CUDA card that holds the
// workload and has a known price, cheapest typical total first.
func (r *Answers) workloadCosts(w *advice.Workload, quotes billing.Quotes, scale float64) []WorkloadCost {
	ref, ok := r.Cat.GPU(w.Reference.GPU)
	if !ok {
		return nil
	}
	refHours := w.Reference.Hours * scale
	var out []WorkloadCost
	for i := range r.Cat.GPUs {
		g := &r.Cat.GPUs[i]
		if g.MemoryGB < w.VRAMGB.Low || !r.CudaCard(g.ID) {
			continue
		}
		s := g.TensorTFLOPS / ref.TensorTFLOPS
		lo := refHours/math.Max(s, 1e-9) + billing.SetupHours
		hi := refHours/math.Pow(math.Max(s, 1e-9), 0.5) + billing.SetupHours
		if s < 1 {
			lo, hi = hi, lo
		}
		typ := (lo + hi) / 2
		for _, pq := range quotes(g.ID) {
			out = append(out, WorkloadCost{Platform: pq.Platform, GPU: g.ID, PriceCNY: render.Round2(pq.CNYPerGPUHour),
				Hours:    billing.Range{Low: render.Round2(lo), Typical: render.Round2(typ), High: render.Round2(hi)},
				TotalCNY: billing.Range{Low: render.Round2(lo * pq.Low), Typical: render.Round2(typ * pq.CNYPerGPUHour), High: render.Round2(hi * pq.High)},
				Source:   pq.Source, AsOf: pq.AsOf, Verified: pq.Verified, MemoryGB: g.MemoryGB, Reference: ref.ID})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].TotalCNY.Typical < out[j].TotalCNY.Typical })
	return out
}

// workloadEstimate answers "训练一个ResNet50要多少钱" from the workload's
// reference run: the cheapest cards first, with the setting assumed and
// what the source itself paid.
func (r *Answers) workloadEstimate(ctx context.Context, res *Result, w *advice.Workload) {
	en := res.English
	quotes := r.Quotes(r.Offers.Snapshot(ctx), res.Query, billing.MethodFull, r.Now(), en)
	ref := w.Reference
	scale, scaled := workloadScale(ref, res.Query)
	costs := r.workloadCosts(w, quotes, scale)
	res.WorkloadCosts = costs
	if len(costs) == 0 {
		res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "%s：没有已知价格的卡放得下。", "%s: no card with a known price holds it."), w.Name.Pick(en))}
		return
	}
	c := costs[0]
	title := fmt.Sprintf(answer.Pick(en, "%s：最便宜 %s %s 约 %s 元（%s–%s），%.1f 小时。", "%s: cheapest %s %s, about %s CNY (%s–%s), %.1f h."),
		w.Name.Pick(en), r.Rd.PlatformName(c.Platform, en), c.GPU, money(c.TotalCNY.Typical), money(c.TotalCNY.Low), money(c.TotalCNY.High), c.Hours.Typical)
	rep := chat.Reply{Title: title}
	rep.Lines = append(rep.Lines, fmt.Sprintf(answer.Pick(en, "按原文的实测任务估算：%s，%s 约 %g 小时。", "Scaled from a measured run: %s, about %g h on a %s."),
		ref.Setting.Pick(en), ref.GPU, ref.Hours))
	if en {
		rep.Lines[0] = fmt.Sprintf("Scaled from a measured run: %s, about %g h on a %s.", ref.Setting.Pick(en), ref.Hours, ref.GPU)
	}
	if scaled != "" {
		rep.Lines = append(rep.Lines, scaled)
	}
	t := &chat.Table{Header: answer.Picks(en, []string{"平台", "GPU", "时长(h)", "元/卡时", "合计（范围）"}, []string{"platform", "GPU", "hours", "CNY/GPU-h", "total (range)"})}
	unverified := false
	for _, wc := range costs {
		star := ""
		if !wc.Verified {
			star, unverified = "*", true
		}
		t.Rows = append(t.Rows, []string{r.Rd.PlatformName(wc.Platform, en), wc.GPU, fmt.Sprintf("%.1f", wc.Hours.Typical),
			fmt.Sprintf("%.2f%s", wc.PriceCNY, star), fmt.Sprintf("%s (%s-%s)", money(wc.TotalCNY.Typical), money(wc.TotalCNY.Low), money(wc.TotalCNY.High))})
	}
	rep.Table = t
	rep.Notes = append(rep.Notes, r.reportedLine(ref, en))
	if unverified {
		rep.Notes = append(rep.Notes, render.UnverifiedPriceNote(en))
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf(answer.Pick(en, "时长按各卡 BF16 算力相对 %s 换算（范围：完全按算力到只快一半的平方根），含 %.0f 分钟环境准备；只算 GPU 费，数据盘另计。换数据量或轮数就按比例放大。",
		"Hours scale with each card's BF16 TFLOPS against the %s (range: fully compute-bound to the square root of the speed-up) plus %.0f min of setup; GPU time only, disk extra. Scale with your data size and epochs."),
		ref.GPU, billing.SetupHours*60))
	res.Reply = rep
}

// workloadScale scales the reference run to the question: more epochs,
// or the whole dataset where the reference used part of it. It returns
// the factor and a line saying so ("" when nothing changed).
func workloadScale(ref *advice.Reference, q understand.Query) (float64, string) {
	en := q.English
	scale := 1.0
	var why []string
	if q.Epochs > 0 && ref.Epochs > 0 && q.Epochs != ref.Epochs {
		scale *= q.Epochs / ref.Epochs
		why = append(why, fmt.Sprintf(answer.Pick(en, "%g 轮（原文 %g 轮）", "%g epochs (the run had %g)"), q.Epochs, ref.Epochs))
	}
	folded := catalog.Fold(q.Asked)
	if ref.Dataset != "" && ref.Fraction > 0 && ref.Fraction < 1 && strings.Contains(folded, ref.Dataset) && !reSubset.MatchString(folded) {
		scale /= ref.Fraction
		why = append(why, fmt.Sprintf(answer.Pick(en, "整个 %s（原文只用了 %.0f%%）", "the whole %s (the run used %.0f%%)"), ref.Dataset, ref.Fraction*100))
	}
	if len(why) == 0 {
		return 1, ""
	}
	return scale, fmt.Sprintf(answer.Pick(en, "按你说的%s，时长和费用乘 %g。", "For %s, hours and cost × %g."), strings.Join(why, answer.Pick(en, "、", " and ")), scale)
}

// reSubset says a dataset is used in part ("10% 子集", "subset").
var reSubset = textgate.MustCompile(`子集|\d+ ?%|subset|部分|一部分|part of`)

// reportedLine says what the reference's source paid, as a reader would
// name it.
func (r *Answers) reportedLine(ref *advice.Reference, en bool) string {
	var ids []string
	for id := range ref.Reported {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf(answer.Pick(en, "%s 约 %g 元", "%s about %g CNY"), r.Rd.PlatformName(id, en), ref.Reported[id]))
	}
	src := answer.SeedCite(ref.Source, en)
	if !answer.CitesSeed(ref.Source) {
		src = answer.SourceText(ref.Source, en)
	}
	if len(parts) == 0 {
		return answer.Pick(en, "参考：", "Reference: ") + src
	}
	return fmt.Sprintf(answer.Pick(en, "%s里实际花费：%s（当时的价格）。", "What %s paid: %s (at its prices then)."), src, answer.JoinIDs(parts, en))
}
