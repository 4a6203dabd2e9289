package frame

import (
	"encoding/json"
	"github.com/labgpu/bot/internal/advice"
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand"
)

// Editor edits frames with follow-ups: the catalog names a card's
// variants ("40G的呢"); Estimate is how an estimate's frame is edited (the
// router's: the job's parameters, an OOM question about the job).
type Editor struct {
	Cat      *catalog.Catalog
	Estimate func(f, q Query) (Query, bool)
}

// Follow-ups edit the frame: a message that continues the last answer
// with new values ("那A100呢", "换成按量", "要是两张呢", "周末呢", "and on
// vast?", a bare card or number) is answered as that answer again with
// the values it names replaced and the rest kept; a question of its own
// starts afresh. The rules read the Query only: the understanding marks
// how a message reads (Query.FollowUp, Bare, Cheaper) and what it names.

// Editable reports whether a follow-up may edit an answer of q's reading:
// the answers about cards, prices, jobs, when cards are free, a card
// choice and the storage digest (never an action).
func Editable(q Query) bool {
	switch q.Intent {
	case understand.IntentStock, understand.IntentPrices, understand.IntentCompare, understand.IntentPlan, understand.IntentEstimate, understand.IntentAvailability, understand.IntentDigest:
		return true
	case understand.IntentAdvice:
		return q.Topic == advice.TopicCardChoice
	}
	return false
}

// brings is what kinds of values a message names.
type brings struct {
	gpu, platform, count, price, mode, usage, when, period, job, params, region, exclude, size, which bool
	// other: a condition no rule names (overlay sets it as stated);
	// rental: how long the member rents ("一个月下来": the condition's
	// period_days, read by name so that any Query field of that name
	// counts).
	other, rental bool
}

func (b brings) any() bool {
	return b.gpu || b.platform || b.count || b.price || b.mode || b.usage || b.when || b.period || b.job || b.params ||
		b.region || b.exclude || b.size || b.other
}

// valuesOf are the values q names.
func valuesOf(q Query) brings {
	others := Others(q)
	_, rental := others["period_days"]
	return brings{
		gpu:      len(q.GPUs) > 0 || q.UnknownGPU != "",
		platform: len(q.Platforms) > 0,
		count:    q.GPUCount > 0 || q.FollowCount > 0 && q.FollowCount <= MaxCards,
		price:    q.MaxPriceCNY > 0,
		mode:     q.BillingMode != "",
		usage:    q.SpanDays > 0 || q.HoursPerWeek > 0 || q.TotalHours > 0 || q.Continuous || q.Window != "" || rental,
		when:     q.When != nil || q.FollowLater,
		period:   q.Period != "" || q.Week != "",
		job:      q.Model != "" || q.ParamsB > 0 || q.SizeB > 0 || q.ModelText != "" || q.WorkloadModel != "" || q.KBWorkload != "",
		params:   jobParams(q),
		region:   q.Region != "",
		exclude:  len(q.ExcludePlatforms) > 0,
		size:     q.FollowSizeGB > 0 || q.SizeGB > 0 && q.FollowUp,
		which:    q.WhichPlatform || q.Elsewhere,
		other:    len(others) > 0,
		rental:   rental,
	}
}

// Valued reports whether q names any value a follow-up may edit an
// answer with (a card, platform, count, price, term, job figure …).
func Valued(q Query) bool {
	return valuesOf(q).any() || q.FollowCount > 0 || q.BudgetTotalCNY > 0 || q.Cheaper
}

// applyPeople edits the members' count q names alone ("要是只有2个学生
// 用呢", "what if we drop to 4 students"): after a budget said per member
// the answer stays one member's (on that member's cards), said for the
// new count; otherwise each member rents as before.
func applyPeople(m *Query, f, q Query) {
	if q.People <= 0 || q.BudgetTotalCNY > 0 {
		return
	}
	if f.Members > 0 {
		m.Members, m.GPUCount = q.People, f.GPUCount
		return
	}
	each := max(f.PerPerson, 1)
	if q.People*each <= MaxCards {
		m.People, m.PerPerson, m.GPUCount = q.People, each, q.People*each
	}
}

// MaxCards is the most cards a count said alone is read as ("要是
// 两张呢"); a larger one is images after an image job ("5000张呢").
const MaxCards = 64

// JobParams reports whether q names a job's figures or switches
// ("10个epoch", "zero3", "seq 4096").
func JobParams(q Query) bool { return jobParams(q) }

// jobParams reports whether q names a job's figures or switches.
func jobParams(q Query) bool {
	return q.SeqLen > 0 || q.Batch > 0 || q.Samples > 0 || q.Tokens > 0 || q.TokensPerSample > 0 || q.Epochs > 0 ||
		q.Bits > 0 || q.LoRARank > 0 || q.LoRATargets != "" || q.Optimizer != "" || q.Stack != "" || q.NoGradCkpt ||
		q.NoFlashAttn || q.ZeRO > 0 || q.Method != "" || q.DPO || q.SFT || q.Images > 0 || q.Steps > 0 || q.Resolution > 0 || q.DataPercent > 0 || q.AudioHours > 0
}

// Follow edits the frame's Query with q when q continues it: the Query to
// answer and whether it is an edit of the frame's (false: q as it came, a
// question of its own or nothing to apply; or an advice question given
// the last estimate's job).
func (e Editor) Follow(fr *Frame, q Query) (Query, bool) {
	f := thatOffer(fr, q)
	q = readAs(f, q)
	if budgetFollow(f, q) {
		// "is that under $500?" after a plan: that plan against the
		// amount, the verdict first.
		return withBudget(f, q), true
	}
	q = valuesAs(f, q)
	if m, ok := e.otherCards(f, q); ok {
		return m, true
	}
	if m, ok := inYuan(f, q); ok {
		return m, true
	}
	if m, ok := sideFollow(f, q); ok {
		return m, true
	}
	if m, ok := reframe(f, q); ok {
		return m, true
	}
	if !Editable(f) || !continues(q) {
		return q, false
	}
	if m, ok := cardOfLast(f, q); ok {
		return m, true
	}
	if jobOnCard(f, q) {
		// "跑7b推理够吗" after "v100还值得租吗": whether the job fits the
		// card the conversation is about.
		q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily = f.GPU, slices.Clone(f.GPUs), slices.Clone(f.NamedGPUs), f.GPUFamily
		q.Platform, q.Platforms = f.Platform, slices.Clone(f.Platforms)
		return q, true
	}
	if m, ok := gapAgain(f, q); ok {
		return m, true
	}
	if f.Intent == understand.IntentEstimate {
		return e.Estimate(f, q)
	}
	// "最便宜的是哪个", "国内的最便宜是哪家" naming no subject narrow the
	// last answer (to the conditions they state, cheapest first).
	narrow := q.FollowCheapest && !HasSubject(q) && q.UnknownGPU == "" && q.YesNo == nil
	// "多少钱一小时", "哪家最便宜" after an answer about a card: a short
	// price question naming no subject asks about that card.
	priceAsk := q.OwnAsk && !HasSubject(q) && q.UnknownGPU == "" && !q.All && len(f.GPUs) > 0 &&
		(q.Intent == understand.IntentPrices || q.Intent == understand.IntentStock ||
			// "两张一共多少一小时": read alone, a job's cost or prices.
			q.Intent == understand.IntentClarify || q.Intent == understand.IntentEstimate)
	// "哪个更值" after two platforms one after another: which of them.
	which := q.FollowWhich && !HasSubject(q) && len(fr.Seen) >= 2
	form := q.FollowUp || q.Bare || narrow || priceAsk || which
	if priceAsk && q.BillingMode == understand.ModeHourly && !q.ModeNamed {
		// "一小时" asks the price per hour, no billing mode.
		q.BillingMode = ""
	}
	if !form && !elliptical(f, q) {
		return q, false // a question of its own
	}
	q = WhenAsSchedule(f, q)
	b := valuesOf(q)
	if !b.any() && !q.Cheaper && !narrow && !priceAsk && !which {
		return carry(f, q)
	}
	target := transition(f, q, b)
	if !form && !(asks(q, target) && elliptical(f, q)) {
		return q, false
	}
	if form && !q.Bare && !(q.FollowGap && q.FollowUp) && OwnQuestion(q, target) {
		// ("换成4090多多少" after a plan: that plan on the 4090, by how
		// much it differs said first.)
		return q, false
	}
	m := e.apply(f, q, b, target, fr.Cheapest)
	if narrow && q.Aspect == understand.AspectPrice && q.MaxPriceCNY == 0 && q.PriceCNY == 0 && q.BareAmount == 0 && m.MaxPriceCNY > 0 {
		// "有货的最便宜多少" after offers under a price: the cheapest,
		// whatever it costs (none was under it).
		m.MaxPriceCNY = 0
		m.YesNo = nil
	}
	if q.FollowWhich && !b.platform && len(fr.Seen) >= 2 {
		// "which is cheaper" after "on autodl" → "and on vast?": both,
		// compared (the verdict names the cheaper).
		m.Platform, m.Platforms = "", slices.Clone(fr.Seen)
		if m.Intent == understand.IntentStock || m.Intent == understand.IntentPrices {
			m.Intent = understand.IntentCompare
		}
		if m.Intent == understand.IntentPlan && m.YesNo == nil {
			// "哪个更值" of two plans: which is cheaper, said first.
			m.YesNo = &understand.YesNo{Kind: understand.YesNoCheaper}
		}
	}
	return m, true
}

// sideFollow reads a question about another side of the same subject:
// the data disk of the platforms compared (diskCompare), the retention
// or no-card mode of the platform the answer was about (platformAspect).
func sideFollow(f, q Query) (Query, bool) {
	if m, ok := diskCompare(f, q); ok {
		return m, true
	}
	return platformAspect(f, q)
}

// diskCompare reads "存储呢，数据盘哪家便宜" after platforms compared:
// the same platforms, their data-disk prices first.
func diskCompare(f, q Query) (Query, bool) {
	if f.Intent != understand.IntentCompare || len(f.Platforms) < 2 || !q.NamesDisks || HasSubject(q) || q.UnknownGPU != "" {
		return q, false
	}
	if q.DiskRef != "" || len(q.Verbs) > 0 || q.SizeGB > 0 || !(q.WhichPlatform || q.Cheaper || q.Aspect == "price" || q.FollowUp) {
		return q, false
	}
	m := f
	m.Confidence, m.Alternatives, m.NamesDisks, m.Aspect = 1, nil, true, "price"
	// The platforms' disks, not the card they were compared on.
	m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = "", nil, nil, false
	m.English = Language(f, q)
	return m, true
}

// platformAspect reads a question about another side of the platform
// the last answer was about ("关机后数据保留多久" after AutoDL's no-card
// mode, "无卡模式呢" after its retention) as that question, about that
// platform: not the last answer again.
func platformAspect(f, q Query) (Query, bool) {
	if len(f.Platforms) == 0 || HasSubject(q) || q.UnknownGPU != "" {
		return q, false
	}
	if q.NamesDisks && f.NoCardMode && !q.NoCardMode && q.SizeGB == 0 && q.DiskRef == "" && len(q.Verbs) == 0 && q.FollowUp {
		// "数据盘呢" after the platform's no-GPU mode: its data disk.
		q.Intent, q.Confidence, q.Alternatives, q.Topic = understand.IntentPrices, 1, nil, ""
		q.Platform, q.Platforms = f.Platform, slices.Clone(f.Platforms)
		q.English = Language(f, q)
		return q, true
	}
	if f.Intent == understand.IntentPrices && f.Retention && q.AsksHours && !q.Retention && q.YesNo == nil && len(q.Verbs) == 0 {
		// "多久" after how long the platform keeps data: that again, not
		// a job's hours.
		m := f
		m.Confidence, m.Alternatives = 1, nil
		m.English = Language(f, q)
		return m, true
	}
	if q.Intent != understand.IntentPrices {
		return q, false
	}
	if f.NamesDisks && f.Intent == understand.IntentPrices && !q.NamesDisks && !q.Retention && !q.NoCardMode && q.SizeGB == 0 && len(q.Verbs) == 0 {
		// "超了怎么收费" after "AutoDL数据盘免费多少G": still its disk.
		q.NamesDisks = true
		q.Platform, q.Platforms = f.Platform, slices.Clone(f.Platforms)
		q.English = Language(f, q)
		return q, true
	}
	if !(q.Retention && !f.Retention || q.NoCardMode && !f.NoCardMode) {
		return q, false
	}
	q.Platform, q.Platforms = f.Platform, slices.Clone(f.Platforms)
	q.English = Language(f, q)
	return q, true
}

// jobOnCard reports whether q asks, yes or no, whether a job fits or
// runs, naming no card, after an answer about a card (its offers, prices
// or availability): the job on that card.
func jobOnCard(f, q Query) bool {
	switch f.Intent {
	case understand.IntentStock, understand.IntentPrices, understand.IntentAvailability:
	default:
		return false
	}
	y := q.YesNo
	fits := y != nil && (y.Kind == understand.YesNoFits || y.Kind == understand.YesNoCan) && y.VRAMGB <= 0
	return fits && q.Intent == understand.IntentEstimate && HasJob(q) && len(f.GPUs) > 0 && len(q.GPUs) == 0 && q.UnknownGPU == ""
}

// diskFollow reports whether q, read as registering a disk, is a
// follow-up adding a data disk to a rental's cost (f a plan): said as a
// follow-up, a size and no platform.
func diskFollow(f, q Query) bool {
	disk := q.Intent == understand.IntentStorageAdd || q.Intent == understand.IntentStorageResize ||
		q.Intent == understand.IntentAdvice && q.Topic == diskSizingTopic
	return f.Intent == understand.IntentPlan && disk && q.FollowUp && q.Platform == "" && q.SizeGB > 0
}

// speedFollow reports whether q, read as the multi-GPU troubleshooting
// topic, asks how a card count changes the last estimate: several cards
// named and no job of its own.
func speedFollow(f, q Query) bool {
	if f.Intent != understand.IntentEstimate || q.Intent != understand.IntentAdvice || q.GPUCount < 2 || HasJob(q) {
		return false
	}
	// The troubleshooting topic, or a short question about speed that
	// read as another topic ("would 2 A100s be faster").
	return q.Topic == multiGPUTopic || len([]rune(q.Asked)) <= maxSpeedFollowRunes && understand.AsksSpeed(catalog.Fold(q.Asked))
}

// maxSpeedFollowRunes is the longest question about speed read as a
// card-count follow-up when it reads as another troubleshooting topic.
const maxSpeedFollowRunes = 40

// multiGPUTopic is the knowledge base's "more cards barely faster" topic.
const multiGPUTopic = "multi-gpu-scaling"

// diskSizingTopic is the knowledge base's "how big a disk" topic ("数据盘
// 要500G呢" reads as it).
const diskSizingTopic = "disk-sizing"

// currencyFollow reports whether q asks the frame's answer in another
// currency: a currency named, no card, job or price of its own, and a
// reading that is no answer of its own (a fact check with no figure, an
// ask-back, nothing understood, a platform's price list).
func currencyFollow(f, q Query) bool {
	if !Editable(f) || q.Currency == "" || len(q.GPUs) > 0 || q.UnknownGPU != "" || q.PriceCNY > 0 || q.MaxPriceCNY > 0 || HasJob(q) {
		return false
	}
	switch q.Intent {
	case understand.IntentFactCheck, understand.IntentClarify, understand.IntentUnknown, understand.IntentPrices, understand.IntentHelp, understand.IntentMore,
		understand.IntentEstimate, understand.IntentStock:
		return true
	case understand.IntentAdvice:
		// "in dollars please" read as a weak troubleshooting match.
		return q.OOM == nil && (q.KB == nil || q.KB.Best == nil || !q.KB.Best.Strong) && !strings.Contains(strings.TrimSpace(q.Asked), "\n")
	}
	return false
}

// priceFollow reports whether q, a bare amount said as a follow-up
// ("那0.5刀呢", "3块呢"), moves the price ceiling of offers asked under
// one: no card, job or ceiling of its own, and a reading that is no
// answer of its own.
func priceFollow(f, q Query) bool {
	if q.PriceCNY <= 0 && q.BareAmount > 0 && q.BareAmount <= 50 && f.MaxPriceCNY > 0 {
		// "2.5呢": a number alone after offers under a price.
		q.PriceCNY, q.FollowUp = q.BareAmount, true
	}
	if f.MaxPriceCNY <= 0 || q.PriceCNY <= 0 || q.MaxPriceCNY > 0 || !(q.FollowUp || q.Bare) {
		return false
	}
	if q.PriceUnit != "" && q.PriceUnit != "hour" || len(q.GPUs) > 0 || q.UnknownGPU != "" || HasJob(q) {
		return false
	}
	switch f.Intent {
	case understand.IntentStock, understand.IntentPrices, understand.IntentCompare:
	default:
		return false
	}
	switch q.Intent {
	case understand.IntentFactCheck, understand.IntentClarify, understand.IntentUnknown, understand.IntentPrices,
		understand.IntentStock, understand.IntentMore, understand.IntentChitChat, understand.IntentHelp:
		return true
	}
	return false
}

// AlertFollow reads q after a stock alert answer a (alert): a card said
// after the bot asked which card the alert is for ("A6000 please"), or
// one more card asked like the alert just set ("A100 也要", "再加一个h100
// 的", "H100 too"), is that alert for the card named, on a's platforms and
// region (its price was the other card's). The subscribe verb was said:
// the alert is set without asking back. After the member's alerts were
// listed (a an empty Query of that reading), one more asked is set too.
func AlertFollow(a, q Query) (Query, bool) {
	if len(q.GPUs) == 0 && q.UnknownGPU == "" || HasJob(q) || q.YesNo != nil || q.WhichPlatform {
		return q, false
	}
	switch q.Intent {
	case understand.IntentStock, understand.IntentPrices, understand.IntentClarify, understand.IntentUnknown,
		understand.IntentChitChat, understand.IntentMore, understand.IntentSubscribe:
	case understand.IntentUnsubscribe:
		if slices.Contains(q.Verbs, q.Intent) {
			return q, false // "取消 A100": said outright
		}
	case understand.IntentStorageAdd:
		if q.SizeGB > 0 || q.FollowSizeGB > 0 {
			return q, false // a disk: "add 200G on autodl"
		}
	default:
		return q, false
	}
	asked := a.Intent == understand.IntentSubscribe && len(a.GPUs) == 0 // the bot asked which card
	if !(asked && (q.Bare || q.FollowUp || q.Intent == understand.IntentSubscribe) || !asked && q.FollowAddOne) {
		return q, false
	}
	s := q
	s.Intent, s.Confidence, s.Alternatives, s.Topic = understand.IntentSubscribe, 1, nil, ""
	s.Verbs = []string{understand.IntentSubscribe}
	if len(s.Platforms) == 0 && len(s.ExcludePlatforms) == 0 {
		s.Platform, s.Platforms, s.ExcludePlatforms = a.Platform, slices.Clone(a.Platforms), slices.Clone(a.ExcludePlatforms)
	}
	if s.Region == "" {
		s.Region = a.Region
	}
	if s.MinFree == 0 {
		s.MinFree = a.MinFree
	}
	if asked && s.MaxPriceCNY == 0 {
		s.MaxPriceCNY = a.MaxPriceCNY
	}
	s.English = Language(a, q)
	return s, true
}

// HasJob reports whether q names a job: a model, its size, a workload
// the estimator or the knowledge base knows. It is the one such check.
func HasJob(q Query) bool {
	return q.Model != "" || q.ParamsB > 0 || q.ModelText != "" || q.WorkloadModel != "" || q.KBWorkload != ""
}

// continues reports whether a message may continue an answer at all: not
// "详情", help, an action said outright, a subscription or a fact check.
func continues(q Query) bool {
	if q.Bare && valuesOf(q).any() && !slices.Contains(q.Verbs, q.Intent) {
		// Nothing but values ("2 cards?"): no reading of its own.
		return true
	}
	switch q.Intent {
	case understand.IntentMore:
		// "详情" names nothing; "5万条" misread as it does.
		return valuesOf(q).any() || q.FollowCount > 0
	case understand.IntentFactCheck:
		// A claim is a sentence of its own; "under 2.5 yuan?" misread as
		// one is a follow-up.
		return q.FollowUp
	case understand.IntentSubscriptions, understand.IntentStorageList:
		// A listing asks no value: one with values but no card or
		// platform ("2 cards?") is a follow-up misread.
		return q.FollowUp && valuesOf(q).any() && !HasSubject(q)
	case understand.IntentHelp, understand.IntentSubscribe:
		return false
	}
	return !slices.Contains(q.Verbs, q.Intent)
}

// OwnQuestion reports whether a follow-up-shaped message is a question of
// its own: read surely as another answer than the edit would give, about
// a subject it names itself ("哪家有A100呢" after an estimate).
func OwnQuestion(q Query, target string) bool {
	if q.YesNo != nil && q.YesNo.Kind == understand.YesNoHave && target == understand.IntentStock && len(q.GPUs) == 0 && q.UnknownGPU == "" && !HasJob(q) {
		// "does lambda have any?", "恒源有吗" after offers of a card: is
		// that card there, never the platform's price list.
		return false
	}
	sure := q.Confidence >= understand.Accept && Editable(q)
	return sure && q.Intent != target && HasSubject(q)
}

// asks reports whether q reads as intent, or is unsure between it and
// another reading (an ask-back the conversation settles).
func asks(q Query, intent string) bool {
	if q.Intent == understand.IntentClarify {
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
	return !HasSubject(q)
}

// HasSubject reports whether q names what its answer is about: a card, a
// platform or a job.
func HasSubject(q Query) bool {
	return len(q.GPUs) > 0 || len(q.Platforms) > 0 || HasJob(q)
}

// carry answers a follow-up that names no value but asks another thing of
// the same subject ("价格呢" after a stock answer): its own reading, about
// the frame's card and platform.
func carry(f, q Query) (Query, bool) {
	if !q.FollowUp || HasSubject(q) || !Editable(q) || q.Intent == understand.IntentEstimate || q.Intent == understand.IntentDigest {
		return q, false
	}
	if len(f.GPUs) == 0 && len(f.Platforms) == 0 {
		return q, false
	}
	q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily = f.GPU, slices.Clone(f.GPUs), slices.Clone(f.NamedGPUs), f.GPUFamily
	q.Platform, q.Platforms = f.Platform, slices.Clone(f.Platforms)
	if q.Intent == understand.IntentPrices && len(q.GPUs) > 0 {
		q.Intent = understand.IntentStock // a card's prices are its offers
	}
	q.English = Language(f, q)
	return q, true
}

// transition is the answer an edit gives: the frame's, or the one its new
// values ask for (a billing mode or a rental span turns offers into a
// plan, pay-as-you-go a plan into offers, a time of day or week offers
// into when the card is usually free).
func transition(f, q Query, b brings) string {
	hourly := q.BillingMode == understand.ModeHourly
	switch f.Intent {
	case understand.IntentStock, understand.IntentPrices:
		hours := q.SpanDays > 0 || q.HoursPerWeek > 0 || q.TotalHours > 0 || q.Continuous || b.rental
		switch {
		case b.mode && !hourly || hours:
			return understand.IntentPlan
		case b.when && !b.price && !b.count:
			// "晚上呢", "tomorrow?": when the card is usually free.
			return understand.IntentAvailability
		case b.usage:
			return understand.IntentPlan
		case f.Intent == understand.IntentPrices && (b.gpu || len(f.GPUs) > 0):
			return understand.IntentStock
		}
	case understand.IntentPlan:
		// Pay-as-you-go for a plan with no usage of its own asks the
		// offers; one with a usage ("只有晚上跑 一个月") prices it so.
		if b.mode && hourly && !b.usage && !usage(f) {
			return understand.IntentStock
		}
	case understand.IntentCompare:
		if b.mode && !hourly || b.usage {
			return understand.IntentPlan
		}
	}
	return f.Intent
}

// redivide shares a total hourly ceiling over several cards out again
// after the count or the total changed ("三张呢" after "两张一共5块以内":
// 5/3 a card), and keeps the condition the answer names in step.
func redivide(m *Query) {
	if m.PriceTotalCNY <= 0 || m.GPUCount < 1 {
		return
	}
	m.MaxPriceCNY = understand.Round4(m.PriceTotalCNY / float64(m.GPUCount))
	m.Conditions = slices.Clone(m.Conditions)
	found := false
	for i, c := range m.Conditions {
		if c.Kind == understand.CondPriceTotal {
			m.Conditions[i].Value, m.Conditions[i].Count, found = m.PriceTotalCNY, m.GPUCount, true
		}
	}
	if !found {
		m.Conditions = append(m.Conditions, understand.Condition{Kind: understand.CondPriceTotal, Value: m.PriceTotalCNY, Count: m.GPUCount})
	}
}

// usage reports whether q states how long or when the cards run.
func usage(q Query) bool {
	return q.SpanDays > 0 || q.HoursPerWeek > 0 || q.TotalHours > 0 || q.Continuous || q.PeriodDays > 0 || len(q.Schedule) > 0
}

// apply is the frame's Query f answered as target with the values q names
// in place of f's (a comparison adds a card or platform to those it
// compares); the rest of f is kept.
func (e Editor) apply(f, q Query, b brings, target string, cheapest float64) Query {
	m := cloneQuery(f)
	m.Intent, m.Confidence, m.Alternatives, m.Problems, m.Issues = target, 1, nil, q.Problems, q.Issues
	m.English = Language(f, q)
	m.LiveAsked = q.LiveAsked // "are these prices live?" asks of this answer only
	e.applyNames(&m, f, q, b, target)
	if b.count {
		m.GPUCount = max(q.GPUCount, q.FollowCount)
	}
	applyPeople(&m, f, q)
	if b.price {
		m.MaxPriceCNY = q.MaxPriceCNY
		if f.PriceTotalCNY > 0 && q.PriceTotalCNY == 0 && !q.HasCondition(understand.CondPricePerCard) {
			// A new amount after a total for several cards ("那6块呢"
			// after "两张一共5块以内") is their new total.
			m.PriceTotalCNY = q.MaxPriceCNY
		}
	}
	redivide(&m)
	if q.Cheaper && !q.FollowWhich && cheapest > 0 && !b.price {
		// Cheaper than the best the last answer showed, anywhere.
		m.MaxPriceCNY = cheapest - 0.01
		m.Platform, m.Platforms = "", nil
	}
	applyPlan(&m, q, b, target)
	if b.when {
		m.When = q.When
	}
	if b.period {
		m.Period, m.Week = q.Period, q.Week
	}
	if b.region {
		m.Region = q.Region
	}
	if b.exclude {
		m.ExcludePlatforms = slices.Clone(q.ExcludePlatforms)
	}
	if target == understand.IntentAdvice && b.job {
		m.KBWorkload, m.Workload, m.Model, m.ParamsB, m.ModelText = q.KBWorkload, q.Workload, q.Model, q.ParamsB, q.ModelText
	}
	if b.other {
		m = Overlay(m, q)
		m.Conditions = keptConditions(f.Conditions, q.Conditions)
		if m.PlatformGroup == "" {
			// A group the platform named dropped (applyNames).
			m.Conditions = slices.DeleteFunc(slices.Clone(m.Conditions), func(c understand.Condition) bool { return c.Kind == understand.CondPlatformGroup })
		}
		AddSchedule(&m, f, q)
		RescaleWeek(&m, f, q)
	}
	if (q.VRAMMinGB > 0 || q.VRAMMaxGB > 0) && !b.gpu && !e.anyFits(m.GPUs, m.VRAMMinGB, m.VRAMMaxGB) {
		// "48G以上的都列一下" after a 24 GB card: the cards of that
		// memory, not the card asked (which the floor rules out).
		m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily, m.UnknownGPU = "", nil, nil, false, ""
	}
	if q.PlatformGroup != "" && !b.platform {
		// "只看国内的": the group in place of the platform asked.
		m.Platform, m.Platforms = "", nil
	}
	return m
}

// handled are the Query's fields (JSON names) an edit sets by its rules,
// or that are no condition of the question (the reading, an action's
// slots, the job's figures); every other field q states (a condition: a
// VRAM floor, a currency …) replaces the frame's as it is (overlay).
var handled = map[string]bool{
	"intent": true, "confidence": true, "alternatives": true, "english": true, "problems": true, "topic": true, "score": true,
	"gpu": true, "gpu_family": true, "gpus": true, "named_gpus": true, "unknown_gpu": true, "platform": true, "platforms": true,
	"which_platform": true, "elsewhere": true, "exclude_platforms": true, "max_price_cny": true, "gpu_count": true,
	"billing_mode": true, "mode_named": true, "span_days": true, "hours_per_week": true, "total_hours": true,
	"continuous": true, "window": true, "setup_hours": true, "deadline": true, "period": true, "week": true, "region": true,
	"size_gb": true, "size_text": true, "disk": true, "note": true, "mute_minutes": true, "mute_until": true,
	"mute_tomorrow": true, "all": true, "sub_ref": true, "area": true, "min_free": true, "more_disks": true,
	"more_sizes": true, "note_cut": true, "mine": true, "price_cny": true, "price_unit": true,
	// The job's, which only an estimate's follow-up merges (mergeFollowUp).
	"model": true, "model_text": true, "params_b": true, "workload": true, "workload_model": true, "workload_dataset": true,
	"images": true, "steps": true, "resolution": true, "data_percent": true, "method": true, "bits": true, "seq_len": true,
	"batch": true, "samples": true, "tokens_per_sample": true, "tokens": true, "lora_rank": true, "lora_targets": true,
	"optimizer": true, "stack": true, "schedule_also": true, "no_grad_ckpt": true, "no_flash_attn": true, "zero": true, "epochs": true,
}

// Others are the fields of q's JSON that overlay would set.
func Others(q Query) map[string]json.RawMessage {
	b, err := json.Marshal(q)
	if err != nil {
		return nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return nil
	}
	for k := range fields {
		if handled[k] {
			delete(fields, k)
		}
	}
	return fields
}

// Overlay is m with every field q states that no rule handles set to
// q's value (the job's fields for an estimate are merged by
// mergeFollowUp instead).
func Overlay(m, q Query) Query {
	b, err := json.Marshal(m)
	if err != nil {
		return m
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return m
	}
	for k, v := range Others(q) {
		fields[k] = v
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return m
	}
	// Unmarshal reuses the slices and pointers it decodes into, which m
	// shares with the frame's Query: each is decoded afresh.
	merged := m
	merged.GPUs, merged.NamedGPUs, merged.Platforms, merged.ExcludePlatforms = nil, nil, nil, nil
	merged.Alternatives, merged.Conditions, merged.Schedule, merged.ScheduleAlso, merged.Problems = nil, nil, nil, nil, nil
	merged.Deadline, merged.YesNo = nil, nil
	if json.Unmarshal(out, &merged) != nil {
		return m
	}
	return merged
}

// keptConditions are the conditions of an edit: the follow-up's, and
// the frame's of the kinds it does not restate (a VRAM floor stays when
// "只要国内的" adds a platform group), as their fields stay.
func keptConditions(f, q []understand.Condition) []understand.Condition {
	out := slices.Clone(q)
	for _, c := range f {
		if !slices.ContainsFunc(q, func(n understand.Condition) bool { return n.Kind == c.Kind }) {
			out = append(out, c)
		}
	}
	return out
}

// AddSchedule reads a schedule said as an addition ("周末也跑" after "只
// 有晚上跑") as one more part of the frame's schedule, where overlay put
// it in its place; a schedule said plainly replaces the frame's whole.
func AddSchedule(m *Query, f, q Query) {
	if len(q.Schedule) == 0 {
		return
	}
	if kept := otherDimension(f.Schedule, q.Schedule); len(kept) > 0 && !q.FollowAlso {
		// "只跑工作日呢" after "白天上课晚上才跑": weekday evenings — the
		// working days keep what kept the days busy (weekends, free of
		// it, replace the evenings: "那周末呢").
		m.Schedule = appendNew(kept, q.Schedule...)
		m.ScheduleAlso = nil
		for _, c := range f.Conditions {
			if c.Kind == understand.CondSchedule && slices.Contains(kept, c.Name) && !slices.Contains(m.Conditions, c) {
				m.Conditions = append(slices.Clone(m.Conditions), c)
			}
		}
		return
	}
	if !q.FollowAlso || len(f.Schedule) == 0 {
		m.ScheduleAlso = nil
		return
	}
	m.Schedule = slices.Clone(f.Schedule)
	m.ScheduleAlso = appendNew(f.ScheduleAlso, q.Schedule...)
	// The added part is named by the change line, not as "only …".
	m.Conditions = slices.DeleteFunc(slices.Clone(m.Conditions), func(c understand.Condition) bool {
		return c.Kind == understand.CondSchedule
	})
}

// modeDays is the span a plan's term stands for when the question gave
// none ("4090 24小时多少钱" is a day).
var modeDays = map[string]float64{understand.ModeDaily: 1, understand.ModeWeekly: 7, understand.ModeMonthly: 30}

// weekParts are the schedules of days of the week; the others are of
// the hours of the day.
var weekParts = []string{understand.ScheduleWeekdays, understand.ScheduleWeekends}

// otherDimension are the schedules of f of the other dimension than all of
// q's (days of the week vs hours of the day); nil when q's are of both,
// name the weekends, or f has none of the other.
func otherDimension(f, q []string) []string {
	qWeek := slices.ContainsFunc(q, func(s string) bool { return slices.Contains(weekParts, s) })
	qDay := slices.ContainsFunc(q, func(s string) bool { return !slices.Contains(weekParts, s) })
	if qWeek == qDay || slices.Contains(q, understand.ScheduleWeekends) {
		return nil
	}
	var out []string
	for _, s := range f {
		if slices.Contains(weekParts, s) != qWeek {
			out = append(out, s)
		}
	}
	return out
}

// applyPlan carries a billing mode and a usage into m: a plan's mode and
// usage are replaced whole; offers asked for pay-as-you-go drop them.
func applyPlan(m *Query, q Query, b brings, target string) {
	if d, ok := modeDays[q.BillingMode]; ok && b.mode && !q.ModeNamed && !b.usage && usage(*m) {
		// "and per week?" after "for 3 days": the same use over a week,
		// not a weekly plan's price.
		m.SpanDays, m.TotalHours = d, 0
		return
	}
	if b.mode {
		// A budget's question ("预算3000 够吗") stays when the mode said
		// is the one it asked about already.
		keep := m.BillingMode == q.BillingMode && m.YesNo != nil && m.BudgetTotalCNY > 0
		m.BillingMode, m.ModeNamed = q.BillingMode, q.ModeNamed
		if q.ModeNamed && !b.usage && q.YesNo == nil && !keep && target == understand.IntentPlan && q.BillingMode != understand.ModeHourly && usage(*m) {
			// "what if I go monthly instead?", "包月呢" after a plan: is
			// that plan worth it for this use (the verdict first).
			m.YesNo = &understand.YesNo{Kind: understand.YesNoWorth}
		}
	}
	switch {
	case weeklyAgain(*m, q):
		// "要是60小时呢" after "每周30小时": the week's hours, the rest
		// of the usage kept.
		m.HoursPerWeek = q.TotalHours
	case b.usage:
		span := m.SpanDays
		m.SpanDays, m.HoursPerWeek, m.TotalHours, m.Continuous, m.Window = q.SpanDays, q.HoursPerWeek, q.TotalHours, q.Continuous, q.Window
		m.SetupHours, m.Deadline = q.SetupHours, q.Deadline
		if whenOnly(q) || q.SpanDays == 0 && q.TotalHours == 0 && q.Deadline == nil && !q.Continuous {
			// "只晚上跑呢", "早9到晚9", "每周30小时" after "挂两周": those
			// hours over those two weeks.
			m.SpanDays = span
		}
	}
	if d, ok := modeDays[m.BillingMode]; ok && m.SpanDays == 0 && m.TotalHours == 0 && m.HoursPerWeek == 0 && (q.Window != "" || len(q.Schedule) > 0) {
		// "要是晚上才跑呢" after a day's price: that day's evening, not
		// four weeks of them.
		m.SpanDays = d
	}
	if target != understand.IntentPlan {
		// Offers are pay-as-you-go ("换成按量" keeps saying so).
		if m.BillingMode != understand.ModeHourly {
			m.BillingMode, m.ModeNamed = "", false
		}
		m.SpanDays, m.HoursPerWeek, m.TotalHours, m.Continuous, m.Window = 0, 0, 0, false, ""
	}
}

// weeklyAgain reports whether q, naming only a number of hours not said
// as a total, replaces the hours a week of the plan m.
func weeklyAgain(m, q Query) bool {
	return m.HoursPerWeek > 0 && q.TotalHours > 0 && !q.TotalSaid && q.HoursPerWeek == 0 && q.SpanDays == 0 &&
		!q.Continuous && q.Window == "" && q.Deadline == nil
}

// applyNames carries the cards and platforms q names into m.
func (e Editor) applyNames(m *Query, f, q Query, b brings, target string) {
	switch {
	case b.gpu && target == understand.IntentCompare && len(f.NamedGPUs) >= 2:
		m.NamedGPUs = appendNew(f.NamedGPUs, q.NamedGPUs...)
		m.GPUs = appendNew(f.GPUs, q.GPUs...)
	case b.gpu:
		m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily, m.UnknownGPU = q.GPU, slices.Clone(q.GPUs), slices.Clone(q.NamedGPUs), q.GPUFamily, q.UnknownGPU
	case b.size:
		if id, ok := e.variant(f, max(q.FollowSizeGB, q.SizeGB)); ok {
			m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = id, []string{id}, []string{id}, false
		} else if target == understand.IntentPlan && q.SizeGB > 0 && (q.FollowSizeGB == q.SizeGB || q.Intent == understand.IntentPlan && q.VRAMMinGB == 0 && q.VRAMMaxGB == 0) {
			// "数据盘要1T呢", "plus a 500GB data disk?": the plan's disk (a
			// plan question keeps a size only as its disk's).
			m.SizeGB = q.SizeGB
		}
	}
	switch {
	case b.platform && target == understand.IntentCompare && len(f.Platforms) >= 2:
		m.Platforms = appendNew(f.Platforms, q.Platforms...)
	case b.platform:
		m.Platform, m.Platforms = q.Platform, slices.Clone(q.Platforms)
	case b.which:
		m.Platform, m.Platforms = "", nil
	}
	if b.platform && q.PlatformGroup == "" && e.outsideGroup(m.PlatformGroup, q.Platforms) {
		// "ok and vast?" after "domestic platforms": the platform named,
		// the group it is not in dropped.
		m.PlatformGroup = ""
		m.Conditions = slices.DeleteFunc(slices.Clone(m.Conditions), func(c understand.Condition) bool { return c.Kind == understand.CondPlatformGroup })
	}
	m.WhichPlatform, m.Elsewhere = q.WhichPlatform, q.Elsewhere
}

// outsideGroup reports whether one of the platforms ids is outside the
// platform group (domestic or overseas; "": none).
func (e Editor) outsideGroup(group string, ids []string) bool {
	if e.Cat == nil || group != understand.GroupDomestic && group != understand.GroupOverseas {
		return false
	}
	for _, id := range ids {
		if p, ok := e.Cat.Platform(id); ok && p.Domestic() != (group == understand.GroupDomestic) {
			return true
		}
	}
	return false
}

// anyFits reports whether one of the cards ids has memory within the
// bounds (0: none); true when there are no cards to judge.
func (e Editor) anyFits(ids []string, minGB, maxGB float64) bool {
	if len(ids) == 0 || e.Cat == nil {
		return true
	}
	for _, id := range ids {
		g, ok := e.Cat.GPU(id)
		if !ok || (minGB <= 0 || g.MemoryGB >= minGB) && (maxGB <= 0 || g.MemoryGB <= maxGB) {
			return true
		}
	}
	return false
}

// Variant is the card of f's family with sizeGB of memory ("80G的呢"
// after an A100 40GB answer: the A100 80GB); false when there is none.
func (e Editor) Variant(f Query, sizeGB float64) (string, bool) { return e.variant(f, sizeGB) }

// variant is the card of f's family with sizeGB of memory ("40G的呢"
// after an A100 80GB answer: the A100 40GB).
func (e Editor) variant(f Query, sizeGB float64) (string, bool) {
	if f.GPU == "" {
		return "", false
	}
	family := f.GPU
	if g, ok := e.Cat.GPU(f.GPU); ok && !f.GPUFamily {
		family = g.Family
	}
	for _, id := range e.Cat.FamilyMembers(family) {
		if g, ok := e.Cat.GPU(id); ok && g.MemoryGB == sizeGB {
			return id, true
		}
	}
	return "", false
}

// Language is the language of an edited answer: the follow-up's
// when it has words (Chinese, or English words), else the frame's ("4090"
// alone).
func Language(f, q Query) bool {
	switch {
	case q.CJK:
		return false
	case q.English:
		return true
	}
	return f.English
}

// appendNew is xs with those of ys it lacks added.
func appendNew(xs []string, ys ...string) []string {
	out := slices.Clone(xs)
	for _, y := range ys {
		if !slices.Contains(out, y) {
			out = append(out, y)
		}
	}
	return out
}

// cloneQuery is q with its slices copied (an edit never changes the
// frame's).
func cloneQuery(q Query) Query {
	q.GPUs, q.NamedGPUs, q.Platforms = slices.Clone(q.GPUs), slices.Clone(q.NamedGPUs), slices.Clone(q.Platforms)
	q.ExcludePlatforms = slices.Clone(q.ExcludePlatforms)
	return q
}

// Alone reads a follow-up that has nothing to continue (another member's
// "用3090呢", a frame expired) as a question of its own: a card alone
// asks about its offers.
func Alone(q Query) Query {
	if q.Bare && len(q.GPUs) > 0 && len(q.Platforms) == 0 && (q.Intent == understand.IntentUnknown || q.Intent == understand.IntentClarify) {
		q.Alternatives = append([]understand.Alternative{{Intent: q.Intent, Score: q.Confidence}}, q.Alternatives...)
		q.Intent, q.Confidence = understand.IntentStock, 1
	}
	return q
}

// readAs is q read as what it is after f where its reading alone is
// another thing: "不要autodl" after offers (a cancellation's words), "国
// 内的有吗" read as "the rest", "再加个200G数据盘呢" after a rental's cost.
func readAs(f, q Query) Query {
	if len(q.ExcludePlatforms) > 0 && !HasSubject(q) && len(q.Verbs) == 0 && Editable(f) &&
		(q.Intent == understand.IntentSubscriptions || q.Intent == understand.IntentUnsubscribe || q.Intent == understand.IntentClarify) {
		// "不要autodl" after offers: those offers without that platform
		// (read alone, a cancellation's words).
		q.Intent, q.FollowUp = f.Intent, true
	}
	if q.Intent == understand.IntentMore && (valuesOf(q).any() || q.PlatformGroup != "") && !HasSubject(q) && Editable(f) {
		// "国内的有吗" read as "the rest of it": a condition on the last
		// answer.
		q.Intent, q.FollowUp = f.Intent, true
	}
	if diskFollow(f, q) {
		// "再加个200G数据盘呢" after a rental's cost: the disk priced in,
		// not a ledger entry (which names its platform).
		q.Intent, q.Topic, q.Verbs, q.FollowSizeGB = f.Intent, "", nil, q.SizeGB
	}
	return q
}

// valuesAs is q with the values it says in the frame's terms: a currency,
// a price ceiling, a speed-up, a schedule, each asked of the last answer
// rather than of a reading of its own.
func valuesAs(f, q Query) Query {
	if currencyFollow(f, q) {
		// "vast上多少刀", "runpod上呢 换成美元" after an answer about a card:
		// that answer again in dollars (and on the platform named).
		q.Intent, q.Verbs, q.FollowUp = f.Intent, nil, true
	}
	if priceFollow(f, q) {
		// "那0.5刀呢", "那3块呢", "2.5呢" after offers under a price: the
		// same offers under the new price.
		if q.PriceCNY <= 0 {
			q.PriceCNY = q.BareAmount
		}
		q.MaxPriceCNY, q.PriceCNY, q.PriceUnit = q.PriceCNY, 0, ""
		q.Intent, q.Verbs, q.FollowUp = f.Intent, nil, true
	}
	if speedFollow(f, q) {
		// "用两张4090会快多少" after an estimate: the same job on those
		// cards, compared with one, not the multi-GPU troubleshooting.
		q.Intent, q.Topic, q.Verbs, q.FollowUp = f.Intent, "", nil, true
	}
	if scheduleFollow(f, q) {
		// "只晚上跑呢 晚上8点到早上8点" after a plan: its schedule, not the
		// peak-hours troubleshooting its words also name.
		q.Intent, q.Topic, q.KB, q.Verbs, q.FollowUp = f.Intent, "", nil, nil, true
	}
	return q
}

// otherCards reads "48G的还有别的吗", "any other options?" after offers of
// one card: the cards with at least its memory (or the floor said),
// cheapest first, on the same platforms and conditions.
func (e Editor) otherCards(f, q Query) (Query, bool) {
	// "at least 48GB" after one card's offers asks the cards with that
	// much, not that card alone.
	floorSaid := q.VRAMMinGB > 0 && q.VRAMMaxGB == 0 && (q.FollowUp || q.Bare)
	if !q.OthersAsk && !floorSaid || HasSubject(q) || q.UnknownGPU != "" || len(f.NamedGPUs) != 1 || len(q.Verbs) > 0 {
		return q, false
	}
	if f.Intent != understand.IntentStock && f.Intent != understand.IntentPrices {
		return q, false
	}
	floor := q.VRAMMinGB
	if floor == 0 {
		if g, ok := e.Cat.GPU(f.GPUs[0]); ok {
			floor = g.MemoryGB
		}
	}
	if floor <= 0 {
		return q, false
	}
	m := f
	m.Intent, m.Confidence, m.Alternatives, m.YesNo = understand.IntentStock, 1, nil, nil
	m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = "", nil, nil, false
	m.VRAMMinGB, m.CheapAsked = floor, true
	m.Conditions = append(slices.Clone(m.Conditions), q.Conditions...)
	m.English = Language(f, q)
	return m, true
}

// thatOffer is the frame's Query, its platform the cheapest offer's when
// it named none and q sets another platform against "that" ("is that
// cheaper than AutoDL?" after offers on any platform).
func thatOffer(fr *Frame, q Query) Query {
	f := fr.Query.Restore()
	if len(f.Platforms) == 0 && fr.CheapestAt != "" && len(q.Platforms) > 0 && len(q.GPUs) == 0 &&
		(q.CompareWith || q.YesNo != nil && q.YesNo.Kind == understand.YesNoCheaper) {
		f.Platform, f.Platforms = fr.CheapestAt, []string{fr.CheapestAt}
	}
	return f
}

// inYuan reads "换算成人民币呢" after an answer: that answer in yuan, its
// own currency.
func inYuan(f, q Query) (Query, bool) {
	if !q.CNYAsk || HasSubject(q) || q.Currency != "" || !Editable(f) {
		return q, false
	}
	m := f
	m.Currency, m.Confidence, m.Alternatives = "", 1, nil
	m.Conditions = slices.DeleteFunc(slices.Clone(m.Conditions), func(c understand.Condition) bool { return c.Kind == understand.CondCurrency })
	m.English = Language(f, q)
	return m, true
}

// cardOfLast reads a question about a card naming none after an answer
// about one: "显存多大" (its VRAM), "一般几点有货" (when it is free).
func cardOfLast(f, q Query) (Query, bool) {
	if len(q.GPUs) > 0 || q.UnknownGPU != "" || len(f.GPUs) == 0 {
		return q, false
	}
	switch {
	case q.CardVRAM && !HasJob(q):
	case q.Intent == understand.IntentAvailability:
		if len(q.Platforms) == 0 {
			q.Platform, q.Platforms = f.Platform, slices.Clone(f.Platforms)
		}
	default:
		return q, false
	}
	q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily = f.GPU, slices.Clone(f.GPUs), slices.Clone(f.NamedGPUs), f.GPUFamily
	q.English = Language(f, q)
	return q, true
}
