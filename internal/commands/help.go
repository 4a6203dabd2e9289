package commands

import (
	"context"
	"sort"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/metaview"
	"github.com/labgpu/bot/internal/understand"
)

func init() { answer.Register(answer.Intent{Name: IntentHelp, Answer: helpAnswer}) }

// helpAnswer shows the menu (one line per area with its first
// phrasings), or one area in full ("帮助 存储": each intent with its
// description and phrasings), from the intent definitions.
func helpAnswer(_ context.Context, a *answer.Ask) answer.Out {
	if a.Area != "" {
		return a.Out(areaHelp(a, a.Area))
	}
	en := a.English
	p := metaview.Help{Lang: i18n.Of(en)}
	for _, area := range understand.HelpAreas {
		var defs []*Definition
		for _, d := range a.Intents.Defs {
			if d.Area == area.ID && d.Menu > 0 && (area.ID != "advice" || a.Env.KB != nil) {
				defs = append(defs, d)
			}
		}
		sort.SliceStable(defs, func(i, j int) bool { return defs[i].Menu < defs[j].Menu })
		var ex []string
		for _, d := range defs {
			for _, h := range helpExamples(d, en, 2) {
				if len(ex) < 3 {
					ex = append(ex, h)
				}
			}
		}
		if len(ex) > 0 {
			p.Areas = append(p.Areas, metaview.HelpArea{Name: area.Name.Pick(en), Examples: ex})
		}
	}
	return a.Out(p)
}

// helpExamples are a definition's first n help phrasings in the
// language (n < 0: all of them).
func helpExamples(d *Definition, en bool, n int) []string {
	var out []string
	for _, h := range d.Help {
		if understand.HasCJK(h) != en && (n < 0 || len(out) < n) {
			out = append(out, h)
		}
	}
	return out
}

// areaHelp lists one area's intents with their descriptions and
// phrasings, the menu's first; the troubleshooting area also names the
// knowledge base's topics.
func areaHelp(a *answer.Ask, area string) metaview.AreaHelp {
	en := a.English
	p := metaview.AreaHelp{Lang: i18n.Of(en)}
	for _, h := range understand.HelpAreas {
		if h.ID == area {
			p.Title = h.Name.Pick(en)
		}
	}
	var defs []*Definition
	for _, d := range a.Intents.Defs {
		if d.Area == area {
			defs = append(defs, d)
		}
	}
	sort.SliceStable(defs, func(i, j int) bool {
		mi, mj := defs[i].Menu, defs[j].Menu
		if (mi == 0) != (mj == 0) {
			return mi != 0
		}
		return mi < mj
	})
	for _, d := range defs {
		p.Intents = append(p.Intents, metaview.HelpIntent{Name: d.Name.Pick(en), Description: d.Description.Pick(en), Examples: helpExamples(d, en, -1)})
	}
	if area == "advice" && a.Env.KB != nil {
		p.KB = true
		for _, t := range a.Env.KB.Topics {
			p.Topics = append(p.Topics, t.Title.Pick(en))
		}
	}
	return p
}
