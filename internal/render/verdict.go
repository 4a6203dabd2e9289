package render

import (
	"strings"

	"github.com/labgpu/bot/internal/i18n"
)

// The answers to a yes/no question (Verdict.Answer).
const (
	VerdictYes    = "yes"
	VerdictNo     = "no"
	VerdictSame   = "same"   // about the same: neither cheaper nor dearer, neither worth it nor not
	VerdictUnsure = "unsure" // the figures cannot decide it (no live stock, no usage)
)

// The kinds of yes/no question a Verdict answers: understand's YesNo
// kinds (fits, worth, can, have, cheaper, easy) and dearer, a "cheaper"
// question asked the other way round ("比3090贵吗").
const (
	AskFits    = "fits"
	AskWorth   = "worth"
	AskCan     = "can"
	AskHave    = "have"
	AskCheaper = "cheaper"
	AskDearer  = "dearer"
	AskEasy    = "easy"
	// AskBudget: is a budget the member stated enough ("预算500够吗", or
	// a budget stated with no question at all): 够 / 不够.
	AskBudget = "budget"
)

// Verdict answers a yes/no question: what it asks (Kind, one of the Ask
// kinds) and the answer (VerdictYes …). The answer that found it words
// the figure that decides it; Line puts the verdict's word before it, as
// the first line of the reply ("够：约 14 GB，3090 有 24 GB").
type Verdict struct {
	Kind   string `json:"kind"`
	Answer string `json:"answer"`
}

// verdictWords are the catalog keys of each kind's words, by answer.
var verdictWords = map[string]map[string]string{
	AskFits:    {VerdictYes: "verdict.fits.yes", VerdictNo: "verdict.fits.no", VerdictUnsure: "verdict.fits.unsure"},
	AskWorth:   {VerdictYes: "verdict.worth.yes", VerdictNo: "verdict.worth.no", VerdictSame: "verdict.worth.same", VerdictUnsure: "verdict.worth.unsure"},
	AskCan:     {VerdictYes: "verdict.can.yes", VerdictNo: "verdict.can.no", VerdictUnsure: "verdict.can.unsure"},
	AskHave:    {VerdictYes: "verdict.have.yes", VerdictNo: "verdict.have.no", VerdictUnsure: "verdict.have.unsure"},
	AskCheaper: {VerdictYes: "verdict.cheaper.yes", VerdictNo: "verdict.cheaper.no", VerdictSame: "verdict.cheaper.same", VerdictUnsure: "verdict.cheaper.unsure"},
	AskDearer:  {VerdictYes: "verdict.dearer.yes", VerdictNo: "verdict.dearer.no", VerdictSame: "verdict.dearer.same", VerdictUnsure: "verdict.dearer.unsure"},
	AskEasy:    {VerdictYes: "verdict.easy.yes", VerdictNo: "verdict.easy.no", VerdictUnsure: "verdict.easy.unsure"},
	AskBudget:  {VerdictYes: "verdict.budget.yes", VerdictNo: "verdict.budget.no", VerdictUnsure: "verdict.budget.unsure"},
}

// Word is the verdict's word in l ("够", "不划算", "No, not worth it");
// "" for a kind or answer it has none for.
func (v Verdict) Word(l i18n.Lang) string {
	if k, ok := verdictWords[v.Kind][v.Answer]; ok {
		return l.T(k)
	}
	return ""
}

// Line is the verdict's word and why, the first line of a reply: "够：
// 7B QLoRA 约需 15.5 GB，RTX 3090 有 24 GB。"; why alone when the verdict
// has no word.
func (v Verdict) Line(why string, l i18n.Lang) string {
	w := v.Word(l)
	if w == "" {
		return why
	}
	return l.T("verdict.line", w, why)
}

// BudgetSaid is how a budget was said, for its verdict to say it the
// same way: in US dollars (USDRate, CNY per dollar; 0: in CNY) and per
// card for Cards cards (0 or 1: for everything).
type BudgetSaid struct {
	USDRate float64 `json:"usd_rate,omitempty"`
	Cards   int     `json:"cards,omitempty"`
}

// BudgetText is a budget of cny in all as it was said: "1000 元", "$100
// （约 720 元）", "每张 1000 元（2 张共 2000 元）".
func BudgetText(l i18n.Lang, cny float64, said BudgetSaid) string {
	n := max(said.Cards, 1)
	switch {
	case said.USDRate > 0 && n > 1:
		return l.T("verdict.budget_said.per_card_usd", TrimF(Round2(cny/said.USDRate/float64(n))), n, TrimF(cny))
	case said.USDRate > 0:
		return l.T("verdict.budget_said.usd", TrimF(Round2(cny/said.USDRate)), TrimF(cny))
	case n > 1:
		return l.T("verdict.budget_said.per_card", TrimF(cny/float64(n)), n, TrimF(cny))
	}
	return l.T("verdict.budget_said.cny", TrimF(cny))
}

// CutVerdict splits a reply's first line that opens with a verdict
// ("有：录下的数据里…", "Yes: in recorded data …") into the verdict's word
// and the rest; ok is false when the line opens with none. The longest
// word wins ("没有" before "有", "No, not worth it" before "No").
func CutVerdict(line string, l i18n.Lang) (word, rest string, ok bool) {
	for _, answers := range verdictWords {
		for _, key := range answers {
			w := l.T(key)
			if w == "" || len(w) <= len(word) {
				continue
			}
			head := l.T("verdict.line", w, "")
			if r, found := strings.CutPrefix(line, head); found && r != "" {
				word, rest, ok = w, r, true
			}
		}
	}
	return word, rest, ok
}
