package advice

import (
	"slices"
	"testing"
)

// FuzzShortSpans: the spans found from both ends are those a full scan
// keeps (the first two and the latest maxSpans-2).
func FuzzShortSpans(f *testing.F) {
	f.Add("a b c d e f g h i j k l", " ")
	f.Add("in in in", "in")
	f.Add("aaaaaaaaaaaaaaaaaaaaa", "aa")
	f.Add("x", "xy")
	f.Fuzz(func(t *testing.T, text, lit string) {
		if lit == "" || len(lit) >= MinAutomaton {
			return
		}
		all := shortSpans([]byte(text), lit, true)
		want := all
		if len(all) > maxSpans {
			want = append(slices.Clone(all[:2]), all[len(all)-(maxSpans-2):]...)
		}
		if got := shortSpans([]byte(text), lit, false); !slices.Equal(got, want) {
			t.Fatalf("shortSpans(%q, %q) = %v, want %v", text, lit, got, want)
		}
	})
}
