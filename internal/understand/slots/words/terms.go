package words

import (
	"slices"
	"strings"
	"unicode"
)

// Terms are the words of s a match may rest on, each once: lower-case
// ASCII words of three letters or more and Chinese character pairs
// ("怎么定位是哪一行" → 怎么, 么定, 定位 …), those skip reports left out.
func Terms(s string, skip func(string) bool) []string {
	var out []string
	add := func(w string) {
		if !skip(w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	var han []rune
	flush := func() {
		for i := 0; i+1 < len(han); i++ {
			add(string(han[i : i+2]))
		}
		han = han[:0]
	}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
	}) {
		for _, r := range f {
			if unicode.Is(unicode.Han, r) {
				han = append(han, r)
				continue
			}
			flush()
		}
		flush()
		for _, w := range strings.FieldsFunc(f, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			if len(w) >= 3 {
				add(strings.ToLower(w))
			}
		}
	}
	return out
}
