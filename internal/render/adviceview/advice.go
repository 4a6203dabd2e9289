package adviceview

import (
	"fmt"
	"math"
	"strings"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/cite"
	"github.com/labgpu/bot/internal/render/estimateview"
)

// Advice is the advice answer (intent advice): the knowledge base's
// entry (`bot ask --format json` prints it as "advice"), the figures of
// an estimate the answer made (an OOM report or a card question naming a
// job), and what the lab's data adds to the topic (its tie).
type Advice struct {
	Lang i18n.Lang `json:"-"`
	// Advice is the entry; its Topic is "" when none matched well
	// enough (Closest then names the nearest).
	Advice *Entry `json:"advice,omitempty"`
	Figures
	// Confidence is the match's score unrounded (Advice.Score is it to
	// two decimals); HowTo: the question asks how to do something ("第一次
	// 租卡要注意什么"), so the topic is advice, not a diagnosis.
	Confidence float64 `json:"-"`
	HowTo      bool    `json:"-"`
	// Card is a card question's answer (nil otherwise); CardTopic: the
	// topic is card choice itself, not another that lists cards (multi-GPU
	// scaling).
	Card      *CardChoice `json:"-"`
	CardTopic bool        `json:"-"`
	// The topic's tie, at most one set: an OOM report's figures and
	// estimate; data-disk prices (Disk); billing granularity per
	// platform; retention rules; stock now; platforms whose hidden costs
	// to name.
	OOM         *OOM           `json:"-"`
	Disk        *Disk          `json:"-"`
	Billing     []BillingRow   `json:"-"`
	Retention   []RetentionRow `json:"-"`
	Stock       *Stock         `json:"-"`
	HiddenCosts []string       `json:"-"`
}

// Entry is the knowledge-base entry behind an answer.
type Entry struct {
	// Topic is the entry id, empty when no entry matched well enough.
	Topic string `json:"topic,omitempty"`
	Title string `json:"title,omitempty"`
	// Score is the confidence in [0, 1) (kb.Threshold picks a topic).
	Score float64 `json:"score"`
	// Matched are the terms found in the text, strongest first.
	Matched []string `json:"matched,omitempty"`
	Causes  []string `json:"causes,omitempty"`
	Steps   []string `json:"steps,omitempty"`
	Source  string   `json:"source,omitempty"`
	// Related are further entries worth reading; Closest the nearest
	// entries when none matched.
	Related []Ref `json:"related,omitempty"`
	Closest []Ref `json:"closest,omitempty"`
	// Workload is the non-LLM job a card-choice question named.
	Workload *kb.Workload `json:"workload,omitempty"`
	// Cards are the cards that fit a card-choice question, cheapest first
	// (or the cards it named, side by side).
	Cards []Card `json:"cards,omitempty"`
}

// Ref names another entry.
type Ref struct {
	Topic string  `json:"topic"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
}

// Figures are an estimate's figures, its main ones repeated at the top
// level of the JSON, as the estimate answer prints them.
type Figures = estimateview.Figures

// Reply is the advice: the topic (as a diagnosis with its confidence, or
// as advice), the likeliest cause, what the lab's data adds and the
// first steps; every cause and step, the related topics, the terms
// matched and the sources behind "详情".
func (p Advice) Reply(rd *render.Renderer) chat.Reply {
	l, ar := p.Lang, p.Advice
	if ar == nil || ar.Topic == "" {
		return p.unknown(l)
	}
	rep := chat.Reply{Title: title(ar.Title, p.Confidence, p.HowTo, l)}
	causes, steps := l.T("advice.causes"), l.T("advice.steps")
	if p.HowTo {
		causes = l.T("advice.key_points")
	}
	showSteps := true
	// tie holds what the lab's data adds (estimate, prices, stock), kept
	// apart so the short form can take its first lines.
	tie := chat.Reply{}
	// The estimate of a card question's job, rendered once for both
	// forms.
	var est *chat.Reply
	if p.Card != nil && p.Card.Estimate != nil {
		r := p.Card.Estimate.Reply(rd)
		est = &r
	}
	if p.Card != nil {
		// A card question: the cards first, then the general logic; the
		// rough tiers only when no job was named.
		tie.Title = l.T("advice.card.title")
		showSteps = !p.Card.reply(rd, l, &tie, est)
		rep.Title, tie.Title = tie.Title, ""
		causes, steps = l.T("advice.card.how"), l.T("advice.card.tiers")
		if !p.CardTopic {
			// Another topic that lists cards (multi-GPU scaling): its own
			// title, causes and steps, with the cards for the job.
			rep.Title, showSteps = title(ar.Title, p.Confidence, false, l), true
			causes, steps = l.T("advice.causes"), l.T("advice.steps")
		}
	}
	causeLines, stepLines := bullets(ar.Causes), []string(nil)
	if showSteps {
		stepLines = numbered(ar.Steps)
	}
	// 详情 has the estimate of a card question whole (the short form its
	// first screen).
	tieFull, whole := p.Card.fullTie(l, est)
	p.tie(rd, l, &tie)
	if whole {
		p.tie(rd, l, &tieFull)
	} else {
		tieFull = tie
	}
	rep.Lines = append(append(append(append(rep.Lines, causes), causeLines...), tieFull.Lines...), stepsBlock(steps, stepLines)...)
	rep.Table, rep.Notes = tieFull.Table, tieFull.Notes
	short := chat.Reply{Title: rep.Title, Table: shortTable(tie.Table)}
	if len(causeLines) > 0 {
		lead := l.T("advice.most_common")
		if p.HowTo {
			lead = l.T("advice.key_point")
		}
		if p.Card != nil {
			lead = causes
		}
		short.Lines = append(short.Lines, lead+strings.TrimPrefix(causeLines[0], "• "))
	}
	tieLines, ask := firstN(tie.Lines, 2), ""
	if p.OOM != nil && p.OOM.NoJob && len(tieLines) > 0 {
		// "Tell me the model …" comes after the first steps: what to do
		// first, what to tell the bot next.
		tieLines, ask = tieLines[:len(tieLines)-1], tieLines[len(tieLines)-1]
	}
	short.Lines = append(short.Lines, tieLines...)
	first := 3
	if ask != "" {
		first = 2 // room for the ask after them
	}
	short.Lines = append(short.Lines, stepsBlock(steps, firstN(stepLines, first))...)
	if ask != "" {
		short.Notes = append(short.Notes, ask)
	}
	rep.Notes = append(rep.Notes, sourceNotes(ar, l)...)
	short.Notes = append(short.Notes, firstN(tie.Notes, 1)...)
	short.Notes = append(short.Notes, starNote(short.Table, tie.Notes[min(1, len(tie.Notes)):])...)
	if len(ar.Related) > 0 {
		short.Notes = append(short.Notes, l.T("advice.related", refTitles(ar.Related[:min(2, len(ar.Related))], l)))
	}
	short.Full = &rep
	return short
}

// unknown says no topic matched and names the closest ones.
func (p Advice) unknown(l i18n.Lang) chat.Reply {
	rep := chat.Reply{Title: l.T("advice.unknown.title")}
	if ar := p.Advice; ar != nil && len(ar.Closest) > 0 {
		rep.Lines = append(rep.Lines, l.T("advice.unknown.closest", refTitles(ar.Closest, l)), l.T("advice.unknown.paste_one"))
	} else {
		rep.Lines = append(rep.Lines, l.T("advice.unknown.paste"))
	}
	return rep
}

// title is an advice answer's first line: the topic, as a diagnosis with
// its confidence ("很可能是：…（把握 86%）" at 0.75 or more) unless the
// question asks how to do something.
func title(topic string, score float64, howTo bool, l i18n.Lang) string {
	conf := int(math.Round(score * 100))
	switch {
	case howTo:
		return topic
	case score >= 0.75:
		return l.T("advice.most_likely", topic, conf)
	}
	return l.T("advice.possibly", topic, conf)
}

// sourceNotes are the notes under a topic's full answer: related
// topics, the terms it matched on and its source.
func sourceNotes(ar *Entry, l i18n.Lang) []string {
	var notes []string
	if len(ar.Related) > 0 {
		notes = append(notes, l.T("advice.related", refTitles(ar.Related, l)))
	}
	if len(ar.Matched) > 0 {
		notes = append(notes, l.T("advice.matched", quoteList(ar.Matched, 4, l)))
	}
	return append(notes, l.T("advice.source", cite.Source(ar.Source, l)))
}

// bullets marks each line with "• "; numbered numbers them "1. ".
func bullets(lines []string) []string {
	out := make([]string, len(lines))
	for i, s := range lines {
		out[i] = "• " + s
	}
	return out
}

func numbered(lines []string) []string {
	out := make([]string, len(lines))
	for i, s := range lines {
		out[i] = fmt.Sprintf("%d. %s", i+1, s)
	}
	return out
}

// stepsBlock is a heading and its numbered steps (nothing without steps).
func stepsBlock(heading string, steps []string) []string {
	if len(steps) == 0 {
		return nil
	}
	return append([]string{heading}, steps...)
}

func firstN(xs []string, n int) []string {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

// shortTable is a table cut to render.ShortRows rows (nil stays nil).
func shortTable(t *chat.Table) *chat.Table {
	if t == nil || len(t.Rows) <= render.ShortRows {
		return t
	}
	c := *t
	c.Rows = c.Rows[:render.ShortRows]
	return &c
}

// starNote is the note that explains a * in a table's cells (a figure
// only the seed articles give), when a cell has one.
func starNote(t *chat.Table, notes []string) []string {
	if t == nil {
		return nil
	}
	for _, row := range t.Rows {
		for _, c := range row {
			if !strings.HasSuffix(c, "*") {
				continue
			}
			for _, n := range notes {
				if strings.HasPrefix(n, "* ") {
					return []string{n}
				}
			}
			return nil
		}
	}
	return nil
}

// refTitles joins the titles of refs for a line of text.
func refTitles(refs []Ref, l i18n.Lang) string {
	var names []string
	for _, x := range refs {
		names = append(names, x.Title)
	}
	return strings.Join(names, l.T("advice.join"))
}

// quoteList quotes up to n terms.
func quoteList(xs []string, n int, l i18n.Lang) string {
	if len(xs) > n {
		xs = xs[:n]
	}
	var out []string
	for _, x := range xs {
		out = append(out, "“"+x+"”")
	}
	return strings.Join(out, l.T("list.sep"))
}
