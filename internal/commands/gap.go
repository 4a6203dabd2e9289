package commands

import (
	"context"
	"github.com/labgpu/bot/internal/render/figureview"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/render/offerview"
)

// figureAsk is what a follow-up asks of an estimate's or a plan's
// figures: by how much the new answer differs from the last ("贵多少",
// "换成4090多多少", "how much more?") or how long the job runs ("那要跑多
// 久").
type figureAsk struct{ gap, hours, speed, pick bool }

// figureAskOf reads it from the message's reading alone (q, before the
// frame edits it).
func figureAskOf(q Query) figureAsk {
	gap := q.FollowGap || methodVs(q)
	return figureAsk{gap: gap, hours: !gap && q.AsksHours, speed: q.FollowGap && q.AsksFaster, pick: q.PickAsk}
}

// methodVs reports whether q sets another method against the last job
// ("is it worth it vs LoRA", "跟QLoRA比呢"), naming no card, platform or
// job: that method's estimate, by how much it differs.
func methodVs(q Query) bool {
	return q.Intent == IntentCompare && q.Method != "" && !frame.HasSubject(q) && q.UnknownGPU == ""
}

// withFigureLine puts first what a follow-up asked of the figures: the
// hours, or the new figure and its difference from the last answer's
// (edited, answered again) — of the two cards an answer compares when
// the follow-up asked it again as it was.
func (r *Router) withFigureLine(ctx context.Context, res Result, bases []Query, ask figureAsk, msg chat.Message) Result {
	l := i18n.Of(res.English)
	now, ok := figureview.HeadlineOf(res.Payload)
	line := ""
	if c, isCompare := res.Payload.(offerview.Compare); isCompare && ask.gap {
		ok, line = true, figureview.CompareGapLine(r.rd, l, c)
	}
	if p, isPlan := res.Payload.(estimateview.Plan); isPlan && ask.gap {
		// "比按量省多少" after a plan price.
		ok, line = true, figureview.ModeGapLine(l, p)
	}
	if !ok || res.Confirm {
		return res
	}
	if e, isEst := res.Payload.(estimateview.Estimate); isEst && ask.speed && e.Scaling != nil {
		// "用两张3090会快多少": the answer compares the cards with one
		// already (its scaling line).
		return res
	}
	switch {
	case line != "":
	case ask.pick && figureview.CardsPickLine(l, res.Payload) != "":
		// "那我该选哪个" of two cards: which, and why.
		line = figureview.CardsPickLine(l, res.Payload)
	case ask.hours && figureview.CardsGapLine(l, res.Payload) != "":
		// "差几个小时" of two cards: both runs' hours.
		line = figureview.CardsGapLine(l, res.Payload)
	case ask.hours && now.Hours > 0:
		line = l.T("router.figure.hours", figureview.HoursText(now.Hours), r.rd.PlatformName(now.Platform, l.English()), now.Gpu, now.Count, render.Money(now.Mid()))
	case ask.gap && figureview.PlatformsGapLine(r.rd, l, res.Payload) != "":
		line = figureview.PlatformsGapLine(r.rd, l, res.Payload)
	case ask.gap:
		for _, b := range bases {
			if line = r.gapFrom(ctx, l, now, b, msg, ask.speed); line != "" {
				break
			}
		}
		if line == "" {
			line = figureview.CardsGapLine(l, res.Payload)
		}
	}
	if line == "" {
		return res
	}
	res.Reply = withLead(res.Reply, line)
	if !render.FitsPhone(res.Reply) {
		// The figure asked goes first; the rest is cut to one screen
		// again, behind "详情".
		full := res.Reply
		if res.Reply.Full != nil {
			full = *res.Reply.Full
		}
		res.Reply = render.FitPhone(res.Reply, full, res.English)
	}
	res.Text = chat.PlainText(res.Reply)
	if res.Reply.Full != nil {
		res.FullText = chat.PlainText(*res.Reply.Full)
	}
	return res
}

// figureBases are the answers a gap is weighed against: the one the
// follow-up edited, then the one that answer had edited in its turn
// ("how much more?" asked again of "what if I use 4 A100s").
func figureBases(edited Query, conv *conversation) []Query {
	out := []Query{edited}
	if conv != nil && conv.member != nil && conv.member.Before != nil {
		out = append(out, conv.member.Before.Restore())
	}
	return out
}

// gapFrom is the gap line against the answer to base ("" when it has no
// headline or reads the same).
func (r *Router) gapFrom(ctx context.Context, l i18n.Lang, now figureview.Headline, base Query, msg chat.Message, speed bool) string {
	in, found := answer.Lookup(base.Intent)
	if !found {
		return ""
	}
	out := in.Answer(ctx, &answer.Ask{Query: base, From: askerOf(msg), Env: r.env})
	was, ok := figureview.HeadlineOf(out.Payload)
	if !ok {
		return ""
	}
	return figureview.GapLine(l, now, was, speed)
}
