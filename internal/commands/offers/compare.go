package offers

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand"
)

// CompareResult is the comparison behind an answer (intent compare).
type CompareResult struct {
	// Aspect is what was asked: price, speed or both ("").
	Aspect string `json:"aspect,omitempty"`
	// Verdict is the answer's first line.
	Verdict string `json:"verdict"`
	// Cards are the GPUs compared (two or more GPUs named).
	Cards []CardCompare `json:"cards,omitempty"`
	// Prices are the per-GPU prices on each platform compared.
	Prices []PlatformPrice `json:"prices,omitempty"`
}

// CardCompare is one GPU's figures in a comparison.
type CardCompare struct {
	CardRow
	TensorTFLOPS float64 `json:"bf16_tflops"`
	BandwidthGBs float64 `json:"bandwidth_gbs"`
}

// PlatformPrice is one GPU's best known price on each platform compared
// (CNY per GPU-hour; a missing platform has no price).
type PlatformPrice struct {
	GPU    string                          `json:"gpu"`
	Quotes map[string]estimator.PriceQuote `json:"quotes"`
	// Cheaper is the cheaper platform, "" when the prices are about the
	// same (ranges overlapping and midpoints within 10%).
	Cheaper string `json:"cheaper,omitempty"`
	// SavingPct is how much cheaper, in percent of the dearer midpoint.
	SavingPct float64 `json:"saving_pct,omitempty"`
}

var (
	reAspectPrice = textgate.MustCompile(`便宜|划算|省钱|性价比|贵|价格|价钱|多少钱|cheap|cost|price|worth|value|budget`)
	reAspectSpeed = textgate.MustCompile(`快|速度|性能|算力|强|fast|speed|perf|quick`)
	// reAspectStable asks which is more reliable: no source measures it.
	reAspectStable = textgate.MustCompile(`稳|靠谱|翻车|宕机|掉线|reliab|stable|outage|downtime`)
)

// Compare answers "恒源云和AutoDL哪个便宜", "3090 还是 4090": a
// verdict first, then at most five rows.
func (r *Answers) Compare(ctx context.Context, res *Result) {
	q := res.Query
	s := catalog.Fold(q.Asked)
	cr := &CompareResult{}
	switch {
	case reAspectStable.MatchString(s):
		cr.Aspect = "stability"
	case reAspectPrice.MatchString(s) && !reAspectSpeed.MatchString(s):
		cr.Aspect = "price"
	case reAspectSpeed.MatchString(s) && !reAspectPrice.MatchString(s):
		cr.Aspect = "speed"
	}
	res.Compare = cr
	if len(q.Platforms) < 2 && len(q.NamedGPUs) == 1 && reWhichPlatform.MatchString(s) {
		// "3090 哪家便宜": one card across platforms is the stock list,
		// cheapest first, not a comparison of two things.
		res.Query.Intent = understand.IntentStock
		res.Compare = nil
		r.Stock(ctx, res)
		return
	}
	quotes := r.Quotes(r.Offers.Snapshot(ctx), understand.Query{}, estimator.MethodFull, r.Now(), q.English)
	if len(q.Platforms) >= 2 {
		r.comparePlatforms(res, quotes)
		return
	}
	r.compareGPUs(res, quotes)
}

// compareGPUs puts two or more named cards side by side: memory, BF16
// TFLOPS, bandwidth and the cheapest known price, with a verdict on what
// was asked (per hour, per unit of compute, speed).
func (r *Answers) compareGPUs(res *Result, quotes estimator.Quotes) {
	en := res.English
	cr := res.Compare
	pq := r.platformQuotes(quotes, res.Platforms)
	for _, id := range res.NamedGPUs {
		if c, ok := r.familyCard(id, pq); ok {
			cr.Cards = append(cr.Cards, c)
		}
	}
	if len(cr.Cards) < 2 {
		res.Reply = r.compareWhat(res)
		return
	}
	cr.Verdict = cardsVerdict(cr.Cards, cr.Aspect, en)
	if len(cr.Cards) == 2 {
		cr.Verdict = withTrainingRatio(r.Cat, cr.Verdict, cr.Cards[0], cr.Cards[1], en)
	}
	t := &chat.Table{Header: answer.Picks(en, []string{"GPU", "显存", "BF16 TFLOPS", "带宽 GB/s", "最低 元/卡时", "平台 · 来源"},
		[]string{"GPU", "VRAM", "BF16 TFLOPS", "bandwidth GB/s", "lowest CNY/GPU-h", "platform · source"})}
	for _, c := range cr.Cards {
		price, where := "-", answer.Pick(en, "没有已知价格", "no known price")
		if c.Platform != "" {
			price = c.PriceText()
			where = r.Rd.PlatformName(c.Platform, en) + " · " + render.SourceLabel(c.Source, en) + " " + c.AsOf
			if !c.Verified {
				where += "*"
			}
		}
		nominal := c.MemoryGB
		if g, ok := r.Cat.GPU(c.GPU); ok {
			nominal = g.MemoryGB
		}
		t.Rows = append(t.Rows, []string{c.GPU, fmt.Sprintf("%gG", nominal), fmt.Sprintf("%g", c.TensorTFLOPS), fmt.Sprintf("%g", c.BandwidthGBs), price, where})
	}
	rep := chat.Reply{Title: cr.Verdict, Table: t}
	rep.Lines = append(rep.Lines, answer.Pick(en, "训练看算力和总价，大模型推理看显存带宽，两者都先看显存够不够。",
		"Training follows compute and the total; LLM generation follows memory bandwidth; memory comes first for both."))
	rep.Notes = append(rep.Notes, answer.Pick(en, "规格是厂商标称值；价格是各卡已知最低的一条（实时或目录标价，见来源）。问“7B LoRA 用 3090 和 4090 哪个划算”按具体任务算总价。",
		"Specs are vendor figures; each price is the lowest known for the card (live or list price, see the source). Ask with a job (“7B LoRA on a 3090 or a 4090”) for the total."))
	if unverifiedCards(cr.Cards) {
		rep.Notes = append(rep.Notes, render.UnverifiedPriceNote(en))
	}
	var unit []OfferRow
	for _, c := range cr.Cards {
		if c.UnitUnverified {
			unit = append(unit, OfferRow{Platform: c.Platform, Verified: true, Caveats: []stock.Caveat{stock.CaveatUnitUnverified}})
		}
	}
	rep.Notes = append(rep.Notes, r.Rd.Legend(unit, en)...)
	res.Reply = rep
}

// compareWhat asks which two to compare, naming what was recognised.
func (r *Answers) compareWhat(res *Result) chat.Reply {
	en := res.English
	var known []string
	for _, p := range res.Platforms {
		known = append(known, r.Rd.PlatformName(p, en))
	}
	known = append(known, res.NamedGPUs...)
	rep := chat.Reply{Title: answer.Pick(en, "比较哪两个？说两个平台或两张卡，例如“恒源云和AutoDL哪个便宜”“3090 还是 4090”。", "Compare which two? Name two platforms or two GPUs, e.g. “autodl vs runpod” or “3090 or 4090”.")}
	if len(known) > 0 {
		rep.Lines = append(rep.Lines, answer.Pick(en, "只认出了：", "I only recognised: ")+strings.Join(known, answer.Pick(en, "、", ", "))+answer.Pick(en, "（另一个名字写错了，或者目录里没有？）", " (the other name misspelt, or not in the catalog?)"))
	}
	res.Question = rep.Title
	return rep
}

// familyCard is a named card at its cheapest known price; a family ("A100")
// is its member with the cheapest price (the first member when none has
// one).
func (r *Answers) familyCard(id string, quotes estimator.Quotes) (CardCompare, bool) {
	ids := r.Cat.FamilyMembers(id)
	if len(ids) == 0 {
		ids = []string{id}
	}
	var best CardCompare
	found := false
	for _, m := range ids {
		g, ok := r.Cat.GPU(m)
		if !ok {
			continue
		}
		c := CardCompare{CardRow: CardOf(g, quotes), TensorTFLOPS: g.TensorTFLOPS, BandwidthGBs: g.BandwidthGBs}
		if !found || c.Platform != "" && (best.Platform == "" || c.PriceCNY < best.PriceCNY) {
			best, found = c, true
		}
	}
	return best, found
}

// ratioJob is the job a card-to-card training ratio is worked out on: a
// 7B QLoRA at seq 2048, batch 4 (it fits 24 GB cards).
var ratioJob = estimator.Job{ParamsB: 7, Method: estimator.MethodQLoRA, Bits: 4, SeqLen: 2048, Batch: 4}

// withTrainingRatio adds to a two-card verdict what the spec ratio means
// for training: the estimator's speed ratio on ratioJob as a range
// ("按 7B QLoRA 训练估算约快 1.8–2.3 倍"), so the spec's one figure is
// never read as the speed-up. Unchanged when either card has no speed.
func withTrainingRatio(cat *catalog.Catalog, verdict string, a, b CardCompare, en bool) string {
	est := &estimator.Estimator{Cat: cat}
	ta, errA := est.Throughput(ratioJob, a.GPU)
	tb, errB := est.Throughput(ratioJob, b.GPU)
	if errA != nil || errB != nil || !(ta.Low > 0 && tb.Low > 0 && ta.High > 0 && tb.High > 0) {
		return verdict
	}
	fast, slow, lo, hi := a, b, ta.Low/tb.Low, ta.High/tb.High
	if ta.Typical < tb.Typical {
		fast, slow, lo, hi = b, a, tb.Low/ta.Low, tb.High/ta.High
	}
	lo, hi = min(lo, hi), max(lo, hi)
	verdict = strings.TrimRight(verdict, "。.")
	return verdict + fmt.Sprintf(answer.Pick(en, "；实际训练按 7B QLoRA 估算 %[1]s 比 %[4]s 约快 %.1[2]f–%.1[3]f 倍（规格比不等于提速）。",
		"; for training (estimated on a 7B QLoRA) the %[1]s is about %.1[2]f–%.1[3]f× faster than the %[4]s (a spec ratio is not a speed-up)."), fast.GPU, lo, hi, slow.GPU)
}

// cardsVerdict compares named cards: the best value and the fastest
// among all of them (two cards: gpuVerdict's sentence).
func cardsVerdict(cards []CardCompare, aspect string, en bool) string {
	if aspect == "stability" {
		return answer.Pick(en, "稳定性没有哪个来源实测过，我没法比；下面是规格和已知最低价。", "No source measures reliability, so I can't compare it; specs and lowest known prices below.")
	}
	if len(cards) == 2 {
		return gpuVerdict(cards[0], cards[1], aspect, en)
	}
	fast, value := cards[0], cards[0]
	for _, c := range cards[1:] {
		if c.TensorTFLOPS > fast.TensorTFLOPS {
			fast = c
		}
		if c.PriceCNY > 0 && (value.PriceCNY == 0 || c.PriceCNY/c.TensorTFLOPS < value.PriceCNY/value.TensorTFLOPS) {
			value = c
		}
	}
	if aspect == "speed" || value.PriceCNY == 0 {
		return fmt.Sprintf(answer.Pick(en, "算力最高的是 %s（BF16 %g TFLOPS）。", "The %s has the most compute (BF16 %g TFLOPS)."), fast.GPU, fast.TensorTFLOPS)
	}
	return fmt.Sprintf(answer.Pick(en, "按同样的算力 %s 最便宜（%s 元/卡时，BF16 %g TFLOPS）；算力最高的是 %s。", "Per unit of compute the %s is cheapest (%s CNY/GPU-h, BF16 %g TFLOPS); the %s has the most compute."),
		value.GPU, value.PriceText(), value.TensorTFLOPS, fast.GPU)
}

func unverifiedCards(cs []CardCompare) bool {
	for _, c := range cs {
		if c.Platform != "" && !c.Verified {
			return true
		}
	}
	return false
}

// gpuVerdict compares two cards on what was asked: price per hour and per
// unit of compute, or speed (BF16 TFLOPS and bandwidth).
func gpuVerdict(a, b CardCompare, aspect string, en bool) string {
	speed := a.TensorTFLOPS / b.TensorTFLOPS
	fast, slow, ratio := a, b, speed
	if speed < 1 {
		fast, slow, ratio = b, a, 1/speed
	}
	speedLine := fmt.Sprintf("%s 算力约是 %s 的 %.1f 倍（BF16 %g vs %g TFLOPS）", fast.GPU, slow.GPU, ratio, fast.TensorTFLOPS, slow.TensorTFLOPS)
	if en {
		speedLine = fmt.Sprintf("%s has about %.1f× the compute of %s (BF16 %g vs %g TFLOPS)", fast.GPU, ratio, slow.GPU, fast.TensorTFLOPS, slow.TensorTFLOPS)
	}
	switch {
	case aspect == "speed":
		return speedLine + answer.Pick(en, "。", ".")
	case a.PriceCNY == 0 && b.PriceCNY == 0:
		// A price question gets no made-up answer: say none is known first.
		return fmt.Sprintf(answer.Pick(en, "%s 和 %s 都没有已知价格（目录和报价里都没有），比不了价；%s。", "Neither the %s nor the %s has a known price (not in the catalog or any quote), so no price comparison; %s."),
			a.GPU, b.GPU, speedLine)
	case a.PriceCNY == 0 || b.PriceCNY == 0:
		known, unknown := a, b
		if a.PriceCNY == 0 {
			known, unknown = b, a
		}
		return fmt.Sprintf(answer.Pick(en, "%s 没有已知价格，比不了价（%s 最低 %s 元/卡时）；%s。", "The %s has no known price, so no price comparison (the %s from %s CNY/GPU-h); %s."),
			unknown.GPU, known.GPU, known.PriceText(), speedLine)
	}
	perA, perB := a.PriceCNY/a.TensorTFLOPS, b.PriceCNY/b.TensorTFLOPS
	cheapHour := a
	if b.PriceCNY < a.PriceCNY {
		cheapHour = b
	}
	value, other := a, b
	if perB < perA {
		value, other = b, a
	}
	save := (1 - math.Min(perA, perB)/math.Max(perA, perB)) * 100
	if cheapHour.GPU == value.GPU {
		return fmt.Sprintf(answer.Pick(en, "%s 更划算：每卡时更便宜（%s vs %s 元），按同样的算力也便宜约 %.0f%%；%s。", "%s is the better deal: cheaper per hour (%s vs %s CNY) and about %.0f%% cheaper per unit of compute; %s."),
			value.GPU, value.PriceText(), other.PriceText(), save, speedLine)
	}
	return fmt.Sprintf(answer.Pick(en, "按总价 %s 更划算：按小时 %s 便宜（%s vs %s 元/卡时），但 %s 快得多，按算力算同一个训练任务的总价约低 %.0f%%；%s。", "%s is the better deal by the total: per hour %s is cheaper (%s vs %s CNY), but %s is much faster; by compute the same training job costs about %.0f%% less on it; %s."),
		value.GPU, cheapHour.GPU, cheapHour.PriceText(), value.PriceText(), value.GPU, save, speedLine)
}

// platformQuotes limits quotes to the given platforms (all when none).
func (r *Answers) platformQuotes(quotes estimator.Quotes, platforms []string) estimator.Quotes {
	if len(platforms) == 0 {
		return quotes
	}
	return func(gpu string) []estimator.PriceQuote {
		var out []estimator.PriceQuote
		for _, pq := range quotes(gpu) {
			if slices.Contains(platforms, pq.Platform) {
				out = append(out, pq)
			}
		}
		return out
	}
}

// cheaperOf decides between two quotes: the cheaper platform and by how
// much, or "" when the prices are about the same.
func cheaperOf(a, b estimator.PriceQuote) (string, float64) {
	lo, hi := a, b
	if b.CNYPerGPUHour < a.CNYPerGPUHour {
		lo, hi = b, a
	}
	pct := (1 - lo.CNYPerGPUHour/hi.CNYPerGPUHour) * 100
	overlap := lo.High >= hi.Low
	if pct < 10 && overlap || pct < 3 {
		return "", pct
	}
	return lo.Platform, pct
}

// maxComparePlatforms is the most platforms one comparison table shows.
const maxComparePlatforms = 4

// platformRows are the GPUs priced on at least two of the platforms
// (the named GPUs when there are any), in catalog order; each says which
// platform is the cheapest and by how much against the runner-up, or ""
// when the two are about the same.
func (r *Answers) platformRows(res *Result, plats []string, quotes estimator.Quotes) []PlatformPrice {
	gpus := res.GPUs
	if len(gpus) == 0 {
		for _, g := range r.Cat.GPUs {
			gpus = append(gpus, g.ID)
		}
	}
	var rows []PlatformPrice
	for _, g := range gpus {
		pp := PlatformPrice{GPU: g, Quotes: map[string]estimator.PriceQuote{}}
		var qs []estimator.PriceQuote
		for _, pq := range quotes(g) {
			if slices.Contains(plats, pq.Platform) {
				pp.Quotes[pq.Platform] = pq
				qs = append(qs, pq)
			}
		}
		if len(qs) < 2 && len(res.GPUs) == 0 {
			continue
		}
		sort.SliceStable(qs, func(i, j int) bool { return qs[i].CNYPerGPUHour < qs[j].CNYPerGPUHour })
		if len(qs) >= 2 {
			pp.Cheaper, pp.SavingPct = cheaperOf(qs[0], qs[1])
			pp.SavingPct = math.Round(pp.SavingPct)
		}
		rows = append(rows, pp)
	}
	return rows
}

// comparePlatforms answers "恒源云和AutoDL哪个便宜", "矩池云 秘塔 揽睿 三家3090":
// per GPU, which platform is cheapest and by how much, then the data disk.
func (r *Answers) comparePlatforms(res *Result, quotes estimator.Quotes) {
	en := res.English
	cr := res.Compare
	plats := res.Platforms
	if len(plats) > maxComparePlatforms {
		plats = plats[:maxComparePlatforms]
	}
	cr.Prices = r.platformRows(res, plats, quotes)
	cr.Verdict = r.platformVerdict(cr.Prices, plats, en)
	var caveats []string
	if cr.Aspect == "stability" {
		cr.Verdict = answer.Pick(en, "稳定性没有哪个来源实测过，我没法排名；各家已知的问题和价格如下。", "No source measures reliability, so I can't rank them; their known issues and prices are below.")
		for _, id := range plats {
			if p, ok := r.Cat.Platform(id); ok && len(p.Caveats) > 0 {
				caveats = append(caveats, p.DisplayName(en)+answer.Pick(en, "：", ": ")+p.Caveats[0].Pick(en))
			}
		}
	}
	t := &chat.Table{Header: []string{"GPU"}}
	for _, p := range plats {
		t.Header = append(t.Header, r.Rd.PlatformName(p, en))
	}
	t.Header = append(t.Header, answer.Pick(en, "最便宜", "cheapest"))
	unverified := false
	var unitDoubt []OfferRow
	for _, pp := range cr.Prices {
		row := []string{pp.GPU}
		for _, p := range plats {
			cell := "-"
			if pq, ok := pp.Quotes[p]; ok {
				cell = quoteText(pq)
				if !pq.Verified {
					cell += render.MarkUnverified
					unverified = true
				}
				if pq.UnitUnverified {
					cell += render.MarkUnit
					unitDoubt = append(unitDoubt, OfferRow{Platform: p, Verified: true, Caveats: []stock.Caveat{stock.CaveatUnitUnverified}})
				}
			}
			row = append(row, cell)
		}
		switch {
		case len(pp.Quotes) < 2:
			row = append(row, answer.Pick(en, "无法比", "n/a"))
		case pp.Cheaper == "":
			row = append(row, answer.Pick(en, "差不多", "about the same"))
		default:
			row = append(row, fmt.Sprintf(answer.Pick(en, "%s 低 %.0f%%", "%s, %.0f%% less"), r.Rd.PlatformName(pp.Cheaper, en), pp.SavingPct))
		}
		t.Rows = append(t.Rows, row)
	}
	rep := chat.Reply{Title: cr.Verdict, Lines: caveats}
	if len(t.Rows) > 0 {
		rep.Table = t
	}
	if l := r.diskCompareLine(plats, en); l != "" {
		rep.Lines = append(rep.Lines, l)
	}
	rep.Notes = append(rep.Notes, r.quoteSourcesNote(cr.Prices, en))
	if unverified {
		rep.Notes = append(rep.Notes, render.UnverifiedPriceNote(en))
	}
	rep.Notes = append(rep.Notes, r.Rd.Legend(unitDoubt, en)...)
	res.Reply = rep
}

// platformVerdict sums up the per-GPU comparison in one line.
func (r *Answers) platformVerdict(rows []PlatformPrice, plats []string, en bool) string {
	wins := map[string]int{}
	compared, same := 0, 0
	for _, pp := range rows {
		if len(pp.Quotes) < 2 {
			continue
		}
		compared++
		if pp.Cheaper == "" {
			same++
			continue
		}
		wins[pp.Cheaper]++
	}
	names := r.Rd.PlatformNames(plats, en)
	if compared == 0 {
		return fmt.Sprintf(answer.Pick(en, "%s 没有一张卡在两家都有已知价格，没法直接比价。", "%s have no GPU with a known price on two of them, so they cannot be compared directly."), names)
	}
	if same == compared {
		return fmt.Sprintf(answer.Pick(en, "%s 价格差不多：可比的 %d 张卡价格区间都重叠。", "%s cost about the same: the price ranges overlap on all %d GPUs compared."), names, compared)
	}
	var leaders []string
	for _, p := range plats {
		if wins[p] > 0 {
			leaders = append(leaders, p)
		}
	}
	var parts []string
	for _, pp := range rows {
		if len(pp.Quotes) < 2 || len(parts) == 3 {
			continue
		}
		if pp.Cheaper == "" {
			parts = append(parts, fmt.Sprintf(answer.Pick(en, "%s 差不多", "%s about the same"), pp.GPU))
			continue
		}
		part := fmt.Sprintf(answer.Pick(en, "%s 上低 %.0f%%", "%.0f%% less on the %s"), pp.GPU, pp.SavingPct)
		if en {
			part = fmt.Sprintf("%.0f%% less on the %s", pp.SavingPct, pp.GPU)
		}
		if len(leaders) > 1 {
			part = r.Rd.PlatformName(pp.Cheaper, en) + " " + part
		}
		parts = append(parts, part)
	}
	doubt := r.winnerDoubt(rows, en)
	if len(leaders) == 1 {
		return fmt.Sprintf(answer.Pick(en, "%s 更便宜：%s%s。", "%s is cheaper: %s%s."), r.Rd.PlatformName(leaders[0], en), strings.Join(parts, answer.Pick(en, "；", "; ")), doubt)
	}
	return answer.Pick(en, "看卡：", "It depends on the card: ") + strings.Join(parts, answer.Pick(en, "；", "; ")) + doubt + answer.Pick(en, "。", ".")
}

// winnerDoubt says when a cheaper price in the comparison is one whose
// unit is unverified or that only the seed articles give: a verdict never
// rests on it without saying so ("" when none does).
func (r *Answers) winnerDoubt(rows []PlatformPrice, en bool) string {
	var unit, seed []string
	for _, pp := range rows {
		pq, ok := pp.Quotes[pp.Cheaper]
		if !ok || len(pp.Quotes) < 2 {
			continue
		}
		name := r.Rd.PlatformName(pp.Cheaper, en) + " " + pp.GPU
		switch {
		case pq.UnitUnverified:
			unit = append(unit, name)
		case !pq.Verified:
			seed = append(seed, name)
		}
	}
	var out string
	if len(unit) > 0 {
		out += fmt.Sprintf(answer.Pick(en, "（但%s 的价格单位未核实）", " (but the price unit of %s is unverified)"), strings.Join(unit, answer.Pick(en, "、", ", ")))
	}
	if len(seed) > 0 {
		out += fmt.Sprintf(answer.Pick(en, "（但%s 的标价未经核实）", " (but the %s list price is unverified)"), strings.Join(seed, answer.Pick(en, "、", ", ")))
	}
	return out
}

// quoteText is a quote's price: one figure or "~mid (low-high)".
func quoteText(pq estimator.PriceQuote) string {
	if pq.High > pq.Low {
		return fmt.Sprintf("%.2f-%.2f", pq.Low, pq.High)
	}
	return fmt.Sprintf("%.2f", pq.CNYPerGPUHour)
}

// diskCompareLine compares the platforms' data-disk prices (CNY per
// GB-day beyond the free part; * a figure only a 2025 review gives).
func (r *Answers) diskCompareLine(plats []string, en bool) string {
	var parts []string
	for _, id := range plats {
		p, ok := r.Cat.Platform(id)
		if !ok || p.Storage.DataDiskCNYPerGBDay == nil {
			continue
		}
		f := *p.Storage.DataDiskCNYPerGBDay
		star := ""
		if !f.Verified {
			star = "*"
		}
		parts = append(parts, fmt.Sprintf(answer.Pick(en, "%s %s%s（免费 %g GB）", "%s %s%s (%g GB free)"), p.DisplayName(en), render.FigureText(f), star, p.Storage.DataDiskFreeGB))
	}
	if len(parts) < 2 {
		return ""
	}
	return answer.Pick(en, "数据盘 元/GB·天：", "Data disk, CNY/GB-day: ") + strings.Join(parts, answer.Pick(en, "；", "; ")) + answer.Pick(en, "。", ".")
}

// quoteSourcesNote says whether the compared prices are live or list
// prices, and how old.
func (r *Answers) quoteSourcesNote(rows []PlatformPrice, en bool) string {
	var dates []string
	live := false
	unknown := answer.Pick(en, "时间未知", "time unknown")
	for _, pp := range rows {
		for _, pq := range pp.Quotes {
			if pq.Source != string(stock.SourceCatalog) {
				live = true
			}
			if pq.AsOf != "" && pq.AsOf != unknown && !slices.Contains(dates, pq.AsOf) {
				dates = append(dates, pq.AsOf)
			}
		}
	}
	sort.Strings(dates)
	if len(dates) > 4 {
		dates = append(dates[:2], "…", dates[len(dates)-1])
	}
	kind, when := answer.Pick(en, "都是目录标价（不是实时价）", "All list prices (not live)"), answer.Pick(en, "，日期：", ", dated ")
	if live {
		kind = answer.Pick(en, "有实时或录制的报价时用它们，否则用目录标价", "Live or replayed offers where there are any, else list prices")
		when = answer.Pick(en, "；时间：", "; as of ")
	}
	if len(dates) > 0 {
		kind += when + strings.Join(dates, answer.Pick(en, "、", ", "))
	}
	return kind + answer.Pick(en, "。区间按中值比较，相差不到 10% 且区间重叠算差不多。", ". Ranges compare by their midpoints; under 10% apart with overlapping ranges counts as the same.")
}
