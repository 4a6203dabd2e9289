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
