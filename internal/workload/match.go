package workload

import (
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/textgate"
)

// matcher finds names in folded text. Each alias becomes a regular
// expression whose runs of letters and digits may be separated by spaces,
// hyphens, underscores or slashes ("vit-b/16" matches "ViT B16"); a match
// must not be glued to further ASCII letters or digits ("sd" is not in
// "ssd", "vit" not in "activity").
type matcher struct {
	pats []namePattern
}

type namePattern struct {
	re *textgate.Regexp
	id string
}

func newMatcher() *matcher { return &matcher{} }

// add adds id as a name of itself and each alias.
func (m *matcher) add(id string, aliases []string) {
	for _, a := range append([]string{id}, aliases...) {
		if p := catalog.AliasPattern(a); p != "" {
			m.pats = append(m.pats, namePattern{re: textgate.Lazy(p), id: id})
		}
	}
}

// best returns the id of the longest name found in folded text (the
// earliest of equally long ones), or "".
func (m *matcher) best(folded string) string {
	id, bestLen, bestAt := "", 0, 0
	for _, p := range m.pats {
		if !p.re.Possible(folded) {
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
	if m, ok := d.model[model]; ok && m.LoRA != "" && d.aboutLoRA(folded) {
		model = m.LoRA
	}
	return model, d.sets.best(folded)
}
