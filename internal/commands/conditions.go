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
// (Result.Uses).

// quietIntents say nothing about conditions: an ask-back (its pick is
// answered from the same Query), "详情", help, small talk, the version,
// and "not something I do".
var quietIntents = map[string]bool{IntentClarify: true, IntentMore: true, IntentHelp: true, IntentChitChat: true,
	"version": true, IntentUnknown: true}

// implicitUses are conditions an intent applies without saying so in its
// Uses: the Query holds them already as the answer reads them (a USD
// amount converted at the catalog's rate, a subscription's per-card
// ceiling).
var implicitUses = map[string][]string{
	IntentFactCheck: {understand.CondCurrency},
	IntentSubscribe: {understand.CondCurrency, understand.CondPriceTotal, understand.CondPricePerCard},
}

// conditionUses are the question's conditions as the answer used them, in
// the order stated: each kind's Use, else an implicit one, else not used
// by this answer.
func conditionUses(intent string, q Query, uses []answer.Use) []render.Condition {
	if len(q.Conditions) == 0 || quietIntents[intent] {
		return nil
	}
	out := make([]render.Condition, 0, len(q.Conditions))
	for _, c := range q.Conditions {
		rc := render.Condition{Kind: c.Kind, Text: c.Text, Value: c.Value, Name: c.Name, Count: c.Count, Why: answer.WhyAnswer}
		if i := slices.IndexFunc(uses, func(u answer.Use) bool { return u.Kind == c.Kind }); i >= 0 {
			u := uses[i]
			rc.Applied, rc.Said = u.Applied, u.Said
			rc.Why, rc.WhyArgs = u.Why, u.Args
		} else if slices.Contains(implicitUses[intent], c.Kind) {
			rc.Applied = true
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

// withConditionLine adds the line about the conditions after the first
// line of the reply (and of its long form).
func withConditionLine(rep chat.Reply, uses []render.Condition, en bool) chat.Reply {
	line := render.ConditionLine(i18n.Of(en), uses)
	if line == "" {
		return rep
	}
	rep.Lines = append([]string{line}, rep.Lines...)
	if rep.Full != nil {
		full := *rep.Full
		full.Lines = append([]string{line}, full.Lines...)
		rep.Full = &full
	}
	return rep
}
