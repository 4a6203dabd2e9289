package slots

import "github.com/labgpu/bot/internal/catalog"

// Aspects a comparison asks about (Query.Aspect).
const (
	AspectPrice     = "price"
	AspectSpeed     = "speed"
	AspectStability = "stability"
)

// What the offers answers (stock, prices, compare) read in a question
// (configs/slots/offers.yaml): other platforms than the one named, which
// platform has a card, the named one having none, the no-GPU mode, how
// long data is kept, and the aspect of a comparison.
var (
	offerElsewhere     = NewExpr("offers.elsewhere")
	offerWhichPlatform = NewExpr("offers.which_platform")
	offerNoneThere     = NewExpr("offers.none_there")
	offerNoCard        = NewExpr("offers.no_card")
	offerRetention     = NewExpr("offers.retention")
	offerPrice         = NewExpr("offers.aspect_price")
	offerSpeed         = NewExpr("offers.aspect_speed")
	offerStability     = NewExpr("offers.aspect_stability")
)

// extractOfferAsk fills what a stock, prices or compare answer reads in
// the whole question as written (Asked, folded): whether it asks for
// other platforms than the one named, which platform has a card, about
// the no-GPU mode or how long data is kept, and what a comparison is
// about.
func extractOfferAsk(q *Query) {
	s := catalog.Fold(q.Asked)
	q.WhichPlatform = offerWhichPlatform.MatchString(s)
	q.Elsewhere = offerElsewhere.MatchString(s) || q.WhichPlatform && offerNoneThere.MatchString(s)
	q.NoCardMode = offerNoCard.MatchString(s)
	q.Retention = offerRetention.MatchString(s)
	price, speed := offerPrice.MatchString(s), offerSpeed.MatchString(s)
	switch {
	case offerStability.MatchString(s):
		q.Aspect = AspectStability
	case price && !speed:
		q.Aspect = AspectPrice
	case speed && !price:
		q.Aspect = AspectSpeed
	}
}
