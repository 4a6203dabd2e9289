package understand

import (
	"fmt"
	"sort"

	ahocorasick "github.com/BobuSumisu/aho-corasick"

	"github.com/labgpu/bot/internal/catalog"
)

// Lexicon finds concepts (configs/intents/lexicon.yaml) in folded text:
// one Aho-Corasick pass over every word; a word that starts or ends with
// an ASCII letter or digit must not be glued to another there.
type Lexicon struct {
	trie    *ahocorasick.Trie
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
	tb := ahocorasick.NewTrieBuilder()
	for _, c := range names {
		for _, w := range concepts[c] {
			if w == "" || catalog.Fold(w) != w {
				return nil, fmt.Errorf("lexicon: concept %q: word %q must be lowercase and half-width", c, w)
			}
			lx.words = append(lx.words, w)
			lx.concept = append(lx.concept, c)
			tb.AddString(w)
		}
	}
	lx.trie = tb.Build()
	return lx, nil
}

// Concepts returns the concepts found in folded text, each once, sorted.
func (lx *Lexicon) Concepts(folded string) []string {
	if lx == nil || len(lx.words) == 0 {
		return nil
	}
	seen := map[string]bool{}
	b := []byte(folded)
	lx.trie.Walk(b, func(end, n, pattern int64) bool {
		start, stop := int(end-n+1), int(end+1)
		w := lx.words[pattern]
		if isWordByte(rune(w[0])) && start > 0 && isWordByte(rune(b[start-1])) ||
			isWordByte(rune(w[len(w)-1])) && stop < len(b) && isWordByte(rune(b[stop])) {
			return true
		}
		seen[lx.concept[pattern]] = true
		return true
	})
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
