package offerview

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// Compare is the compare answer: two or more cards side by side ("3090
// 还是 4090": memory, BF16 TFLOPS, bandwidth, the cheapest known price),
// or platforms per card ("恒源云和AutoDL哪个便宜": which is cheaper and by
// how much), or, when fewer than two things were recognised, the
// question which two (AskBack).
type Compare struct {
	Lang i18n.Lang `json:"-"`
	// Result is the comparison as the JSON shows it; Question the
	// question asked back (Finish fills both in words).
	Result   CompareResult `json:"compare"`
	Question string        `json:"question,omitempty"`
	// Compared are the platforms compared (at most MaxComparePlatforms;
	// none when cards are); Named the platforms the question named and
	// NamedGPUs its cards, as named.
	Compared  []string `json:"-"`
	Named     []string `json:"-"`
	NamedGPUs []string `json:"-"`
	// AskBack: fewer than two platforms or cards were recognised.
	AskBack bool `json:"-"`
	// Ratio is how much faster one of two cards trains (nil when the
	// estimator has no speed for either).
	Ratio *TrainingRatio `json:"-"`
	// Verdict answers the yes/no question asked ("恒源云3090比AutoDL便宜
	// 吗"; nil when none was asked): the first line.
	Verdict *CompareVerdict `json:"verdict,omitempty"`
	// USD: the member asks in US dollars ("按美元算呢"): the platforms'
	// prices are said in dollars too.
	USD bool `json:"-"`
	// DiskFirst: the question is about the data disk ("数据盘哪家便宜"):
	// the platforms' disk prices lead, the cards' verdict follows.
	DiskFirst bool `json:"-"`
}

// CompareResult is the comparison behind an answer (intent compare).
type CompareResult struct {
	// Aspect is what was asked: price, speed, stability or both ("").
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
	// same (ranges overlapping and midpoints within SameWithinPct).
	Cheaper string `json:"cheaper,omitempty"`
	// SavingPct is how much cheaper, in percent of the dearer midpoint.
	SavingPct float64 `json:"saving_pct,omitempty"`
}

// TrainingRatio is how much faster the Fast card trains than the Slow
// one on the reference job (a 7B QLoRA): Low to High times.
type TrainingRatio struct {
	Fast, Slow string
	Low, High  float64
}

// The aspects a comparison asks about (CompareResult.Aspect); "" both
// price and speed.
const (
	AspectPrice     = "price"
	AspectSpeed     = "speed"
	AspectStability = "stability"
)

// SameWithinPct: two prices whose ranges overlap and whose midpoints are
// less than this many percent apart are about the same.
const SameWithinPct = 10

// MaxComparePlatforms is the most platforms one comparison table shows.
const MaxComparePlatforms = 4

// compareView is a Compare being said by a renderer.
type compareView struct {
	Compare
	rd *render.Renderer
	l  i18n.Lang
	en bool
}

func (c Compare) view(rd *render.Renderer) compareView {
	return compareView{Compare: c, rd: rd, l: c.Lang, en: c.Lang.English()}
}

// Finish puts into the JSON what the answer says in words: the verdict,
// or the question asked back.
func (c *Compare) Finish(rd *render.Renderer) {
	if c.AskBack {
		c.Question = c.Lang.T("compare.which_two")
		return
	}
	c.Result.Verdict = c.view(rd).verdict()
}

// Reply is the verdict first, then at most five rows.
func (c Compare) Reply(rd *render.Renderer) chat.Reply {
	v := c.view(rd)
	var rep chat.Reply
	switch {
	case c.AskBack:
		return v.which()
	case len(c.Compared) > 0:
		rep = v.platforms()
	default:
		rep = v.cards()
	}
	if c.Verdict != nil {
		rep.Lines = append([]string{rep.Title}, rep.Lines...)
		rep.Title = v.verdictLine()
	}
	return rep
}

// verdict is the first line: on the platforms or the cards compared.
func (v compareView) verdict() string {
	if len(v.Compared) > 0 {
		switch v.Result.Aspect {
		case AspectStability:
			return v.l.T("compare.stability.platforms")
		case AspectSpeed:
			// "AutoDL 和 RunPod 哪个快": the same card computes as fast
			// anywhere; what differs (network, disks) is not measured.
			return v.l.T("compare.platforms.speed", v.platformVerdict())
		}
		return v.platformVerdict()
	}
	if r := v.Ratio; r != nil && len(v.Result.Cards) == 2 && v.Result.Aspect == AspectSpeed {
		// "哪个快": the training estimate decides, the spec ratio after.
		a, b := v.Result.Cards[0], v.Result.Cards[1]
		fast, slow := a, b
		if b.TensorTFLOPS > a.TensorTFLOPS {
			fast, slow = b, a
		}
		spec := v.l.T("compare.speed", fast.GPU, slow.GPU, fast.TensorTFLOPS/slow.TensorTFLOPS, fast.TensorTFLOPS, slow.TensorTFLOPS)
		times := fmt.Sprintf("%.1f–%.1f", r.Low, r.High)
		if math.Round(r.Low*10) == math.Round(r.High*10) {
			times = fmt.Sprintf("%.1f", r.Low)
		}
		if r.Low < 1 || r.High < sameSpeed {
			return v.l.T("compare.same_train", r.Fast, r.Slow, times, spec)
		}
		return v.l.T("compare.faster_train", r.Fast, r.Slow, times, spec)
	}
	body := v.cardsVerdict()
	if r := v.Ratio; r != nil && len(v.Result.Cards) == 2 {
		// What the spec ratio means for training, as a range, so the one
		// figure is never read as the speed-up.
		if math.Round(r.Low*10) == math.Round(r.High*10) {
			return v.l.T("compare.ratio_one", body, r.Fast, r.Low, r.Slow)
		}
		return v.l.T("compare.ratio", body, r.Fast, r.Low, r.High, r.Slow)
	}
	return v.l.T("offers.end", body)
}

// which asks which two to compare, naming what was recognised.
func (v compareView) which() chat.Reply {
	var known []string
	for _, p := range v.Named {
		known = append(known, v.rd.PlatformName(p, v.en))
	}
	known = append(known, v.NamedGPUs...)
	rep := chat.Reply{Title: v.l.T("compare.which_two")}
	if len(known) > 0 {
		rep.Lines = append(rep.Lines, v.l.T("compare.recognised", strings.Join(known, v.l.T("list.sep"))))
	}
	return rep
}

// cards puts two or more named cards side by side: memory, BF16 TFLOPS,
// bandwidth and the cheapest known price.
func (v compareView) cards() chat.Reply {
	t := &chat.Table{Header: slices.Clone(v.l.L("compare.cards.header"))}
	for _, c := range v.Result.Cards {
		price, where := "-", v.l.T("compare.cards.no_price")
		if c.Platform != "" {
			price = c.PriceText()
			where = v.rd.PlatformName(c.Platform, v.en) + " · " + render.SourceLabel(c.Source, v.en) + " " + c.AsOf
			if !c.Verified {
				where += render.MarkUnverified
			}
		}
		nominal := c.MemoryGB
		if g, ok := v.rd.Cat.GPU(c.GPU); ok {
			nominal = g.MemoryGB
		}
		t.Rows = append(t.Rows, []string{c.GPU, fmt.Sprintf("%gG", nominal), fmt.Sprintf("%g", c.TensorTFLOPS), fmt.Sprintf("%g", c.BandwidthGBs), price, where})
	}
	rep := chat.Reply{Title: v.verdict(), Table: t}
	rep.Lines = append(rep.Lines, v.l.T("compare.cards.line"))
	rep.Notes = append(rep.Notes, v.l.T("compare.cards.note"))
	var unit []render.OfferRow
	doubt := false
	for _, c := range v.Result.Cards {
		doubt = doubt || c.Platform != "" && !c.Verified
		if c.UnitUnverified {
			unit = append(unit, render.OfferRow{Platform: c.Platform, Verified: true, Caveats: []stock.Caveat{stock.CaveatUnitUnverified}})
		}
	}
	if doubt {
		rep.Notes = append(rep.Notes, render.UnverifiedPriceNote(v.en))
	}
	rep.Notes = append(rep.Notes, v.rd.Legend(unit, v.en)...)
	return rep
}

// cardsVerdict compares named cards, without its full stop: the best
// value and the fastest among all of them (two cards: gpuVerdict's
// sentence).
func (v compareView) cardsVerdict() string {
	cards, aspect := v.Result.Cards, v.Result.Aspect
	if aspect == AspectStability {
		return v.l.T("compare.stability.cards")
	}
	if len(cards) == 2 {
		return v.gpuVerdict(cards[0], cards[1])
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
	if aspect == AspectSpeed || value.PriceCNY == 0 {
		return v.l.T("compare.most_compute", fast.GPU, fast.TensorTFLOPS)
	}
	return v.l.T("compare.best_value", value.GPU, value.PriceText(), value.TensorTFLOPS, fast.GPU)
}

// sameSpeed: two cards whose compute is within this ratio are about as
// fast.
const sameSpeed = 1.1

// gpuVerdict compares two cards on what was asked, without its full
// stop: price per hour and per unit of compute, or speed (BF16 TFLOPS).
func (v compareView) gpuVerdict(a, b CardCompare) string {
	speed := a.TensorTFLOPS / b.TensorTFLOPS
	fast, slow, ratio := a, b, speed
	if speed < 1 {
		fast, slow, ratio = b, a, 1/speed
	}
	speedLine := v.l.T("compare.speed", fast.GPU, slow.GPU, ratio, fast.TensorTFLOPS, slow.TensorTFLOPS)
	switch {
	case v.Result.Aspect == AspectSpeed && ratio < sameSpeed:
		return v.l.T("compare.same_speed", fast.GPU, slow.GPU, ratio, fast.TensorTFLOPS, slow.TensorTFLOPS)
	case v.Result.Aspect == AspectSpeed:
		// "哪个快": which one first.
		return v.l.T("compare.faster", fast.GPU, slow.GPU, ratio, fast.TensorTFLOPS, slow.TensorTFLOPS)
	case a.PriceCNY == 0 && b.PriceCNY == 0:
		// A price question gets no made-up answer: say none is known first.
		return v.l.T("compare.no_prices", a.GPU, b.GPU, speedLine)
	case a.PriceCNY == 0 || b.PriceCNY == 0:
		known, unknown := a, b
		if a.PriceCNY == 0 {
			known, unknown = b, a
		}
		return v.l.T("compare.one_price", unknown.GPU, known.GPU, known.PriceText(), speedLine)
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
		return v.l.T("compare.better_deal", value.GPU, value.PriceText(), other.PriceText(), save, speedLine)
	}
	return v.l.T("compare.better_total", value.GPU, cheapHour.GPU, cheapHour.PriceText(), value.PriceText(), value.GPU, save, speedLine)
}

// platforms answers "恒源云和AutoDL哪个便宜", "矩池云 秘塔 揽睿 三家3090": per
// GPU, which platform is cheapest and by how much, then the data disk.
func (v compareView) platforms() chat.Reply {
	var caveats []string
	if v.Result.Aspect == AspectStability {
		for _, id := range v.Compared {
			if p, ok := v.rd.Cat.Platform(id); ok && len(p.Caveats) > 0 {
				caveats = append(caveats, v.l.T("offers.named", p.DisplayName(v.en), p.Caveats[0].Pick(v.en)))
			}
		}
	}
	t, doubt, unitDoubt := v.priceTable()
	rep := chat.Reply{Title: v.verdict(), Lines: caveats}
	if v.USD {
		if line := v.rd.USDLine(v.quoteRows(), v.en); line != "" {
			rep.Lines = append(rep.Lines, line)
		}
	}
	if len(t.Rows) > 0 {
		rep.Table = t
	}
	if line := v.diskLine(); line != "" && v.DiskFirst {
		rep.Lines = append([]string{rep.Title}, rep.Lines...)
		rep.Title = line
	} else if line != "" {
		rep.Lines = append(rep.Lines, line)
	}
	rep.Notes = append(rep.Notes, v.sourcesNote())
	if doubt {
		rep.Notes = append(rep.Notes, render.UnverifiedPriceNote(v.en))
	}
	rep.Notes = append(rep.Notes, v.rd.Legend(unitDoubt, v.en)...)
	return rep
}

// priceTable is a row per GPU, a column per platform and the cheapest;
// whether a price in it is unverified, and rows for the legend of the
// prices whose unit is.
func (v compareView) priceTable() (t *chat.Table, doubt bool, unitDoubt []render.OfferRow) {
	t = &chat.Table{Header: []string{v.l.T("compare.platforms.gpu")}}
	for _, p := range v.Compared {
		t.Header = append(t.Header, v.rd.PlatformName(p, v.en))
	}
	t.Header = append(t.Header, v.l.T("compare.platforms.cheapest"))
	for _, pp := range v.Result.Prices {
		row := []string{pp.GPU}
		for _, p := range v.Compared {
			cell := "-"
			if pq, ok := pp.Quotes[p]; ok {
				cell = quoteText(pq)
				if !pq.Verified {
					cell += render.MarkUnverified
					doubt = true
				}
				if pq.UnitUnverified {
					cell += render.MarkUnit
					unitDoubt = append(unitDoubt, render.OfferRow{Platform: p, Verified: true, Caveats: []stock.Caveat{stock.CaveatUnitUnverified}})
				}
			}
			row = append(row, cell)
		}
		switch {
		case len(pp.Quotes) < 2:
			row = append(row, v.l.T("compare.platforms.na"))
		case pp.Cheaper == "":
			row = append(row, v.l.T("compare.platforms.about_same"))
		default:
			row = append(row, v.l.T("compare.platforms.less", v.rd.PlatformName(pp.Cheaper, v.en), pp.SavingPct))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, doubt, unitDoubt
}

// platformVerdict sums up the per-GPU comparison in one line.
func (v compareView) platformVerdict() string {
	rows := v.Result.Prices
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
	names := v.rd.PlatformNames(v.Compared, v.en)
	if compared == 0 {
		return v.l.T("compare.platforms.none", names)
	}
	if same == compared && compared == 1 {
		// One card: its prices say how close they are.
		return v.l.T("compare.platforms.same_one", v.samePrices())
	}
	if same == compared {
		return v.l.T("compare.platforms.same", names, compared)
	}
	var leaders []string
	for _, p := range v.Compared {
		if wins[p] > 0 {
			leaders = append(leaders, p)
		}
	}
	parts := v.gpuParts(len(leaders) > 1)
	sep := v.l.T("offers.sep.semi")
	if len(leaders) == 1 {
		return v.l.T("compare.platforms.cheaper", v.rd.PlatformName(leaders[0], v.en), strings.Join(parts, sep), v.winnerDoubt())
	}
	return v.l.T("compare.platforms.depends", strings.Join(parts, sep), v.winnerDoubt())
}

// samePrices is the one GPU compared and its price on each platform
// ("RTX 4090: RunPod 2.45, vast.ai 2.43"), when they are about the same.
func (v compareView) samePrices() string {
	for _, pp := range v.Result.Prices {
		if len(pp.Quotes) < 2 {
			continue
		}
		var parts []string
		for _, p := range v.Compared {
			if pq, ok := pp.Quotes[p]; ok {
				parts = append(parts, v.rd.PlatformName(p, v.en)+" "+quoteText(pq))
			}
		}
		return v.l.T("compare.platforms.same_prices", pp.GPU, strings.Join(parts, v.l.T("list.sep")))
	}
	return ""
}

// gpuParts say, for the first three GPUs compared, which platform is
// cheaper by how much (naming it when several lead).
func (v compareView) gpuParts(nameLeader bool) []string {
	var parts []string
	for _, pp := range v.Result.Prices {
		if len(pp.Quotes) < 2 || len(parts) == 3 {
			continue
		}
		if pp.Cheaper == "" {
			parts = append(parts, v.l.T("compare.platforms.gpu_same", pp.GPU))
			continue
		}
		part := v.l.T("compare.platforms.gpu_less", pp.GPU, pp.SavingPct, pp.gap())
		if nameLeader {
			part = v.rd.PlatformName(pp.Cheaper, v.en) + " " + part
		}
		parts = append(parts, part)
	}
	return parts
}

// quoteRows are the compared platforms' prices as offer rows (for the
// dollar line), GPU by GPU.
func (v compareView) quoteRows() []render.OfferRow {
	var rows []render.OfferRow
	for _, pp := range v.Result.Prices {
		for _, p := range v.Compared {
			if pq, ok := pp.Quotes[p]; ok && pq.CNYPerGPUHour > 0 {
				price := pq.Low
				if price <= 0 {
					price = pq.CNYPerGPUHour
				}
				rows = append(rows, render.OfferRow{Platform: p, GPU: pp.GPU, PriceCNY: &price, PriceHighCNY: pq.High})
			}
		}
	}
	return rows
}

// gap is how much less the cheaper platform's price is than the next
// one's, in CNY per GPU-hour (by the midpoints the percentage compares).
func (pp PlatformPrice) gap() float64 {
	lo, ok := pp.Quotes[pp.Cheaper]
	if !ok {
		return 0
	}
	next := 0.0
	for p, q := range pp.Quotes {
		if p != pp.Cheaper && (next == 0 || q.CNYPerGPUHour < next) {
			next = q.CNYPerGPUHour
		}
	}
	return max(next-lo.CNYPerGPUHour, 0)
}

// winnerDoubt says when a cheaper price in the comparison is one whose
// unit is unverified or that only the seed articles give: a verdict never
// rests on it without saying so ("" when none does).
func (v compareView) winnerDoubt() string {
	var unit, seed []string
	for _, pp := range v.Result.Prices {
		pq, ok := pp.Quotes[pp.Cheaper]
		if !ok || len(pp.Quotes) < 2 {
			continue
		}
		name := v.rd.PlatformName(pp.Cheaper, v.en) + " " + pp.GPU
		switch {
		case pq.UnitUnverified:
			unit = append(unit, name)
		case !pq.Verified:
			seed = append(seed, name)
		}
	}
	var out string
	sep := v.l.T("list.sep")
	if len(unit) > 0 {
		out += v.l.T("compare.doubt.unit", strings.Join(unit, sep))
	}
	if len(seed) > 0 {
		out += v.l.T("compare.doubt.seed", strings.Join(seed, sep))
	}
	return out
}

// quoteText is a quote's price: one figure or "low-high".
func quoteText(pq estimator.PriceQuote) string {
	if pq.High > pq.Low {
		return fmt.Sprintf("%.2f-%.2f", pq.Low, pq.High)
	}
	return fmt.Sprintf("%.2f", pq.CNYPerGPUHour)
}

// diskLine compares the platforms' data-disk prices (CNY per GB-day
// beyond the free part; * a figure only a 2025 review gives); "" for
// fewer than two.
func (v compareView) diskLine() string {
	var parts []string
	for _, id := range v.Compared {
		p, ok := v.rd.Cat.Platform(id)
		if !ok || p.Storage.DataDiskCNYPerGBDay == nil {
			continue
		}
		f := *p.Storage.DataDiskCNYPerGBDay
		star := ""
		if !f.Verified {
			star = render.MarkUnverified
		}
		parts = append(parts, v.l.T("compare.disk.part", p.DisplayName(v.en), render.FigureText(f), star, p.Storage.DataDiskFreeGB))
	}
	if len(parts) < 2 {
		return ""
	}
	return v.l.T("compare.disk.line", strings.Join(parts, v.l.T("offers.sep.semi")))
}

// sourcesNote says whether the compared prices are live or list prices,
// and how old.
func (v compareView) sourcesNote() string {
	var dates []string
	live := false
	unknown := v.l.T("offers.source.time_unknown")
	for _, pp := range v.Result.Prices {
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
	var kind string
	joined := strings.Join(dates, v.l.T("list.sep"))
	switch {
	case live && len(dates) > 0:
		kind = v.l.T("compare.sources.live_dated", joined)
	case live:
		kind = v.l.T("compare.sources.live")
	case len(dates) > 0:
		kind = v.l.T("compare.sources.list_dated", joined)
	default:
		kind = v.l.T("compare.sources.list")
	}
	return v.l.T("compare.sources.rule", kind, SameWithinPct)
}
