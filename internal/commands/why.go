package commands

import "github.com/labgpu/bot/internal/commands/frame"

// whyFollow reads "为什么不够", "why not?" right after an estimate that
// answered a yes/no question: the same estimate with its verdict and the
// figures that decided it (the VRAM needed against the card's, the run's
// cost against the budget …), not the whole of it; false when q asks no
// such thing or the frame gave no verdict.
func whyFollow(f *Frame, q Query) (Query, bool) {
	if f == nil || !q.WhyVerdict || f.Query.Intent != IntentEstimate || f.Query.YesNo == nil {
		return q, false
	}
	m := f.Query.Restore()
	m.Intent, m.Confidence, m.Alternatives, m.Problems = IntentEstimate, 1, nil, nil
	m.Question, m.WhyVerdict = true, true
	m.English = frame.Language(m, q)
	return m, true
}
