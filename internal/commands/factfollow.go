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
	if len(q.Platforms) != 1 || slices.Equal(q.Platforms, fq.Platforms) || !(q.Bare || q.FollowUp) {
		return q, false
	}
	if len(q.GPUs) > 0 || q.UnknownGPU != "" || frame.HasJob(q) || q.DiskRef != "" || slices.Contains(q.Verbs, q.Intent) {
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
