package advice

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/adviceview"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
)

// The claims checked in their own terms (issue 28, item 6): a plan's
// price, a month of disk for its size, billing while stopped, and a
// card's hourly price against the offers seen as well as the list price,
// in the claim's currency.

// planPrice checks a plan's price ("AutoDL 4090 包月1200") against the
// plan prices on record for the platform (and card) named; with none on
// record it says so, with what pay-as-you-go costs for the term.
func (r checker) planPrice(q understand.Query) *adviceview.CheckRow {
	c := &adviceview.CheckRow{Claim: "plan_price", Platform: q.Platform, Mode: q.BillingMode, Claimed: trimF4(q.PriceCNY), Verdict: adviceview.VerdictUnknown}
	if len(q.GPUs) > 0 {
		c.GPU = q.GPU
	}
	var hourly *catalog.Figure
	for _, p := range r.claimPlatforms(q) {
		for _, pr := range p.Prices {
			if len(q.GPUs) > 0 && !slices.Contains(q.GPUs, pr.GPU) {
				continue
			}
			if hourly == nil {
				f := pr.CNYPerHour
				hourly, c.Platform, c.GPU = &f, p.ID, pr.GPU
			}
			pl, ok := pr.PlanFor(q.BillingMode)
			if !ok {
				continue
			}
			v := judge(q.PriceCNY, pl.CNY.Low, pl.CNY.High)
			if c.Actual == "" || v == adviceview.VerdictYes && c.Verdict != adviceview.VerdictYes {
				c.Platform, c.GPU, c.Actual, c.Source, c.Verdict = p.ID, pr.GPU, render.FigureText(pl.CNY), r.cite(p.ID, pl.CNY), v
				c.Unverified = !pl.CNY.Verified
			}
		}
	}
	if c.Actual == "" && hourly != nil {
		// No plan price on record: what pay-as-you-go costs for the term.
		h := catalog.TermHours(q.BillingMode)
		c.HourlyCNY = render.FigureText(*hourly)
		c.HourlyTerm = fmt.Sprintf("%.0f", hourly.Low*h)
		if hourly.High > hourly.Low {
			c.HourlyTerm += fmt.Sprintf("-%.0f", hourly.High*h)
		}
	}
	return c
}

// claimPlatforms are the platforms a claim is about: the one named, or
// every platform.
func (r checker) claimPlatforms(q understand.Query) []*catalog.Platform {
	if p, ok := r.platform(q); ok {
		return []*catalog.Platform{p}
	}
	var out []*catalog.Platform
	for i := range r.Cat.Platforms {
		out = append(out, &r.Cat.Platforms[i])
	}
	return out
}

// diskMonth checks a month of a disk of the size named ("恒源云存储20G一个
// 月才5块"): the part beyond the free quota × 30 days × the price per
// GB-day.
func (r checker) diskMonth(q understand.Query) *adviceview.CheckRow {
	p, ok := r.platform(q)
	if !ok {
		return nil
	}
	st := p.Storage
	c := &adviceview.CheckRow{Claim: "disk_month", Platform: p.ID, Claimed: trimF4(q.PriceCNY), SizeGB: q.SizeGB, FreeGB: st.DataDiskFreeGB,
		Verdict: adviceview.VerdictUnknown}
	f := st.DataDiskCNYPerGBDay
	if f == nil {
		return c
	}
	billed := math.Max(0, q.SizeGB-st.DataDiskFreeGB) * 30
	lo, hi := f.Low*billed, math.Max(f.High, f.Low)*billed
	c.Actual, c.PerGBDay, c.Source = moneyRange(lo, hi), render.FigureText(*f), r.cite(p.ID, *f)
	c.Verdict = judge(q.PriceCNY, lo, hi)
	return c
}

// moneyRange is a CNY range to the fen: "10.08" or "9.9-15".
func moneyRange(lo, hi float64) string {
	if hi-lo < 0.005 {
		return render.TrimF(lo)
	}
	return render.TrimF(lo) + "-" + render.TrimF(hi)
}

// stoppedBilling checks "关机了存储还收钱（而且更贵）" against the
// platform's storage rules.
func (r checker) stoppedBilling(q understand.Query) *adviceview.CheckRow {
	p, ok := r.platform(q)
	if !ok {
		return nil
	}
	st := p.Storage
	c := &adviceview.CheckRow{Claim: "stopped_billing", Platform: p.ID, Verdict: adviceview.VerdictNo, Actual: "no",
		Rule: st.Note.Pick(r.English)}
	if st.BilledWhileStopped {
		c.Verdict, c.Actual = adviceview.VerdictYes, "yes"
	}
	if f := st.DataDiskCNYPerGBDay; f != nil {
		c.PerGBDay, c.Source = render.FigureText(*f), r.cite(p.ID, *f)
	}
	return c
}

// gpuPrice checks a card's hourly price: on the platform named (each
// variant of a family named), against the live or recorded offers seen
// and the list price, in US dollars when the claim was in dollars — or
// read as dollars when only that matches on a platform that prices in
// them; or against the lowest list price anywhere.
func (r checker) gpuPrice(ctx context.Context, q understand.Query, usd bool) *adviceview.CheckRow {
	v := q.PriceCNY
	if v == 0 {
		v = q.MaxPriceCNY
	}
	fx := r.Cat.FXUSDCNY
	cands := r.priceCandidates(ctx, q)
	if len(cands) == 0 {
		return &adviceview.CheckRow{Claim: "gpu_price", GPU: q.GPUs[0], Claimed: trimF4(v), Verdict: adviceview.VerdictUnknown}
	}
	if !usd && fx > 0 && q.Platform != "" && r.pricesInUSD(q.Platform) && bestVerdict(cands, v) == adviceview.VerdictNo &&
		bestVerdict(cands, v*fx) != adviceview.VerdictNo {
		// "runpod 0.79/hr": dollars on a platform that prices in them.
		v, usd = v*fx, true
	}
	best := pickCandidate(cands, v)
	judgeAs := ""
	if asksDear(q) {
		// "8刀一小时贵不贵", "两块钱算便宜吗": the price against the cheapest
		// on record — above it dear, below it cheap, inside its range it
		// depends (platform, region, time).
		best = cheapestCandidate(cands)
		switch {
		case v > best.high*1.05:
			judgeAs = adviceview.JudgeDear
		case v < best.low*0.95:
			judgeAs = adviceview.JudgeCheap
		default:
			judgeAs = adviceview.JudgeInside
		}
	}
	c := &adviceview.CheckRow{Judge: judgeAs, Claim: "gpu_price", Platform: best.platform, GPU: best.gpu, Claimed: trimF4(v),
		Actual: rangeText(best.low, best.high), Source: best.source, Verdict: judge(v, best.low, best.high), Observed: best.observed,
		Unverified: !best.verified}
	if q.Platform == "" {
		c.Platform = best.platform
	}
	if c.Verdict == adviceview.VerdictYes && judgeAs == "" && best.high > best.low*lowEndSpread && v <= best.low+(best.high-best.low)*lowEndShare {
		// "恒源云4090才1块3" against 1.30–2.50, "AutoDL 4090 1块3" against
		// 1.20–2.70: the range's low end, not a price to count on.
		c.Verdict, c.LowEnd = adviceview.VerdictPartly, true
	}
	if usd && fx > 0 {
		c.ClaimedUSD, c.ActualUSD = trimF4(v/fx), rangeText(best.low/fx, best.high/fx)
	}
	for _, o := range cands {
		if o == best || o.gpu == best.gpu && o.observed == best.observed {
			continue
		}
		also := adviceview.CheckAlso{GPU: o.gpu, Value: rangeText(o.low, o.high), Source: o.source, Observed: o.observed}
		if usd && fx > 0 {
			also.USD = rangeText(o.low/fx, o.high/fx)
		}
		c.Also = append(c.Also, also)
		if len(c.Also) == maxAlso {
			break
		}
	}
	return c
}

// lowEndSpread: a range whose high end is this many times its low end
// or more is a range, not one price, for a claim of its low end.
const lowEndSpread = 1.15

// lowEndShare: a claim within this share of such a range above its low
// end is a claim of its low end.
const lowEndShare = 0.25

// maxAlso is how many other figures a price check names.
const maxAlso = 2

// candidate is a figure a card's price may be checked against: a list
// price or an offer seen, on a platform.
type candidate struct {
	platform, gpu string
	low, high     float64
	source        string
	observed      bool
	verified      bool
}

// priceCandidates are the figures for the cards named on the platform
// named: each variant's list price and its cheapest live or recorded
// offer; without a platform, the lowest list price of each variant.
func (r checker) priceCandidates(ctx context.Context, q understand.Query) []candidate {
	var out []candidate
	for _, gpu := range q.GPUs {
		var best *candidate
		for i := range r.Cat.Platforms {
			p := &r.Cat.Platforms[i]
			if q.Platform != "" && p.ID != q.Platform {
				continue
			}
			pr, ok := p.PriceFor(gpu)
			if !ok || best != nil && pr.CNYPerHour.Low >= best.low {
				continue
			}
			f := pr.CNYPerHour
			best = &candidate{platform: p.ID, gpu: gpu, low: f.Low, high: math.Max(f.High, f.Low), source: r.cite(p.ID, f), verified: f.Verified}
		}
		if best != nil {
			out = append(out, *best)
		}
	}
	if q.Platform == "" || r.Offers == nil {
		return out
	}
	now := r.Now()
	for _, ps := range r.Offers.Snapshot(ctx).Providers {
		for _, o := range ps.Offers {
			if o.Platform != q.Platform || !slices.Contains(q.GPUs, o.GPU) || !o.HasPrice() || o.Source == stock.SourceCatalog || o.Stale {
				continue
			}
			row := r.Rd.RowAt(o, now)
			cand := candidate{platform: o.Platform, gpu: o.GPU, low: o.CNYPerGPUHour, high: math.Max(o.PriceHigh, o.CNYPerGPUHour),
				source: render.SourceCell(row, r.English), observed: true, verified: true}
			if i := slices.IndexFunc(out, func(c candidate) bool { return c.observed && c.gpu == o.GPU }); i >= 0 {
				if cand.low < out[i].low {
					out[i] = cand
				}
				continue
			}
			out = append(out, cand)
		}
	}
	return out
}

// pricesInUSD reports whether a platform prices in US dollars (an
// overseas platform, or offers seen in dollars).
func (r checker) pricesInUSD(platform string) bool {
	p, ok := r.Cat.Platform(platform)
	return ok && p.Kind == "overseas"
}

// verdictRank orders verdicts: yes before partly before no.
var verdictRank = map[string]int{adviceview.VerdictYes: 0, adviceview.VerdictPartly: 1, adviceview.VerdictNo: 2}

// bestVerdict is the best verdict a claimed value gets against any of
// the candidates.
func bestVerdict(cands []candidate, v float64) string {
	out := adviceview.VerdictNo
	for _, c := range cands {
		if j := judge(v, c.low, c.high); verdictRank[j] < verdictRank[out] {
			out = j
		}
	}
	return out
}

// pickCandidate is the figure a claimed value is checked against: the
// one it matches best, an offer seen before a list price, then the
// nearest.
// asksDear reports whether the question asks if a price is dear or
// cheap, or a good deal ("贵不贵", "算便宜吗", "good deal?"), of one card
// (not one platform's against another's: "比autodl便宜三毛").
func asksDear(q understand.Query) bool {
	y := q.YesNo
	return y != nil && (y.Kind == understand.YesNoCheaper || y.Kind == understand.YesNoWorth) && len(q.NamedGPUs) < 2 && len(q.Platforms) < 2
}

// cheapestCandidate is the figure with the lowest price.
func cheapestCandidate(cands []candidate) candidate {
	best := cands[0]
	for _, c := range cands[1:] {
		if c.low < best.low || c.low == best.low && c.observed && !best.observed {
			best = c
		}
	}
	return best
}

func pickCandidate(cands []candidate, v float64) candidate {
	best := cands[0]
	dist := func(c candidate) float64 { return math.Min(math.Abs(v-c.low), math.Abs(v-c.high)) }
	for _, c := range cands[1:] {
		jc, jb := verdictRank[judge(v, c.low, c.high)], verdictRank[judge(v, best.low, best.high)]
		switch {
		case jc < jb, jc == jb && c.observed && !best.observed, jc == jb && c.observed == best.observed && dist(c) < dist(best):
			best = c
		}
	}
	return best
}

// rangeText is a price or range to the fen: "2.45" or "2.45-5.33".
func rangeText(lo, hi float64) string {
	if hi-lo < 0.005 {
		return fmt.Sprintf("%.2f", lo)
	}
	return fmt.Sprintf("%.2f-%.2f", lo, hi)
}

// vram checks a card's memory ("3090的显存是48G") against the catalog's
// (the variant nearest the claim, for a family).
func (r checker) vram(q understand.Query, gb float64) *adviceview.CheckRow {
	var best *catalog.GPU
	for _, id := range q.GPUs {
		g, ok := r.Cat.GPU(id)
		if ok && (best == nil || math.Abs(g.MemoryGB-gb) < math.Abs(best.MemoryGB-gb)) {
			best = g
		}
	}
	if best == nil {
		return nil
	}
	c := &adviceview.CheckRow{Claim: "vram", GPU: best.ID, Claimed: trimF4(gb), Actual: trimF4(best.MemoryGB), Verdict: adviceview.VerdictNo,
		Source: i18n.Of(q.English).T("factcheck.vram_source")}
	if best.MemoryGB == gb {
		c.Verdict = adviceview.VerdictYes
	}
	return c
}
