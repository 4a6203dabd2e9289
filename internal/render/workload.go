package render

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/workload"
)

// WorkloadAnswer is a non-LLM job's estimate as an answer shows it: the
// estimate, its cost rows (billing.Estimator.CostOptions, cheapest
// first), the model, family, dataset and loader behind it (nil when
// none), the GPUs the question asked for (several: estimated on one)
// and the language.
type WorkloadAnswer struct {
	Est      *workload.Estimate
	Options  []estimator.Option
	Model    *workload.Model
	Family   *workload.Family
	Dataset  *workload.Dataset
	Loader   *workload.Loader
	GPUCount int
	English  bool
}

// Workload answers "训练一个ResNet50要多少钱": the short form (the cheapest
// run, the speed or the bottleneck, at most five rows, the assumptions)
// with the full form behind "详情".
func (r *Renderer) Workload(a WorkloadAnswer) chat.Reply {
	full := r.workloadFull(a)
	short := r.workloadShort(a)
	full.English, short.English = a.English, a.English
	short.Full = &full
	return short
}

// workloadShort is the first screen.
func (r *Renderer) workloadShort(a WorkloadAnswer) chat.Reply {
	en := a.English
	rep := chat.Reply{Title: r.workloadVerdict(a)}
	if l := r.workloadSpeedLine(a); l != "" {
		rep.Lines = append(rep.Lines, l)
	}
	if len(a.Options) == 0 {
		return rep
	}
	t := &chat.Table{Header: picks(en, []string{"平台", "GPU", "时长(h)", "合计（范围）"}, []string{"platform", "GPU", "hours", "total (range)"})}
	for i, o := range a.Options {
		if i == ShortRows {
			break
		}
		t.Rows = append(t.Rows, []string{r.PlatformName(o.Platform, en), o.GPU, hoursText(o.Hours), totalCell(o, unverifiedMark(o.Verified))})
	}
	rep.Table = t
	if len(a.Options) > ShortRows {
		rep.Notes = append(rep.Notes, fmt.Sprintf(pick1(en, "……还有 %d 种方案。", "… %d more options."), len(a.Options)-ShortRows))
	}
	if note := optionSourcesNote(&estimator.Estimate{Options: a.Options}, en); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	rep.Notes = append(rep.Notes, workloadAssumptions(a))
	return rep
}

// workloadVerdict is the first line: the job, the cheapest run and its
// hours; or, with no price known, the hours on the fastest card.
func (r *Renderer) workloadVerdict(a WorkloadAnswer) string {
	en := a.English
	what := workloadWhat(a)
	if len(a.Options) > 0 {
		c := a.Options[0]
		return fmt.Sprintf(pick1(en, "%s：最便宜 %s %s 约 %s 元（%s–%s），%s 小时。", "%s: cheapest %s %s, about %s CNY (%s–%s), %s h."),
			what, r.PlatformName(c.Platform, en), c.GPU, Money(c.TotalCNY), Money(c.TotalLowCNY), Money(c.TotalHighCNY), hoursText(c.Hours))
	}
	f, ok := fastestFit(a.Est)
	if !ok {
		return fmt.Sprintf(pick1(en, "%s：所问的卡都放不下（要约 %.0f GB 显存）。", "%s: none of the GPUs asked for holds it (it needs about %.0f GB)."), what, minNeed(a.Est))
	}
	return fmt.Sprintf(pick1(en, "%s：%s 约 %s 小时（%s–%s）；这张卡在所问的平台上没有已知价格。", "%s: %s, about %s h (%s–%s); no known price for it on the platforms asked."),
		what, f.GPU, hoursText(f.Hours.Typical+estimator.SetupHours), hoursText(f.Hours.Low+estimator.SetupHours), hoursText(f.Hours.High+estimator.SetupHours))
}

// workloadWhat names the job: "ResNet-50 · ImageNet-1k 10%（12.8万张）× 30 轮".
func workloadWhat(a WorkloadAnswer) string {
	en, e, j := a.English, a.Est, a.Est.Job
	switch e.Kind {
	case workload.KindGenerate:
		return fmt.Sprintf(pick1(en, "%s 出 %s 张图（%d×%d，%d 步）", "%s, %s images (%d×%d, %d steps)"), e.Name, HumanNum(e.Work, en), j.Resolution, j.Resolution, j.Steps)
	case workload.KindLoRA:
		return fmt.Sprintf(pick1(en, "%s 训练（%s 张图，%s 步）", "%s training (%s images, %s steps)"), e.Name, HumanNum(float64(j.Images), en), HumanNum(e.Work, en))
	}
	perEpoch := HumanNum(e.Work/j.Epochs, en)
	if j.SeqLen > 0 {
		return fmt.Sprintf(pick1(en, "%s 微调 %s条 × %g 轮（seq %d）", "%s fine-tune, %s samples × %g epochs (seq %d)"), e.Name, perEpoch, j.Epochs, j.SeqLen)
	}
	if e.DatasetName == "" || j.Samples > 0 || j.Images > 0 {
		data := e.DatasetName
		if data == "" {
			data = pick1(en, "自己的数据", "own data")
		}
		return fmt.Sprintf(pick1(en, "%s · %s %s张 × %g 轮", "%s · %s, %s images × %g epochs"), e.Name, data, perEpoch, j.Epochs)
	}
	share := ""
	if j.Fraction > 0 && j.Fraction < 1 {
		share = fmt.Sprintf(" %g%%", math.Round(j.Fraction*1000)/10)
	}
	return fmt.Sprintf(pick1(en, "%s · %s%s（%s张）× %g 轮", "%s · %s%s (%s images) × %g epochs"), e.Name, e.DatasetName, share, perEpoch, j.Epochs)
}

// workloadSpeedLine says what sets the pace on the cheapest card: the
// data loader (and how fast the card would be with a fast one), or the
// card's own speed.
func (r *Renderer) workloadSpeedLine(a WorkloadAnswer) string {
	en := a.English
	f, ok := optionFit(a)
	if !ok {
		return ""
	}
	if f.DataBound && a.Loader != nil {
		return fmt.Sprintf(pick1(en, "瓶颈在数据加载（%s，约 %g 张/秒），%s 能算得更快，换卡也快不了；%s，可缩到约 %s 小时。",
			"The data loader is the bottleneck (%s: about %g images/s), not the %s, so a faster card will not help; %s to get down to about %s h."),
			a.Loader.Name.Pick(en), a.Loader.PerSec.Typical, f.GPU, a.Loader.Fix.Pick(en), hoursText(f.Hours.Low+estimator.SetupHours))
	}
	mark := ""
	if a.Est.Unverified {
		mark = pick1(en, "，按 FLOPs 推算、未经实测核对", "; worked out from FLOPs, not checked against a measurement")
	}
	return fmt.Sprintf(pick1(en, "%s 约 %s（MFU %.2f%s）。", "%s: about %s (MFU %.2f%s)."), f.GPU, speedText(a.Est, f.PerSec.Typical, en), f.MFU.Typical, mark)
}

// speedText is a speed in the job's unit: "830 张/秒", "12.6 秒/张",
// "1.4 it/s", "410 条/秒".
func speedText(e *workload.Estimate, perSec float64, en bool) string {
	switch {
	case e.Kind == workload.KindGenerate:
		return fmt.Sprintf(pick1(en, "%s 秒/张", "%s s per image"), figure(1/perSec))
	case e.Kind == workload.KindLoRA:
		return figure(perSec) + " it/s"
	case e.Job.SeqLen > 0:
		return fmt.Sprintf(pick1(en, "%s 条/秒", "%s samples/s"), figure(perSec))
	}
	return fmt.Sprintf(pick1(en, "%s 张/秒", "%s images/s"), figure(perSec))
}

// figure writes a measured quantity to three significant figures without
// an exponent ("1230", "12.6", "0.824").
func figure(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// workloadAssumptions is the assumptions in one line with the follow-ups.
func workloadAssumptions(a WorkloadAnswer) string {
	en, e := a.English, a.Est
	prec := pick1(en, "混合精度", "mixed precision")
	if a.Family != nil && a.Family.Precision.Zh != "" {
		prec = a.Family.Precision.Pick(en)
	}
	if e.Job.FP32 {
		prec = "fp32/TF32"
	}
	var parts []string
	if e.Job.Batch > 0 {
		parts = append(parts, fmt.Sprintf("batch %d", e.Job.Batch))
	}
	parts = append(parts, prec, pick1(en, "单卡", "one GPU"))
	change := map[string][2]string{
		workload.KindGenerate: {"“50步”“2000张”“1024x1024”", "“50 steps”, “2000 images” or “1024x1024”"},
		workload.KindLoRA:     {"“30张图”“3000步”", "“30 images” or “3000 steps”"},
		workload.KindTrain:    {"“全量 ImageNet”“100轮”“fp32”“5千张图”", "“whole ImageNet”, “100 epochs”, “fp32” or “5k images”"},
	}[e.Kind]
	switch {
	case e.Kind != workload.KindTrain:
	case e.Job.SeqLen > 0:
		change = [2]string{"“5万条”“seq 256”“5轮”", "“50k samples”, “seq 256” or “5 epochs”"}
	case e.Family == "detection":
		change = [2]string{"“yolov8m”“300轮”“5千张图”", "“yolov8m”, “300 epochs” or “5k images”"}
	case e.Family == "two-stage":
		change = [2]string{"“24轮”“5千张图”", "“24 epochs” or “5k images”"}
	case e.Job.Dataset != "imagenet":
		change = [2]string{"“100轮”“5千张图”“fp32”", "“100 epochs”, “5k images” or “fp32”"}
	}
	if en {
		return fmt.Sprintf("Assumed %s, %.0f min of setup, disk and billing granularity included; say %s to change.", strings.Join(parts, ", "), estimator.SetupHours*60, change[1])
	}
	lead := "按"
	if parts[0][0] < 0x80 {
		lead += " " // "按 batch 256", "按混合精度"
	}
	return fmt.Sprintf("%s%s估算，含 %.0f 分钟准备、数据盘和计费粒度；说%s可改。", lead, strings.Join(parts, "、"), estimator.SetupHours*60, change[0])
}

// workloadFull is the whole answer: the compute, each card's speed, the
// reference run, every option (up to maxOptionRows) with its price, disk
// and source, and how it was estimated.
func (r *Renderer) workloadFull(a WorkloadAnswer) chat.Reply {
	en, e := a.English, a.Est
	rep := chat.Reply{Title: r.workloadVerdict(a)}
	rep.Lines = append(rep.Lines, computeLine(e, en))
	rep.Lines = append(rep.Lines, r.speedLines(a)...)
	if l := cardRatioLine(e, en); l != "" {
		rep.Lines = append(rep.Lines, l)
	}
	if l := r.referenceLine(a); l != "" {
		rep.Lines = append(rep.Lines, l)
	}
	if a.Model != nil && a.Model.SeedNote.Zh != "" {
		rep.Lines = append(rep.Lines, a.Model.SeedNote.Pick(en))
	}
	shown := a.Options
	if len(shown) > maxOptionRows {
		shown = shown[:maxOptionRows]
	}
	unknownDisk := false
	if len(shown) > 0 {
		rep.Table, unknownDisk = r.optionsTable(&estimator.Estimate{Method: estimator.MethodFull}, shown, en)
	}
	rep.Notes = append(rep.Notes, r.hiddenCostNotes(shown, en)...)
	if unverifiedOptions(shown) {
		rep.Notes = append(rep.Notes, UnverifiedPriceNote(en))
	}
	if unknownDisk {
		rep.Notes = append(rep.Notes, pick1(en, "“未知”：该平台数据盘价格没查到，合计不含数据盘费用。", "“unknown”: the platform's disk price was not found; the total leaves disk out."))
	}
	rep.Notes = append(rep.Notes, workloadMethodNotes(a)...)
	return rep
}

// computeLine is the job's compute: units, FLOPs each and in all
// (1 PFLOP = 1e15 FLOPs).
func computeLine(e *workload.Estimate, en bool) string {
	j := e.Job
	switch e.Kind {
	case workload.KindGenerate:
		return fmt.Sprintf(pick1(en, "计算量：%s张图，每张 %.3g TFLOPs（%d 步去噪 + VAE 解码），共 %.3g PFLOPs。", "Compute: %s images at %.3g TFLOPs each (%d denoising steps + VAE decode), %.3g PFLOPs in all."),
			HumanNum(e.Work, en), e.FLOPsPerUnit/1e12, j.Steps, e.FLOPs/1e15)
	case workload.KindLoRA:
		return fmt.Sprintf(pick1(en, "计算量：%s步，每步 %.3g TFLOPs（batch %d，前向 + 反向 + 重算 ≈ 3 × 前向），共 %.3g PFLOPs。", "Compute: %s steps at %.3g TFLOPs each (batch %d; forward, backward and recomputation ≈ 3 × forward), %.3g PFLOPs in all."),
			HumanNum(e.Work, en), e.FLOPsPerUnit/1e12, j.Batch, e.FLOPs/1e15)
	}
	return fmt.Sprintf(pick1(en, "计算量：%s个样本（数据 × 轮数），每个 %.3g GFLOPs（训练 ≈ 3 × 前向），共 %.3g PFLOPs。", "Compute: %s samples (data × epochs) at %.3g GFLOPs each (training ≈ 3 × forward), %.3g PFLOPs in all."),
		HumanNum(e.Work, en), e.FLOPsPerUnit/1e9, e.FLOPs/1e15)
}

// speedLines give the speed on each card of the options (at most five):
// the card alone, the loader's cap, the MFU and the hours.
func (r *Renderer) speedLines(a WorkloadAnswer) []string {
	en := a.English
	var out []string
	seen := map[string]bool{}
	for _, o := range a.Options {
		if seen[o.GPU] || len(out) == 5 {
			continue
		}
		seen[o.GPU] = true
		f, ok := fitOf(a.Est, o.GPU)
		if !ok {
			continue
		}
		line := fmt.Sprintf(pick1(en, "%s：单卡约 %s", "%s: the card alone does %s"), f.GPU, speedText(a.Est, f.GPUPerSec.Typical, en))
		if f.DataBound {
			line += fmt.Sprintf(pick1(en, "，受数据加载限制只有 %s", ", held to %s by data loading"), speedText(a.Est, f.PerSec.Typical, en))
		}
		line += fmt.Sprintf(pick1(en, "（MFU %.2f，范围 %.2f–%.2f）", " (MFU %.2f, range %.2f–%.2f)"), f.MFU.Typical, f.MFU.Low, f.MFU.High)
		if f.Batch > 0 && f.Batch < a.Est.Job.Batch {
			line += fmt.Sprintf(pick1(en, "，显存只够 batch %d", ", memory holds batch %d"), f.Batch)
		}
		out = append(out, line+fmt.Sprintf(pick1(en, " → %s 小时（%s–%s）。", " → %s h (%s–%s)."), hoursText(f.Hours.Typical), hoursText(f.Hours.Low), hoursText(f.Hours.High)))
	}
	return out
}

// cardRatioLine gives how much faster a 4090 runs the job than a 3090,
// as a range (the seeds measured 1.5–2 × for their jobs).
func cardRatioLine(e *workload.Estimate, en bool) string {
	a, okA := fitOf(e, "RTX 3090")
	b, okB := fitOf(e, "RTX 4090")
	if !okA || !okB {
		return ""
	}
	lo := math.Min(a.Hours.Low/b.Hours.Low, a.Hours.High/b.Hours.High)
	hi := math.Max(a.Hours.Low/b.Hours.Low, a.Hours.High/b.Hours.High)
	span := fmt.Sprintf("%.1f–%.1f", lo, hi)
	if fmt.Sprintf("%.1f", lo) == fmt.Sprintf("%.1f", hi) {
		span = fmt.Sprintf("%.1f", lo)
	}
	return fmt.Sprintf(pick1(en, "这个任务 RTX 4090 的速度是 RTX 3090 的 %s 倍（典型 %.1f；原文实测 1.5–2 倍，卡算得越满差得越多）。", "On this job an RTX 4090 runs %s× an RTX 3090 (typically %.1f×; the seeds measured 1.5–2×, more when the card is the bottleneck)."),
		span, a.Hours.Typical/b.Hours.Typical)
}

// referenceLine is the seed's measured run of the model's default job,
// when the question asked for that job.
func (r *Renderer) referenceLine(a WorkloadAnswer) string {
	en := a.English
	if a.Model == nil || a.Model.Reference == nil || !defaultJob(a.Est, a.Model) {
		return ""
	}
	ref := a.Model.Reference
	var paid []string
	for _, id := range slices.Sorted(maps.Keys(ref.Reported)) {
		paid = append(paid, fmt.Sprintf(pick1(en, "%s 约 %g 元", "%s about %g CNY"), r.PlatformName(id, en), ref.Reported[id]))
	}
	if en {
		return fmt.Sprintf("A 2025 review's run (unverified): about %g h on a %s; %s (at its prices then).", ref.Hours, ref.GPU, strings.Join(paid, ", "))
	}
	return fmt.Sprintf("原文实测（2025 年测评，未核实）：%s 约 %g 小时，%s（当时的价格）。", ref.GPU, ref.Hours, strings.Join(paid, "、"))
}

// workloadMethodNotes say how the hours were estimated and what they
// leave out.
func workloadMethodNotes(a WorkloadAnswer) []string {
	en, e := a.English, a.Est
	var notes []string
	notes = append(notes, fmt.Sprintf(pick1(en,
		"时长 = 计算量 ÷（显卡峰值 × 效率），效率按公开实测（NVIDIA、Lambda、diffusers、Ultralytics、detectron2 的测速）拟合，并算上显存带宽；范围从调优过的脚本到普通 PyTorch/WebUI 写法。另含 %.0f 分钟准备，按平台计费粒度取整；数据盘约 %.0f GB（数据+权重+检查点）扣除免费额度按天计。",
		"Hours = compute ÷ (the card's peak × efficiency), the efficiency fitted to public measurements (NVIDIA, Lambda, diffusers, Ultralytics, detectron2) with memory bandwidth counted; the range runs from tuned scripts to plain PyTorch/WebUI code. Plus %.0f min of setup, rounded to each platform's billing; disk ~%.0f GB (data + weights + checkpoints) beyond the free quota, per started day."),
		estimator.SetupHours*60, e.DiskGB))
	if a.Loader != nil {
		notes = append(notes, fmt.Sprintf(pick1(en, "数据加载（%s）按 %g–%g 张/秒估算，典型 %g；原文提醒数据放在网络盘上会让 GPU 空等。", "Data loading (%s) is taken as %g–%g images/s, typically %g; the seeds warn that network disks starve the GPU."),
			a.Loader.Name.Pick(en), a.Loader.PerSec.Low, a.Loader.PerSec.High, a.Loader.PerSec.Typical))
	}
	if e.Unverified {
		notes = append(notes, pick1(en, "这类任务的速度只按 FLOPs 推算，没有拿实测核对过，误差可能较大。", "This kind of job's speed is worked out from FLOPs and was not checked against a measurement; it may be well off."))
	}
	if a.GPUCount > 1 {
		notes = append(notes, fmt.Sprintf(pick1(en, "按单卡估算；%d 卡请按实测加速比折算（原文 2 张 4090 约 1.6 倍）。", "Estimated on one GPU; for %d GPUs scale by a measured speed-up (the seeds saw 1.6× on two 4090s)."), a.GPUCount))
	}
	return notes
}

// defaultJob reports whether the job is the model's default one (the
// data, share and epochs its reference run used).
func defaultJob(e *workload.Estimate, m *workload.Model) bool {
	j, d := e.Job, m.Defaults
	return j.Dataset == d.Dataset && j.Fraction == d.Fraction && j.Epochs == d.Epochs && j.Samples == d.Samples && j.Images == d.Images &&
		(m.Batch == 0 || j.Batch == m.Batch) && !j.FP32
}

// optionFit is the fit behind the cheapest option (the fastest fit when
// no option has a price).
func optionFit(a WorkloadAnswer) (workload.Fit, bool) {
	if len(a.Options) > 0 {
		return fitOf(a.Est, a.Options[0].GPU)
	}
	return fastestFit(a.Est)
}

func fitOf(e *workload.Estimate, gpu string) (workload.Fit, bool) {
	for _, f := range e.Fits {
		if f.GPU == gpu && f.Fits {
			return f, true
		}
	}
	return workload.Fit{}, false
}

func fastestFit(e *workload.Estimate) (workload.Fit, bool) {
	best, ok := workload.Fit{}, false
	for _, f := range e.Fits {
		if f.Fits && (!ok || f.Hours.Typical < best.Hours.Typical) {
			best, ok = f, true
		}
	}
	return best, ok
}

// minNeed is the least memory the job needs on any card, GB.
func minNeed(e *workload.Estimate) float64 {
	need := math.Inf(1)
	for _, f := range e.Fits {
		need = math.Min(need, f.VRAMGB)
	}
	return need
}

// hoursText writes hours with one decimal, two below one hour.
func hoursText(h float64) string {
	if h < 1 {
		return fmt.Sprintf("%.2f", h)
	}
	return fmt.Sprintf("%.1f", h)
}
