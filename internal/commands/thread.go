package commands

import (
	"slices"
	"strings"
	"unicode/utf8"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/understand"
)

// A short message after an answer that brings no card, platform, job or
// figure of its own, and whose own reading is weak ("实例是开着的" read as
// the all-platform billing overview, "数据盘呢" an ask-back between a
// platform's prices and the storage ledger), continues the last answer:
// its intent and subject, the troubleshooting topic's next steps. A
// reading that fits the message better (a question of its own: "各平台怎么
// 收费", a strong match of another topic, an action said outright) is
// answered as it reads.

// threadRunes is the longest message read as continuing the thread when
// its own reading is weak.
const threadRunes = 24

// threadFollow reads q as continuing the answer f keeps; false when q
// has something of its own (a subject, a paste, an action, a sure
// reading) or f is no answer to continue.
func (r *Router) threadFollow(f *Frame, q Query) (Query, bool) {
	if f == nil || f.Query.Intent == "" {
		return q, false
	}
	if frame.HasSubject(q) || q.UnknownGPU != "" || q.OOM != nil || q.Confirm || q.Undo || q.Choice > 0 || q.OutOfScope != "" {
		return q, false
	}
	if slices.Contains(q.Verbs, q.Intent) || utf8.RuneCountInString(strings.TrimSpace(q.Asked)) > threadRunes {
		return q, false
	}
	fq := f.Query.Restore()
	advice := f.Query.AdviceTopic != "" && f.Query.AdviceTopic != kb.TopicCardChoice
	if !advice && !frame.Editable(fq) {
		return q, false
	}
	if !weakReading(q, fq, advice) {
		return q, false
	}
	if q.Intent == IntentClarify && !advice && len(q.Alternatives) > 0 {
		if top := q.Alternatives[0]; top.Intent == IntentAdvice && top.Topic != "" && top.Intent != fq.Intent {
			// "数据盘太贵了 有啥省钱办法" after a platform's prices: the
			// topic it reads as first (the way out the thread asks for),
			// not the prices again.
			m := q
			m.Intent, m.Topic, m.Score, m.Confidence, m.Alternatives = top.Intent, top.Topic, top.Score, 1, nil
			return m, true
		}
	}
	if advice {
		if b := q.KB; b != nil && b.Best != nil && b.Best.Strong && b.Best.Topic.ID != f.Query.AdviceTopic {
			return q, false
		}
		m := fq
		m.Intent, m.Topic, m.Confidence, m.Alternatives = IntentAdvice, f.Query.AdviceTopic, 1, nil
		m.Problems, m.Issues, m.Conditions, m.YesNo, m.Verbs = q.Problems, q.Issues, nil, nil, nil
		m.AdviceNext, m.AdviceShown = true, f.Query.AdviceShown
		m.English = frame.Language(fq, q)
		return m, true
	}
	m := fq
	m.Confidence, m.Alternatives, m.Verbs, m.Problems = 1, nil, nil, q.Problems
	if q.Currency != "" {
		m.Currency = q.Currency
	}
	m.English = frame.Language(fq, q)
	return m, true
}

// weakReading reports whether q's own reading fits it no better than
// continuing fq: nothing understood; an ask-back one of whose readings is
// fq's (or, after a troubleshooting answer, any); the all-platform price
// overview read from a message that asks no price.
func weakReading(q, fq Query, advice bool) bool {
	switch q.Intent {
	case IntentUnknown:
		return true
	case IntentClarify:
		if advice {
			return true
		}
		for i, alt := range q.Alternatives {
			if i < 2 && alt.Intent == fq.Intent {
				return true
			}
		}
	case understand.IntentPrices:
		// "多久会被释放" asks how long data is kept: a price question of
		// its own.
		return !q.OwnAsk && !q.All && !q.Retention
	}
	return false
}
