package commands

import (
	"slices"

	"github.com/labgpu/bot/internal/understand"
)

// Follow-ups edit the frame: a message that continues the last answer
// with new values ("那A100呢", "换成按量", "要是两张呢", "周末呢", "and on
// vast?", a bare card or number) is answered as that answer again with
// the values it names replaced and the rest kept; a question of its own
// starts afresh. The rules read the Query only: the understanding marks
// how a message reads (Query.FollowUp, Bare, Cheaper) and what it names.

// editable reports whether a follow-up may edit an answer of q's reading:
// the answers about cards, prices, jobs, when cards are free, a card
// choice and the storage digest (never an action).
func editable(q Query) bool {
	switch q.Intent {
	case IntentStock, IntentPrices, IntentCompare, IntentPlan, IntentEstimate, understand.IntentAvailability, IntentDigest:
		return true
	case IntentAdvice:
		return q.Topic == cardChoiceTopic
	}
	return false
}

// cardChoiceTopic is the knowledge base's "which card" topic.
const cardChoiceTopic = "card-choice"

// brings is what kinds of values a message names.
type brings struct {
	gpu, platform, count, price, mode, usage, when, period, job, params, region, exclude, size, which bool
	// other: a condition no rule names (overlay sets it as stated).
	other bool
}

func (b brings) any() bool {
	return b.gpu || b.platform || b.count || b.price || b.mode || b.usage || b.when || b.period || b.job || b.params ||
		b.region || b.exclude || b.size || b.other
}

// valuesOf are the values q names.
func valuesOf(q Query) brings {
	return brings{
		gpu:      len(q.GPUs) > 0 || q.UnknownGPU != "",
		platform: len(q.Platforms) > 0,
		count:    q.GPUCount > 0 || q.FollowCount > 0 && q.FollowCount <= maxFollowCards,
		price:    q.MaxPriceCNY > 0,
		mode:     q.BillingMode != "",
		usage:    q.SpanDays > 0 || q.HoursPerWeek > 0 || q.TotalHours > 0 || q.Continuous || q.Window != "" || rentalPeriod(q),
		when:     q.When != nil || q.FollowLater,
		period:   q.Period != "" || q.Week != "",
		job:      q.Model != "" || q.ParamsB > 0 || q.SizeB > 0 || q.ModelText != "" || q.WorkloadModel != "" || q.KBWorkload != "",
		params:   jobParams(q),
		region:   q.Region != "",
		exclude:  len(q.ExcludePlatforms) > 0,
		size:     q.FollowSizeGB > 0 || q.SizeGB > 0 && q.FollowUp,
		which:    q.WhichPlatform || q.Elsewhere,
		other:    len(others(q)) > 0,
	}
}

// rentalPeriod reports whether q states how long the member rents
// ("一个月下来", "for two weeks": the condition's period_days, read by
// name so that any Query field of that name counts).
func rentalPeriod(q Query) bool { _, ok := others(q)["period_days"]; return ok }

// maxFollowCards is the most cards a count said alone is read as ("要是
// 两张呢"); a larger one is images after an image job ("5000张呢").
const maxFollowCards = 64

// jobParams reports whether q names a job's figures or switches.
func jobParams(q Query) bool {
	return q.SeqLen > 0 || q.Batch > 0 || q.Samples > 0 || q.Tokens > 0 || q.TokensPerSample > 0 || q.Epochs > 0 ||
		q.Bits > 0 || q.LoRARank > 0 || q.LoRATargets != "" || q.Optimizer != "" || q.Stack != "" || q.NoGradCkpt ||
		q.NoFlashAttn || q.ZeRO > 0 || q.Method != "" || q.Images > 0 || q.Steps > 0 || q.Resolution > 0 || q.DataPercent > 0
}

// follow edits the frame's Query with q when q continues it: the Query to
// answer and whether it is an edit of the frame's (false: q as it came, a
// question of its own or nothing to apply; or an advice question given
// the last estimate's job).
func (r *Router) follow(fr *Frame, q Query) (Query, bool) {
	f := fr.Query.query()
	if !editable(f) || !continues(q) {
		return q, false
	}
	if f.Intent == IntentEstimate {
		return r.followEstimate(f, q)
	}
	b := valuesOf(q)
	if !b.any() && !q.Cheaper {
		return carry(f, q)
	}
	target := transition(f, q, b)
	form := q.FollowUp || q.Bare
	if !form && !(asks(q, target) && elliptical(f, q)) {
		return q, false
	}
	if form && !q.Bare && ownQuestion(q, target) {
		return q, false
	}
	return r.apply(f, q, b, target, fr.Cheapest), true
}

// continues reports whether a message may continue an answer at all: not
// "详情", help, an action said outright, a subscription or a fact check.
func continues(q Query) bool {
	switch q.Intent {
	case IntentMore:
		// "详情" names nothing; "5万条" misread as it does.
		return valuesOf(q).any() || q.FollowCount > 0
	case IntentFactCheck:
		// A claim is a sentence of its own; "under 2.5 yuan?" misread as
		// one is a follow-up.
		return q.FollowUp
	case IntentHelp, IntentSubscribe, IntentSubscriptions, understand.IntentStorageList:
		return false
	}
	return !slices.Contains(q.Verbs, q.Intent)
}

// ownQuestion reports whether a follow-up-shaped message is a question of
// its own: read surely as another answer than the edit would give, about
// a subject it names itself ("哪家有A100呢" after an estimate).
func ownQuestion(q Query, target string) bool {
	sure := q.Confidence >= understand.Accept && editable(q)
	return sure && q.Intent != target && hasSubject(q)
}

// asks reports whether q reads as intent, or is unsure between it and
// another reading (an ask-back the conversation settles).
func asks(q Query, intent string) bool {
	if q.Intent == IntentClarify {
		for i, alt := range q.Alternatives {
			if i < 2 && alt.Intent == intent {
				return true
			}
		}
	}
	return q.Intent == intent
}

// elliptical reports whether q leaves out the subject the frame's answer
// was about ("lambda有吗" after a 4090 answer: no card), so it asks about
// that one.
func elliptical(f, q Query) bool {
	if len(f.GPUs) > 0 {
		return len(q.GPUs) == 0 && q.UnknownGPU == ""
	}
	return !hasSubject(q)
}

// hasSubject reports whether q names what its answer is about: a card, a
// platform or a job.
func hasSubject(q Query) bool {
	return len(q.GPUs) > 0 || len(q.Platforms) > 0 || q.Model != "" || q.ParamsB > 0 || q.ModelText != "" || q.WorkloadModel != ""
}

// carry answers a follow-up that names no value but asks another thing of
// the same subject ("价格呢" after a stock answer): its own reading, about
// the frame's card and platform.
func carry(f, q Query) (Query, bool) {
	if !q.FollowUp || hasSubject(q) || !editable(q) || q.Intent == IntentEstimate || q.Intent == IntentDigest {
		return q, false
	}
	if len(f.GPUs) == 0 && len(f.Platforms) == 0 {
		return q, false
	}
	q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily = f.GPU, slices.Clone(f.GPUs), slices.Clone(f.NamedGPUs), f.GPUFamily
	q.Platform, q.Platforms = f.Platform, slices.Clone(f.Platforms)
	if q.Intent == IntentPrices && len(q.GPUs) > 0 {
		q.Intent = IntentStock // a card's prices are its offers
	}
	q.English = f.English && !q.CJK
	return q, true
}

// transition is the answer an edit gives: the frame's, or the one its new
// values ask for (a billing mode or a rental span turns offers into a
// plan, pay-as-you-go a plan into offers, a time of day or week offers
// into when the card is usually free).
func transition(f, q Query, b brings) string {
	hourly := q.BillingMode == ModeHourly
	switch f.Intent {
	case IntentStock, IntentPrices:
		hours := q.SpanDays > 0 || q.HoursPerWeek > 0 || q.TotalHours > 0 || q.Continuous || rentalPeriod(q)
		switch {
		case b.mode && !hourly || hours:
			return IntentPlan
		case b.when && !b.price && !b.count:
			// "晚上呢", "tomorrow?": when the card is usually free.
			return understand.IntentAvailability
		case b.usage:
			return IntentPlan
		case f.Intent == IntentPrices && (b.gpu || len(f.GPUs) > 0):
			return IntentStock
		}
	case IntentPlan:
		if b.mode && hourly && !b.usage {
			return IntentStock
		}
	case IntentCompare:
		if b.mode && !hourly || b.usage {
			return IntentPlan
		}
	}
	return f.Intent
}
