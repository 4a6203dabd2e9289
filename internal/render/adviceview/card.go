package adviceview

import (
	"fmt"
	"slices"
	"strings"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/cite"
)

// CardChoice is a card question's answer ("用什么卡"), one of: an LLM
// job's estimate (the cards that fit and what the run costs); the cards
// named, side by side (Compared); the cards whose VRAM holds a known
// workload at their cheapest known price (Workload, Cards); or, with none
// of these, a request for the task.
type CardChoice struct {
	// Estimate is the estimate answer's reply to the job named (nil when
	// no LLM job was named); Estimated: it could estimate the job.
	Estimate  render.Payload
	Estimated bool
	// Compared are the cards named when the question names two or more
	// and no workload (a table when two or more are known).
	Compared []ComparedCard
	// Workload is the knowledge base's job named; Named the cards the
	// question names that the catalog knows, each judged against it
	// (OneNamed: the question named exactly one card, whose verdict is
	// the title); Cards those that hold it, cheapest first.
	Workload *kb.Workload
	Named    []NamedCard
	OneNamed bool
	Cards    []Card
	// Verdict answers "3090 够吗" for the one card named (nil when no
	// yes/no question was asked): its word opens the title.
	Verdict *render.Verdict
}

// NamedCard is a card a question names, with its nominal memory (GiB).
type NamedCard struct {
	ID       string
	MemoryGB float64
}

// ComparedCard is a card named in a comparison at its cheapest known
// price, with its catalog figures: BF16 tensor TFLOPS (dense) and memory
// bandwidth, GB/s.
type ComparedCard struct {
	Card
	TensorTFLOPS, BandwidthGBs float64
}

// Card is a card at its cheapest known price: for a workload, whether it
// holds the comfortable setting too.
type Card struct {
	GPU string `json:"gpu"`
	// MemoryGB is its capacity in GB; NominalGB its nominal memory, GiB
	// ("24G").
	MemoryGB  float64 `json:"memory_gb"`
	NominalGB float64 `json:"-"`
	// Comfortable is true when the card holds the workload's high figure.
	Comfortable bool    `json:"comfortable"`
	Platform    string  `json:"platform,omitempty"`
	PriceCNY    float64 `json:"price_cny_per_hour,omitempty"`
	// PriceLowCNY and PriceHighCNY bound a list-price range (PriceCNY is
	// its midpoint).
	PriceLowCNY  float64 `json:"price_low_cny_per_hour,omitempty"`
	PriceHighCNY float64 `json:"price_high_cny_per_hour,omitempty"`
	Source       string  `json:"source,omitempty"`
	AsOf         string  `json:"as_of,omitempty"`
	Verified     bool    `json:"verified"`
	// UnitUnverified: the platform does not document the price's unit.
	UnitUnverified bool `json:"unit_unverified,omitempty"`
}

// PriceText is the price cell: the figure, or "~mid (low-high)".
func (c Card) PriceText() string {
	mark := ""
	if c.UnitUnverified {
		mark = render.MarkUnit
	}
	if c.PriceHighCNY > c.PriceLowCNY {
		return fmt.Sprintf("~%.2f (%.2f-%.2f)", c.PriceCNY, c.PriceLowCNY, c.PriceHighCNY) + mark
	}
	return fmt.Sprintf("%.2f", c.PriceCNY) + mark
}

// maxCardRows is the most cards a card-choice table shows.
const maxCardRows = 6

// reply adds the card answer to rep (its title the card question's) and
// reports whether it named a job (the card list then replaces the
// general tiers).
func (c *CardChoice) reply(rd *render.Renderer, l i18n.Lang, rep *chat.Reply, est *chat.Reply) bool {
	switch {
	case c.Estimate != nil:
		return c.estimate(l, rep, *est)
	case c.Workload == nil:
		compared := len(c.Compared) >= 2 && c.compare(rd, l, rep)
		rep.Lines = append(rep.Lines, l.T("advice.card.ask"))
		return compared
	}
	w := c.Workload
	rep.Title = l.T("advice.card.title_of", rep.Title, w.Name.Pick(l.English()))
	rep.Lines = append(rep.Lines, l.T("advice.card.vram", w.VRAMGB.Low, w.VRAMGB.High, w.Note.Pick(l.English())))
	c.verdicts(l, rep)
	if len(c.Cards) == 0 {
		rep.Lines = append(rep.Lines, l.T("advice.card.none"))
		return true
	}
	unverified := c.table(rd, l, rep)
	if w.Kind == "training" {
		rep.Lines = append(rep.Lines, l.T("advice.card.training"))
	}
	rep.Notes = append(rep.Notes, l.T("advice.card.vram_source", cite.Source(w.Source, l)), l.T("advice.card.enough_note"))
	if unverified {
		rep.Notes = append(rep.Notes, render.UnverifiedPriceNote(l.English()))
	}
	return true
}

// estimate is an LLM job's card answer: the estimate's cards that fit
// and what they cost, cheapest first.
func (c *CardChoice) estimate(l i18n.Lang, rep *chat.Reply, sub chat.Reply) bool {
	if c.Estimated {
		// The estimate's title without its "估算：" (in either language).
		job := strings.TrimPrefix(strings.TrimPrefix(sub.Title, i18n.ZH.T("advice.card.estimate_prefix")), i18n.EN.T("advice.card.estimate_prefix"))
		rep.Title = l.T("advice.card.title_of", rep.Title, job)
		rep.Lines = append(rep.Lines, l.T("advice.card.fit_costs"))
	} else {
		rep.Lines = append(rep.Lines, sub.Title)
	}
	rep.Lines = append(rep.Lines, sub.Lines...)
	rep.Table = sub.Table
	rep.Notes = append(rep.Notes, sub.Notes...)
	return c.Estimated
}

// fullTie is the card answer to a language model's job as 详情 shows it:
// the full form of the estimate's reply sub (its every line, option and
// note); false when there is none (no card question, or no estimate).
func (c *CardChoice) fullTie(l i18n.Lang, sub *chat.Reply) (chat.Reply, bool) {
	if c == nil || sub == nil || !c.Estimated {
		return chat.Reply{}, false
	}
	if sub.Full == nil {
		return chat.Reply{}, false
	}
	rep := chat.Reply{Lines: append([]string{l.T("advice.card.fit_costs")}, sub.Full.Lines...), Table: sub.Full.Table, Notes: sub.Full.Notes}
	return rep, true
}

// verdicts says, for each card the question names ("SDXL 用 3090 够吗"),
// whether it holds the workload; one named card's verdict is the title.
func (c *CardChoice) verdicts(l i18n.Lang, rep *chat.Reply) {
	w := c.Workload
	for _, g := range c.Named {
		var verdict string
		switch {
		case g.MemoryGB >= w.VRAMGB.High:
			verdict = l.T("advice.card.comfortably")
		case g.MemoryGB >= w.VRAMGB.Low:
			verdict = l.T("advice.card.just")
		default:
			verdict = l.T("advice.card.too_small", w.VRAMGB.Low)
		}
		rep.Lines = append(rep.Lines, l.T("advice.card.verdict", g.ID, g.MemoryGB, verdict))
		if c.OneNamed {
			rep.Title = l.T("advice.card.verdict_title", g.ID, w.Name.Pick(l.English()), verdict)
		}
		if c.OneNamed && c.Verdict != nil {
			rep.Title = c.Verdict.Line(l.T("advice.card.verdict_why", g.ID, g.MemoryGB, w.Name.Pick(l.English()), w.VRAMGB.Low, w.VRAMGB.High), l)
		}
	}
}

// table is the first maxCardRows cards as a table; it reports whether a
// price in it is seed-only (marked *).
func (c *CardChoice) table(rd *render.Renderer, l i18n.Lang, rep *chat.Reply) (unverified bool) {
	t := &chat.Table{Header: slices.Clone(l.L("advice.card.header"))}
	for _, cd := range c.Cards[:min(maxCardRows, len(c.Cards))] {
		head := l.T("advice.card.enough")
		if cd.Comfortable {
			head = l.T("advice.card.comfortable")
		}
		src := render.SourceLabel(cd.Source, l.English()) + " " + cd.AsOf
		if !cd.Verified {
			src += "*"
			unverified = true
		}
		t.Rows = append(t.Rows, []string{cd.GPU, fmt.Sprintf("%gG", cd.NominalGB), head, cd.PriceText(), rd.PlatformName(cd.Platform, l.English()), src})
	}
	rep.Table = t
	return unverified
}

// compare puts the named cards side by side: memory, BF16 tensor TFLOPS
// (dense), memory bandwidth and the cheapest known price.
func (c *CardChoice) compare(rd *render.Renderer, l i18n.Lang, rep *chat.Reply) bool {
	t := &chat.Table{Header: slices.Clone(l.L("advice.card.compare_header"))}
	for _, cd := range c.Compared {
		price, plat, src := "-", "-", "-"
		if cd.Platform != "" {
			price, plat, src = cd.PriceText(), rd.PlatformName(cd.Platform, l.English()), render.SourceLabel(cd.Source, l.English())+" "+cd.AsOf
		}
		t.Rows = append(t.Rows, []string{cd.GPU, fmt.Sprintf("%gG", cd.NominalGB), fmt.Sprintf("%g", cd.TensorTFLOPS), fmt.Sprintf("%g", cd.BandwidthGBs), price, plat, src})
	}
	rep.Table = t
	rep.Lines = append(rep.Lines, l.T("advice.card.compare_line"))
	rep.Notes = append(rep.Notes, l.T("advice.card.compare_note"))
	return true
}

// Rendered is a reply another area has rendered already: the estimate
// answer's, which a card question shows until that area answers with a
// payload of its own (then CardChoice.Estimate holds that payload).
type Rendered chat.Reply

// Reply is the reply as rendered.
func (r Rendered) Reply(*render.Renderer) chat.Reply { return chat.Reply(r) }
