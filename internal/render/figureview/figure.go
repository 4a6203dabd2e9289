// Package figureview words what a follow-up asked of an answer's figures
// (commands/gap.go): the hours, the new figure and its difference from the
// last answer's, the two cards or platforms an answer compares.
package figureview

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/render/offerview"
	"github.com/labgpu/bot/internal/render/planview"
)

// Headline is an answer's main figures: its cheapest way's cost (CNY,
// low and high), Hours, Platform and cards.
type Headline struct {
	CNY      [2]float64
	Hours    float64
	Platform string
	Gpu      string
	Count    int
}

func (h Headline) Mid() float64 { return (h.CNY[0] + h.CNY[1]) / 2 }

// HeadlineOf is the payload's Headline (ok false for another answer).
func HeadlineOf(p render.Payload) (Headline, bool) {
	switch v := p.(type) {
	case estimateview.Estimate:
		return optionHeadline(v.Options)
	case estimateview.Workload:
		return optionHeadline(v.Options)
	case planview.Plans:
		if len(v.Result.Options) > 0 {
			o := v.Result.Options[0]
			return Headline{CNY: o.CostCNY, Platform: o.Platform, Gpu: o.GPU, Count: max(v.Result.Profile.Count, 1)}, true
		}
	}
	return Headline{}, false
}

func optionHeadline(opts []estimator.Option) (Headline, bool) {
	if len(opts) == 0 || opts[0].TotalCNY <= 0 {
		return Headline{}, false
	}
	o := opts[0]
	return Headline{CNY: [2]float64{o.TotalCNY, o.TotalCNY}, Hours: o.Hours, Platform: o.Platform, Gpu: o.GPU, Count: max(o.GPUCount, 1)}, true
}

// HoursText is Hours as an answer says them (one decimal).
func HoursText(h float64) string {
	// Rounded as %.1f rounds, so that the figure reads as the answer's.
	v, _ := strconv.ParseFloat(strconv.FormatFloat(h, 'f', 1, 64), 64)
	return render.TrimF(v)
}

// GapLine is the new figure and its difference from the last answer's
// ("" when both read the same); asked how much faster (speed), the hours
// come first.
func GapLine(l i18n.Lang, now, was Headline, speed bool) string {
	d := now.Mid() - was.Mid()
	dh := now.Hours - was.Hours
	if math.Abs(d) < 0.005*max(was.Mid(), 1) && math.Abs(dh) < 0.05 {
		return ""
	}
	key := "router.figure.more"
	switch {
	case math.Abs(d) < 0.005*max(was.Mid(), 1):
		key = "router.figure.same_cost"
	case d < 0:
		key = "router.figure.less"
	}
	money := l.T(key, render.Money(math.Abs(d)), render.Money(now.Mid()), render.Money(was.Mid()))
	if now.Hours <= 0 || was.Hours <= 0 || math.Abs(dh) < 0.05 {
		return money
	}
	k, first := "router.figure.faster", "router.figure.faster_first"
	if dh > 0 {
		k, first = "router.figure.slower", "router.figure.slower_first"
	}
	if speed {
		return l.T(first, HoursText(math.Abs(dh)), HoursText(now.Hours), HoursText(was.Hours), money)
	}
	return money + l.T(k, HoursText(math.Abs(dh)), HoursText(now.Hours), HoursText(was.Hours))
}

// CardsGapLine is, for an estimate that compares the cards named, the
// faster card's lead in Hours and the difference in cost ("" for any
// other answer).
func CardsGapLine(l i18n.Lang, p render.Payload) string {
	fast, slow, ok := namedPair(p)
	if !ok {
		return ""
	}
	key := "router.figure.cards_dearer"
	if fast.TotalCNY < slow.TotalCNY {
		key = "router.figure.cards_cheaper"
	}
	return l.T(key, fast.GPU, slow.GPU, HoursText(slow.Hours-fast.Hours), HoursText(fast.Hours), HoursText(slow.Hours),
		render.Money(math.Abs(fast.TotalCNY-slow.TotalCNY)), render.Money(fast.TotalCNY), render.Money(slow.TotalCNY))
}

// CardsPickLine is, for an estimate that compares the cards named, the
// one to take and why: faster and cheaper, about the same money and
// faster, or which for money and which for time ("" for any other
// answer).
func CardsPickLine(l i18n.Lang, p render.Payload) string {
	fast, slow, ok := namedPair(p)
	if !ok {
		return ""
	}
	h := func(o estimator.Option) string { return HoursText(o.Hours) }
	c := func(o estimator.Option) string { return render.Money(o.TotalCNY) }
	switch {
	case fast.TotalCNY <= slow.TotalCNY:
		return l.T("router.figure.pick_both", cards(fast), h(fast), h(slow), c(fast), c(slow))
	case fast.TotalCNY <= slow.TotalCNY*1.05:
		return l.T("router.figure.pick_fast", cards(fast), h(fast), h(slow), c(fast), c(slow))
	}
	return l.T("router.figure.pick_either", cards(slow), c(slow), c(fast), cards(fast), h(fast), h(slow))
}

// cards names an option's cards: "RTX 3090", "RTX 3090×2".
func cards(o estimator.Option) string {
	if o.GPUCount > 1 {
		return fmt.Sprintf("%s×%d", o.GPU, o.GPUCount)
	}
	return o.GPU
}

// namedPair is the cheapest option of each of the first two cards an
// estimate names, the faster first.
func namedPair(p render.Payload) (fast, slow estimator.Option, ok bool) {
	var named []string
	var options []estimator.Option
	switch e := p.(type) {
	case estimateview.Estimate:
		named, options = e.NamedGPUs, e.Options
	case estimateview.Workload:
		named, options = e.NamedGPUs, e.Options
	}
	if len(named) < 2 {
		return fast, slow, false
	}
	var best []estimator.Option
	for _, g := range named[:2] {
		i := slices.IndexFunc(options, func(o estimator.Option) bool { return o.GPU == g })
		if i < 0 {
			return fast, slow, false
		}
		best = append(best, options[i])
	}
	fast, slow = best[0], best[1]
	if slow.Hours < fast.Hours {
		fast, slow = slow, fast
	}
	return fast, slow, true
}

// CompareGapLine is, for two cards compared (or a card on two
// platforms: platformsHourGap), by how much the dearer one
// costs more an hour and what that makes of the same job's total at
// their compute ("" without both prices).
func CompareGapLine(rd *render.Renderer, l i18n.Lang, c offerview.Compare) string {
	cards := c.Result.Cards
	if len(cards) != 2 || cards[0].PriceCNY <= 0 || cards[1].PriceCNY <= 0 || cards[0].TensorTFLOPS <= 0 || cards[1].TensorTFLOPS <= 0 {
		return platformsHourGap(rd, l, c)
	}
	dear, cheap := cards[0], cards[1]
	if dear.PriceCNY < cheap.PriceCNY {
		dear, cheap = cheap, dear
	}
	perDear, perCheap := dear.PriceCNY/dear.TensorTFLOPS, cheap.PriceCNY/cheap.TensorTFLOPS
	key, pct := "router.figure.hour_gap_dearer_total", (1-perCheap/perDear)*100
	if perDear < perCheap {
		key, pct = "router.figure.hour_gap_cheaper_total", (1-perDear/perCheap)*100
	}
	return l.T(key, dear.GPU, cheap.GPU, render.Money(dear.PriceCNY-cheap.PriceCNY), render.Money(dear.PriceCNY), render.Money(cheap.PriceCNY), pct)
}

// PlatformsGapLine is, for a plan that prices the same card on two
// platforms ("how much extra per day?" after vast.ai against RunPod), by
// how much the dearer one's cheapest plan costs more ("" for any other
// answer).
func PlatformsGapLine(rd *render.Renderer, l i18n.Lang, p render.Payload) string {
	v, ok := p.(planview.Plans)
	if !ok {
		return ""
	}
	var best []int
	seen := map[string]bool{}
	for i, o := range v.Result.Options {
		if o.GPU != v.Result.Options[0].GPU {
			return ""
		}
		if !seen[o.Platform] {
			seen[o.Platform] = true
			best = append(best, i)
		}
	}
	if len(best) != 2 {
		return ""
	}
	lo, hi := v.Result.Options[best[0]], v.Result.Options[best[1]]
	a, b := (lo.CostCNY[0]+lo.CostCNY[1])/2, (hi.CostCNY[0]+hi.CostCNY[1])/2
	if b < a {
		lo, hi, a, b = hi, lo, b, a
	}
	name := func(id string) string { return rd.PlatformName(id, l.English()) }
	return l.T("router.figure.platforms_dearer", name(hi.Platform), name(lo.Platform), render.Money(b-a), render.Money(b), render.Money(a))
}

// platformsHourGap is, for one card compared on two platforms ("vast和
// runpod 4090哪个便宜" → "差多少钱"), by how much the dearer one costs more
// an hour, a day and a month of 720 hours, at the midpoints the
// comparison used ("" without both prices).
func platformsHourGap(rd *render.Renderer, l i18n.Lang, c offerview.Compare) string {
	if len(c.Compared) != 2 || len(c.Result.Prices) == 0 {
		return ""
	}
	p := c.Result.Prices[0]
	a, okA := p.Quotes[c.Compared[0]]
	b, okB := p.Quotes[c.Compared[1]]
	if !okA || !okB || a.CNYPerGPUHour <= 0 || b.CNYPerGPUHour <= 0 {
		return ""
	}
	if a.CNYPerGPUHour < b.CNYPerGPUHour {
		a, b = b, a
	}
	// From the prices as shown, so the figures add up as the reader sees
	// them.
	d := math.Round(a.CNYPerGPUHour*100)/100 - math.Round(b.CNYPerGPUHour*100)/100
	return l.T("router.figure.platform_hour_gap", rd.PlatformName(a.Platform, l.English()), rd.PlatformName(b.Platform, l.English()), p.GPU,
		render.Money(d), render.Money(a.CNYPerGPUHour), render.Money(b.CNYPerGPUHour), render.Money(d*24), render.Money(d*720))
}

// ModeGapLine is, for a billing-mode answer with a plan price and its
// pay-as-you-go equivalent (the list price over the whole term), by how
// much the plan saves or costs over pay-as-you-go run the whole term, at
// the midpoints ("比按量省多少" after "autodl 4090 包月多少"; "" when no
// row has both).
func ModeGapLine(l i18n.Lang, p estimateview.Plan) string {
	for _, r := range p.Plan.Rows {
		if r.PlanCNY == nil || r.HourlyTimesCNY[1] <= 0 {
			continue
		}
		plan := (r.PlanCNY.Low + r.PlanCNY.High) / 2
		hourly := (r.HourlyTimesCNY[0] + r.HourlyTimesCNY[1]) / 2
		term := estimateview.PeriodWord(p.Plan.Mode, l)
		mark := ""
		if !r.PlanCNY.Verified {
			mark = "*"
		}
		key := "router.figure.mode_saves"
		if plan > hourly {
			key = "router.figure.mode_dearer"
		}
		return l.T(key, term, rangeText(r.PlanCNY.Low, r.PlanCNY.High)+mark, rangeText(r.HourlyTimesCNY[0], r.HourlyTimesCNY[1]),
			render.TrimF(math.Round(math.Abs(plan-hourly))))
	}
	return ""
}

// rangeText is "1200-1500", or one figure when the ends are equal, in
// whole yuan.
func rangeText(low, high float64) string {
	if math.Round(high) == math.Round(low) {
		return render.TrimF(math.Round(low))
	}
	return render.TrimF(math.Round(low)) + "-" + render.TrimF(math.Round(high))
}

// HourLine answers "是每小时吗", "is that per hour?" of an answer's
// figure: offers and list prices are per GPU-hour (yes); an estimate's is
// the whole run (no), with what an hour of it costs ("" for any other
// answer).
func HourLine(rd *render.Renderer, l i18n.Lang, p render.Payload) string {
	switch e := p.(type) {
	case offerview.Stock, offerview.Prices:
		return l.T("router.figure.hour_yes")
	case estimateview.Estimate:
		return estimateHour(rd, l, e.Options)
	case estimateview.Workload:
		return estimateHour(rd, l, e.Options)
	}
	return ""
}

// estimateHour says an estimate's total is the whole run, and what its
// cheapest option costs an hour.
func estimateHour(rd *render.Renderer, l i18n.Lang, opts []estimator.Option) string {
	if len(opts) == 0 || opts[0].Hours <= 0 {
		return ""
	}
	o := opts[0]
	n := max(o.GPUCount, 1)
	return l.T("router.figure.hour_no", render.Money(o.TotalCNY), HoursText(o.Hours), render.Money(o.PriceCNY*float64(n)),
		n, render.Money(o.PriceCNY), rd.PlatformName(o.Platform, l.English()))
}

// CurrencyLine answers "是美元还是人民币" of an answer's figures: yuan
// (CNY), with dollars beside them when asked in dollars.
func CurrencyLine(l i18n.Lang, usd bool) string {
	if usd {
		return l.T("router.figure.currency_usd")
	}
	return l.T("router.figure.currency_cny")
}
