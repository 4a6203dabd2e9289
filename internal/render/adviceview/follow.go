package adviceview

import (
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// Follow answers a follow-up of a troubleshooting answer in its topic:
// a fix asked about ("换bf16行吗": the verdict first), a finding said
// ("nvidia-smi能看到卡": what it means there), or, when what was tried
// did not help ("还是不行", "有没有别的办法"), the steps the last answer
// did not show and the topic's alternatives — or, with none left, that
// they were all given and what to check next.
type Follow struct {
	Lang  i18n.Lang `json:"-"`
	Topic string    `json:"topic"`
	Title string    `json:"title"`
	// Verdict ("yes", "no", "maybe") and Text: the branch named (Verdict
	// empty for a finding).
	Verdict string `json:"verdict,omitempty"`
	Text    string `json:"text,omitempty"`
	// Next: the next steps were asked; Steps are those left, Check the
	// title of the topic to look at next when none are.
	Next  bool     `json:"next,omitempty"`
	Steps []string `json:"steps,omitempty"`
	Check string   `json:"check,omitempty"`
	// Lines are what the lab's data adds (the job's estimate at the
	// settings asked about).
	Lines []string `json:"lines,omitempty"`
}

// Reply is the follow-up's answer: its first line the verdict, the
// finding or the next steps' heading.
func (p Follow) Reply(_ *render.Renderer) chat.Reply {
	l := p.Lang
	var rep chat.Reply
	switch {
	case p.Text != "" && p.Verdict == "stated":
		rep.Title = p.Text
		rep.Lines = append(rep.Lines, p.Lines...)
		rep.Lines = append(rep.Lines, p.stepsAfter(l)...)
	case p.Text != "" && p.Verdict != "":
		rep.Title = l.T("advice.follow.verdict_line", l.T(followVerdictKeys[p.Verdict]), p.Text)
		rep.Lines = append(rep.Lines, p.Lines...)
		rep.Lines = append(rep.Lines, p.stepsAfter(l)...)
	case p.Text != "":
		rep.Title = l.T("advice.follow.finding", p.Title)
		rep.Lines = append(append(rep.Lines, p.Text), p.Lines...)
		rep.Lines = append(rep.Lines, p.stepsAfter(l)...)
	case len(p.Steps) > 0:
		rep.Title = l.T("advice.follow.next", p.Title)
		rep.Lines = append(append(rep.Lines, p.Lines...), numbered(p.Steps)...)
		rep.Notes = append(rep.Notes, l.T("advice.follow.paste"))
	default:
		rep.Title = l.T("advice.follow.exhausted", p.Title)
		rep.Lines = append(rep.Lines, p.Lines...)
		if p.Check != "" {
			rep.Lines = append(rep.Lines, l.T("advice.follow.check", p.Check))
		} else {
			rep.Lines = append(rep.Lines, l.T("advice.follow.paste"))
		}
	}
	return rep
}

// stepsAfter are the steps a branch's answer lists after it (the fix it
// names did not help): a heading and the steps, numbered.
func (p Follow) stepsAfter(l i18n.Lang) []string {
	if p.Next || len(p.Steps) == 0 {
		return nil
	}
	return append([]string{l.T("advice.follow.next", p.Title)}, numbered(p.Steps)...)
}

// followVerdictKeys are the catalog keys of a branch's verdicts (literal, so
// TestCallsMatchCatalog sees them).
var followVerdictKeys = map[string]string{
	"yes":   "advice.follow.verdict.yes",
	"no":    "advice.follow.verdict.no",
	"maybe": "advice.follow.verdict.maybe",
}
