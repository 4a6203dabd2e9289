package frame

import (
	"slices"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand"
)

// diskFullTopics are the knowledge base's topics after which a size with
// a cost question asks what that much more data disk costs.
var diskFullTopics = map[string]bool{"disk-full": true, diskSizingTopic: true}

// DiskPriceFollow reads q after the answer of fr as a data disk's cost
// at the size q names (false: not such a follow-up): "100G一个月呢" after
// "恒源云数据盘多少钱一个G" (that platform's disk at 100 GB for a month,
// never its cards' monthly prices), "how much to add 100GB?" after a
// "No space left on device" paste (that much more disk on the platform
// the conversation is about, or on the main ones).
func DiskPriceFollow(fr *Frame, q Query) (Query, bool) {
	if fr == nil {
		return q, false
	}
	f := fr.Query.Restore()
	if m, ok := diskPerMonth(f, q); ok {
		return m, true
	}
	size := max(q.SizeGB, q.FollowSizeGB)
	if size <= 0 || len(q.GPUs) > 0 || len(f.GPUs) > 0 || HasJob(q) || q.UnknownGPU != "" || q.DiskRef != "" || q.OutOfScope != "" {
		return q, false
	}
	folded := catalog.Fold(q.Asked)
	// After a platform's prices or the price overview (no card in
	// either), a size with a cost question is a disk: no card to rent.
	afterDisk := f.Intent == understand.IntentPrices && (f.NamesDisks || len(f.NamedGPUs) == 0) && (q.FollowUp || q.Bare || understand.AsksCost(folded))
	afterFull := diskFullTopics[fr.Query.AdviceTopic] && understand.AsksCost(folded) && len(q.Findings) == 0 && q.OOM == nil
	if !afterDisk && !afterFull {
		return q, false
	}
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives, m.Verbs = understand.IntentPrices, "", 1, nil, nil
	m.SizeGB, m.FollowSizeGB, m.BillingMode, m.NoCardMode = size, 0, "", false
	if len(m.Platforms) == 0 {
		m.Platform, m.Platforms = f.Platform, slices.Clone(f.Platforms)
	}
	if m.PeriodDays <= 0 && len(m.Platforms) == 1 {
		m.PeriodDays = 30 // "一个月呢", or none said: a month
	}
	m.DiskExtra = q.DiskExtra || afterFull || understand.AsksExtra(folded)
	m.English = Language(f, q)
	return m, true
}

// diskPerMonth reads "is that per month?", "一个月呢" naming no size after
// a platform's data-disk price (per GB-day): that price, a GB's month
// first.
func diskPerMonth(f, q Query) (Query, bool) {
	month := q.BillingMode == understand.ModeMonthly || q.PeriodDays == 30 || q.PriceUnit == "month"
	if !month || f.Intent != understand.IntentPrices || !f.NamesDisks || len(f.Platforms) != 1 || max(q.SizeGB, q.FollowSizeGB) > 0 ||
		HasSubject(q) || q.UnknownGPU != "" || !(q.FollowUp || q.Bare || q.YesNo != nil || utf8.RuneCountInString(q.Asked) <= shortRulesAsk) {
		return q, false
	}
	m := f
	m.Intent, m.Confidence, m.Alternatives, m.PeriodDays, m.BillingMode = understand.IntentPrices, 1, nil, 30, ""
	m.English = Language(f, q)
	return m, true
}
