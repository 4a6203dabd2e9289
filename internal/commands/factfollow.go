package commands

import (
	"slices"

	"github.com/labgpu/bot/internal/commands/frame"
)

// factFollow reads "AutoDL呢", "恒源云呢", "那AutoDL数据盘1毛一天一个G呢"
// right after a fact check: the same claim, checked for the platform the
// follow-up names (at the price it says, when it says one), not that
// platform's price list. False for anything else.
func (r *Router) factFollow(f *Frame, q Query) (Query, bool) {
	if f == nil || f.Query.Intent != IntentFactCheck || f.Query.Asked == "" {
		return q, false
	}
	fq := f.Query.Restore()
	if m, ok := r.factCard(fq, q); ok {
		return m, true
	}
	if q.Intent == IntentPrices && len(fq.Platforms) > 0 && !frame.HasSubject(q) && q.UnknownGPU == "" && len(q.Verbs) == 0 {
		// "那免费多少G" after a check of AutoDL's disk price: that
		// platform's rules, its disk first when the claim was one.
		m := q
		m.Platform, m.Platforms = fq.Platform, slices.Clone(fq.Platforms)
		m.NamesDisks = q.NamesDisks || fq.NamesDisks
		m.Confidence, m.Alternatives = 1, nil
		m.English = frame.Language(fq, q)
		return m, true
	}
	if len(q.Platforms) != 1 || slices.Equal(q.Platforms, fq.Platforms) || !(q.Bare || q.FollowUp) {
		return q, false
	}
	if len(q.GPUs) > 0 && !slices.Equal(q.GPUs, fq.GPUs) || q.UnknownGPU != "" || frame.HasJob(q) || q.DiskRef != "" || slices.Contains(q.Verbs, q.Intent) {
		// ("那AutoDL 4090 1块2呢": the claim's card again is no other.)
		return q, false
	}
	m := r.Understand(fq.Asked)
	if m.Intent != IntentFactCheck {
		return q, false
	}
	m.Platform, m.Platforms = q.Platform, slices.Clone(q.Platforms)
	if q.PriceCNY > 0 {
		m.PriceCNY = q.PriceCNY
		if q.PriceUnit != "" {
			m.PriceUnit = q.PriceUnit
		}
	}
	m.Confidence, m.Alternatives, m.Verbs = 1, nil, nil
	m.English = frame.Language(fq, q)
	return m, true
}

// factCard reads another card after a fact check of a platform's price
// ("那A100呢" after "听说矩池云3090一小时1.5 对吗"): with a price of its own
// ("那A100 5块呢"), the claim again for that card and price; without, that
// card's prices on the claim's platforms (its price was the other
// card's).
func (r *Router) factCard(fq, q Query) (Query, bool) {
	if len(q.GPUs) == 0 || len(fq.Platforms) == 0 || len(q.Platforms) > 0 && q.PriceCNY == 0 || !(q.Bare || q.FollowUp) || frame.HasJob(q) ||
		slices.Equal(q.GPUs, fq.GPUs) || slices.Contains(q.Verbs, q.Intent) {
		// ("那AutoDL 3090 1块32呢": another card and platform, a price of
		// its own: that claim.)
		return q, false
	}
	m := q
	if q.PriceCNY > 0 {
		if c := r.Understand(fq.Asked); c.Intent == IntentFactCheck {
			m = c
			m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = q.GPU, slices.Clone(q.GPUs), slices.Clone(q.NamedGPUs), q.GPUFamily
			m.PriceCNY, m.PriceUnit = q.PriceCNY, q.PriceUnit
		}
	} else {
		m.Intent, m.Topic, m.YesNo = IntentPrices, "", nil
	}
	m.Platform, m.Platforms = fq.Platform, slices.Clone(fq.Platforms)
	if len(q.Platforms) > 0 {
		m.Platform, m.Platforms = q.Platform, slices.Clone(q.Platforms)
	}
	m.Confidence, m.Alternatives, m.Verbs = 1, nil, nil
	m.English = frame.Language(fq, q)
	return m, true
}
