package estimateview

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/workload"
)

// Workload is a non-LLM job's estimate ("训练一个ResNet50要多少钱"): the
// workload estimator's estimate (Est), its cost rows in Figures.Options
// (estimator.Estimator.CostOptions, cheapest first) with the hours of each
// card and the FLOPs, the model, family, dataset and loader behind it
// (nil when none), the GPUs the question asked for (several: estimated
// on one) and the language.
type Workload struct {
	Figures
	Est      *workload.Estimate `json:"workload_estimate,omitempty"`
	Model    *workload.Model    `json:"-"`
	Family   *workload.Family   `json:"-"`
	Dataset  *workload.Dataset  `json:"-"`
	Loader   *workload.Loader   `json:"-"`
	GPUCount int                `json:"-"`
	Lang     i18n.Lang          `json:"-"`
	// Verdict answers a yes/no question about the job ("50块钱能不能跑完
	// SDXL 出1000张图"; nil when none was asked): the first line.
	Verdict *Verdict `json:"verdict,omitempty"`
	// Scaling compares the cards asked with one of them (nil on one card).
	Scaling *Scaling `json:"scaling,omitempty"`
	// USD: the total asked in US dollars ("美元呢"): a line says it.
	USD bool `json:"-"`
	// VRAMAsked: the question asked for the VRAM ("SDXL LoRA 要多大显存"):
	// the first line says it, the cheapest run after it.
	VRAMAsked bool `json:"-"`
	// NamedGPUs are the cards the question names ("SDXL LoRA 3090还是
	// 4090"): with two or more, the first line says which run is cheaper
	// (SpeedAsked: which is faster).
	NamedGPUs  []string `json:"-"`
	SpeedAsked bool     `json:"-"`
}

// Reply is the short form (the cheapest run, the speed or the
// bottleneck, at most five rows, the assumptions) with the full form
// behind "详情".
func (w Workload) Reply(rd *render.Renderer) chat.Reply {
	full := w.full(rd)
	short := w.short(rd)
	full.English, short.English = w.Lang.English(), w.Lang.English()
	short.Full = &full
	return short
}

// short is the first screen.
func (w Workload) short(rd *render.Renderer) chat.Reply {
	l, en := w.Lang, w.Lang.English()
	rep := chat.Reply{Title: w.verdict(rd)}
	switch {
	case w.Verdict != nil:
		rep.Title = Estimate{Lang: l, Verdict: w.Verdict}.verdictLine(rd)
		rep.Lines = append(rep.Lines, w.verdict(rd))
	case w.VRAMAsked && w.Est.MinVRAMGB > 0:
		rep.Title = w.vramLine()
		rep.Lines = append(rep.Lines, w.verdict(rd))
	}
	if line := w.usdLine(rd); line != "" {
		rep.Lines = append(rep.Lines, line)
	}
	if s := w.Scaling.line(l); s != "" {
		rep.Lines = append(rep.Lines, s)
	} else if s := w.speedLine(true); s != "" {
		rep.Lines = append(rep.Lines, s)
	}
	if len(w.Options) == 0 {
		return rep
	}
	t := &chat.Table{Header: l.L("workload.table.short")}
	for i, o := range w.Options {
		if i == shortOptions {
			break
		}
		t.Rows = append(t.Rows, []string{rd.ShortName(o.Platform, en), cardsText(o.GPU, o.GPUCount), hoursText(o.Hours), render.Money(o.TotalCNY) + unverifiedMark(o.Verified)})
	}
	rep.Table = t
	if note := optionSourcesNote(w.Options, l); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	if len(w.Options) > shortOptions {
		rep.Notes = append(rep.Notes, l.T("estimate.more_options", len(w.Options)-shortOptions))
	}
	rep.Notes = append(rep.Notes, w.assumptions())
	return rep
}

// usdLine is the cheapest run's total in US dollars when they were asked
// for ("" otherwise).
func (w Workload) usdLine(rd *render.Renderer) string {
	if !w.USD || len(w.Options) == 0 {
		return ""
	}
	o := w.Options[0]
	cost := [2]float64{o.TotalLowCNY, o.TotalHighCNY}
	if cost[1] < cost[0] || cost[1] == 0 {
		cost = [2]float64{o.TotalCNY, o.TotalCNY}
	}
	return USDLine(rd, w.Lang, cost)
}

// vramLine is the VRAM the job needs at batch 1 and, on the cheapest
// run's card, at the batch it runs with.
func (w Workload) vramLine() string {
	l, what := w.Lang, w.what()
	if f, ok := w.optionFit(); ok && f.Batch > 1 && f.VRAMGB > w.Est.MinVRAMGB+0.05 {
		return l.T("workload.verdict.vram_first", what, w.Est.MinVRAMGB, f.GPU, f.Batch, f.VRAMGB)
	}
	return l.T("workload.verdict.vram_first_min", what, w.Est.MinVRAMGB)
}

// verdict is the first line: the job, the cheapest run and its hours;
// or, with no price known, the hours on the fastest card.
func (w Workload) verdict(rd *render.Renderer) string {
	l := w.Lang
	what := w.what()
	if len(w.NamedGPUs) >= 2 {
		if v := cardsVerdict(rd, w.Options, w.NamedGPUs, w.SpeedAsked, l); v != "" {
			return l.T("estimate.verdict.cards", what, v)
		}
	}
	if len(w.Options) > 0 {
		c := w.Options[0]
		return l.T("workload.verdict.priced", what, rd.PlatformName(c.Platform, l.English()), cardsText(c.GPU, c.GPUCount), render.Money(c.TotalCNY),
			render.Money(c.TotalLowCNY), render.Money(c.TotalHighCNY), hoursText(c.Hours))
	}
	f, ok := fastestFit(w.Est)
	if !ok {
		return l.T("workload.verdict.none_fits", what, minNeed(w.Est))
	}
	return l.T("workload.verdict.unpriced", what, f.GPU, hoursText(f.Hours.Typical+estimator.SetupHours),
		hoursText(f.Hours.Low+estimator.SetupHours), hoursText(f.Hours.High+estimator.SetupHours))
}

// what names the job: "ResNet-50 · ImageNet-1k 10%（12.8万张）× 30 轮".
func (w Workload) what() string {
	l, e, j := w.Lang, w.Est, w.Est.Job
	switch e.Kind {
	case workload.KindGenerate:
		return l.T("workload.what.generate", e.Name, HumanNum(e.Work, l), j.Resolution, j.Resolution, j.Steps)
	case workload.KindLoRA:
		return l.T("workload.what.lora", e.Name, HumanNum(float64(j.Images), l), HumanNum(e.Work, l))
	case workload.KindInfer:
		if e.Unit == "audio_second" {
			return l.T("workload.what.audio", e.Name, HumanNum(j.AudioHours, l))
		}
		return l.T("workload.what.infer", e.Name, HumanNum(e.Work, l), j.Resolution, j.Resolution)
	}
	perEpoch := HumanNum(e.Work/j.Epochs, l)
	if e.Unit == "clip" {
		return l.T("workload.what.clips", e.Name, perEpoch, HumanNum(e.Work/j.Epochs*30/3600, l), j.Epochs)
	}
	if j.SeqLen > 0 {
		return l.T("workload.what.samples", e.Name, perEpoch, j.Epochs, j.SeqLen)
	}
	if e.DatasetName == "" || j.Samples > 0 || j.Images > 0 {
		data := e.DatasetName
		if data == "" {
			data = l.T("workload.what.own_data")
		}
		return l.T("workload.what.images", e.Name, data, perEpoch, j.Epochs)
	}
	share := ""
	if j.Fraction > 0 && j.Fraction < 1 {
		share = fmt.Sprintf(" %g%%", math.Round(j.Fraction*1000)/10)
	}
	return l.T("workload.what.dataset", e.Name, e.DatasetName, share, perEpoch, j.Epochs)
}

// speedLine says what sets the pace on the cheapest card: the data
// loader (and how fast the card would be with a fast one), or the card's
// own speed.
func (w Workload) speedLine(short bool) string {
	l, en := w.Lang, w.Lang.English()
	f, ok := w.optionFit()
	if !ok {
		return ""
	}
	switch {
	case f.DataBound && w.Loader != nil && short:
		// In a few words on the first screen; how to fix it in 详情.
		return l.T("workload.speed.loader_bound_short", w.Loader.PerSec.Typical, f.GPU)
	case f.DataBound && w.Loader != nil:
		return l.T("workload.speed.loader_bound", w.Loader.Name.Pick(en), w.Loader.PerSec.Typical, f.GPU, w.Loader.Fix.Pick(en),
			hoursText(f.Hours.Low+estimator.SetupHours))
	}
	if w.Est.Measured {
		return l.T("workload.speed.measured", f.GPU, speedText(w.Est, f.PerSec.Typical, l))
	}
	mark := ""
	if w.Est.Unverified {
		mark = l.T("workload.speed.unverified")
	}
	return l.T("workload.speed.line", f.GPU, speedText(w.Est, f.PerSec.Typical, l), 100*f.MFU.Typical, mark)
}

// speedText is a speed in the job's unit: "830 张/秒", "12.6 秒/张",
// "1.4 it/s", "410 条/秒".
func speedText(e *workload.Estimate, perSec float64, l i18n.Lang) string {
	switch {
	case e.Unit == "audio_second":
		return l.T("workload.speed.realtime", figure(perSec))
	case e.Unit == "clip":
		return l.T("workload.speed.clips", figure(perSec))
	case e.Kind == workload.KindGenerate || e.Kind == workload.KindInfer && perSec < 1:
		return l.T("workload.speed.per_image", figure(1/perSec))
	case e.Kind == workload.KindLoRA:
		return l.T("workload.speed.steps", figure(perSec))
	case e.Job.SeqLen > 0:
		return l.T("workload.speed.samples", figure(perSec))
	}
	return l.T("workload.speed.images", figure(perSec))
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

// changeKeys are what a workload answer suggests saying to change it, by
// the workload's kind.
var changeKeys = map[string]string{workload.KindGenerate: "workload.change.generate", workload.KindLoRA: "workload.change.lora",
	workload.KindTrain: "workload.change.train", workload.KindInfer: "workload.change.infer"}

// assumptions is the assumptions in one line with the follow-ups.
func (w Workload) assumptions() string {
	l, e := w.Lang, w.Est
	prec := l.T("workload.assumed.mixed_precision")
	if w.Family != nil && w.Family.Precision.Zh != "" {
		prec = w.Family.Precision.Pick(l.English())
	}
	if e.Job.FP32 {
		prec = "fp32/TF32"
	}
	var parts []string
	if e.Job.Batch > 0 {
		parts = append(parts, fmt.Sprintf("batch %d", e.Job.Batch))
	}
	cards := l.T("workload.assumed.one_gpu")
	if e.GPUCount > 1 {
		cards = l.T("workload.assumed.gpus", e.GPUCount, 100*e.MultiGPU.Typical)
	}
	parts = append(parts, prec, cards)
	change := changeKeys[e.Kind]
	switch {
	case e.Unit == "audio_second":
		change = "workload.change.audio"
	case e.Unit == "clip":
		change = "workload.change.clips"
	case e.Kind != workload.KindTrain:
	case e.Job.SeqLen > 0:
		change = "workload.change.samples"
	case e.Family == "detection":
		change = "workload.change.detection"
	case e.Family == "two-stage":
		change = "workload.change.two_stage"
	case e.Job.Dataset != "imagenet":
		change = "workload.change.own_data"
	}
	joined := strings.Join(parts, l.T("list.sep"))
	if !l.English() && joined[0] < 0x80 {
		joined = " " + joined // "按 batch 256", "按混合精度"
	}
	changeText := ""
	if change != "" {
		changeText = l.T(change)
	}
	return l.T("workload.assumed.line", joined, estimator.SetupHours*60, changeText)
}

// full is the whole answer: the compute, each card's speed, the reference
// run, every option (up to maxOptionRows) with its price, disk and
// source, and how it was estimated.
func (w Workload) full(rd *render.Renderer) chat.Reply {
	l, e := w.Lang, w.Est
	rep := chat.Reply{Title: w.verdict(rd)}
	if s := w.Scaling.line(l); s != "" {
		rep.Lines = append(rep.Lines, s)
	}
	rep.Lines = append(rep.Lines, computeLine(e, l))
	if f, ok := w.optionFit(); ok && f.DataBound && w.Loader != nil {
		// The loader sets the pace, and how to get past it.
		rep.Lines = append(rep.Lines, w.speedLine(false))
	}
	rep.Lines = append(rep.Lines, w.speedLines()...)
	if s := cardRatioLine(e, l); s != "" {
		rep.Lines = append(rep.Lines, s)
	}
	if s := w.referenceLine(rd); s != "" {
		rep.Lines = append(rep.Lines, s)
	}
	if w.Model != nil && w.Model.SeedNote.Zh != "" {
		rep.Lines = append(rep.Lines, w.Model.SeedNote.Pick(l.English()))
	}
	shown := w.Options
	if len(shown) > maxOptionRows {
		shown = shown[:maxOptionRows]
	}
	unknownDisk := false
	if len(shown) > 0 {
		rep.Table, unknownDisk = optionsTable(rd, false, shown, l)
	}
	rep.Notes = append(rep.Notes, hiddenCostNotes(rd, shown, l)...)
	if unverifiedOptions(shown) {
		rep.Notes = append(rep.Notes, render.UnverifiedPriceNote(l.English()))
	}
	if unknownDisk {
		rep.Notes = append(rep.Notes, l.T("estimate.disk_unknown"))
	}
	rep.Notes = append(rep.Notes, w.methodNotes()...)
	// What was assumed, as the first screen says it.
	rep.Notes = append(rep.Notes, w.assumptions())
	return rep
}

// computeLine is the job's compute: units, FLOPs each and in all
// (1 PFLOP = 1e15 FLOPs).
func computeLine(e *workload.Estimate, l i18n.Lang) string {
	j := e.Job
	switch e.Kind {
	case workload.KindGenerate:
		return l.T("workload.compute.generate", HumanNum(e.Work, l), e.FLOPsPerUnit/1e12, j.Steps, e.FLOPs/1e15)
	case workload.KindLoRA:
		return l.T("workload.compute.lora", HumanNum(e.Work, l), e.FLOPsPerUnit/1e12, j.Batch, e.FLOPs/1e15)
	case workload.KindInfer:
		if e.Measured {
			return l.T("workload.compute.audio", HumanNum(j.AudioHours, l))
		}
		return l.T("workload.compute.infer", HumanNum(e.Work, l), e.FLOPsPerUnit/1e12, e.FLOPs/1e15)
	}
	return l.T("workload.compute.train", HumanNum(e.Work, l), e.FLOPsPerUnit/1e9, e.FLOPs/1e15)
}

// speedLines give the speed on each card of the options (at most five):
// the card alone, the loader's cap, the MFU and the hours.
func (w Workload) speedLines() []string {
	l := w.Lang
	var out []string
	seen := map[string]bool{}
	for _, o := range w.Options {
		if seen[o.GPU] || len(out) == 5 {
			continue
		}
		seen[o.GPU] = true
		f, ok := fitOf(w.Est, o.GPU)
		if !ok {
			continue
		}
		line := l.T("workload.card.alone", f.GPU, speedText(w.Est, f.GPUPerSec.Typical, l))
		if f.DataBound {
			line += l.T("workload.card.loader", speedText(w.Est, f.PerSec.Typical, l))
		}
		line += l.T("workload.card.mfu", f.MFU.Typical, f.MFU.Low, f.MFU.High)
		if f.Batch > 0 && f.Batch < w.Est.Job.Batch {
			line += l.T("workload.card.batch", f.Batch)
		}
		out = append(out, line+l.T("workload.card.hours", hoursText(f.Hours.Typical), hoursText(f.Hours.Low), hoursText(f.Hours.High)))
	}
	return out
}

// cardRatioLine gives how much faster a 4090 runs the job than a 3090,
// as a range (the seeds measured 1.5–2 × for their jobs).
func cardRatioLine(e *workload.Estimate, l i18n.Lang) string {
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
	return l.T("workload.ratio_4090", span, a.Hours.Typical/b.Hours.Typical)
}

// referenceLine is the seed's measured run of the model's default job,
// when the question asked for that job.
func (w Workload) referenceLine(rd *render.Renderer) string {
	l := w.Lang
	if w.Model == nil || w.Model.Reference == nil || !defaultJob(w.Est, w.Model) {
		return ""
	}
	ref := w.Model.Reference
	var paid []string
	for _, id := range slices.Sorted(maps.Keys(ref.Reported)) {
		paid = append(paid, l.T("workload.reference.paid", rd.PlatformName(id, l.English()), ref.Reported[id]))
	}
	return l.T("workload.reference.line", ref.Hours, ref.GPU, strings.Join(paid, l.T("list.sep")))
}

// methodNotes say how the hours were estimated and what they leave out.
func (w Workload) methodNotes() []string {
	l, e := w.Lang, w.Est
	notes := []string{l.T("workload.notes.method", estimator.SetupHours*60, e.DiskGB)}
	if w.Loader != nil {
		notes = append(notes, l.T("workload.notes.loader", w.Loader.Name.Pick(l.English()), w.Loader.PerSec.Low, w.Loader.PerSec.High, w.Loader.PerSec.Typical))
	}
	if e.Unverified {
		notes = append(notes, l.T("workload.notes.unverified"))
	}
	if w.GPUCount > 1 && w.Est.GPUCount < 2 {
		notes = append(notes, l.T("workload.notes.gpus", w.GPUCount))
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
func (w Workload) optionFit() (workload.Fit, bool) {
	if len(w.Options) > 0 {
		return fitOf(w.Est, w.Options[0].GPU)
	}
	return fastestFit(w.Est)
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

// cardsText is a card and its count when more than one ("A100 80GB×4").
func cardsText(gpu string, n int) string {
	if n > 1 {
		return fmt.Sprintf("%s×%d", gpu, n)
	}
	return gpu
}
