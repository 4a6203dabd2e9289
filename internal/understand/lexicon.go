package understand

import (
	"fmt"
	"sort"
	"strings"

	ahocorasick "github.com/coregx/ahocorasick"

	"github.com/labgpu/bot/internal/catalog"
)

// Lexicon finds concepts (configs/intents/lexicon.yaml) in folded text:
// one Aho-Corasick pass over every word, or, built for one question
// (scan), each word looked for with strings.Index; a word that starts or
// ends with an ASCII letter or digit must not be glued to another there.
type Lexicon struct {
	trie    *ahocorasick.Automaton // nil when scanning
	words   []string
	concept []string
}

// newLexicon builds the matcher; words must be folded and unique per
// concept. With scan there is no automaton (its 15–20 ms are more than
// a one-shot process spends scanning).
func newLexicon(concepts map[string][]string, scan bool) (*Lexicon, error) {
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
	if len(lx.words) == 0 || scan {
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
	if lx.trie == nil {
		lx.scan(folded, seen)
	} else {
		for _, m := range lx.trie.FindAllOverlapping([]byte(folded)) {
			if lx.bounded(folded, m.PatternID, m.Start) {
				seen[lx.concept[m.PatternID]] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// scan marks in seen the concepts of the words found in folded.
func (lx *Lexicon) scan(folded string, seen map[string]bool) {
	for i, w := range lx.words {
		if seen[lx.concept[i]] {
			continue
		}
		for from := 0; ; {
			j := strings.Index(folded[from:], w)
			if j < 0 {
				break
			}
			if lx.bounded(folded, i, from+j) {
				seen[lx.concept[i]] = true
				break
			}
			from += j + 1
		}
	}
}

// bounded reports whether word i found at start in s is not glued to a
// letter or digit at an end that is one.
func (lx *Lexicon) bounded(s string, i, start int) bool {
	w := lx.words[i]
	stop := start + len(w)
	return !(isWordByte(rune(w[0])) && start > 0 && isWordByte(rune(s[start-1])) ||
		isWordByte(rune(w[len(w)-1])) && stop < len(s) && isWordByte(rune(s[stop])))
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
