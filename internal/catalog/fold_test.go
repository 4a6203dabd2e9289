package catalog

import (
	"strings"
	"testing"
)

// FuzzFold: Fold's fast paths give what folding every rune gives.
func FuzzFold(f *testing.F) {
	for _, s := range []string{"", "rtx 4090", "RTX 4090", "４０９０ＴＩ", "a\u3000b", "A100—80G", "\xff\xfeX", "哪家有4090", "ÄÖ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		for _, r := range s {
			b.WriteRune(foldRune(r))
		}
		if got, want := Fold(s), b.String(); got != want {
			t.Fatalf("Fold(%q) = %q, want %q", s, got, want)
		}
	})
}
