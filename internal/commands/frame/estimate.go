package frame

import (
	"slices"

	"github.com/labgpu/bot/internal/understand"
)

// EstimateCompared reads a follow-up of an estimate f that compares
// cards on its job or names another card's memory: "80G的呢" after "a100
// 40g 够吗" (the variant of that memory: q edited in place, false
// returned so the edit goes on), "4090 vs 3090 for that?", "哪个快",
// "最便宜的是哪个", "一张4090呢 哪个快" (the cards on the job, the asked
// one first).
func (e Editor) EstimateCompared(f Query, q *Query) (Query, bool) {
	if size := max(q.SizeGB, q.FollowSizeGB); size > 0 && len(q.GPUs) == 0 && q.UnknownGPU == "" && f.GPU != "" {
		if id, ok := e.variant(f, size); ok {
			q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily, q.SizeGB, q.FollowSizeGB = id, []string{id}, []string{id}, false, 0, 0
			if q.YesNo != nil {
				y := *q.YesNo
				y.VRAMGB = 0
				q.YesNo = &y
			}
		}
	}
	switch {
	case compareAsked(*q):
		// "4090 vs 3090 for that?": the cards on the estimate's job, not
		// on a default one.
		return CompareOnJob(f, *q), true
	case q.Intent == understand.IntentCompare && len(q.GPUs) == 0 && len(q.Platforms) == 0 && q.UnknownGPU == "" && !HasJob(*q) && !Valued(ClearAsk(*q)):
		// "哪个快", "最便宜的是哪个": the estimate again, the faster or the
		// cheapest first.
		m := JobAgain(f, *q)
		if q.Aspect != "" {
			m.Aspect = q.Aspect
		}
		return m, true
	case q.Intent == understand.IntentCompare && len(q.NamedGPUs) == 1 && len(f.NamedGPUs) == 1 && q.NamedGPUs[0] != f.NamedGPUs[0] && len(q.Platforms) == 0 && !HasJob(*q):
		// "一张4090呢 哪个快" after the job on a 3090: both cards on it.
		c := *q
		c.GPUs, c.NamedGPUs = append(slices.Clone(f.GPUs), q.GPUs...), append(slices.Clone(f.NamedGPUs), q.NamedGPUs...)
		c.GPU = f.GPU
		return CompareOnJob(f, c), true
	}
	return *q, false
}

// compareAsked reports whether q, said as a follow-up, compares two or
// more cards naming no platform and no job of its own ("4090 vs 3090 for
// that?"): of an estimate, it compares the cards on its job.
func compareAsked(q Query) bool {
	return q.Intent == understand.IntentCompare && len(q.GPUs) >= 2 && len(q.Platforms) == 0 && !HasJob(q) && q.FollowUp
}

// CompareOnJob is the last estimate f on the cards q compares (and the
// aspect it asks about, if any), on no platform in particular.
func CompareOnJob(f, q Query) Query {
	m := JobAgain(f, q)
	m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily, m.UnknownGPU = q.GPU, slices.Clone(q.GPUs), slices.Clone(q.NamedGPUs), q.GPUFamily, ""
	m.Platform, m.Platforms = "", nil
	if q.Aspect != "" {
		m.Aspect = q.Aspect
	}
	return m
}

// JobAgain is the last estimate f asked again by q: its job as it was,
// a sure estimate reading, with q's problems and q's language.
func JobAgain(f, q Query) Query {
	m := f
	m.Intent, m.Confidence, m.Alternatives, m.Problems = understand.IntentEstimate, 1, nil, q.Problems
	m.English = Language(f, q)
	return m
}

// ClearAsk is q without what only says which way a comparison asks
// ("便宜多少", "哪个快"): no value of its own.
func ClearAsk(q Query) Query {
	q.Cheaper, q.Aspect = false, ""
	return q
}
