package understand

import (
	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/understand/slots"
	"github.com/labgpu/bot/internal/understand/slots/words"
	"math"
	"slices"
)

// reMine limits a storage list to the sender's own disks
// (configs/slots/pipeline.yaml).
var reMine = words.NewExpr("pipeline.mine")

// reOurDisks asks about some of the lab's disks ("哪些盘", "那几块盘",
// "组里", "账上"), not a platform's rule.
var reOurDisks = words.NewExpr("pipeline.our_disks")

// finish fills the chosen intent's own slots and drops slots that mean
// something else there; text is the message as written (the admin
// commands read names from it).
func (u *Understander) finish(x *extraction, m *advice.Result, text string) {
	q := x.Query()
	retentionAsk(x)
	x.SaysAllSlot()
	if q.EditVerb && q.Intent != IntentMute {
		// "actually make it 9pm": a mute just set, moved (the router
		// reads it so only right after one).
		x.MuteSlots()
	}
	switch q.Intent {
	case IntentSubscribe:
		x.SubscribeSlots()
	case IntentUnsubscribe:
		x.UnsubscribeSlots()
	case IntentMute:
		x.MuteSlots()
	case IntentStorageAdd:
		q.Note, q.NoteCut = x.StorageNote(), x.Cut()
		if len(q.Platforms) > 1 {
			q.Platforms = q.Platforms[:1]
		}
	case IntentStorageList, IntentStorageRisk:
		q.Mine = reMine.MatchString(x.Folded())
		if q.Intent == IntentStorageList {
			q.AdminCommand, q.AdminArg = slots.AdminCommand(text)
		}
	case IntentChitChat:
		q.SmallTalk = slots.SmallTalk(q.Asked)
	case IntentStorageResize, IntentStorageStop, IntentStorageStart, IntentStorageRemove:
		if q.DiskRef == "" {
			// "删除存储 abc": an id that is no number, kept so the
			// answer can name it (or find an imported disk by it).
			q.DiskRef = x.DiskToken()
		}
	case IntentHelp:
		q.Area = helpArea(x.Folded())
	case IntentAdvice:
		q.KB = m
		if m.Best != nil && m.Best.Topic.ID == q.Topic {
			q.Score = round2(m.Best.Score)
		} else {
			q.Score = q.Confidence
		}
		x.AdviceSlots()
	case IntentFactCheck:
		x.ClaimSlots()
		noClaim(q)
	case IntentAvailability:
		x.WeekSlots()
	case IntentClarify:
		// A pick of one of the readings is answered from this Query;
		// thanks or a greeting is small talk when no reading fits.
		q.SmallTalk = slots.SmallTalk(q.Asked)
		x.AdviceSlots()
		x.ClaimSlots()
		x.WeekSlots()
	}
	if q.Intent != IntentEstimate && q.Intent != IntentAdvice && q.Model == "" {
		// A size outside an estimate is not a model size ("我在3B教室").
		q.SizeB, q.ParamsB = q.ParamsB, 0
	}
	if q.Intent != IntentEstimate && q.Intent != IntentAdvice {
		q.Workload = ""
	}
	switch q.Intent {
	case IntentStorageResize, IntentStorageStop, IntentStorageStart, IntentStorageRemove, IntentStorageAdd:
	default:
		if q.Intent != IntentStorageList && q.Intent != IntentUnknown && q.Intent != IntentClarify {
			// (Unknown or unsure: kept for a ledger follow-up, "2号盘呢".)
			q.DiskRef = ""
		}
		// "AutoDL 数据盘 200G 每月多少钱": the size priced ("多少钱一个G"
		// asks the price per GB, no size).
		diskPrice := q.Intent == IntentPrices && len(q.GPUs) == 0 && q.SizeGB > 1 && slices.Contains(x.concepts, "@disk")
		q.DiskExtra = diskPrice && reDiskExtra.MatchString(x.Folded())
		if q.Intent != IntentAdvice && q.Intent != IntentFactCheck && q.Intent != IntentPlan && !diskPrice {
			if q.FollowUp || q.Intent == IntentClarify && diskAlternative(q) || q.LedgerAsk && len(q.GPUs) == 0 && q.Model == "" && q.ParamsB == 0 {
				// "40G的呢": a card's variant; "把它改成500G" unsure
				// between disk readings, "how much for 500GB": the disk a
				// ledger answer named.
				q.FollowSizeGB = q.SizeGB
			}
			q.SizeGB, q.SizeText = 0, ""
		}
		x.VRAMNotDisk()
	}
	switch q.Intent {
	case IntentEstimate, IntentClarify:
		// The questions an estimate answers: its own, an ask-back whose
		// pick may be an estimate.
		x.WorkloadNames(u.work)
		weeklyRuns(q)
		budgetAsked(q)
	case IntentPlan:
		budgetEach(q, x.Folded())
	}
	u.cardJob(x)
	rentalDays(q)
	cardHours(q)
	hoursForBudget(q, x.Folded())
	switch q.Intent {
	case IntentStock, IntentPrices, IntentCompare, IntentClarify:
		x.OfferAsk()
		x.FreeFloor()
		if q.Intent == IntentPrices && len(q.GPUs) > 0 && len(q.Platforms) == 1 && (q.BillingMode == "" || q.BillingMode == ModeHourly) &&
			(slots.AsksNow(x.Folded()) || q.Currency != "") && !slots.AsksBilling(x.Folded()) {
			// "矩池云 4090 现在多少钱", "vast上4090多少刀一小时": the card's
			// offers there (live or recorded first, the list after, in
			// dollars too), not the platform's rules.
			q.Intent = IntentStock
		}
	case IntentEstimate:
		cardsWithoutModel(x)
		if len(q.GPUs) >= 2 && AsksSpeed(x.Folded()) && q.Aspect == "" {
			// "A100 40GB vs 80GB for 13B LoRA, which is faster": the
			// cards' runs compared by their hours.
			q.Aspect = AspectSpeed
		}
	}
	if q.Intent == IntentStock && q.MaxPriceCNY == 0 && q.PriceCNY > 0 && q.PriceUnit == "hour" {
		// "5 bucks an hour for an H100, where?": the price a stock
		// question states is what the asker will pay at most.
		q.MaxPriceCNY, q.PriceCNY, q.PriceUnit = q.PriceCNY, 0, ""
	}
	if q.FollowUp {
		// What editing the last answer reads, whatever the message reads
		// as alone (internal/commands/frame.go): "那 SDXL 呢" names a job.
		x.FollowUpSlots()
		if q.Intent != IntentEstimate && q.Intent != IntentClarify {
			x.WorkloadNames(u.work)
		}
	}
}

// diskAlternative reports whether an ask-back offers a reading about a
// disk of the ledger.
func diskAlternative(q *Query) bool {
	for _, a := range q.Alternatives {
		switch a.Intent {
		case IntentStorageAdd, IntentStorageResize:
			return true
		}
	}
	return false
}

// assumedWeeks is the weeks a job run every week is counted over when
// the question says no period (about a month).
const assumedWeeks = 4

// weeklyRuns turns a job run every week ("3个学生每人每周跑一次7B LoRA")
// into how many times it runs: a week's runs over the period said (four
// weeks when none is), times the members when each runs it — each run
// then on the cards one member rents, not on all of theirs.
func weeklyRuns(q *Query) {
	if q.RunsPerWeek <= 0 || q.Runs > 0 {
		return
	}
	q.Weeks, q.WeeksAssumed = assumedWeeks, true
	if q.PeriodDays > 0 {
		q.Weeks, q.WeeksAssumed = q.PeriodDays/7, false
	}
	runs := q.RunsPerWeek * q.Weeks
	if q.People > 0 {
		runs *= float64(q.People)
		q.GPUCount = max(q.PerPerson, 1)
	}
	q.Runs = int(math.Round(runs))
}

// budgetAsked reads an amount said in a question whether it is enough for
// a job as its budget ("$200 a month, 13B QLoRA every week, enough?"; "50
// 块钱能不能跑完" has its own reading):
// no price unit but a month's, and no budget said otherwise.
func budgetAsked(q *Query) {
	if q.Intent != IntentEstimate || q.YesNo == nil || q.YesNo.Kind != YesNoFits || q.BudgetTotalCNY > 0 || q.PriceCNY <= 0 {
		return
	}
	if q.PriceUnit != "" && q.PriceUnit != "month" {
		return
	}
	q.BudgetTotalCNY, q.PriceCNY, q.PriceUnit = q.PriceCNY, 0, ""
}

// budgetEach reads a plan's budget said per member ("三个学生每人每月预算
// 800，用4090按量够跑多少小时") as one member's, on that member's cards —
// not the members' cards together — and, asked how many hours it buys
// with no plan named, as pay-as-you-go ("每月" is the budget's period).
func budgetEach(q *Query, folded string) {
	if q.BudgetTotalCNY <= 0 {
		return
	}
	if q.People > 0 && slots.BudgetEach(folded) {
		q.Members = q.People
		q.GPUCount, q.People, q.PerPerson = max(q.PerPerson, 1), 0, 0
	}
	if !q.ModeNamed && slots.HoursAsked(folded) {
		q.BillingMode = ModeHourly
	}
}

// reDiskExtra prices a data disk as more on top of what one has ("多加
// 100G"): no free GB off it.
var reDiskExtra = words.NewExpr("pipeline.disk_extra")

// cardJob reads the job of a card question: "3090还是4090跑SDXL LoRA" (the
// model its estimate prices, SDXL, not the workload's default); "SAM微调
// 要什么卡" (a job the workload estimator knows and the knowledge base
// does not: its estimate lists the cards that hold it, cheapest first).
func (u *Understander) cardJob(x *extraction) {
	q := x.Query()
	if q.Intent == IntentAdvice && q.Topic == advice.TopicCardChoice && q.KBWorkload != "" {
		// "3090还是4090跑SDXL LoRA", "what card for SDXL LoRA": the model
		// its estimate prices, now or in a follow-up ("how long": SDXL,
		// not the workload's default).
		x.WorkloadNames(u.work)
	}
	if q.Intent == IntentAdvice && q.Topic == advice.TopicCardChoice && q.KBWorkload == "" && q.Model == "" && q.ParamsB == 0 {
		// "SAM微调要什么卡": a job the workload estimator knows and the
		// knowledge base does not: its estimate lists the cards that
		// hold it, cheapest first.
		x.WorkloadNames(u.work)
		if q.WorkloadModel != "" {
			q.Intent, q.Topic, q.KB = IntentEstimate, "", nil
		}
	}
}

// rentalDays reads "3天 4090 多少钱" as the card rented those days round
// the clock, not its hourly list.
func rentalDays(q *Query) {
	if q.Intent == IntentPrices && q.SpanDays > 0 && len(q.GPUs) > 0 && len(q.Platforms) <= 1 && q.BillingMode == "" && !q.NoCardMode && q.SizeGB == 0 {
		q.Intent = IntentPlan
		if q.HoursPerWeek == 0 && q.TotalHours == 0 && q.Window == "" && len(q.Schedule) == 0 {
			q.Continuous = true
		}
	}
}

// cardsWithoutModel reads "4090 和 3090 跑 qlora 谁快" (two cards and a
// method, no model) as the cards compared, their speed on a typical job,
// not a question back for the model's size.
func cardsWithoutModel(x *extraction) {
	q := x.Query()
	if len(q.NamedGPUs) < 2 || q.Model != "" || q.ParamsB > 0 || q.ModelText != "" || q.Workload != "" || q.WorkloadModel != "" {
		return
	}
	q.Intent = IntentCompare
	if AsksSpeed(x.Folded()) {
		q.Aspect = AspectSpeed
	}
}

// cardHours reads "300 GPU-hours of A100 this month, total cost?" as what
// those card hours cost (a plan), not the storage digest its words about
// the month's total also read as.
func cardHours(q *Query) {
	if q.Intent == IntentDigest && len(q.GPUs) > 0 && (q.TotalHours > 0 || q.HoursPerWeek > 0) {
		q.Intent = IntentPlan
	}
}

// hoursForBudget reads "how many hours on an A100 80G with $100" (read as
// when the card is free) as the hours the amount buys on the card
// (a plan with that budget, pay-as-you-go).
func hoursForBudget(q *Query, folded string) {
	if q.BudgetTotalCNY > 0 && q.PriceCNY == 0 && len(q.GPUs) > 0 && slots.HoursAsked(folded) && q.BillingMode == "" && q.Model == "" && q.ParamsB == 0 &&
		(q.Intent == IntentStock || q.Intent == IntentPrices || q.Intent == IntentAvailability || q.Intent == IntentClarify) {
		// "200刀预算 租H100 能跑多久": the budget said as one.
		q.Intent, q.BillingMode = IntentPlan, ModeHourly
		return
	}
	if q.Intent != IntentAvailability || len(q.GPUs) == 0 || q.PriceCNY <= 0 || q.PriceUnit != "" || !slots.HoursAsked(folded) {
		return
	}
	q.Intent, q.BillingMode = IntentPlan, ModeHourly
	if _, ok := q.Condition(CondBudget); !ok {
		// The amount is the budget, in the currency it was said in
		// ("200刀能租多久": 200 dollars).
		c := Condition{Kind: CondBudget, Value: q.PriceCNY}
		if q.Currency == CurrencyUSD {
			c.Name = CurrencyUSD
		}
		q.Conditions = append(q.Conditions, c)
	}
	q.BudgetTotalCNY, q.PriceCNY = q.PriceCNY, 0
}

// AsksExtra reports whether a folded text asks about more disk on top
// of what there is ("那加50G呢", "多加100G", "add 200GB"): priced in full,
// no free quota taken off.
func AsksExtra(folded string) bool { return reDiskExtra.MatchString(folded) }

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
	if slots.AsksRetention(x.Folded()) && q.SizeGB == 0 && len(q.GPUs) == 0 {
		// (The prices finisher reads the rest of the offer slots.)
		q.Intent, q.Topic, q.Confidence, q.Alternatives, q.KB = IntentPrices, "", 1, nil, nil
	}
}

// topicIdleStorage is the knowledge base's topic on storage billed while
// stopped, whose words a question about data kept shares.
const topicIdleStorage = "idle-storage-cost"
