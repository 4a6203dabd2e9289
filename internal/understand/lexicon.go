package understand

import (
	"fmt"
	"sort"

	ahocorasick "github.com/coregx/ahocorasick"

	"github.com/labgpu/bot/internal/catalog"
)

// Lexicon finds concepts (configs/intents/lexicon.yaml) in folded text:
// one Aho-Corasick pass over every word; a word that starts or ends with
// an ASCII letter or digit must not be glued to another there.
type Lexicon struct {
	trie    *ahocorasick.Automaton
	words   []string
	concept []string
}

// newLexicon builds the matcher; words must be folded and unique per
// concept.
func newLexicon(concepts map[string][]string) (*Lexicon, error) {
	lx := &Lexicon{}
	names := make([]string, 0, len(concepts))
	for c := range concepts {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		for _, w := range concepts[c] {
			if w == "" || catalog.Fold(w) != w {
				return nil, fmt.Errorf("lexicon: concept %q: word %q must be lowercase and half-width", c, w)
			}
			lx.words = append(lx.words, w)
			lx.concept = append(lx.concept, c)
		}
	}
	if len(lx.words) == 0 {
		return lx, nil
	}
	// A DFA over the byte classes the words tell apart (a fraction of a
	// full 256-entry table per state).
	var err error
	if lx.trie, err = ahocorasick.NewBuilder().AddStrings(lx.words).Build(); err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	return lx, nil
}

// Concepts returns the concepts found in folded text, each once, sorted.
func (lx *Lexicon) Concepts(folded string) []string {
	if lx == nil || len(lx.words) == 0 {
		return nil
	}
	seen := map[string]bool{}
	b := []byte(folded)
	for _, m := range lx.trie.FindAllOverlapping(b) {
		start, stop := m.Start, m.End
		w := lx.words[m.PatternID]
		if isWordByte(rune(w[0])) && start > 0 && isWordByte(rune(b[start-1])) ||
			isWordByte(rune(w[len(w)-1])) && stop < len(b) && isWordByte(rune(b[stop])) {
			continue
		}
		seen[lx.concept[m.PatternID]] = true
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// conceptTags are the scorer's tags for the concepts of a text.
func conceptTags(lx *Lexicon, folded string) []string {
	cs := lx.Concepts(folded)
	for i, c := range cs {
		cs[i] = "@" + c
	}
	return cs
}

func isWordByte(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }
