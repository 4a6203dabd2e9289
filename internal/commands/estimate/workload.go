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
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand"
)

// WorkloadCost is a non-LLM job's cost on one card at one platform
// (render.WorkloadCost).
type WorkloadCost = render.WorkloadCost

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
	run := render.WorkloadRun{Name: w.Name.Pick(en), Setting: ref.Setting.Pick(en), GPU: ref.GPU, Hours: ref.Hours, Scaled: scaled}
	if len(costs) > 0 {
		run.Reported = r.reportedLine(ref, en)
	}
	res.Reply = r.Rd.Workload(run, costs, en)
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
	return fmt.Sprintf(answer.Pick(en, "%s里实际花费：%s（当时的价格）。", "What %s paid: %s (at its prices then)."), src, render.JoinIDs(parts, en))
}
