package offers

import (
	"context"
	"math"
	"slices"
	"sort"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/offerview"
	"github.com/labgpu/bot/internal/understand"
)

func init() { answer.Register(answer.Intent{Name: understand.IntentCompare, Answer: compareAnswer}) }

// The comparison behind a compare answer (render/offerview).
type (
	CompareResult = offerview.CompareResult
	CardCompare   = offerview.CardCompare
	PlatformPrice = offerview.PlatformPrice
)

// compareAnswer answers "恒源云和AutoDL哪个便宜", "3090 还是 4090": two or
// more platforms per card, or two or more cards side by side. "3090
// 哪家便宜" — one card across platforms, or the cards of a VRAM floor
// ("显存48G起步的卡 哪家便宜") — is the stock answer (cheapest first), and
// its Query says so.
func compareAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	r, q := New(a.Env), a.Query
	vram := len(q.NamedGPUs) == 0 && (q.VRAMMinGB > 0 || q.VRAMMaxGB > 0)
	// ("国内平台哪个A100最便宜": one card in one platform group is that
	// too.)
	which := q.WhichPlatform || len(q.Platforms) == 0 && (q.PlatformGroup == understand.GroupDomestic || q.PlatformGroup == understand.GroupOverseas)
	if len(q.Platforms) < 2 && (len(q.NamedGPUs) == 1 || vram) && which {
		q.Intent = understand.IntentStock
		return r.stock(ctx, q)
	}
	// Cards are compared at their cheapest prices in the platform group
	// asked; platforms named are compared as named.
	uses := answer.UsesOf(&q)
	quotes := r.Quotes(r.Offers.Snapshot(ctx), understand.Query{Stated: understand.Stated{PlatformGroup: q.PlatformGroup}}, estimator.MethodFull, r.Now(), q.English)
	c := offerview.Compare{Lang: i18n.Of(q.English), Result: offerview.CompareResult{Aspect: q.Aspect}, USD: q.Currency == understand.CurrencyUSD}
	c.DiskFirst = q.NamesDisks && len(q.GPUs) == 0
	if c.USD {
		uses.Add(answer.Said(understand.CondCurrency)...)
	}
	if g, ok := q.Condition(understand.CondPlatformGroup); ok && g.Name == understand.GroupBoth && len(q.Platforms) < 2 {
		// "海外平台和国内的4090差多少钱": the cheapest platform of each group.
		if plats := r.cheapestOfGroups(quotes, q.GPUs); len(plats) == 2 {
			q.Platforms = plats
			uses.Add(answer.Applied(understand.CondPlatformGroup)...)
		} else {
			uses.Add(answer.NotUsed(understand.CondPlatformGroup, answer.WhyGroupCard))
		}
	}
	if len(q.Platforms) >= 2 {
		r.comparePlatforms(&c, q, quotes)
	} else {
		r.compareGPUs(&c, q, quotes)
		if len(c.Result.Cards) >= 2 {
			uses.Add(answer.Applied(understand.CondPlatformGroup)...)
		}
	}
	c.Finish(r.Rd)
	c.Verdict = compareVerdict(q, &c)
	return answer.Out{Payload: c, Query: q, Uses: uses.List()}
}

// compareGPUs puts two or more named cards side by side at their cheapest
// known prices (on the platforms named, if any), with the training speed
// ratio of two; fewer than two recognised asks which two.
func (r *Answers) compareGPUs(c *offerview.Compare, q understand.Query, quotes estimator.Quotes) {
	pq := r.platformQuotes(quotes, q.Platforms)
	for _, id := range q.NamedGPUs {
		if card, ok := r.familyCard(id, pq); ok {
			c.Result.Cards = append(c.Result.Cards, card)
		}
	}
	if len(c.Result.Cards) < 2 {
		c.AskBack, c.Named, c.NamedGPUs = true, q.Platforms, q.NamedGPUs
		return
	}
	if len(c.Result.Cards) == 2 {
		c.Ratio = trainingRatio(r.Cat, c.Result.Cards[0], c.Result.Cards[1])
	}
}

// comparePlatforms compares two or more platforms (the first
// MaxComparePlatforms) per GPU.
func (r *Answers) comparePlatforms(c *offerview.Compare, q understand.Query, quotes estimator.Quotes) {
	plats := q.Platforms
	if len(plats) > offerview.MaxComparePlatforms {
		plats = plats[:offerview.MaxComparePlatforms]
	}
	c.Compared = plats
	c.Result.Prices = r.platformRows(q, plats, quotes)
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

// trainingRatio is what the spec ratio of two cards means for training:
// the estimator's speed ratio on ratioJob as a range, faster card first
// (nil when either card has no speed).
func trainingRatio(cat *catalog.Catalog, a, b CardCompare) *offerview.TrainingRatio {
	est := &estimator.Estimator{Cat: cat}
	ta, errA := est.Throughput(ratioJob, a.GPU)
	tb, errB := est.Throughput(ratioJob, b.GPU)
	if errA != nil || errB != nil || !(ta.Low > 0 && tb.Low > 0 && ta.High > 0 && tb.High > 0) {
		return nil
	}
	fast, slow, lo, hi := a, b, ta.Low/tb.Low, ta.High/tb.High
	if ta.Typical < tb.Typical {
		fast, slow, lo, hi = b, a, tb.Low/ta.Low, tb.High/ta.High
	}
	return &offerview.TrainingRatio{Fast: fast.GPU, Slow: slow.GPU, Low: min(lo, hi), High: max(lo, hi)}
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
	if pct < offerview.SameWithinPct && overlap || pct < 3 {
		return "", pct
	}
	return lo.Platform, pct
}

// platformRows are the GPUs priced on at least two of the platforms
// (the named GPUs when there are any), in catalog order; each says which
// platform is the cheapest and by how much against the runner-up, or ""
// when the two are about the same.
func (r *Answers) platformRows(q understand.Query, plats []string, quotes estimator.Quotes) []PlatformPrice {
	gpus := q.GPUs
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
		if len(qs) < 2 && len(q.GPUs) == 0 {
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

// cheapestOfGroups are the platforms in China and outside it with the
// lowest price of the cards (every card when none is named): one of each,
// or fewer when a group has no price.
func (r *Answers) cheapestOfGroups(quotes estimator.Quotes, gpus []string) []string {
	if len(gpus) == 0 {
		return nil
	}
	var out []string
	for _, g := range []string{understand.GroupDomestic, understand.GroupOverseas} {
		best, bestCNY := "", math.Inf(1)
		for _, id := range gpus {
			for _, pq := range quotes(id) {
				if answer.InGroup(r.Cat, pq.Platform, g) && pq.CNYPerGPUHour < bestCNY {
					best, bestCNY = pq.Platform, pq.CNYPerGPUHour
				}
			}
		}
		if best != "" {
			out = append(out, best)
		}
	}
	return out
}
