package commands

import (
	"context"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/metaview"
)

func init() {
	answer.Register(answer.Intent{Name: IntentClarify, Answer: clarifyAnswer})
	answer.Register(answer.Intent{Name: IntentUnknown, Answer: unknownAnswer})
}

// clarifyAnswer asks back with the two likeliest readings (the Query
// keeps them: "1" or "2" next picks one); with fewer than two worth
// offering, the question is one the bot does not do.
func clarifyAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	var alts []Alternative
	for _, alt := range a.Alternatives {
		// "Not something I do", small talk and "详情" are no readings to
		// offer.
		if alt.Intent != IntentUnknown && alt.Intent != IntentChitChat && alt.Intent != IntentMore && len(alts) < 2 {
			alts = append(alts, alt)
		}
	}
	a.Alternatives = alts
	if len(alts) < 2 {
		return unknownAnswer(ctx, a)
	}
	return a.Out(metaview.Clarify{Lang: i18n.Of(a.English), Readings: [2]metaview.Reading{reading(a, alts[0]), reading(a, alts[1])}})
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

// unknownAnswer answers text outside what the bot does.
func unknownAnswer(_ context.Context, a *answer.Ask) answer.Out {
	a.Intent = IntentUnknown
	return a.Out(metaview.Unknown{Lang: i18n.Of(a.English)})
}
