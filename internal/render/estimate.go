package render

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/stock"
)

// maxOptionRows caps the full estimate's cost table.
const maxOptionRows = 10

// maxHiddenCostNotes caps the per-platform hidden-cost notes.
const maxHiddenCostNotes = 3

// EstimateAsk is what the question asked, as an estimate answer shows it:
// the parser's problem lines, the model named but not in the catalog, the
// cards named, whether the question named GPUs at all, and what would
// work when nothing fits (the answer runs the estimator for those).
type EstimateAsk struct {
	Problems     []string
	UnknownModel string
	NamedGPUs    []string
	GPUsAsked    bool
	Alternatives []Alternative
	English      bool
}

// AltKind is what an alternative changes about the job.
type AltKind int

// The alternatives when nothing asked for fits: the same job as QLoRA
// 4-bit, the same card in more GPUs, another card.
const (
	AltQLoRA AltKind = iota
	AltMoreGPUs
	AltOtherCard
)

// Alternative is one way to run a job that does not fit: its cheapest
// known option (Option.Platform "" when no price is known) and its fit.
type Alternative struct {
	Kind   AltKind
	Option estimator.Option
	Fit    *estimator.Fit
}

// Estimate is the estimate's answer: the short form (EstimateShort) with
// the full form (EstimateFull) behind "详情".
func (r *Renderer) Estimate(est *estimator.Estimate, ask EstimateAsk) chat.Reply {
	full := r.EstimateFull(est, ask)
	short := r.estimateShort(est, ask, full)
	short.Full = &full
	return short
}

// estimateShort is the estimate's first screen: the verdict (the cheapest
// option, or the named cards compared), the VRAM line, what fits, at most
// five options and the assumptions in one line.
func (r *Renderer) estimateShort(est *estimator.Estimate, ask EstimateAsk, full chat.Reply) chat.Reply {
	en := ask.English
	rep := chat.Reply{Title: full.Title}
	if v := r.estimateVerdict(est, ask); v != "" {
		rep.Title = v
	}
	rep.Lines = append(rep.Lines, ask.Problems...)
	v := est.VRAM
	line := fmt.Sprintf(pick1(en, "显存约 %.1f GB", "VRAM about %.1f GB"), v.Total)
	if est.Method != estimator.MethodInference && est.VRAMMin < v.Total-0.05 {
		line += fmt.Sprintf(pick1(en, "（batch 1 + 梯度累积约 %.1f GB）", " (%.1f GB at micro-batch 1 with accumulation)"), est.VRAMMin)
	}
	rep.Lines = append(rep.Lines, line+pick1(en, "。", "."))
	for _, l := range full.Lines {
		if strings.HasPrefix(l, pick1(en, "放得下——", "Fits — ")) || strings.HasPrefix(l, pick1(en, "可行的做法", "What would work")) ||
			strings.Contains(l, pick1(en, "放不下", "not fit")) {
			rep.Lines = append(rep.Lines, shortenList(l, 70, en))
		}
	}
	if full.Table != nil {
		rep.Table = r.estimateTable(est, en)
	}
	if len(est.Options) > ShortRows {
		rep.Notes = append(rep.Notes, fmt.Sprintf(pick1(en, "……还有 %d 种方案。", "… %d more options."), len(est.Options)-ShortRows))
	}
	if note := optionSourcesNote(est, en); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	rep.Notes = append(rep.Notes, shortAssumptions(est, en))
	return rep
}

// shorten cuts a line to n runes with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// shortenList cuts a list line to about n runes at the last separator
// ("、", "；", ", ") so that no name is cut in half: "放得下——单卡：A100
// 80GB、H100 SXM等".
func shortenList(s string, n int, en bool) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	for i := n - 2; i > n/2; i-- {
		switch {
		case r[i] == '、' || r[i] == '；' || r[i] == '，':
			return string(r[:i]) + pick1(en, "等", ", …")
		case (r[i] == ',' || r[i] == ';') && i+1 < len(r) && r[i+1] == ' ':
			return string(r[:i]) + pick1(en, "等", ", …")
		}
	}
	return shorten(s, n)
}

// estimateVerdict is the first line: the cheapest way to run the job
// (for inference, the cheapest hour), or with two cards named, which is
// the cheaper run.
func (r *Renderer) estimateVerdict(est *estimator.Estimate, ask EstimateAsk) string {
	en := ask.English
	if len(est.Options) == 0 || est.Cheapest < 0 {
		return ""
	}
	what := strings.TrimPrefix(strings.TrimPrefix(r.estimateTitle(est, ask), "估算："), "Estimate: ")
	c := est.Options[est.Cheapest]
	if est.Method == estimator.MethodInference {
		return fmt.Sprintf(pick1(en, "%s：最便宜 %s %s×%d，每小时约 %s 元。", "%s: cheapest %s %s×%d, about %s CNY an hour."),
			what, r.PlatformName(c.Platform, en), c.GPU, c.GPUCount, Money(c.GPUCostCNY))
	}
	if len(ask.NamedGPUs) >= 2 {
		if l := r.cardsVerdict(est, ask.NamedGPUs, en); l != "" {
			return what + pick1(en, "：", ": ") + l
		}
	}
	return fmt.Sprintf(pick1(en, "%s：最便宜 %s %s×%d 约 %s 元（%s–%s），%.1f 小时。", "%s: cheapest %s %s×%d, about %s CNY (%s–%s), %.1f h."),
		what, r.PlatformName(c.Platform, en), c.GPU, c.GPUCount, Money(c.TotalCNY), Money(c.TotalLowCNY), Money(c.TotalHighCNY), c.Hours)
}

// cardsVerdict compares the cheapest option of each named card (a family
// name stands for its members).
func (r *Renderer) cardsVerdict(est *estimator.Estimate, named []string, en bool) string {
	best := map[string]estimator.Option{}
	for _, o := range est.Options {
		for _, n := range named {
			if o.GPU == n || slices.Contains(r.Cat.FamilyMembers(n), o.GPU) {
				if b, ok := best[n]; !ok || o.TotalCNY < b.TotalCNY {
					best[n] = o
				}
			}
		}
	}
	if len(best) < 2 {
		return ""
	}
	var opts []estimator.Option
	for _, n := range named {
		if o, ok := best[n]; ok {
			opts = append(opts, o)
		}
	}
	sort.SliceStable(opts, func(i, j int) bool { return opts[i].TotalCNY < opts[j].TotalCNY })
	a, b := opts[0], opts[1]
	return fmt.Sprintf(pick1(en, "%s 更划算，约 %s 元（%.1f 小时，%s）vs %s 约 %s 元（%.1f 小时）。", "%s is the cheaper run, about %s CNY (%.1f h, %s) vs %s about %s CNY (%.1f h)."),
		a.GPU, Money(a.TotalCNY), a.Hours, r.PlatformName(a.Platform, en), b.GPU, Money(b.TotalCNY), b.Hours)
}

// estimateTable is the short form's table: five options, fewer columns.
func (r *Renderer) estimateTable(est *estimator.Estimate, en bool) *chat.Table {
	t := &chat.Table{}
	inference := est.Method == estimator.MethodInference
	if inference {
		t.Header = picks(en, []string{"平台", "GPU", "卡数", "元/小时", "价格来源"}, []string{"platform", "GPU", "GPUs", "CNY/hour", "price source"})
	} else {
		t.Header = picks(en, []string{"平台", "GPU", "卡数", "时长(h)", "合计（范围）"}, []string{"platform", "GPU", "GPUs", "hours", "total (range)"})
	}
	for i, o := range est.Options {
		if i == ShortRows {
			break
		}
		star := unverifiedMark(o.Verified)
		if inference {
			t.Rows = append(t.Rows, []string{r.PlatformName(o.Platform, en), o.GPU, fmt.Sprint(o.GPUCount), Money(o.GPUCostCNY) + star, SourceLabel(o.PriceSource, en) + " " + o.PriceAsOf})
			continue
		}
		t.Rows = append(t.Rows, []string{r.PlatformName(o.Platform, en), o.GPU, fmt.Sprint(o.GPUCount), fmt.Sprintf("%.1f", o.Hours), totalCell(o, star)})
	}
	return t
}

// unverifiedMark is * for a price only the seed articles give.
func unverifiedMark(verified bool) string {
	if !verified {
		return MarkUnverified
	}
	return ""
}

// totalCell is an option's total with its range: "512* (400-650)".
func totalCell(o estimator.Option, star string) string {
	return fmt.Sprintf("%s%s (%s-%s)", Money(o.TotalCNY), star, Money(o.TotalLowCNY), Money(o.TotalHighCNY))
}

// optionSourcesNote says in one line where the prices come from and how
// old they are.
func optionSourcesNote(est *estimator.Estimate, en bool) string {
	live, unverified := false, false
	var dates []string
	for i, o := range est.Options {
		if i == ShortRows {
			break
		}
		if o.PriceSource != string(stock.SourceCatalog) {
			live = true
		}
		if !o.Verified {
			unverified = true
		}
		if !slices.Contains(dates, o.PriceAsOf) {
			dates = append(dates, o.PriceAsOf)
		}
	}
	if len(dates) == 0 {
		return "" // no option priced (the job fits no card): no price to date
	}
	kind := pick1(en, "价格是目录标价（不是实时价）：", "Prices are list prices (not live): ")
	if live {
		kind = pick1(en, "价格有实时/录制报价时用它，否则用目录标价：", "Prices are live or replayed where there are offers, else list prices: ")
	}
	note := kind + strings.Join(dates, pick1(en, "、", ", "))
	if unverified {
		note += pick1(en, "；* 仅见于 2025 年测评文章、未核实", "; * only a 2025 review reports it, unverified")
	}
	return note + pick1(en, "。", ".")
}

// shortAssumptions is the assumptions in one line with the follow-ups.
func shortAssumptions(est *estimator.Estimate, en bool) string {
	if est.Method == estimator.MethodInference {
		return fmt.Sprintf(pick1(en, "按上下文 %d、并发 %d、%d-bit 估算；说“seq 8192”“int4”可改。", "Assumed context %d, batch %d, %d-bit; say “seq 8192” or “int4” to change."), est.SeqLen, est.Batch, est.Bits)
	}
	return fmt.Sprintf(pick1(en, "按 seq %d、batch %d、%s、%g 轮、%s估算%s，含数据盘和计费粒度；说“seq 4096”“5万条”“用unsloth”可改。", "Assumed seq %d, batch %d, %s, %g epochs, %s%s, with disk and billing granularity; say “seq 4096”, “50k samples” or “use unsloth” to change."),
		est.SeqLen, est.Batch, dataText(est.Job, false, en), est.Epochs, spaceAfterLatin(StackName(est.Stack, en), en), paddingShort(est, en))
}

// dataText is the job's data: "5万条×512 tokens" ("5万 条 × 512 tokens"
// spaced), or its tokens when no sample count is given.
func dataText(j estimator.Job, spaced, en bool) string {
	if j.Samples == 0 {
		return HumanNum(j.Tokens, en) + " tokens"
	}
	zh := "%s条×%d tokens"
	if spaced {
		zh = "%s 条 × %d tokens"
	}
	return fmt.Sprintf(pick1(en, zh, "%s samples × %d tokens"), HumanNum(float64(j.Samples), en), j.TokensPerSample)
}

// MethodName names a training or inference method ("QLoRA 4-bit").
func MethodName(m string, bits int, en bool) string {
	switch m {
	case estimator.MethodFull:
		if bits == 32 {
			return pick1(en, "全量微调（fp32）", "full fine-tune (fp32)")
		}
		return pick1(en, "全量微调", "full fine-tune")
	case estimator.MethodQLoRA:
		return fmt.Sprintf("QLoRA %d-bit", bits)
	case estimator.MethodInference:
		return fmt.Sprintf(pick1(en, "推理（%d-bit）", "inference (%d-bit)"), bits)
	}
	return "LoRA"
}

// estimateTitle names the job: "估算：7B 模型（按典型配置 Qwen2.5-7B） LoRA".
func (r *Renderer) estimateTitle(est *estimator.Estimate, ask EstimateAsk) string {
	en := ask.English
	model := est.ModelID
	switch {
	case est.Scaled:
		model = fmt.Sprintf(pick1(en, "%gB 模型（按 %s 的结构把层数调到 %d 层估算，仅供参考）", "%gB model (%s's architecture scaled to %d layers; a rough guide)"),
			est.ParamsB, est.ModelID, est.Layers)
	case est.Typical:
		model = fmt.Sprintf(pick1(en, "%gB 模型（按典型配置 %s）", "%gB model (typical config: %s)"), est.ParamsB, est.ModelID)
	}
	if ask.UnknownModel != "" {
		model += fmt.Sprintf(pick1(en, "——目录里没有“%s”，按它的参数量估算", " — “%s” is not in the catalog; estimated from its size"), ask.UnknownModel)
	}
	return fmt.Sprintf(pick1(en, "估算：%s %s", "Estimate: %s, %s"), model, MethodName(est.Method, est.Bits, en))
}

// EstimateFull is the full estimate: the VRAM breakdown, the cards that
// fit, the training volume, the options table (maxOptionRows) with the
// cheapest and faster-and-cheaper lines, then notes on hidden costs,
// sharding and assumptions.
func (r *Renderer) EstimateFull(est *estimator.Estimate, ask EstimateAsk) chat.Reply {
	en := ask.English
	rep := chat.Reply{Title: r.estimateTitle(est, ask)}
	rep.Lines = append(rep.Lines, ask.Problems...)
	rep.Lines = append(rep.Lines, vramLine(est, en))
	rep.Lines = append(rep.Lines, r.fitLines(est, ask)...)
	if est.Method != estimator.MethodInference {
		rep.Lines = append(rep.Lines, fmt.Sprintf(pick1(en, "训练量：%s tokens（数据 × %g 轮），约 %.2g FLOPs", "Training: %s tokens (dataset × %g epochs), %.2g FLOPs"),
			HumanNum(est.Tokens, en), est.Epochs, est.FLOPs))
	}
	shown := est.Options
	if len(shown) > maxOptionRows {
		shown = shown[:maxOptionRows]
	}
	unknownDisk := false
	if len(shown) > 0 {
		rep.Table, unknownDisk = r.optionsTable(est, shown, en)
		if est.Method != estimator.MethodInference {
			rep.Lines = r.optionLines(rep.Lines, est, en)
		}
	} else if AnyFits(est) {
		rep.Notes = append(rep.Notes, pick1(en, "能放下的卡（在所问的平台上）目前都没有已知价格。", "No known price for the GPUs that fit (on the platforms asked about)."))
	}
	rep.Notes = append(rep.Notes, r.hiddenCostNotes(shown, en)...)
	if unverifiedOptions(shown) {
		rep.Notes = append(rep.Notes, UnverifiedPriceNote(en))
	}
	if unknownDisk {
		rep.Notes = append(rep.Notes, pick1(en, "“未知”：该平台数据盘价格没查到，合计不含数据盘费用。", "“unknown”: the platform's disk price was not found; the total leaves disk out."))
	}
	rep.Notes = append(rep.Notes, estimateNotes(est, shown, en)...)
	return rep
}

// optionLines appends the training lines under the options: the cheapest
// (and fastest), a faster card that is the cheaper job, and a warning when
// the job runs for over a month.
func (r *Renderer) optionLines(lines []string, est *estimator.Estimate, en bool) []string {
	lines = append(lines, r.cheapestLine(est, en))
	if l := r.fasterCheaperLine(est, en); l != "" {
		lines = append(lines, l)
	}
	if h := est.Options[est.Cheapest].Hours; h > 24*30 {
		lines = append(lines, fmt.Sprintf(pick1(en, "⚠ 这个任务在一台机器上要跑约 %.0f 天；请核对数据量，或考虑更小的模型、QLoRA 或多机训练。",
			"⚠ This job runs ~%.0f days on one machine; check the data size, or consider a smaller model, QLoRA or multi-node training."), h/24))
	}
	return lines
}

// vramLine is the VRAM one card needs, by part (GB = 1e9 bytes).
func vramLine(est *estimator.Estimate, en bool) string {
	v := est.VRAM
	if est.Method == estimator.MethodInference {
		return fmt.Sprintf(pick1(en, "单卡显存：约 %.1f GB（权重 %.1f + KV cache 和推理缓冲 %.1f + 其他 %.1f）",
			"VRAM on one GPU: ~%.1f GB (weights %.1f + KV cache and buffers %.1f + overhead %.1f)"), v.Total, v.Weights, v.Activations, v.Overhead)
	}
	line := fmt.Sprintf(pick1(en, "单卡显存：约 %.1f GB（权重 %.1f + 梯度 %.1f + 优化器 %.1f + 激活 %.1f + logits %.1f + 其他 %.1f）",
		"VRAM on one GPU: ~%.1f GB (weights %.1f + gradients %.1f + optimizer %.1f + activations %.1f + logits %.1f + overhead %.1f)"),
		v.Total, v.Weights, v.Gradients, v.Optimizer, v.Activations, v.Logits, v.Overhead)
	if est.VRAMMin < v.Total-0.05 {
		line += fmt.Sprintf(pick1(en, "；batch 1 + 梯度累积时约 %.1f GB", "; ~%.1f GB at micro-batch 1 with gradient accumulation"), est.VRAMMin)
	}
	return line
}

// optionsTable is the options as a table (inference: the cost per hour;
// training: hours, GPU, disk and total with its range); it reports
// whether a disk price was unknown.
func (r *Renderer) optionsTable(est *estimator.Estimate, shown []estimator.Option, en bool) (*chat.Table, bool) {
	t := &chat.Table{}
	inference := est.Method == estimator.MethodInference
	if inference {
		t.Header = picks(en, []string{"平台", "GPU", "卡数", "元/卡时", "每小时费用", "价格来源"},
			[]string{"platform", "GPU", "GPUs", "CNY/GPU-h", "CNY per hour", "price source"})
	} else {
		t.Header = picks(en, []string{"平台", "GPU", "卡数", "元/卡时", "时长(h)", "GPU费", "数据盘", "合计（范围）", "价格来源"},
			[]string{"platform", "GPU", "GPUs", "CNY/GPU-h", "hours", "GPU cost", "disk", "total (range)", "price source"})
	}
	unknownDisk := false
	for _, o := range shown {
		src := SourceLabel(o.PriceSource, en) + " " + o.PriceAsOf + unverifiedMark(o.Verified)
		price := fmt.Sprintf("%.2f", o.PriceCNY)
		if o.PriceHighCNY > o.PriceLowCNY {
			price = fmt.Sprintf("~%.2f (%.2f-%.2f)", o.PriceCNY, o.PriceLowCNY, o.PriceHighCNY)
		}
		if inference {
			t.Rows = append(t.Rows, []string{r.PlatformName(o.Platform, en), o.GPU, fmt.Sprint(o.GPUCount), price, Money(o.GPUCostCNY), src})
			continue
		}
		disk := pick1(en, "未知", "unknown")
		if o.StorageCostCNY != nil {
			disk = Money(*o.StorageCostCNY)
		} else {
			unknownDisk = true
		}
		t.Rows = append(t.Rows, []string{r.PlatformName(o.Platform, en), o.GPU, fmt.Sprint(o.GPUCount), price, fmt.Sprintf("%.1f", o.Hours),
			Money(o.GPUCostCNY), disk, totalCell(o, ""), src})
	}
	return t, unknownDisk
}

// estimateNotes state how the estimate was made: sharding, the assumed
// job, and what the hours and totals include.
func estimateNotes(est *estimator.Estimate, shown []estimator.Option, en bool) []string {
	var notes []string
	if est.Sharded && est.Method == estimator.MethodInference {
		notes = append(notes, pick1(en, "多卡推理按张量并行（如 vLLM）把权重和 KV cache 平分到各卡估算。",
			"Multi-GPU inference assumes tensor parallelism (e.g. vLLM) splitting weights and KV cache across GPUs."))
	} else if est.Sharded {
		notes = append(notes, pick1(en, "多卡方案按 ZeRO-3/FSDP 把权重、梯度和优化器状态切分到各卡，并按 70-92%（典型 80%）的多卡加速效率估算；可信度低于单卡。",
			"Multi-GPU rows assume ZeRO-3/FSDP sharding of weights, gradients and optimizer state and 70-92% scaling efficiency (80% typical); less certain than single-GPU rows."))
	}
	notes = append(notes, assumptionLine(est, en))
	if est.Method != estimator.MethodInference {
		notes = append(notes, stackNote(est, en), tokenNote(est, en))
	}
	if est.Method == estimator.MethodInference {
		notes = append(notes, fmt.Sprintf(pick1(en, "每小时费用只含 GPU；权重约 %.0f GB，超出免费数据盘的部分另按天计费。", "Cost per hour is GPUs only; the ~%.0f GB of weights beyond the free data disk bill per day."), est.DiskGB))
	} else if len(shown) > 0 {
		lo, hi := mfuSpan(est, shown)
		notes = append(notes, fmt.Sprintf(pick1(en,
			"时长含 %.0f 分钟环境准备，并按各平台计费粒度取整；合计的范围对应 MFU %.2f-%.2f（按典型价格；标价区间见“元/卡时”一列）。数据盘按约 %.0f GB（权重+数据+检查点）扣除各平台免费额度、按天计（不足一天按一天）。",
			"Hours include %.0f min of setup and are rounded to each platform's billing granularity; the total's range covers MFU %.2f-%.2f at the typical price (list-price ranges are in the CNY/GPU-h column). Disk: ~%.0f GB (weights + data + checkpoints) beyond each platform's free quota, billed per started day."),
			estimator.SetupHours*60, lo, hi, est.DiskGB))
	}
	return notes
}

// fitLines list the GPUs that fit, grouped by layout, and those that do
// not; when none fits, what would work instead.
func (r *Renderer) fitLines(est *estimator.Estimate, ask EstimateAsk) []string {
	en := ask.English
	var lines []string
	fit, nofit := fitGroups(est, ask.GPUsAsked, en)
	if len(fit) > 0 {
		lines = append(lines, pick1(en, "放得下——", "Fits — ")+strings.Join(fit, pick1(en, "；", "; ")))
		if len(nofit) > 0 && ask.GPUsAsked {
			lines = append(lines, pick1(en, "放不下：", "Does not fit: ")+strings.Join(nofit, pick1(en, "、", ", "))+
				pick1(en, "——可以换 QLoRA、缩短 seq，或换大显存的卡。", " — try QLoRA, a shorter seq, or a bigger card."))
		}
		return lines
	}
	switch {
	case est.Job.GPUCount > 0:
		lines = append(lines, fmt.Sprintf(pick1(en, "%d 张 %s 放不下。", "Does not fit on %d× %s."), est.Job.GPUCount, strings.Join(est.Job.GPUs, "/")))
	case !ask.GPUsAsked:
		lines = append(lines, pick1(en, "目录里任何一种卡用 8 张也放不下（一台机器最多 8 卡）。", "No GPU in the catalog fits this, even 8 of them (one machine's most)."))
	default:
		lines = append(lines, pick1(en, "所问的卡都放不下（8 张也不行）。可以换 QLoRA、缩短 seq，或换更大显存的卡。",
			"Fits on none of the GPUs asked about, even 8 of them. Try QLoRA, a shorter seq, or cards with more memory."))
	}
	if alt := r.alternativesLine(ask.Alternatives, en); alt != "" {
		lines = append(lines, alt)
	}
	return lines
}

// layoutKey is a fit's layout: GPUs and micro-batch (0: the full batch).
type layoutKey struct{ n, mb int }

// label names a layout: "单卡", "2 卡（batch 4+梯度累积）".
func (k layoutKey) label(en bool) string {
	var label string
	switch {
	case en && k.n == 1:
		label = "1 GPU"
	case en:
		label = fmt.Sprintf("%d GPUs", k.n)
	case k.n == 1:
		label = "单卡"
	default:
		label = fmt.Sprintf("%d 卡", k.n)
	}
	if k.mb > 0 {
		label += fmt.Sprintf(pick1(en, "（batch %d+梯度累积）", " (batch %d + grad accumulation)"), k.mb)
	}
	return label
}

// fitGroups lists the GPUs that fit, one entry per layout ("单卡：A100
// 80GB、H100 SXM"), and those that do not.
func fitGroups(est *estimator.Estimate, gpusAsked bool, en bool) (fit, nofit []string) {
	// Chat answers list the cards someone rents out (a price is known);
	// the JSON has every GPU.
	rented := map[string]bool{}
	for _, o := range est.Options {
		rented[o.GPU] = true
	}
	var order []layoutKey
	groups := map[layoutKey][]string{}
	extraFit := 0
	for _, f := range est.Fits {
		if !f.Fits {
			nofit = append(nofit, f.GPU)
			continue
		}
		if len(rented) > 0 && !rented[f.GPU] && !gpusAsked {
			extraFit++
			continue
		}
		k := layoutKey{f.GPUCount, f.MicroBatch}
		if est.Method == estimator.MethodInference || f.MicroBatch == est.Batch {
			k.mb = 0
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f.GPU)
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].n != order[j].n {
			return order[i].n < order[j].n
		}
		a, b := order[i].mb, order[j].mb
		if (a == 0) != (b == 0) {
			return a == 0
		}
		return a > b
	})
	for _, k := range order {
		fit = append(fit, k.label(en)+pick1(en, "：", ": ")+strings.Join(groups[k], pick1(en, "、", ", ")))
	}
	if extraFit > 0 {
		fit = append(fit, fmt.Sprintf(pick1(en, "另有 %d 种卡也放得下，但没有符合条件的报价", "and %d more GPUs with no matching price"), extraFit))
	}
	return fit, nofit
}

// altLabels name the alternatives (AltKind).
var altLabels = [][2]string{AltQLoRA: {"改用 QLoRA 4-bit", "QLoRA 4-bit"}, AltMoreGPUs: {"加卡", "more GPUs"}, AltOtherCard: {"换卡", "another card"}}

// alternativesLine says what would work when nothing asked for fits, each
// with its cheapest known cost ("" when there is no alternative).
func (r *Renderer) alternativesLine(alts []Alternative, en bool) string {
	var tries []string
	for _, a := range alts {
		label, o, f := pickPair(altLabels[a.Kind], en), a.Option, a.Fit
		if o.Platform == "" {
			tries = append(tries, fmt.Sprintf(pick1(en, "%s：%s×%d 放得下（约 %.1f GB/卡），暂无报价", "%s: fits on %s×%d (~%.1f GB per GPU), no price known"), label, f.GPU, f.GPUCount, f.VRAMPerGPU))
			continue
		}
		tries = append(tries, fmt.Sprintf(pick1(en, "%s：%s %s×%d，约 %s 元（%.1f 小时）", "%s: %s %s×%d, ~%s CNY (%.1f h)"), label, r.PlatformName(o.Platform, en), o.GPU, o.GPUCount, Money(o.TotalCNY), o.Hours))
	}
	if len(tries) == 0 {
		return ""
	}
	return pick1(en, "可行的做法——", "What would work — ") + strings.Join(tries, pick1(en, "；", "; ")) + pick1(en, "。", ".")
}

func (r *Renderer) cheapestLine(est *estimator.Estimate, en bool) string {
	c, f := est.Options[est.Cheapest], est.Options[est.Fastest]
	if est.Cheapest == est.Fastest || f.Hours >= c.Hours {
		return fmt.Sprintf(pick1(en, "最便宜也最快：%s %s ×%d，约 %s 元%s（%.1f 小时）。", "Cheapest and fastest: %s %s ×%d, ~%s CNY%s (%.1f h)."),
			r.PlatformName(c.Platform, en), c.GPU, c.GPUCount, Money(c.TotalCNY), unverifiedMark(c.Verified), c.Hours)
	}
	return fmt.Sprintf(pick1(en, "最便宜：%s %s ×%d，约 %s 元%s（%.1f 小时）；最快：%s %s ×%d，%.1f 小时，约 %s 元%s。",
		"Cheapest: %s %s ×%d, ~%s CNY%s (%.1f h). Fastest: %s %s ×%d, %.1f h, ~%s CNY%s."),
		r.PlatformName(c.Platform, en), c.GPU, c.GPUCount, Money(c.TotalCNY), unverifiedMark(c.Verified), c.Hours,
		r.PlatformName(f.Platform, en), f.GPU, f.GPUCount, f.Hours, Money(f.TotalCNY), unverifiedMark(f.Verified))
}

// mfuSpan is the lowest and highest MFU behind the rows shown.
func mfuSpan(est *estimator.Estimate, shown []estimator.Option) (lo, hi float64) {
	in := map[string]bool{}
	for _, o := range shown {
		in[o.GPU] = true
	}
	lo, hi = math.Inf(1), 0
	for _, f := range est.Fits {
		if f.Fits && (len(in) == 0 || in[f.GPU]) && f.MFU.High > 0 {
			lo, hi = math.Min(lo, f.MFU.Low), math.Max(hi, f.MFU.High)
		}
	}
	if hi == 0 {
		return 0, 0
	}
	return lo, hi
}

func unverifiedOptions(os []estimator.Option) bool {
	for _, o := range os {
		if !o.Verified {
			return true
		}
	}
	return false
}

// Money formats CNY with two decimals below 100 and none above.
func Money(x float64) string {
	if math.Abs(x) >= 100 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// assumptionLine states the assumptions and how to change them.
func assumptionLine(est *estimator.Estimate, en bool) string {
	if est.Method == estimator.MethodInference {
		return fmt.Sprintf(pick1(en, "按上下文 %d、并发 %d、%d-bit 权重、bf16 KV cache 估算；可以接着说“seq 8192”或“int4”修改。",
			"Assumed context %d, batch %d, %d-bit weights, bf16 KV cache; reply “seq 8192” or “int4” to change."), est.SeqLen, est.Batch, est.Bits)
	}
	parts := append(jobParts(est, en), pick1(en, "数据 ", "data ")+dataText(est.Job, true, en), fmt.Sprintf(pick1(en, "%g 轮", "%g epochs"), est.Epochs))
	if en {
		return "Assumed " + strings.Join(parts, ", ") + "; reply “seq 4096”, “batch 8”, “50k samples”, “512 tokens per sample” or “3 epochs” to change."
	}
	return "按 " + strings.Join(parts, "、") + "估算；可以接着说“seq 4096”“batch 8”“5万条”“每条512 tokens”“3个epoch”修改。"
}

// loraTargets and optimizers name the job's LoRA targets and optimizer.
var (
	loraTargets = map[string][2]string{estimator.TargetsQV: {"q_proj+v_proj", "q_proj+v_proj"}, estimator.TargetsAttention: {"注意力层", "attention layers"}}
	optimizers  = map[string][2]string{estimator.OptimizerAdamW8bit: {"8-bit AdamW（bf16 权重，无 fp32 主副本）", "8-bit AdamW (bf16 weights, no fp32 master copy)"}, estimator.OptimizerPureBF16: {"纯 bf16 AdamW", "pure-bf16 AdamW"}}
)

// jobParts are the training settings assumed: seq, batch, checkpointing,
// attention, LoRA rank, optimizer and sharding.
func jobParts(est *estimator.Estimate, en bool) []string {
	j := est.Job
	ck := pick1(en, "开启梯度检查点", "gradient checkpointing on")
	if j.NoGradCkpt {
		ck = pick1(en, "关闭梯度检查点", "gradient checkpointing off")
	}
	parts := []string{fmt.Sprintf("seq %d", est.SeqLen), fmt.Sprintf(pick1(en, "batch %d（有效 batch）", "batch %d (effective)"), est.Batch), ck}
	switch {
	case j.NoFlashAttn && est.Stack != estimator.StackHF:
		parts = append(parts, pick1(en, "不用 FlashAttention", "no FlashAttention"))
	case est.Stack == estimator.StackFA2:
		parts = append(parts, pick1(en, "FlashAttention-2（T4/V100 按不支持算）", "FlashAttention-2 (not on T4/V100)"))
	default:
		parts = append(parts, StackName(est.Stack, en))
	}
	if est.LoRARank > 0 {
		targets := TextFor(loraTargets, j.LoRATargets, [2]string{"全部线性层", "all linear layers"}, en)
		parts = append(parts, fmt.Sprintf(pick1(en, "LoRA rank %d（%s）", "LoRA rank %d (%s)"), est.LoRARank, targets))
	}
	if est.Method == estimator.MethodFull {
		parts = append(parts, TextFor(optimizers, j.Optimizer, [2]string{"AdamW 混合精度", "mixed-precision AdamW"}, en))
	}
	if est.Sharded {
		if j.ZeRO == 2 {
			parts = append(parts, "ZeRO-2")
		} else {
			parts = append(parts, "ZeRO-3")
		}
	}
	return parts
}

// hiddenCostNotes names the storage and retention traps of the platforms
// in the rows shown (at most maxHiddenCostNotes platforms).
func (r *Renderer) hiddenCostNotes(shown []estimator.Option, en bool) []string {
	var notes []string
	seen := map[string]bool{}
	for _, o := range shown {
		if seen[o.Platform] || len(notes) >= maxHiddenCostNotes {
			continue
		}
		seen[o.Platform] = true
		if h := r.HiddenCostNote(o.Platform, en); h != "" {
			notes = append(notes, h)
		}
	}
	return notes
}

// HiddenCostNote names a platform's storage and retention traps.
func (r *Renderer) HiddenCostNote(platform string, en bool) string {
	p, ok := r.Cat.Platform(platform)
	if !ok {
		return ""
	}
	var parts []string
	if p.Storage.BilledWhileStopped {
		parts = append(parts, pick1(en, "关机后付费数据盘仍计费", "paid disks keep billing while the instance is shut down"))
	}
	for _, rt := range p.Retention {
		parts = append(parts, strings.TrimRight(rt.Text.Pick(en), "。. "))
	}
	if len(parts) == 0 {
		return ""
	}
	return p.DisplayName(en) + pick1(en, " 隐藏成本：", " hidden costs: ") + strings.Join(parts, pick1(en, "；", "; "))
}

// numUnit is a unit of a large count: 1e4 "万", 1e3 "k".
type numUnit struct {
	size float64
	name string
}

var (
	zhNumUnits = []numUnit{{1e12, "万亿"}, {1e8, "亿"}, {1e4, "万"}}
	enNumUnits = []numUnit{{1e9, "B"}, {1e6, "M"}, {1e3, "k"}}
)

// HumanNum formats 50000 as "5万" (or "50k" in English), 1.5e8 as "1.5亿".
func HumanNum(x float64, en bool) string {
	units := zhNumUnits
	if en {
		if x >= 1e12 {
			return fmt.Sprintf("%.3g", x)
		}
		units = enNumUnits
	}
	for _, u := range units {
		if x >= u.size {
			return TrimF(x/u.size) + u.name
		}
	}
	return TrimF(x)
}

// fasterCheaperLine points out, on the cheapest option's platform, a faster
// card that is also the cheaper job (the seeds' 3090 vs 4090 example), at
// typical speed.
func (r *Renderer) fasterCheaperLine(est *estimator.Estimate, en bool) string {
	if est.Cheapest < 0 {
		return ""
	}
	plat := est.Options[est.Cheapest].Platform
	var best [2]estimator.Option
	saving := 0.0
	for _, fast := range est.Options {
		for _, slow := range est.Options {
			if fast.Platform != plat || slow.Platform != plat || fast.GPU == slow.GPU {
				continue
			}
			if fast.Hours < slow.Hours && fast.PriceCNY*float64(fast.GPUCount) > slow.PriceCNY*float64(slow.GPUCount) &&
				fast.TotalCNY < slow.TotalCNY && slow.TotalCNY-fast.TotalCNY > saving {
				best, saving = [2]estimator.Option{fast, slow}, slow.TotalCNY-fast.TotalCNY
			}
		}
	}
	if saving == 0 {
		return ""
	}
	f, sl := best[0], best[1]
	return fmt.Sprintf(pick1(en, "贵的卡反而省钱（按典型速度）：在 %s 上，%s×%d 每卡时 %.2f 元、约 %.1f 小时共 %s 元；%s×%d 每卡时 %.2f 元、约 %.1f 小时共 %s 元——快约 %s 倍，总价少 %s 元。",
		"The pricier card is the cheaper job (at typical speed): on %s, %s×%d at %.2f CNY/GPU-h takes ~%.1f h for %s CNY; %s×%d at %.2f takes ~%.1f h for %s CNY — about %s× faster and %s CNY cheaper."),
		r.PlatformName(plat, en), f.GPU, f.GPUCount, f.PriceCNY, f.Hours, Money(f.TotalCNY), sl.GPU, sl.GPUCount, sl.PriceCNY, sl.Hours, Money(sl.TotalCNY),
		RatioText(fitRatio(est, f, sl)), Money(saving))
}

// AnyFits reports whether the job fits on any GPU.
func AnyFits(est *estimator.Estimate) bool {
	for _, f := range est.Fits {
		if f.Fits {
			return true
		}
	}
	return false
}
