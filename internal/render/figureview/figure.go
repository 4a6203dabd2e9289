// Package figureview words what a follow-up asked of an answer's figures
// (commands/gap.go): the hours, the new figure and its difference from the
// last answer's, the two cards or platforms an answer compares.
package figureview

import (
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
	var named []string
	var options []estimator.Option
	switch e := p.(type) {
	case estimateview.Estimate:
		named, options = e.NamedGPUs, e.Options
	case estimateview.Workload:
		named, options = e.NamedGPUs, e.Options
	}
	if len(named) < 2 {
		return ""
	}
	var best []estimator.Option
	for _, g := range named[:2] {
		i := slices.IndexFunc(options, func(o estimator.Option) bool { return o.GPU == g })
		if i < 0 {
			return ""
		}
		best = append(best, options[i])
	}
	fast, slow := best[0], best[1]
	if slow.Hours < fast.Hours {
		fast, slow = slow, fast
	}
	key := "router.figure.cards_dearer"
	if fast.TotalCNY < slow.TotalCNY {
		key = "router.figure.cards_cheaper"
	}
	return l.T(key, fast.GPU, slow.GPU, HoursText(slow.Hours-fast.Hours), HoursText(fast.Hours), HoursText(slow.Hours),
		render.Money(math.Abs(fast.TotalCNY-slow.TotalCNY)), render.Money(fast.TotalCNY), render.Money(slow.TotalCNY))
}

// CompareGapLine is, for two cards compared, by how much the dearer one
// costs more an hour and what that makes of the same job's total at
// their compute ("" without both prices).
func CompareGapLine(l i18n.Lang, c offerview.Compare) string {
	cards := c.Result.Cards
	if len(cards) != 2 || cards[0].PriceCNY <= 0 || cards[1].PriceCNY <= 0 || cards[0].TensorTFLOPS <= 0 || cards[1].TensorTFLOPS <= 0 {
		return ""
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
