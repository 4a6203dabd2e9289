package slots

import (
	"github.com/labgpu/bot/internal/understand/slots/claim"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// The advice words (configs/slots/advice.yaml).
var (
	// servingWords make an out-of-memory report an inference job.
	servingWords = words.NewWords("advice.serving")
)

// ClaimSlots reads what a fact check's claim says into Query.Claim, from
// the whole message (folded), not only its question part, and the
// claim's own terms into the price slots: a plan's or an hour's price
// written without a currency word is PriceCNY (in CNY at the catalog's
// rate when the claim is in US dollars); a price per GB per month is
// PriceUnit gb_month, per month for the size named PriceUnit month.
func (x *Extraction) ClaimSlots() {
	c := claim.Read(x.whole)
	q := x.q
	x.q.Claim = c
	if q.PriceCNY == 0 {
		bare := c.PlanCNY
		if bare == 0 {
			bare = c.HourlyCNY
		}
		if c.USD && x.cat.FXUSDCNY > 0 {
			bare *= x.cat.FXUSDCNY
		}
		q.PriceCNY = words.Round4(bare)
	}
	switch {
	case q.PriceCNY == 0:
	case c.PerGBMonth:
		q.PriceUnit = "gb_month"
	case c.Month && q.SizeGB > 0 && q.PriceUnit == "":
		q.PriceUnit = "month"
	}
}
