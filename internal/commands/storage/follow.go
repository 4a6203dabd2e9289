package storage

import (
	"slices"

	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/understand"
)

// Follow-ups of the storage ledger: after an answer about the ledger (a
// disk registered, the list, a change, the spend), a message that names
// no card, job or disk of its own and asks the ledger something — what
// the disk costs or deleting it saves, the disk as "它"/"that", what is
// left (understand's LedgerAsk), or a ledger reading of its own —
// continues it: "这个一个月多少钱", "删了能省多少", "how much does that
// cost per month?" ask what the disk just named costs (the list, that
// disk first), "200G 一个月多少钱", "1T呢" what it would cost at that size
// (the ledger unchanged), "现在还有哪些" the list, "把它改成500G" (a resize
// verb and a size) resizes that disk. A size is never a verb: without
// one nothing changes. Any other question after a ledger answer ("CUDA
// out of memory怎么办", "最便宜的是哪家") is answered as its own.

// Frames are the answers a ledger follow-up continues, and the
// readings that are about the ledger.
var Frames = map[string]bool{
	understand.IntentStorageAdd: true, understand.IntentStorageList: true, understand.IntentStorageResize: true, understand.IntentStorageStop: true,
	understand.IntentStorageStart: true, understand.IntentStorageRemove: true, understand.IntentDigest: true, understand.IntentStorageRisk: true,
}

// ledgerAsks are the readings a message continuing a ledger answer may
// have been given on its own words: a price or cost question about
// nothing named, an ask-back, or a ledger question (a troubleshooting or
// comparison question is one of its own).
var ledgerAsks = map[string]bool{
	understand.IntentPrices: true, understand.IntentPlan: true, understand.IntentEstimate: true, understand.IntentStock: true, understand.IntentClarify: true, understand.IntentUnknown: true,
	understand.IntentDigest: true, understand.IntentStorageList: true, understand.IntentStorageAdd: true, understand.IntentStorageRemove: true, understand.IntentStorageStop: true,
	understand.IntentStorageStart: true, understand.IntentStorageResize: true,
}

// diskAsks are the readings a message naming a disk by number may have
// been given when it only asks about it ("2号盘呢").
var diskAsks = map[string]bool{
	understand.IntentUnknown: true, understand.IntentClarify: true, understand.IntentStorageList: true, understand.IntentStorageRisk: true, understand.IntentPrices: true,
	understand.IntentPlan: true, understand.IntentStock: true, understand.IntentChitChat: true,
}

// Follow reads q after the ledger answer of f (false: not such a
// follow-up).
func Follow(f *frame.Frame, q understand.Query) (understand.Query, bool) {
	if f == nil || !Frames[f.Query.Intent] || q.StateAsk != "" || q.Explain != "" {
		// A question about the chat's settings or what an action means
		// is one of its own.
		return q, false
	}
	if m, ok := stateReport(f, q); ok {
		return m, true
	}
	if q.Intent == understand.IntentStorageList && q.Confidence >= 1 && q.LedgerPick == "" && q.LedgerBudget == 0 {
		// A list asked for again ("我们组的盘"), not the disk of the
		// last answer.
		return q, false
	}
	if len(q.GPUs) > 0 || q.UnknownGPU != "" || frame.HasJob(q) || q.Workload != "" {
		return q, false
	}
	if q.DiskRef != "" {
		return namedDisk(f, q)
	}
	if q.Retention && len(q.Platforms) == 0 && len(q.Verbs) == 0 && f.Query.DiskRef != "" {
		// "会被清吗", "多久会被释放" after a disk was marked stopped: the
		// lab's disks at risk, that one among them.
		m := q
		m.Intent, m.Topic, m.Confidence, m.Alternatives = understand.IntentStorageRisk, "", 1, nil
		m.English = frame.Language(f.Query.Restore(), q)
		return m, true
	}
	if q.LedgerBudget > 0 || q.LedgerPick == "total" || q.LedgerPick == "stopped" || q.LedgerPick == "drop" || q.LedgerPick == "per_owner" && ledgerAsks[q.Intent] ||
		q.LedgerPick == "owners" && ledgerAsks[q.Intent] && q.Topic == "" {
		// "加起来一个月多少", "停机的那块呢", "该删哪块", "who owns what": the ledger's
		// disks, not the one of the last answer.
		m := q
		m.Intent, m.Confidence, m.Alternatives, m.AskedAbout, m.DiskRef, m.Verbs = understand.IntentStorageList, 1, nil, "", "", nil
		m.English = frame.Language(f.Query.Restore(), q)
		return m, true
	}
	return lastDisk(f, q)
}

// reportReadings are the readings a bare report of a stop or a start
// ("关机了", "开机了", "started it again") may get on its own words.
var reportReadings = map[string]bool{
	understand.IntentStorageStop: true, understand.IntentStorageStart: true, understand.IntentStorageList: true, understand.IntentUnknown: true,
	understand.IntentClarify: true, understand.IntentChitChat: true, understand.IntentMute: true, understand.IntentDigestOff: true,
	understand.IntentDigestOn: true, understand.IntentDigest: true, understand.IntentFactCheck: true,
}

// stateReport reads a bare report that the instance of the disk f named
// was shut down or started ("关机了", "开机了") as that disk's stop or
// start, on the member's verb (false: not such a report): only a message
// that is nothing but the report (understand's DiskReport).
func stateReport(f *frame.Frame, q understand.Query) (understand.Query, bool) {
	disk := f.Query.DiskRef
	if disk == "" || q.DiskRef != "" || q.DiskReport == "" || !slices.Contains(q.Verbs, q.DiskReport) ||
		f.Query.Intent == understand.IntentStorageRemove || !reportReadings[q.Intent] {
		return q, false
	}
	if q.Confidence >= 1 && !Frames[q.Intent] {
		return q, false // a pattern's reading of its own ("周报关了")
	}
	m := q
	m.Intent, m.Alternatives, m.DiskRef = q.DiskReport, nil, disk
	m.Confidence = max(m.Confidence, understand.ActionFloor)
	m.English = frame.Language(f.Query.Restore(), q)
	return m, true
}

// namedDisk reads q, which names a disk by number, after the ledger
// answer of f (false: not such a follow-up).
func namedDisk(f *frame.Frame, q understand.Query) (understand.Query, bool) {
	// "2号盘呢", "#3 how much a year": that disk's cost, when the
	// message says no change of it.
	if len(q.Verbs) > 0 || !diskAsks[q.Intent] || q.Topic != "" {
		return q, false
	}
	m := q
	m.Intent, m.Confidence, m.Alternatives, m.AskedAbout = understand.IntentStorageList, 1, nil, ""
	m.English = frame.Language(f.Query.Restore(), q)
	if m.BillingMode == "" {
		m.BillingMode = f.Query.BillingMode
	}
	return m, true
}

// lastDisk reads q, which names no disk by number and no part of the
// ledger, after the ledger answer of f: a resize of the disk f named, its
// cost at another size, or its cost (the list, that disk first); false:
// not such a follow-up.
func lastDisk(f *frame.Frame, q understand.Query) (understand.Query, bool) {
	disk := f.Query.DiskRef
	if f.Query.Intent == understand.IntentStorageRemove {
		disk = "" // gone: no size or resize of it
	}
	size := max(q.SizeGB, q.FollowSizeGB)
	resize := slices.Contains(q.Verbs, understand.IntentStorageResize)
	own := slices.Contains(q.Verbs, q.Intent) && q.Intent != understand.IntentStorageResize
	switch {
	case !own && disk != "" && size > 0 && resize && len(q.Platforms) == 0 && !troubleshooting(q):
		// "把它改成500G", "resize it to 800GB": that disk, to that size,
		// on the member's verb. The reading's confidence stays: one
		// unsure only between ledger readings (an ask-back, a
		// registration) is the disk's change the frame names; any other
		// reading unsure is asked first (asksFirst).
		m := q
		m.Intent, m.Alternatives, m.DiskRef, m.SizeGB = understand.IntentStorageResize, nil, disk, size
		if Frames[q.Intent] || q.Intent == understand.IntentClarify || q.Intent == understand.IntentUnknown {
			m.Confidence = max(m.Confidence, understand.ActionFloor)
		}
		return m, true
	case !ledgerAsks[q.Intent] || q.Topic != "":
		return q, false
	case !own && disk != "" && size > 0 && len(q.Platforms) == 0:
		// "200G 一个月多少钱", "1T呢", "how much for 500GB": what that disk
		// would cost at that size; nothing changes.
		m := q
		m.Intent, m.Confidence, m.Alternatives, m.AskedAbout = understand.IntentStorageList, 1, nil, ""
		m.DiskRef, m.SizeGB, m.FollowSizeGB = disk, 0, size
		m.English = frame.Language(f.Query.Restore(), q)
		return m, true
	case own || len(q.Platforms) > 0 || size > 0:
		// An action said outright, or a question about another disk.
		return q, false
	case q.Intent == understand.IntentDigest && q.Period != "" || q.Week != "":
		return q, false
	case !Frames[q.Intent] && !q.LedgerAsk:
		// A question of its own ("最便宜的是哪家", "怎么收费的").
		return q, false
	}
	m := q
	m.Intent, m.Confidence, m.Alternatives, m.AskedAbout = understand.IntentStorageList, 1, nil, ""
	m.DiskRef = disk
	m.English = frame.Language(f.Query.Restore(), q)
	return m, true
}

// troubleshooting reports whether q is a troubleshooting question of its
// own, whatever its words share with a resize ("Tried to allocate 2.00
// GiB", "想把数据盘从 50G 扩到 200G，控制台在哪里点"): a paste (an error
// found, an OOM), or a troubleshooting reading that names no disk as
// "它"/"it" or matches its topic strongly.
func troubleshooting(q understand.Query) bool {
	if q.OOM != nil || len(q.Findings) > 0 {
		return true
	}
	return q.Intent == understand.IntentAdvice && (!q.LedgerAsk || q.KB != nil && q.KB.Best != nil && q.KB.Best.Strong)
}
