package understand

import (
	"slices"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

// lexicons builds the embedded lexicon with and without its automaton,
// and returns phrasings of the corpus, folded.
func lexicons(tb testing.TB) (auto, scan *Lexicon, texts []string) {
	tb.Helper()
	in, err := LoadIntents(configs.FS)
	if err != nil {
		tb.Fatal(err)
	}
	if auto, err = newLexicon(in.Concepts, false); err != nil {
		tb.Fatal(err)
	}
	if scan, err = newLexicon(in.Concepts, true); err != nil {
		tb.Fatal(err)
	}
	for _, d := range in.Defs {
		for _, e := range append(slices.Clone(d.Examples), d.Keywords...) {
			texts = append(texts, catalog.Fold(e))
		}
	}
	for _, ws := range in.Concepts {
		texts = append(texts, ws...)
	}
	return auto, scan, texts
}

// TestLexiconScan: scanning finds the concepts the automaton finds in
// every phrasing and keyword of the corpus and every lexicon word.
func TestLexiconScan(t *testing.T) {
	auto, scan, texts := lexicons(t)
	if scan.trie != nil || auto.trie == nil || len(texts) < 1000 {
		t.Fatalf("automata %v %v, %d texts", auto.trie != nil, scan.trie != nil, len(texts))
	}
	with := 0
	for _, s := range texts {
		a, b := auto.Concepts(s), scan.Concepts(s)
		if !slices.Equal(a, b) {
			t.Errorf("%q: automaton %q, scan %q", s, a, b)
		}
		if len(a) > 0 {
			with++
		}
	}
	if with < len(texts)/4 {
		t.Errorf("concepts in only %d of %d texts", with, len(texts))
	}
}

func FuzzLexiconScan(f *testing.F) {
	for _, s := range []string{"哪家有4090", "帮我盯着a100", "out of memory", "", "\xff"} {
		f.Add(s)
	}
	auto, scan, _ := lexicons(f)
	f.Fuzz(func(t *testing.T, s string) {
		if a, b := auto.Concepts(s), scan.Concepts(s); !slices.Equal(a, b) {
			t.Fatalf("%q: automaton %q, scan %q", s, a, b)
		}
	})
}
