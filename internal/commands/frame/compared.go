package frame

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand"
)

// reframe reads a follow-up that turns the last answer into another kind
// of answer about the same subjects: a job asked of cards just compared,
// the hours of a comparison, a card on the platform just shown, or a
// card or platform set against the last answer's.
func reframe(f, q Query) (Query, bool) {
	if jobOnCompared(f, q) {
		// "跑7B LoRA的话呢" after "3090 还是 4090": the job's estimate on
		// the two cards, which is the cheaper run first.
		q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily = f.GPU, slices.Clone(f.GPUs), slices.Clone(f.NamedGPUs), f.GPUFamily
		if len(q.Platforms) == 0 {
			q.Platform, q.Platforms = f.Platform, slices.Clone(f.Platforms)
		}
		q.English = Language(f, q)
		return q, true
	}
	if hoursOfCompared(f, q) {
		// "差几个小时", "how many hours apart" after two cards compared:
		// the job the comparison's speed was worked out on (7B QLoRA,
		// or the method it named), estimated on both, faster first.
		m := f
		m.Intent, m.Confidence, m.Alternatives, m.Aspect = understand.IntentEstimate, 1, nil, understand.AspectSpeed
		if m.Model == "" && m.ParamsB == 0 {
			m.ParamsB = ratioParamsB
		}
		if m.Method == "" {
			m.Method, m.Bits = "qlora", 4
		}
		m.English = Language(f, q)
		return m, true
	}
	if cardOnPlatform(f, q) {
		// "3090多少钱" after "秘塔智算有什么卡": that platform's 3090.
		q.Platform, q.Platforms = f.Platform, slices.Clone(f.Platforms)
		q.English = Language(f, q)
		return q, true
	}
	if q.AsksFree && !HasSubject(q) && !HasJob(q) && q.UnknownGPU == "" && len(f.GPUs) > 0 &&
		(f.Intent == understand.IntentStock || f.Intent == understand.IntentPrices || f.Intent == understand.IntentCompare) {
		// "how many free", "有几张" after offers of a card: its offers,
		// with their free counts.
		m := f
		m.Intent, m.Confidence, m.Alternatives, m.YesNo, m.Problems = understand.IntentStock, 1, nil, nil, q.Problems
		m.English = Language(f, q)
		return m, true
	}
	if m, ok := digestSwitch(f, q); ok {
		return m, true
	}

	if m, ok := compareWith(f, q); ok {
		// "和3090比呢", "跟autodl比呢", "vs A100 80G?": the two side by
		// side.
		return m, true
	}
	return q, false
}

// gapAgain reads a follow-up asking by how much ("比4090贵多少", "贵多少",
// "比按量省多少"): the comparison or the answer it asks of, whose first
// line then says the gap.
func gapAgain(f, q Query) (Query, bool) {
	if gapCard(f, q) {
		// "比4090贵多少" after a 5090's offers: the two cards compared.
		m := q
		m.Intent, m.Confidence, m.Alternatives, m.Aspect = understand.IntentCompare, 1, nil, "price"
		m.GPU, m.GPUFamily = f.GPU, f.GPUFamily
		m.NamedGPUs = append(slices.Clone(f.NamedGPUs), q.NamedGPUs...)
		m.GPUs = append(slices.Clone(f.GPUs), q.GPUs...)
		m.English = Language(f, q)
		return m, true
	}
	if planGapFollow(f, q) || gapFollow(f, q) {
		// "贵多少", "how much cheaper?" after a comparison, "比按量省多少"
		// after a plan's price: that answer again; its first line says by
		// how much.
		m := f
		m.Confidence, m.Alternatives, m.Problems = 1, nil, q.Problems
		m.English = Language(f, q)
		return m, true
	}
	return q, false
}

// ratioParamsB is the model size a card comparison's speed ratio is
// worked out on (offers' ratioJob: a 7B QLoRA).
const ratioParamsB = 7

// compareWith reads a message that sets a card or a platform against the
// one the last answer f was about ("和3090比呢" after the 4090's prices,
// "跟autodl比呢" after 恒源云's billing, "和runpod比呢" after Lambda's
// H100): a comparison of the two cards (on f's platforms) or of the two
// platforms (for f's cards). False when q names both kinds, a job, or
// nothing f has the like of.
func compareWith(f, q Query) (Query, bool) {
	// "比恒源云贵吗", "is it cheaper than runpod": the same, asked yes or no.
	than := q.YesNo != nil && q.YesNo.Kind == understand.YesNoCheaper
	if !q.CompareWith && !than || HasJob(q) || q.UnknownGPU != "" {
		return q, false
	}
	switch f.Intent {
	case understand.IntentStock, understand.IntentPrices, understand.IntentCompare, understand.IntentAvailability, understand.IntentClarify:
	case understand.IntentPlan:
		if len(q.GPUs) == 0 {
			return q, false
		}
	default:
		return q, false
	}
	m := f
	switch {
	case len(q.GPUs) > 0 && len(q.Platforms) == 0 && len(f.GPUs) > 0:
		m.GPUs, m.NamedGPUs = appendNew(f.GPUs, q.GPUs...), appendNew(f.NamedGPUs, q.NamedGPUs...)
	case len(q.Platforms) > 0 && len(q.GPUs) == 0 && len(f.Platforms) > 0:
		m.Platforms = appendNew(f.Platforms, q.Platforms...)
		// The platforms named are compared, whatever group was asked.
		m.PlatformGroup = ""
		m.Conditions = slices.DeleteFunc(slices.Clone(m.Conditions), func(c understand.Condition) bool { return c.Kind == understand.CondPlatformGroup })
	default:
		return q, false
	}
	if len(m.NamedGPUs) < 2 && len(m.Platforms) < 2 {
		return q, false
	}
	if f.Intent == understand.IntentPlan {
		// "vs A100 80G" after a card's monthly price: the same term on
		// both, side by side.
		m.GPU = f.GPU
		m.Confidence, m.Alternatives, m.Topic, m.Verbs, m.Problems = 1, nil, "", nil, q.Problems
		m.English = Language(f, q)
		return m, true
	}
	m.Intent, m.Confidence, m.Alternatives, m.Topic, m.Verbs = understand.IntentCompare, 1, nil, "", nil
	m.YesNo, m.Problems = q.YesNo, q.Problems
	m.English = Language(f, q)
	return m, true
}

// shortRulesAsk is the longest question (runes) read as asking more of
// the platform just shown when it names none.
const shortRulesAsk = 12

// cardOnPlatform reports whether q asks a card's price or stock, naming
// no platform and not asking which one has it, right after an answer
// about one platform's cards (f names the platform and no card): the
// card on that platform.
func cardOnPlatform(f, q Query) bool {
	switch f.Intent {
	case understand.IntentStock, understand.IntentPrices:
	default:
		return false
	}
	switch q.Intent {
	case understand.IntentStock, understand.IntentPrices:
	default:
		return false
	}
	// A card named, or a short question of the platform's rules ("关机收
	// 费吗" after "恒源云怎么收费").
	card := len(q.GPUs) > 0 || q.Intent == understand.IntentPrices && f.Intent == understand.IntentPrices && utf8.RuneCountInString(q.Asked) <= shortRulesAsk
	return len(f.Platforms) == 1 && len(f.GPUs) == 0 && card && len(q.Platforms) == 0 && len(q.ExcludePlatforms) == 0 &&
		q.PlatformGroup == "" && !q.WhichPlatform && !q.All && !q.CompareWith && !HasJob(q) && q.UnknownGPU == ""
}

// jobOnCompared reports whether q names a job, and no card, right after
// two or more cards were compared ("3090 还是 4090" → "跑7B LoRA的话呢",
// "for SDXL LoRA training?"): that job on those cards.
func jobOnCompared(f, q Query) bool {
	return f.Intent == understand.IntentCompare && len(f.NamedGPUs) >= 2 && q.Intent == understand.IntentEstimate &&
		HasJob(q) && len(q.GPUs) == 0 && q.UnknownGPU == "" && (q.FollowUp || q.Bare || q.Question)
}

// hoursOfCompared reports whether q asks the hours, or by how much, of
// the cards f compared on no job of its own ("差几个小时", "how many
// hours apart"), naming nothing new.
func hoursOfCompared(f, q Query) bool {
	return f.Intent == understand.IntentCompare && len(f.NamedGPUs) >= 2 && len(f.Platforms) == 0 && !HasJob(f) &&
		q.AsksHours && !HasSubject(q) && !HasJob(q) && q.UnknownGPU == "" && !valuesOf(q).any()
}

// planGapFollow reports whether q asks by how much a billing-mode answer
// f saves over pay-as-you-go (the mode it may name is the one compared
// with), naming nothing else of its own.
func planGapFollow(f, q Query) bool {
	b := valuesOf(q)
	return q.FollowGap && f.Intent == understand.IntentPlan && !HasSubject(q) && q.UnknownGPU == "" &&
		!b.count && !b.price && !b.usage && !b.params && !b.period
}

// gapFollow reports whether q asks by how much the options of the
// comparison f differ, naming nothing of its own.
func gapFollow(f, q Query) bool {
	b := valuesOf(q)
	return q.FollowGap && f.Intent == understand.IntentCompare && !HasSubject(q) && q.UnknownGPU == "" &&
		!b.count && !b.price && !b.mode && !b.usage && !b.params && !b.period
}

// gapCard reports whether q asks by how much another card differs from
// the one the offers f were about ("比4090贵多少" after a 5090's).
func gapCard(f, q Query) bool {
	switch f.Intent {
	case understand.IntentStock, understand.IntentPrices:
	default:
		return false
	}
	return q.FollowGap && len(q.NamedGPUs) == 1 && len(f.NamedGPUs) == 1 && q.NamedGPUs[0] != f.NamedGPUs[0] && !HasJob(q)
}

// digestSwitch reads "那就关了吧", "turn it off" right after an answer
// about the weekly digest, which a reading alone takes for the alerts
// (the cancel verb without an object): the digest switched as the
// reading's digest alternative says, asked first (the message names no
// digest).
func digestSwitch(f, q Query) (Query, bool) {
	if f.Intent != understand.IntentDigest || HasSubject(q) || q.UnknownGPU != "" {
		return q, false
	}
	switch q.Intent {
	case understand.IntentSubscriptions, understand.IntentUnsubscribe, understand.IntentMute, understand.IntentClarify, understand.IntentChitChat, understand.IntentUnknown:
	default:
		return q, false
	}
	for _, a := range q.Alternatives {
		if (a.Intent == understand.IntentDigestOff || a.Intent == understand.IntentDigestOn) && a.Score >= digestSwitchMin {
			m := q
			m.Intent, m.Confidence, m.Alternatives, m.Verbs, m.Topic = a.Intent, a.Score, nil, nil, ""
			m.English = Language(f, q)
			return m, true
		}
	}
	return q, false
}

// digestSwitchMin is the least score of the digest switch among a
// follow-up's readings for it to be what is asked (first).
const digestSwitchMin = 0.3

// scheduleFollow reports whether q states when the work runs ("只晚上跑
// 呢", "只白天跑 早9到晚9") right after a plan, an estimate or offers,
// though its words read as the peak-hours troubleshooting.
func scheduleFollow(f, q Query) bool {
	switch f.Intent {
	case understand.IntentPlan, understand.IntentEstimate, understand.IntentPrices, understand.IntentStock:
	default:
		return false
	}
	return q.Intent == understand.IntentAdvice && len(q.Schedule) > 0 && !HasJob(q) && q.OOM == nil
}

// DigestExplain reads "what does it include", "什么时候发" right after an
// answer about the weekly digest (f): that explanation of the digest.
func DigestExplain(fr *Frame, q Query) (Query, bool) {
	if fr == nil {
		return q, false
	}
	f := fr.Query.Restore()
	e := understand.DigestExplainOf(catalog.Fold(q.Asked))
	if e == "" || f.Intent != understand.IntentDigest || HasSubject(q) || len(q.Verbs) > 0 {
		return q, false
	}
	m := f
	m.Intent, m.Confidence, m.Alternatives, m.Explain, m.StateAsk = understand.IntentDigest, 1, nil, e, ""
	m.English = Language(f, q)
	return m, true
}

// PickFollow reads "那我该选哪个", "which should I pick then" after an
// answer that set two or more cards side by side (a job on both, a card
// comparison, a card choice): that answer again, its pick first (the
// router's figure line); false otherwise.
func PickFollow(fr *Frame, q Query) (Query, bool) {
	if fr == nil || !q.PickAsk || HasSubject(q) || q.UnknownGPU != "" || len(q.Verbs) > 0 {
		return q, false
	}
	f := fr.Query.Restore()
	if len(f.NamedGPUs) < 2 {
		return q, false
	}
	switch f.Intent {
	case understand.IntentEstimate, understand.IntentCompare, understand.IntentAdvice:
	default:
		return q, false
	}
	m := f
	m.Confidence, m.Alternatives, m.Aspect, m.YesNo = 1, nil, "", nil
	m.PickAsk = true
	m.English = Language(f, q)
	return m, true
}

// HourAgain reads "是每小时吗", "is that per hour?" after offers, prices
// or an estimate: that answer again, the router's line saying first
// what its figure is per.
func HourAgain(fr *Frame, q Query) (Query, bool) {
	if fr == nil || !q.HourAsk && !q.CurrencyAsk || HasSubject(q) || q.UnknownGPU != "" || len(q.Verbs) > 0 {
		return q, false
	}
	f := fr.Query.Restore()
	switch f.Intent {
	case understand.IntentStock, understand.IntentPrices, understand.IntentEstimate:
	default:
		return q, false
	}
	m := f
	m.Confidence, m.Alternatives, m.HourAsk, m.CurrencyAsk = 1, nil, q.HourAsk, q.CurrencyAsk
	if m.BillingMode == understand.ModeHourly && !m.ModeNamed {
		m.BillingMode = ""
	}
	m.English = Language(f, q)
	return m, true
}

// WhichAgain reads a bare "哪家", "which platform?" after a plan or an
// estimate: that answer again, whose first line names the cheapest
// platform (never an ask-back which two to compare).
func WhichAgain(fr *Frame, q Query) (Query, bool) {
	if fr == nil || !q.WhichPlatform || HasSubject(q) || Valued(ClearAsk(q)) || q.YesNo != nil || len(q.Verbs) > 0 ||
		utf8.RuneCountInString(strings.TrimSpace(q.Asked)) > shortRulesAsk {
		return q, false
	}
	f := fr.Query.Restore()
	if f.Intent != understand.IntentPlan && f.Intent != understand.IntentEstimate {
		return q, false
	}
	m := f
	m.Confidence, m.Alternatives = 1, nil
	m.English = Language(f, q)
	return m, true
}
