package commands

import (
	"context"
	"math"
	"slices"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/render/offerview"
	"github.com/labgpu/bot/internal/render/planview"
	"github.com/labgpu/bot/internal/understand"
)

// figureAsk is what a follow-up asks of an estimate's or a plan's
// figures: by how much the new answer differs from the last ("贵多少",
// "换成4090多多少", "how much more?") or how long the job runs ("那要跑多
// 久").
type figureAsk struct{ gap, hours, speed bool }

// figureAskOf reads it from the message as written (q: its reading
// alone, before the frame edits it).
func figureAskOf(q Query, text string) figureAsk {
	f := catalog.Fold(text)
	return figureAsk{gap: q.FollowGap, hours: !q.FollowGap && understand.AsksJobFigure(f), speed: q.FollowGap && understand.AsksSpeed(f)}
}

// headline is an answer's main figures: its cheapest way's cost (CNY,
// low and high), hours, platform and cards.
type headline struct {
	cny      [2]float64
	hours    float64
	platform string
	gpu      string
	count    int
}

func (h headline) mid() float64 { return (h.cny[0] + h.cny[1]) / 2 }

// headlineOf is the payload's headline (ok false for another answer).
func headlineOf(p render.Payload) (headline, bool) {
	switch v := p.(type) {
	case estimateview.Estimate:
		return optionHeadline(v.Options)
	case estimateview.Workload:
		return optionHeadline(v.Options)
	case planview.Plans:
		if len(v.Result.Options) > 0 {
			o := v.Result.Options[0]
			return headline{cny: o.CostCNY, platform: o.Platform, gpu: o.GPU, count: max(v.Result.Profile.Count, 1)}, true
		}
	}
	return headline{}, false
}

func optionHeadline(opts []estimator.Option) (headline, bool) {
	if len(opts) == 0 || opts[0].TotalCNY <= 0 {
		return headline{}, false
	}
	o := opts[0]
	return headline{cny: [2]float64{o.TotalCNY, o.TotalCNY}, hours: o.Hours, platform: o.Platform, gpu: o.GPU, count: max(o.GPUCount, 1)}, true
}

// withFigureLine puts first what a follow-up asked of the figures: the
// hours, or the new figure and its difference from the last answer's
// (edited, answered again) — of the two cards an answer compares when
// the follow-up asked it again as it was.
func (r *Router) withFigureLine(ctx context.Context, res Result, bases []Query, ask figureAsk, msg chat.Message) Result {
	l := i18n.Of(res.English)
	now, ok := headlineOf(res.Payload)
	line := ""
	if c, isCompare := res.Payload.(offerview.Compare); isCompare && ask.gap {
		ok, line = true, compareGapLine(l, c)
	}
	if !ok || res.Confirm {
		return res
	}
	if e, isEst := res.Payload.(estimateview.Estimate); isEst && ask.speed && e.Scaling != nil {
		// "用两张3090会快多少": the answer compares the cards with one
		// already (its scaling line).
		return res
	}
	switch {
	case line != "":
	case ask.hours && now.hours > 0:
		line = l.T("router.figure.hours", hoursText(now.hours), r.rd.PlatformName(now.platform, l.English()), now.gpu, now.count, render.Money(now.mid()))
	case ask.gap && r.platformsGapLine(l, res.Payload) != "":
		line = r.platformsGapLine(l, res.Payload)
	case ask.gap:
		for _, b := range bases {
			if line = r.gapFrom(ctx, l, now, b, msg, ask.speed); line != "" {
				break
			}
		}
		if line == "" {
			line = cardsGapLine(l, res.Payload)
		}
	}
	if line == "" {
		return res
	}
	res.Reply = withLead(res.Reply, line)
	if !render.FitsPhone(res.Reply) {
		// The figure asked goes first; the rest is cut to one screen
		// again, behind "详情".
		full := res.Reply
		if res.Reply.Full != nil {
			full = *res.Reply.Full
		}
		res.Reply = render.FitPhone(res.Reply, full, res.English)
	}
	res.Text = chat.PlainText(res.Reply)
	if res.Reply.Full != nil {
		res.FullText = chat.PlainText(*res.Reply.Full)
	}
	return res
}

// figureBases are the answers a gap is weighed against: the one the
// follow-up edited, then the one that answer had edited in its turn
// ("how much more?" asked again of "what if I use 4 A100s").
func figureBases(edited Query, conv *conversation) []Query {
	out := []Query{edited}
	if conv != nil && conv.member != nil && conv.member.Before != nil {
		out = append(out, conv.member.Before.Restore())
	}
	return out
}

// gapFrom is the gap line against the answer to base ("" when it has no
// headline or reads the same).
func (r *Router) gapFrom(ctx context.Context, l i18n.Lang, now headline, base Query, msg chat.Message, speed bool) string {
	in, found := answer.Lookup(base.Intent)
	if !found {
		return ""
	}
	out := in.Answer(ctx, &answer.Ask{Query: base, From: askerOf(msg), Env: r.env})
	was, ok := headlineOf(out.Payload)
	if !ok {
		return ""
	}
	return gapLine(l, now, was, speed)
}

// hoursText is hours as an answer says them (one decimal).
func hoursText(h float64) string { return render.TrimF(math.Round(h*10) / 10) }

// gapLine is the new figure and its difference from the last answer's
// ("" when both read the same); asked how much faster (speed), the hours
// come first.
func gapLine(l i18n.Lang, now, was headline, speed bool) string {
	d := now.mid() - was.mid()
	dh := now.hours - was.hours
	if math.Abs(d) < 0.005*max(was.mid(), 1) && math.Abs(dh) < 0.05 {
		return ""
	}
	key := "router.figure.more"
	switch {
	case math.Abs(d) < 0.005*max(was.mid(), 1):
		key = "router.figure.same_cost"
	case d < 0:
		key = "router.figure.less"
	}
	money := l.T(key, render.Money(math.Abs(d)), render.Money(now.mid()), render.Money(was.mid()))
	if now.hours <= 0 || was.hours <= 0 || math.Abs(dh) < 0.05 {
		return money
	}
	k, first := "router.figure.faster", "router.figure.faster_first"
	if dh > 0 {
		k, first = "router.figure.slower", "router.figure.slower_first"
	}
	if speed {
		return l.T(first, hoursText(math.Abs(dh)), hoursText(now.hours), hoursText(was.hours), money)
	}
	return money + l.T(k, hoursText(math.Abs(dh)), hoursText(now.hours), hoursText(was.hours))
}

// cardsGapLine is, for an estimate that compares the cards named, the
// faster card's lead in hours and the difference in cost ("" for any
// other answer).
func cardsGapLine(l i18n.Lang, p render.Payload) string {
	e, ok := p.(estimateview.Estimate)
	if !ok || len(e.NamedGPUs) < 2 {
		return ""
	}
	var best []estimator.Option
	for _, g := range e.NamedGPUs[:2] {
		i := slices.IndexFunc(e.Options, func(o estimator.Option) bool { return o.GPU == g })
		if i < 0 {
			return ""
		}
		best = append(best, e.Options[i])
	}
	fast, slow := best[0], best[1]
	if slow.Hours < fast.Hours {
		fast, slow = slow, fast
	}
	key := "router.figure.cards_dearer"
	if fast.TotalCNY < slow.TotalCNY {
		key = "router.figure.cards_cheaper"
	}
	return l.T(key, fast.GPU, slow.GPU, hoursText(slow.Hours-fast.Hours), hoursText(fast.Hours), hoursText(slow.Hours),
		render.Money(math.Abs(fast.TotalCNY-slow.TotalCNY)), render.Money(fast.TotalCNY), render.Money(slow.TotalCNY))
}

// compareGapLine is, for two cards compared, by how much the dearer one
// costs more an hour and what that makes of the same job's total at
// their compute ("" without both prices).
func compareGapLine(l i18n.Lang, c offerview.Compare) string {
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

// platformsGapLine is, for a plan that prices the same card on two
// platforms ("how much extra per day?" after vast.ai against RunPod), by
// how much the dearer one's cheapest plan costs more ("" for any other
// answer).
func (r *Router) platformsGapLine(l i18n.Lang, p render.Payload) string {
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
	name := func(id string) string { return r.rd.PlatformName(id, l.English()) }
	return l.T("router.figure.platforms_dearer", name(hi.Platform), name(lo.Platform), render.Money(b-a), render.Money(b), render.Money(a))
}
