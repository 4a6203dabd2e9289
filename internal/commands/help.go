package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/understand"
)

// helpAnswer shows the menu (one line per area with two phrasings), or
// one area in full: each intent with its description and phrasings.
func (r *Router) helpAnswer(_ context.Context, res *Result) {
	en := res.English
	if res.Area != "" {
		res.Reply = r.areaHelp(res.Area, en)
		return
	}
	rep := chat.Reply{Title: answer.Pick(en, "我能帮实验室查 GPU 租用的这些事，@我 直接问就行：", "I help the lab with renting GPUs; @mention me and ask:")}
	for _, a := range understand.HelpAreas {
		var defs []*Definition
		for _, d := range r.in.Defs {
			if d.Area == a.ID && d.Menu > 0 && (a.ID != "advice" || r.advice != nil) {
				defs = append(defs, d)
			}
		}
		sort.SliceStable(defs, func(i, j int) bool { return defs[i].Menu < defs[j].Menu })
		var ex []string
		for _, d := range defs {
			for _, h := range helpExamples(d, en, 2) {
				if len(ex) < 3 {
					ex = append(ex, "“"+h+"”")
				}
			}
		}
		if len(ex) > 0 {
			rep.Lines = append(rep.Lines, "• "+a.Name.Pick(en)+answer.Pick(en, "：", ": ")+strings.Join(ex, answer.Pick(en, "", " ")))
		}
	}
	rep.Notes = append(rep.Notes,
		answer.Pick(en, "回答只先给要点；发“详情”看完整内容。", "Answers come short first; say “more” for the whole answer."),
		answer.Pick(en, "发“帮助 提醒”“帮助 存储”等看某一类的全部说法。", "Say “help alerts”, “help storage” … for one area in full."))
	res.Reply = rep
}

// helpExamples are a definition's first n help phrasings in the
// language.
func helpExamples(d *Definition, en bool, n int) []string {
	var out []string
	for _, h := range d.Help {
		if understand.HasCJK(h) != en && len(out) < n {
			out = append(out, h)
		}
	}
	return out
}

// areaHelp lists one area's intents with their descriptions and
// phrasings; the advice area also names its topics.
func (r *Router) areaHelp(area string, en bool) chat.Reply {
	rep := chat.Reply{}
	for _, a := range understand.HelpAreas {
		if a.ID == area {
			rep.Title = a.Name.Pick(en)
		}
	}
	var defs []*Definition
	for _, d := range r.in.Defs {
		if d.Area == area {
			defs = append(defs, d)
		}
	}
	// The menu's intents first, in menu order.
	sort.SliceStable(defs, func(i, j int) bool {
		mi, mj := defs[i].Menu, defs[j].Menu
		if (mi == 0) != (mj == 0) {
			return mi != 0
		}
		return mi < mj
	})
	for _, d := range defs {
		var ex []string
		for _, h := range d.Help {
			if understand.HasCJK(h) != en {
				ex = append(ex, "“"+h+"”")
			}
		}
		rep.Lines = append(rep.Lines, fmt.Sprintf("• %s — %s", d.Name.Pick(en), d.Description.Pick(en)))
		if len(ex) > 0 {
			rep.Lines = append(rep.Lines, answer.Pick(en, "  例如 ", "  e.g. ")+strings.Join(ex, answer.Pick(en, "", " ")))
		}
	}
	if area == "advice" && r.advice != nil {
		var titles []string
		for _, t := range r.advice.Topics {
			titles = append(titles, t.Title.Pick(en))
		}
		full := rep
		full.Lines = append(append([]string{}, rep.Lines...), answer.Pick(en, "我认识的问题：", "Topics I know: ")+strings.Join(titles, answer.Pick(en, "；", "; ")))
		rep.Notes = append(rep.Notes, fmt.Sprintf(answer.Pick(en, "我认识 %d 类常见问题，发“详情”看清单。", "I know %d common problems; say “more” for the list."), len(titles)))
		rep.Full = &full
	}
	return rep
}

// readingName names an intent (or a topic) for an ask-back.
func (r *Router) readingName(a Alternative, en bool) string {
	if a.Intent == IntentAdvice {
		if t, ok := r.adviceTopic(a.Topic); ok {
			return answer.Pick(en, "排错：", "troubleshooting: ") + t.Title.Pick(en)
		}
	}
	if d := r.in.Def(a.Intent); d != nil && d.Name.Pick(en) != "" {
		return d.Name.Pick(en)
	}
	return a.Intent
}

// clarifyAnswer asks back with the two likeliest readings.
func (r *Router) clarifyAnswer(_ context.Context, res *Result) {
	en := res.English
	var alts []Alternative
	for _, a := range res.Alternatives {
		// "Not something I do", small talk and "详情" are no readings to
		// offer.
		if a.Intent != IntentUnknown && a.Intent != IntentChitChat && a.Intent != IntentMore && len(alts) < 2 {
			alts = append(alts, a)
		}
	}
	res.Alternatives = alts
	if len(alts) < 2 {
		r.unknownAnswer(context.Background(), res)
		return
	}
	rep := chat.Reply{Title: fmt.Sprintf(answer.Pick(en, "你是想问“%s”还是“%s”？", "Do you mean “%s” or “%s”?"), r.readingName(alts[0], en), r.readingName(alts[1], en))}
	rep.Lines = append(rep.Lines, answer.Pick(en, "回 1 或 2，或者换个说法再问一次。", "Reply 1 or 2, or ask again in other words."))
	res.Reply = rep
}

// unknownAnswer answers text outside what the bot does.
func (r *Router) unknownAnswer(_ context.Context, res *Result) {
	en := res.English
	rep := chat.Reply{Title: answer.Pick(en, "这个我帮不上：我只管 GPU 租用的库存、价格、费用估算、有货提醒、存储账本和排错。", "I can't help with that: I do GPU rental stock, prices, cost estimates, stock alerts, the storage ledger and troubleshooting.")}
	rep.Lines = append(rep.Lines, answer.Pick(en, "发“帮助”看能怎么问。", "Say “help” to see what to ask."))
	res.Intent = IntentUnknown
	res.Reply = rep
}
