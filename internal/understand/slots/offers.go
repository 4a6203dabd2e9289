package slots

import (
	"github.com/labgpu/bot/internal/understand/slots/words"
)

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
	offerElsewhere     = words.NewExpr("offers.elsewhere")
	offerWhichPlatform = words.NewExpr("offers.which_platform")
	offerNoneThere     = words.NewExpr("offers.none_there")
	offerNoCard        = words.NewExpr("offers.no_card")
	offerRetention     = words.NewExpr("offers.retention")
	offerLiveAsk       = words.NewExpr("offers.live_ask")
	offerListAsk       = words.NewExpr("offers.list_ask")
	offerNowAsk        = words.NewExpr("offers.now_ask")
	offerBillingAsk    = words.NewExpr("offers.billing_ask")
	offerPrice         = words.NewExpr("offers.aspect_price")
	offerSpeed         = words.NewExpr("offers.aspect_speed")
	offerStability     = words.NewExpr("offers.aspect_stability")
)

// OfferAsk is the stock, prices and compare intents' finisher (and an
// ask-back's, whose pick may be one of them): what their answers read in
// the whole question as written (folded).
func (x *Extraction) OfferAsk() { offerAsk(x.q, x.whole) }

// offerAsk fills what a stock, prices or compare answer reads in the
// whole question s (folded): whether it asks for
// other platforms than the one named, which platform has a card, about
// the no-GPU mode or how long data is kept, and what a comparison is
// about.
func offerAsk(q *Query, s string) {
	q.WhichPlatform = offerWhichPlatform.MatchString(s)
	q.Elsewhere = offerElsewhere.MatchString(s) || q.WhichPlatform && offerNoneThere.MatchString(s)
	q.NoCardMode = offerNoCard.MatchString(s)
	q.Retention = offerRetention.MatchString(s)
	q.LiveAsked = offerLiveAsk.MatchString(s)
	q.ListAsked = offerListAsk.MatchString(s)
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

// AsksRetention reports whether a folded text asks how long a platform
// keeps data ("关机了数据会被删吗": Query.Retention), not about the no-GPU
// mode (Query.NoCardMode).
func AsksRetention(folded string) bool {
	return offerRetention.MatchString(folded) && !offerNoCard.MatchString(folded)
}

// AsksBilling reports whether a folded text asks how a platform bills
// ("怎么收费", "按秒还是按分钟"): its rules, not a card's offers.
func AsksBilling(folded string) bool { return offerBillingAsk.MatchString(folded) }

// AsksNow reports whether a folded text asks about now ("现在", "right
// now"): a card's price asked so is its offers.
func AsksNow(folded string) bool { return offerNowAsk.MatchString(folded) }

// AsksSpeed reports whether a folded text asks about speed ("快", "faster"):
// the comparison aspect's words.
func AsksSpeed(folded string) bool { return offerSpeed.MatchString(folded) }
