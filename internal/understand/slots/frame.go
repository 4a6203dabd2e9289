package slots

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/understand/slots/conditions"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// The words of a conversation's follow-ups (configs/slots/frame.yaml).
var (
	// reFollowUp opens or closes a follow-up: "那A100呢", "换成4090",
	// "and on vast?"; reFollowQuestion is a short question mark alone
	// ("tomorrow?").
	reFollowUp       = words.NewExpr("frame.follow_up")
	reFollowQuestion = words.NewExpr("frame.follow_up_question")
	// reFiller is what a message of nothing but values may say besides
	// them ("40G的呢", "我要4张的").
	reFiller = words.NewExpr("frame.filler")
	// reCheaper asks for something cheaper than the last answer showed.
	reCheaper = words.NewExpr("frame.cheaper")
	// reConfirm says yes to a question the bot asked back.
	reConfirm = words.NewExpr("frame.confirm")
	// reConfirmOnly is a yes that only answers such a question ("确认").
	reConfirmOnly = words.NewExpr("frame.confirm_only")
	// reFollowCount is a count a follow-up names alone ("两张呢").
	reFollowCount = words.NewExpr("frame.count")
	// reLater is a time from now ("过两个小时呢").
	reLater = words.NewExpr("frame.later")
	// reAlso adds to the last question instead of replacing ("周末也跑").
	reAlso = words.NewExpr("frame.also")
	// reAddOne asks for one more of the same ("A100 也要").
	reAddOne = words.NewExpr("frame.add_one")
	// reWhichOne asks which of the options named is better ("哪个更便宜").
	reWhichOne = words.NewExpr("frame.which_one")
	// reCheapest asks for the cheapest option ("最便宜的是哪个").
	reCheapest = words.NewExpr("frame.cheapest")
	// reGap asks by how much the options just compared differ ("贵多少").
	reGap = words.NewExpr("frame.gap")
	// reSame asks the chat's last question again ("同问", "+1").
	reSame = words.NewExpr("frame.same")
	// reStill says a fix did not help ("还是不行"); reOtherWays asks for
	// other ways ("有没有别的办法").
	reStill     = words.NewExpr("frame.still")
	reOtherWays = words.NewExpr("frame.other_ways")
	// reFinding reports what the member found, has or tried ("batch 已经
	// 是1了", "我装的是 cuda 12.1"); reOwnAsk asks something of its own
	// ("多少钱", "哪家有").
	reFinding = words.NewExpr("frame.finding")
	reOwnAsk  = words.NewExpr("frame.own_ask")
	// reResolved says the problem is solved ("已经好了 谢谢").
	reResolved = words.NewExpr("frame.resolved")
	// reWorkedBefore says it worked before ("昨天还好好的").
	reWorkedBefore = words.NewExpr("frame.worked_before")
	// reWhyVerdict asks why the last verdict is what it is ("为什么不够").
	reWhyVerdict = words.NewExpr("frame.why_verdict")
	// reUndo takes back what was just asked ("算了 不要了", "nvm");
	// reUndoSure has a word that does so outright ("算了", "cancel that").
	reUndo     = words.NewExpr("frame.undo")
	reUndoSure = words.NewExpr("frame.undo_sure")
	// reAlertAsk asks to be told when the last answer's card is there.
	reAlertAsk = words.NewExpr("frame.alert_ask")
	// reTopicAsk asks how to do one of the last answer's fixes.
	reTopicAsk = words.NewExpr("frame.topic_ask")
	// rePickAsk asks which of the last answer's options to take.
	rePickAsk = words.NewExpr("frame.pick_ask")
	// reCNYAsk asks the last answer in yuan.
	reCNYAsk = words.NewExpr("frame.cny_ask")
	// reHourAsk asks whether the last figure is per hour.
	reHourAsk = words.NewExpr("frame.hour_ask")
	// reMuteEndAsk asks when the mute ends; reCurrencyAsk the currency
	// of the last figures.
	reMuteEndAsk  = words.NewExpr("frame.mute_end_ask")
	reCurrencyAsk = words.NewExpr("frame.currency_ask")
	// reOthersAsk asks for other cards than the one just shown.
	reOthersAsk = words.NewExpr("frame.others_ask")
	// Setting a subject against the last answer's ("和3090比呢").
	reCompareWith = words.NewExpr("frame.compare_with")
	// A number said alone ("2.5呢").
	reBareAmount = words.NewExpr("frame.bare_amount")
	// Asking why, and how many are free.
	reAsksWhy  = words.NewExpr("frame.asks_why")
	reAsksFree = words.NewExpr("frame.asks_free")
	// Saying cancel or delete ("取消吧").
	reCancelWord = words.NewExpr("frame.cancel_word")
	// reReferent points at what the last answer showed ("删掉它").
	reReferent = words.NewExpr("frame.referent")
	// reEditVerb changes what the last answer set ("改成1块8").
	reEditVerb = words.NewExpr("frame.edit_verb")
	// reJobFigure asks a job's time ("4090要多久").
	reJobFigure = words.NewExpr("frame.job_figure")
	// reCardVRAM asks how much VRAM a card has ("显存多大").
	reCardVRAM = words.NewExpr("frame.card_vram")
)

// kwAskStop are the words of a how-to question that name no step.
var kwAskStop = words.NewWords("frame.ask_stop")

// askWords are the words of s that may name a step of a fix
// (Query.AskWords), each once.
func askWords(s string) []string { return words.Terms(s, kwAskStop.Has) }

// followUpSlots marks how a message may continue the conversation
// (Query.FollowUp, Bare, Cheaper, Confirm); the router decides whether it
// does (internal/commands/frame.go). Run after the extractors: Bare reads
// what they left of the text.
func followUpSlots(x *Extraction) {
	q := x.q
	q.AsksHours = reJobFigure.MatchString(x.whole)
	q.AsksFaster = offerSpeed.MatchString(x.whole)
	q.Confirm = reConfirm.MatchString(x.s)
	q.ConfirmOnly = q.Confirm && reConfirmOnly.MatchString(x.s)
	limit, _ := words.Number("frame.limits", "follow_up_runes")
	if utf8.RuneCountInString(x.s) > int(limit) {
		return
	}
	q.Cheaper = reCheaper.MatchString(x.s)
	q.FollowLater = reLater.MatchString(x.s)
	q.FollowAlso = reAlso.MatchString(x.s)
	q.FollowAddOne = reAddOne.MatchString(x.s)
	q.FollowWhich = reWhichOne.MatchString(x.s)
	q.FollowCheapest = reCheapest.MatchString(x.s)
	q.FollowGap = reGap.MatchString(x.s)
	q.CompareWith = reCompareWith.MatchString(x.s)
	q.AsksWhy, q.AsksFree = reAsksWhy.MatchString(x.s), reAsksFree.MatchString(x.s)
	q.CancelWord = reCancelWord.MatchString(x.s)
	if m := reBareAmount.FindStringSubmatch(x.s); m != nil {
		q.BareAmount, _ = strconv.ParseFloat(m[1], 64)
	}
	q.Same = reSame.MatchString(x.s)
	q.Still = reStill.MatchString(x.s)
	q.OtherWays = reOtherWays.MatchString(x.s)
	q.Finding = reFinding.MatchString(x.s)
	q.OwnAsk = reOwnAsk.MatchString(x.s)
	q.TopicAsk = reTopicAsk.MatchString(x.s)
	q.PickAsk = rePickAsk.MatchString(x.s)
	q.CNYAsk = reCNYAsk.MatchString(x.s)
	q.HourAsk = reHourAsk.MatchString(x.s)
	q.MuteEndAsk = reMuteEndAsk.MatchString(x.s)
	q.CurrencyAsk = reCurrencyAsk.MatchString(x.s)
	q.OthersAsk = reOthersAsk.MatchString(x.s)
	if q.TopicAsk {
		q.AskWords = askWords(x.s)
	}
	q.Resolved = reResolved.MatchString(x.s)
	q.WorkedBefore = reWorkedBefore.MatchString(x.s)
	q.WhyVerdict = reWhyVerdict.MatchString(x.s)
	q.Undo = reUndo.MatchString(x.s)
	q.UndoSure = q.Undo && reUndoSure.MatchString(x.s)
	q.AlertAsk = reAlertAsk.MatchString(x.s)
	q.Referent = reReferent.MatchString(x.s)
	q.EditVerb = reEditVerb.MatchString(x.s)
	q.CardVRAM = reCardVRAM.MatchString(x.s)
	rest := x.rest
	if span := followCount(x); span != nil {
		rest = blank(rest, span[0], span[1])
	}
	for _, m := range x.marks {
		// What the scorer sees as a placeholder is a value too ("13B").
		rest = blank(rest, m.start, m.end)
	}
	q.Bare = onlyFiller(reFiller.ReplaceAllString(rest, " "))
	question := reFollowQuestion.MatchString(x.s) && !words.ContainsAny(x.s, kwStockWord.List())
	q.FollowUp = q.Bare || q.Cheaper || question || q.FollowAlso || q.FollowWhich || reFollowUp.MatchString(x.s)
}

// followCount reads a count a short message names without a card
// ("要是两张呢", "2 of them") into Query.FollowCount, when no GPU count
// was read, and returns its span (nil: none). The span stays in rest:
// a subscription's finisher reads "两张" as the fewest free.
func followCount(x *Extraction) []int {
	if x.q.GPUCount > 0 {
		return nil
	}
	m := reFollowCount.FindStringSubmatchIndex(x.rest)
	if m == nil {
		return nil
	}
	for g := 1; 2*g+1 < len(m); g++ {
		if m[2*g] < 0 {
			continue
		}
		w := x.rest[m[2*g]:m[2*g+1]]
		v, ok := words.ParseNum(w)
		if !ok {
			v, ok = englishNumber(w)
		}
		if ok && v >= 1 {
			x.q.FollowCount = int(v)
			return m[:2]
		}
	}
	return nil
}

// onlyFiller reports whether s has no letter, digit or Chinese character
// left: spaces, punctuation and emoji only.
func onlyFiller(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// FollowUpSlots fills what a follow-up names beyond the extractors' slots,
// whatever intent the message reads as alone: the part of the week it
// names ("周末呢": Query.When), a region ("西北的呢") and whether it asks
// which platform ("哪家", Query.WhichPlatform) — what editing the last
// answer reads.
func (x *Extraction) FollowUpSlots() {
	if x.q.When == nil {
		x.WeekSlots()
	}
	if m := reRegion.FindStringSubmatch(x.rest); m != nil && x.q.Region == "" {
		x.q.Region = m[1] + m[2]
	}
	offerAsk(x.q, x.whole)
}

// reConditionFollowRest is what a follow-up naming only conditions may
// say besides them ("华东有没有", "国内平台的", "要24G以上", "预算改成2000呢").
var reConditionFollowRest = words.NewExpr("conditions.condition_follow_rest")

// followKinds are the conditions a short message may state alone to
// continue the last answer with them.
var followKinds = map[string]bool{
	conditions.CondPlatformGroup: true, conditions.CondRegion: true, conditions.CondVRAMMin: true, conditions.CondVRAMMax: true,
	conditions.CondBudget: true, conditions.CondPeriod: true, conditions.CondSchedule: true,
}

// conditionFollow marks a short message that names nothing but conditions
// (a region or a group of platforms, a VRAM floor or ceiling, a budget, a
// rental period, a schedule: "华东有没有", "国内平台的", "要24G以上",
// "预算改成2000", "overseas only") as a follow-up: read after the
// conditions (ConditionSlots), which the first reading of follow-ups ran
// before. Such a message adds its conditions to the last answer's.
func conditionFollow(x *Extraction) {
	q := x.q
	if q.FollowUp || len(q.GPUs) > 0 || len(q.Platforms) > 0 || q.UnknownGPU != "" {
		return
	}
	limit, _ := words.Number("frame.limits", "follow_up_runes")
	if utf8.RuneCountInString(x.s) > int(limit) {
		return
	}
	rest, named := x.s, false
	for _, c := range q.Conditions {
		if !followKinds[c.Kind] {
			continue
		}
		if c.Span[0] < 0 || c.Span[1] > len(rest) || c.Span[0] >= c.Span[1] {
			return
		}
		rest, named = blank(rest, c.Span[0], c.Span[1]), true
	}
	if named && strings.TrimSpace(reConditionFollowRest.ReplaceAllString(rest, " ")) == "" {
		q.FollowUp = true
	}
}
