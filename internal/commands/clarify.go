package commands

import (
	"context"
	"slices"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/metaview"
	"github.com/labgpu/bot/internal/stock"
)

func init() {
	answer.Register(answer.Intent{Name: IntentClarify, Answer: clarifyAnswer})
	answer.Register(answer.Intent{Name: IntentUnknown, Answer: unknownAnswer})
}

// clarifyAnswer asks back with the two likeliest readings that fit the
// message and the member's state (the Query keeps them: "1" or "2" next
// picks one). With one such reading it answers it when the reading only
// reads and the message names what it needs (a card for stock …; an
// action is asked about, never done), else asks whether it is meant;
// with none, what the message names answers it (a card its offers …),
// else the question is one the bot does not do.
func clarifyAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	var alts []Alternative
	for _, alt := range a.Alternatives {
		if len(alts) < 2 && fits(ctx, a, alt) {
			alts = append(alts, alt)
		}
	}
	if len(alts) == 1 && alts[0].Score < minOneReading && !named(a, alts[0]) {
		// "打卡": a faint reading alone is no question to ask back.
		alts = nil
	}
	read := len(a.Alternatives) > 0
	a.Alternatives = alts
	if len(alts) == 0 && a.SmallTalk != "" {
		// "Killed the old kernel, thanks": small talk, not a menu.
		if in, ok := answer.Lookup(IntentChitChat); ok {
			b := *a
			b.Intent, b.Topic, b.Alternatives = IntentChitChat, "", nil
			return in.Answer(ctx, &b)
		}
	}
	if len(alts) == 0 {
		// Nothing fits: what the message names answers it (a card its
		// offers, a platform its prices, a job its estimate), else it is
		// not something the bot does.
		for _, in := range []string{IntentStock, IntentPrices, IntentEstimate} {
			if alt := (Alternative{Intent: in}); named(a, alt) {
				alts = append(alts, alt)
				break
			}
		}
	}
	switch {
	case len(alts) == 0 && read:
		// Readings, none of which fits: not understood, not refused.
		a.Intent = IntentUnknown
		return a.Out(metaview.Unknown{Lang: i18n.Of(a.English), Kind: metaview.Unclear})
	case len(alts) == 0:
		return unknownAnswer(ctx, a)
	case len(alts) == 1 && !clarifyActions[alts[0].Intent] && named(a, alts[0]):
		// The only reading that fits: its answer, not a menu of one.
		if in, ok := answer.Lookup(alts[0].Intent); ok {
			b := *a
			b.Intent, b.Topic, b.Alternatives = alts[0].Intent, alts[0].Topic, nil
			return in.Answer(ctx, &b)
		}
	}
	p := metaview.Clarify{Lang: i18n.Of(a.English)}
	for _, alt := range alts {
		p.Readings = append(p.Readings, reading(a, alt))
	}
	return a.Out(p)
}

// minOneReading is the least score of a reading offered alone ("你是想问
// “静音”吗？").
const minOneReading = 0.15

// clarifyActions change state; a clarifying menu offers them only to a
// message that asks nothing, and the router never runs one from a menu
// of one.
var clarifyActions = map[string]bool{IntentMute: true, IntentUnsubscribe: true, IntentSubscribe: true, IntentStorageAdd: true,
	IntentStorageResize: true, IntentStorageStop: true, IntentStorageStart: true, IntentStorageRemove: true,
	IntentDigestOn: true, IntentDigestOff: true}

// fits reports whether a reading is worth offering for this message and
// this member: never "not something I do", small talk or "详情"; no
// action to a question; nothing about alerts to a member without any; a
// troubleshooting topic only when the knowledge base found something of
// it in the message; a fact check only of a figure.
func fits(ctx context.Context, a *answer.Ask, alt Alternative) bool {
	switch {
	case alt.Intent == IntentUnknown || alt.Intent == IntentChitChat || alt.Intent == IntentMore:
		return false
	case clarifyActions[alt.Intent] && a.Question:
		return false
	case alt.Intent == IntentUnsubscribe || alt.Intent == IntentSubscriptions:
		return hasSubscriptions(ctx, a)
	case alt.Intent == IntentAdvice && alt.Topic != "":
		return kbFound(a, alt.Topic)
	case alt.Intent == IntentFactCheck:
		// A fact check needs a claim with a figure.
		return named(a, alt)
	}
	return true
}

// hasSubscriptions reports whether the member has stock alerts in the
// chat, as far as the store says (alerts off: none).
func hasSubscriptions(ctx context.Context, a *answer.Ask) bool {
	if a.Alerts == nil || a.Alerts.Subs == nil {
		return false
	}
	subs, err := a.Alerts.Subs.Subscriptions(ctx)
	if err != nil {
		return true // unknown: the reading may fit
	}
	return slices.ContainsFunc(subs, func(s stock.Subscription) bool {
		return s.Channel == a.From.Channel && s.ChatID == a.From.ChatID && s.OwnerID == a.From.SenderID
	})
}

// named reports whether the message names what a reading's answer needs:
// a card for stock or availability, a platform for prices, a job for an
// estimate, a plan for plan, two things for a comparison, a claim for a
// fact check, the topic's own words for troubleshooting.
func named(a *answer.Ask, alt Alternative) bool {
	q := a.Query
	switch alt.Intent {
	case IntentStock:
		return len(q.GPUs) > 0
	case IntentAvailability:
		return len(q.GPUs) > 0 && q.When != nil
	case IntentPrices:
		return len(q.Platforms) > 0
	case IntentEstimate:
		return q.Model != "" || q.ParamsB > 0 || q.Workload != ""
	case IntentPlan:
		return q.BillingMode != "" && q.BillingMode != ModeHourly
	case IntentCompare:
		return len(q.Platforms) >= 2 || len(q.NamedGPUs) >= 2
	case IntentFactCheck:
		return q.PriceCNY > 0
	case IntentAdvice:
		return q.KB != nil && q.KB.Best != nil && q.KB.Best.Topic.ID == alt.Topic
	}
	return false
}

// kbFound reports whether the knowledge base's matcher found anything of
// a topic in the message.
func kbFound(a *answer.Ask, topic string) bool {
	m := a.Query.KB
	if m == nil {
		return false
	}
	if m.Best != nil && m.Best.Topic.ID == topic {
		return true
	}
	for _, h := range append(slices.Clone(m.Closest), m.Related...) {
		if h.Topic.ID == topic && h.Score > 0 {
			return true
		}
	}
	return false
}

// reading names a reading for an ask-back: a troubleshooting topic by
// its title, an intent as help names it.
func reading(a *answer.Ask, alt Alternative) metaview.Reading {
	if alt.Intent == IntentAdvice && a.Env.KB != nil && alt.Topic != "" {
		if t, ok := a.Env.KB.Topic(alt.Topic); ok {
			return metaview.Reading{Name: t.Title.Pick(a.English), Troubleshooting: true}
		}
	}
	if d := a.Intents.Def(alt.Intent); d != nil && d.Name.Pick(a.English) != "" {
		return metaview.Reading{Name: d.Name.Pick(a.English)}
	}
	return metaview.Reading{Name: alt.Intent}
}

// unknownAnswer answers text outside what the bot does: what it does not
// do and the nearest thing it does, when the message says what it wants
// (Query.OutOfScope), else what the bot does.
func unknownAnswer(_ context.Context, a *answer.Ask) answer.Out {
	a.Intent = IntentUnknown
	return a.Out(metaview.Unknown{Lang: i18n.Of(a.English), Kind: a.OutOfScope})
}
