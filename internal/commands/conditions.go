package commands

import (
	"slices"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/understand"
)

// Every condition a question states is applied or named (issue 28): the
// answer says what it did with each kind (answer.Out.Uses); the router
// adds one line after the reply's first, naming the applied ones the
// reply does not state and every one not used, with why
// (render.ConditionLine), and the JSON of the answer lists them all
// (Result.Uses). Answers that have nothing to do with conditions say
// nothing of them (spokenIntents).

// spokenIntents are the intents whose answers speak of conditions: the
// offers, plans and estimates, when a card is free, alerts and fact
// checks. Elsewhere the same words are no condition (a mute's "3天", a
// disk's "用两周", a pitfall's "训练了三天的权重", an ask-back, whose pick is
// answered from the same Query), so nothing is said of them.
var spokenIntents = map[string]bool{IntentStock: true, IntentPrices: true, IntentCompare: true, IntentPlan: true, IntentEstimate: true,
	understand.IntentAvailability: true, IntentSubscribe: true, IntentFactCheck: true}

// intentKinds limit the kinds an intent speaks of (none listed: every
// kind): a fact check's claim says its own period and region (its
// answer reads the claim's terms), a subscription has no period,
// schedule or budget.
var intentKinds = map[string][]string{
	IntentFactCheck: {understand.CondCurrency},
	IntentSubscribe: {understand.CondRegion, understand.CondCurrency, understand.CondPriceTotal, understand.CondPricePerCard,
		understand.CondVRAMMin, understand.CondVRAMMax, understand.CondPlatformGroup},
}

// conditionUses are the question's conditions as the answer used them, in
// the order stated: each kind's Use, else what the intent does with it
// without saying so (implicitUse), else not used by this answer.
func conditionUses(intent string, q Query, uses []answer.Use) []render.Condition {
	if len(q.Conditions) == 0 || !spokenIntents[intent] {
		return nil
	}
	out := make([]render.Condition, 0, len(q.Conditions))
	for _, c := range q.Conditions {
		if ks, ok := intentKinds[intent]; ok && !slices.Contains(ks, c.Kind) {
			continue
		}
		u, ok := answer.Use{}, false
		if i := slices.IndexFunc(uses, func(u answer.Use) bool { return u.Kind == c.Kind }); i >= 0 {
			u, ok = uses[i], true
		} else {
			u, ok = implicitUse(intent, q, c.Kind)
		}
		rc := render.Condition{Kind: c.Kind, Text: c.Text, Value: c.Value, Name: c.Name, Count: c.Count, Why: answer.WhyAnswer}
		if ok {
			rc.Applied, rc.Said, rc.Why, rc.WhyArgs = u.Applied, u.Said, u.Why, u.Args
		}
		if rc.Applied {
			rc.Why = ""
		} else if rc.Why == "" {
			rc.Why = answer.WhyAnswer
		}
		out = append(out, rc)
	}
	return out
}

// implicitUse is what an intent does with a condition without saying so
// in its Uses, the Query holding it as the answer reads it: a fact
// check's and a subscription's dollars are converted at the catalog's
// rate, a subscription's ceiling is per card and its region is the one
// its reply names (its own reading of the platforms' region names), and
// when a card is free is answered for the part of the week asked.
func implicitUse(intent string, q Query, kind string) (answer.Use, bool) {
	switch {
	case kind == understand.CondCurrency && (intent == IntentFactCheck || intent == IntentSubscribe):
		return answer.Use{Kind: kind, Applied: true}, true
	case intent == IntentSubscribe && (kind == understand.CondPriceTotal || kind == understand.CondPricePerCard):
		return answer.Use{Kind: kind, Applied: true}, true
	case intent == IntentSubscribe && kind == understand.CondRegion:
		if q.Region != "" {
			return answer.Use{Kind: kind, Applied: true, Said: true}, true
		}
		return answer.NotUsed(kind, answer.WhySubscribeRegion), true
	case intent == IntentSubscribe && kind == understand.CondPlatformGroup && (q.PlatformGroup != "" || len(q.Platforms) > 0):
		// "只要国内的": the alert is for that group's platforms, and its
		// reply names them.
		return answer.Use{Kind: kind, Applied: true, Said: true}, true
	case intent == understand.IntentAvailability && kind == understand.CondSchedule && q.When != nil:
		return answer.Use{Kind: kind, Applied: true, Said: true}, true
	}
	return answer.Use{}, false
}

// withConditionLine adds the line about the conditions after the first
// line of the reply (and of its long form).
func withConditionLine(rep chat.Reply, uses []render.Condition, en bool) chat.Reply {
	return withLine(rep, render.ConditionLine(i18n.Of(en), uses))
}

// withLine adds a line after the first line of the reply (and of its
// long form); "" adds nothing.
func withLine(rep chat.Reply, line string) chat.Reply {
	if line == "" {
		return rep
	}
	rep.Lines = append([]string{line}, rep.Lines...)
	rep.Keep++
	if rep.Full != nil {
		full := *rep.Full
		full.Lines = append([]string{line}, full.Lines...)
		rep.Full = &full
	}
	return rep
}
