package understand

import "github.com/labgpu/bot/internal/understand/slots/claim"

// noClaimSure is the confidence at which a fact check with nothing to
// check is read as it is (and answered that nothing can be checked).
const noClaimSure = 0.8

// noClaim reads a fact check that checks nothing ("vast 4090 in
// dollars": no figure, no claim word, no yes/no, read unsure) as the
// price or stock question next in its readings.
func noClaim(q *Query) {
	if q.Confidence >= noClaimSure || q.PriceCNY > 0 || q.MaxPriceCNY > 0 || q.SizeGB > 0 || q.YesNo != nil ||
		len(q.GPUs) == 0 && len(q.Platforms) == 0 {
		return
	}
	if c := q.Claim; c != nil {
		said := *c
		said.USD = false // a currency asked in, no claim
		if said != (claim.Claim{}) {
			return
		}
	}
	for _, alt := range q.Alternatives {
		if alt.Intent == IntentPrices || alt.Intent == IntentStock {
			q.Intent, q.Confidence = alt.Intent, alt.Score
			return
		}
	}
}

// retentionAsk reads "关机了数据会被删吗", "数据还在吗" — how long a platform
// keeps data, not understood or read as storage fees — as the platforms'
// retention rules (intent prices, Query.Retention).
func retentionAsk(x *extraction) {
	q := x.Query()
	switch {
	case reOurDisks.MatchString(x.Folded()):
		return // the lab's disks ("存储里有要被删的吗"): the ledger's
	case q.Intent == IntentUnknown || q.Intent == IntentClarify:
	case q.Intent == IntentAdvice && q.Topic == topicIdleStorage && !q.TopicAsk:
		// (how to keep data and pay less is the topic's: "怎么才能…")
	default:
		return
	}
	x.OfferAsk()
	if q.Retention && !q.NoCardMode && q.SizeGB == 0 && len(q.GPUs) == 0 {
		q.Intent, q.Topic, q.Confidence, q.Alternatives, q.KB = IntentPrices, "", 1, nil, nil
	}
}

// topicIdleStorage is the knowledge base's topic on storage billed while
// stopped, whose words a question about data kept shares.
const topicIdleStorage = "idle-storage-cost"
