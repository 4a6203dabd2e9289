package understand

import (
	"slices"

	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// reHavePrice is a "have" question about a price ("有人记得官网定的价吗"):
// the price list answers it (configs/slots/pipeline.yaml).
var reHavePrice = words.NewExpr("pipeline.have_price")

// yesNoRule settles, for a yes/no question (Query.YesNo), readings the
// scorer mixes up with troubleshooting or an ask-back, from what the
// question asks and the slots it names:
//   - is a plan worth it, or is a budget enough for a card over a
//     period ("3090包月值吗", "500 yuan for a week of 4090 time, enough?"),
//     with a card and a plan named and no job: the plan answer;
//   - is one platform cheaper or worth it over another for a card
//     ("worth going to runpod instead of autodl for a 4090?"): the
//     comparison;
//   - is a card or VRAM enough for a language model named by size
//     ("is 24G enough for 7b inference"): the estimate;
//   - is a card easy to get ("is it easy to get an A100 80G on weekday
//     evenings?"): the availability answer;
//   - is a claim with a price true ("AutoDL 数据盘 100G 一个月 15 块左右
//     是吗"): the fact check, even where the scorer read a registration;
//   - is a card there ("does runpod have 4090s?", "是不是都被抢光了"),
//     read as a price list, when it is usually free or an ask-back: the
//     stock answer, verdict first;
//   - can a job be done within a budget ("50块钱能不能跑完 SDXL 出1000张
//     图"): the estimate; a card's hour within one ("两张A100 一小时12块能
//     搞定吗"): the stock answer.
//
// A reading a command's pattern decided is never changed. The scorer's
// reading becomes the first alternative.
func yesNoRule(q *Query) {
	y := q.YesNo
	if y == nil {
		return
	}
	job := q.Model != "" || q.ParamsB > 0 || q.Method != "" || q.Workload != "" || q.Images > 0
	card := len(q.GPUs) > 0
	plan := q.BillingMode != "" && q.BillingMode != ModeHourly && q.BillingMode != ModeSpot
	money := q.PriceCNY > 0 || q.MaxPriceCNY > 0
	unsettled := slices.Contains([]string{IntentAdvice, IntentClarify, IntentUnknown, IntentFactCheck, IntentStock, IntentPrices}, q.Intent)
	to := ""
	switch {
	case y.Kind == YesNoTrue && (q.PriceCNY > 0 && (card || len(q.Platforms) > 0) || card && q.SizeGB > 0) && q.Intent != IntentFactCheck && !kbBacked(q) &&
		(q.Intent == IntentClarify || q.Intent == IntentAdvice || q.Intent == IntentUnknown || q.Intent == IntentStorageAdd):
		// "AutoDL 数据盘 100G 一个月 15 块左右 是吗", "3090的显存是48G对吧":
		// a claim to check, not a disk to register or a card to choose.
		to = IntentFactCheck
	case y.Kind == YesNoHave && card && !plan && !job && (q.Intent == IntentPrices || q.Intent == IntentClarify || q.Intent == IntentAvailability) && !reHavePrice.MatchString(catalog.Fold(q.Asked)):
		// "is there an A100 on autodl?", "does runpod have 4090s?",
		// "4090是不是都被抢光了": whether the card is there, said first —
		// the stock answer's verdict, not a platform's price list nor
		// when the card is usually free.
		to = IntentStock
	case !unsettled:
	case (y.Kind == YesNoWorth || y.Kind == YesNoCan || y.Kind == YesNoFits) && card && plan && !job:
		to = IntentPlan
	case (y.Kind == YesNoWorth || y.Kind == YesNoCheaper) && card && len(q.Platforms) >= 2:
		to = IntentCompare
	case y.Kind == YesNoCheaper && card && q.Intent == IntentFactCheck && q.PriceCNY == 0:
		to = IntentCompare
	case (y.Kind == YesNoFits || y.Kind == YesNoCan) && (q.Model != "" || q.ParamsB > 0) && q.Intent == IntentAdvice &&
		(q.Topic == "" || q.Topic == advice.TopicCardChoice || q.Topic == advice.TopicOOM || y.VRAMGB > 0) && (q.KB == nil || q.KB.Best == nil || !q.KB.Best.Strong):
		// "is 24G enough for 7b inference": the estimate says whether
		// it fits, not a card-choice topic (nor, with the size read as
		// VRAM, how big a disk to rent).
		to = IntentEstimate
	case y.Kind == YesNoEasy && card && q.Intent != IntentStock && !kbBacked(q):
		to = IntentAvailability
	case y.Kind == YesNoCan && money && job:
		to = IntentEstimate
	case y.Kind == YesNoCan && money && card && q.Intent != IntentStock && q.Intent != IntentPrices:
		to = IntentStock
	}
	if to == "" || to == q.Intent {
		return
	}
	q.Alternatives = append([]Alternative{{Intent: q.Intent, Topic: q.Topic, Score: q.Confidence}}, q.Alternatives...)
	q.Intent, q.Topic, q.Confidence = to, "", 1
}

// scopeRule answers a message that asks what the bot does not do
// (Query.OutOfScope: write code or text, act on a platform, an LLM API's
// price, draw an image) as outside what it does, whatever the scorer or
// a pattern read, so the answer says so plainly and names the nearest
// thing it does. The reading it replaces becomes the first alternative.
func scopeRule(q *Query) {
	if q.OutOfScope == "" || q.Intent == IntentUnknown {
		return
	}
	q.Alternatives = append([]Alternative{{Intent: q.Intent, Topic: q.Topic, Score: q.Confidence}}, q.Alternatives...)
	q.Intent, q.Topic, q.Confidence = IntentUnknown, "", 1
}

// kbBacked reports whether the knowledge base's matcher found the topic
// the scorer chose in the message: a troubleshooting reading with
// evidence, which no yes/no rule overrides.
func kbBacked(q *Query) bool {
	return q.Intent == IntentAdvice && q.Topic != "" && q.KB != nil && q.KB.Best != nil && q.KB.Best.Topic.ID == q.Topic
}
