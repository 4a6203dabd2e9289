package words

import (
	"slices"
	"testing"
)

// TestTerms: ASCII words of three letters or more (lower case) and
// Chinese character pairs, each once, the skipped left out.
func TestTerms(t *testing.T) {
	skip := func(w string) bool { return w == "which" || w == "怎么" }
	cases := []struct {
		in   string
		want []string
	}{
		{"怎么定位是哪一行", []string{"么定", "定位", "位是", "是哪", "哪一", "一行"}},
		{"Which VERSION should I install, version?", []string{"version", "should", "install"}},
		{"镜像 咋设 a b", []string{"镜像", "咋设"}},
		{"", nil},
	}
	for _, c := range cases {
		if got := Terms(c.in, skip); !slices.Equal(got, c.want) {
			t.Errorf("Terms(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
