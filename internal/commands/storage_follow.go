package commands

import (
	"slices"

	"github.com/labgpu/bot/internal/commands/frame"
)

// Follow-ups of the storage ledger: after an answer about the ledger (a
// disk registered, the list, a change, the spend), a message that names
// no card, job or disk of its own continues it — "这个一个月多少钱",
// "删了能省多少", "how much does that cost per month?" ask what the disk
// just named costs (the list, that disk first), "现在还有哪些" the list,
// "把它改成500G" (a resize verb and a size) resizes that disk. Without a
// verb nothing changes (an action asked about is answered by the list).

// ledgerFrames are the answers a ledger follow-up continues.
var ledgerFrames = map[string]bool{
	IntentStorageAdd: true, IntentStorageList: true, IntentStorageResize: true, IntentStorageStop: true,
	IntentStorageStart: true, IntentStorageRemove: true, IntentDigest: true, IntentStorageRisk: true,
}

// ledgerAsks are the readings a message continuing a ledger answer may
// have been given on its own words: a price or cost question about
// nothing named, an ask-back, or a ledger question.
var ledgerAsks = map[string]bool{
	IntentPrices: true, IntentPlan: true, IntentEstimate: true, IntentStock: true, IntentClarify: true, IntentUnknown: true,
	IntentDigest: true, IntentStorageList: true, IntentStorageAdd: true, IntentStorageRemove: true, IntentStorageStop: true,
	IntentStorageStart: true, IntentStorageResize: true, IntentMore: false, IntentAdvice: true, IntentCompare: true,
}

// ledgerFollow reads q after the ledger answer of f (false: not such a
// follow-up).
func ledgerFollow(f *Frame, q Query) (Query, bool) {
	if f == nil || !ledgerFrames[f.Query.Intent] || !ledgerAsks[q.Intent] || q.Intent == IntentStorageList && q.Confidence >= 1 {
		return q, false
	}
	if len(q.GPUs) > 0 || q.UnknownGPU != "" || q.Model != "" || q.ParamsB > 0 || q.ModelText != "" || q.DiskRef != "" {
		return q, false
	}
	disk := f.Query.DiskRef
	size := max(q.SizeGB, q.FollowSizeGB)
	own := slices.Contains(q.Verbs, q.Intent) && q.Intent != IntentStorageResize
	switch {
	case !own && disk != "" && size > 0 && slices.Contains(q.Verbs, IntentStorageResize):
		// "把它改成500G": that disk, to that size.
		m := q
		m.Intent, m.Confidence, m.Alternatives, m.DiskRef, m.SizeGB = IntentStorageResize, 1, nil, disk, size
		m.Verbs = append(slices.Clone(q.Verbs), IntentStorageResize)
		return m, true
	case own || len(q.Platforms) > 0 || size > 0:
		// An action said outright, or a question about another disk.
		return q, false
	case q.Intent == IntentDigest && q.Period != "" || q.Week != "":
		return q, false
	}
	m := q
	m.Intent, m.Confidence, m.Alternatives, m.AskedAbout = IntentStorageList, 1, nil, ""
	m.DiskRef = ""
	if f.Query.Intent != IntentStorageRemove {
		m.DiskRef = disk
	}
	m.English = frame.Language(f.Query.Restore(), q)
	return m, true
}
