package commands

import (
	"strings"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// whyFollow reads "为什么不够", "why not?", a bare "为什么" right after an
// answer with a verdict: after an estimate that answered a yes/no
// question, the same estimate with its verdict and the figures that
// decided it (the VRAM needed against the card's, the run's cost against
// the budget …), not the whole of it; after a comparison or a yes/no
// answer about offers, that answer with its verdict and reasons first
// (whyReply); false when q asks no such thing or the frame gave no
// verdict.
func whyFollow(f *Frame, q Query) (Query, bool) {
	if f == nil || !q.WhyVerdict {
		return q, false
	}
	fq := f.Query
	switch {
	case fq.Intent == IntentEstimate && fq.YesNo != nil:
	case fq.Intent == IntentCompare:
	case (fq.Intent == IntentStock || fq.Intent == IntentPrices) && fq.YesNo != nil:
	default:
		return q, false
	}
	m := fq.Restore()
	m.Intent, m.Confidence, m.Alternatives, m.Problems = fq.Intent, 1, nil, nil
	m.Question, m.WhyVerdict = fq.YesNo != nil, true
	m.English = frame.Language(m, q)
	return m, true
}

// whyReply is an answer given again because the member asked why: its
// first line turned into the verdict and its reasons ("按总价 RTX 4090 更
// 划算，因为：按小时 RTX 3090 便宜（1.32 vs 2.18 元/卡时），但 …"), the
// rest behind "详情"; rep when its first line has no verdict to cut.
func whyReply(rep chat.Reply, l i18n.Lang) chat.Reply {
	first := rep.Title
	if first == "" && len(rep.Lines) > 0 {
		first = rep.Lines[0]
	}
	verdict, reasons, ok := render.CutVerdict(first, l)
	if !ok {
		// The separator of a verdict line in either language ("%s：%s",
		// "%s: %s"), from the catalog.
		for _, sep := range []string{i18n.Of(false).T("verdict.line", "", ""), i18n.Of(true).T("verdict.line", "", "")} {
			if v, r, found := strings.Cut(first, sep); found && r != "" && len([]rune(v)) <= 40 {
				verdict, reasons, ok = v, r, true
				break
			}
		}
	}
	if !ok {
		return rep
	}
	full := rep
	if rep.Full != nil {
		full = *rep.Full
	}
	return chat.Reply{Lines: []string{l.T("router.why.line", verdict, reasons)}, Full: &full, English: rep.English}
}
