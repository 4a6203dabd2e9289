package workload

import (
	"strings"
	"sync"
	"unicode"

	"github.com/coregx/ahocorasick"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/textgate"
)

// matcher finds names in folded text. Each alias becomes a regular
// expression whose runs of letters and digits may be separated by spaces,
// hyphens, underscores or slashes ("vit-b/16" matches "ViT B16"); a match
// must not be glued to further ASCII letters or digits ("sd" is not in
// "ssd", "vit" not in "activity").
//
// A text is read once by an Aho-Corasick automaton of the names' first
// runs (a name can only match where its first run occurs); only the names
// whose first run it holds are tried (a pasted traceback names none of
// most).
type matcher struct {
	pats []namePattern

	once  sync.Once
	heads *ahocorasick.Automaton // nil: try every name
	byLit [][]int                // the names (indexes into pats) of each first run
}

type namePattern struct {
	re   *textgate.Regexp
	id   string
	head string // the alias's first run of letters or digits, folded
}

func newMatcher() *matcher { return &matcher{} }

// add adds id as a name of itself and each alias.
func (m *matcher) add(id string, aliases []string) {
	for _, a := range append([]string{id}, aliases...) {
		if p := catalog.AliasPattern(a); p != "" {
			m.pats = append(m.pats, namePattern{re: textgate.Lazy(p), id: id, head: firstRun(catalog.Fold(a))})
		}
	}
}

// firstRun is the first run of letters or of digits of a folded alias, as
// catalog.AliasPattern cuts it (a '.' inside digits belongs to them).
func firstRun(a string) string {
	start, kind := -1, 0
	for i, r := range a {
		k := 0
		switch {
		case r >= '0' && r <= '9' || r == '.' && kind == 2:
			k = 2
		case unicode.IsLetter(r):
			k = 1
		}
		switch {
		case start < 0 && k != 0:
			start, kind = i, k
		case start >= 0 && k != kind:
			return a[start:i]
		}
	}
	if start < 0 {
		return ""
	}
	return a[start:]
}

// build makes the automaton of the names' first runs.
func (m *matcher) build() {
	index := map[string]int{}
	var lits []string
	for i, p := range m.pats {
		if p.head == "" {
			return // a name without a first run: every name is tried
		}
		id, ok := index[p.head]
		if !ok {
			id = len(lits)
			index[p.head] = id
			lits = append(lits, p.head)
			m.byLit = append(m.byLit, nil)
		}
		m.byLit[id] = append(m.byLit[id], i)
	}
	if len(lits) == 0 {
		return
	}
	a, err := ahocorasick.NewBuilder().AddStrings(lits).Build()
	if err != nil {
		m.byLit = nil
		return
	}
	m.heads = a
}

// candidates marks the names whose first run occurs in folded (nil:
// every name).
func (m *matcher) candidates(folded string) []bool {
	m.once.Do(m.build)
	if m.heads == nil {
		return nil
	}
	c := make([]bool, len(m.pats))
	for _, hit := range m.heads.FindAllOverlapping([]byte(folded)) {
		for _, i := range m.byLit[hit.PatternID] {
			c[i] = true
		}
	}
	return c
}

// best returns the id of the longest name found in folded text (the
// earliest of equally long ones), or "".
func (m *matcher) best(folded string) string {
	id, bestLen, bestAt := "", 0, 0
	cand := m.candidates(folded)
	for i, p := range m.pats {
		if cand != nil && !cand[i] || !p.re.Possible(folded) {
			continue
		}
		for _, loc := range p.re.FindAllStringIndex(folded, -1) {
			if !glueFree(folded, loc[0], loc[1]) {
				continue
			}
			n := loc[1] - loc[0]
			if n > bestLen || n == bestLen && loc[0] < bestAt {
				id, bestLen, bestAt = p.id, n, loc[0]
			}
		}
	}
	return id
}

// all returns the ids of every name found in folded text.
func (m *matcher) all(folded string) []string {
	var ids []string
	cand := m.candidates(folded)
	for i, p := range m.pats {
		if cand != nil && !cand[i] || !p.re.Possible(folded) {
			continue
		}
		for _, loc := range p.re.FindAllStringIndex(folded, -1) {
			if glueFree(folded, loc[0], loc[1]) {
				ids = append(ids, p.id)
				break
			}
		}
	}
	return ids
}

// glueFree reports whether [start, end) of s has no ASCII letter or digit
// right before or after it.
func glueFree(s string, start, end int) bool {
	return (start == 0 || !asciiWord(s[start-1])) && (end == len(s) || !asciiWord(s[end]))
}

func asciiWord(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// aboutLoRA reports whether a folded question is about training a LoRA
// (one of the data's lora_words occurs in it).
func (d *Data) aboutLoRA(folded string) bool {
	for _, w := range d.LoRAWords {
		if strings.Contains(folded, w) {
			return true
		}
	}
	return false
}

// Find returns the model and the dataset a question names (ids, "" when
// none): the longest names found in the folded text. A generation model
// named with training words ("sdxl 训练 lora") is its LoRA workload.
func (d *Data) Find(text string) (model, dataset string) {
	folded := catalog.Fold(text)
	model = d.names.best(folded)
	if m, ok := d.model[model]; ok && m.Kind == KindLoRA {
		// A LoRA named by a generic word ("画风 lora") for a base model
		// the question names ("flux 的画风 lora"): that model's LoRA.
		for _, id := range d.names.all(folded) {
			if b := d.model[id]; b.LoRA != "" && b.LoRA != model {
				model = b.LoRA
				break
			}
		}
	}
	if m, ok := d.model[model]; ok && d.aboutLoRA(folded) {
		switch {
		case m.LoRA != "":
			model = m.LoRA
		case m.Train != "":
			model = m.Train
		}
	}
	return model, d.sets.best(folded)
}
