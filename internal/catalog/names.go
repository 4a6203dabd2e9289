package catalog

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/labgpu/bot/internal/textgate"
)

// Fold normalises user text for matching: full-width characters become
// half-width ("４０９０" → "4090", "，" → ","), letters become lower case, and
// the ideographic space becomes a plain space. Fold keeps rune positions
// one-to-one with its input runes, so spans found in the folded text map back.
func Fold(s string) string {
	// Lowercase ASCII is already folded: a message's pasted log is
	// mostly that, and it is folded on every message.
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
			continue
		}
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// Full-width characters folded to ASCII: U+3000 (the ideographic space)
// and U+FF0D (the full-width hyphen-minus).
const (
	ideographicSpace = 0x3000
	fullWidthHyphen  = 0xFF0D
)

func foldRune(r rune) rune {
	if r < 0x80 {
		return unicode.ToLower(r)
	}
	switch r {
	case ideographicSpace, '\u2005', '\u00a0':
		return ' '
	case fullWidthHyphen, '—', '–':
		return '-'
	}
	if r >= 0xFF01 && r <= 0xFF5E { // full-width ASCII block
		k, _ := width.LookupRune(r).Narrow(), 0
		if k != 0 {
			return unicode.ToLower(k)
		}
	}
	return unicode.ToLower(r)
}

// Match is a name found in text: the canonical id it names, and the byte
// span [Start, End) in the folded text.
type Match struct {
	ID    string
	Start int
	End   int
	// Family is true when a bare family name matched ("A100"), which
	// means every GPU of that family.
	Family bool
}

type pattern struct {
	re     *textgate.Regexp
	id     string
	family bool
}

// matcher finds names in folded text. Each alias becomes a regular
// expression in which runs of letters and digits may be separated by spaces,
// hyphens or underscores ("qwen2.5-7b" matches "Qwen2.5 7B"); a match must
// not be glued to further letters or digits on either side ("4090" does not
// match inside "4090d" or "40900").
type matcher struct {
	pats []pattern
	// exact maps a compacted alias (letters and digits only) to an id, for
	// resolving a whole string such as a provider's GPU name.
	exact map[string]pattern
}

// sepRe separates the runs of an alias: spaces, hyphens, underscores,
// slashes, colons ("qwen2.5:7b" as ollama names it) and dots between
// letters ("vast.ai": without it "vast" matched alone and ".ai" was left
// in a disk's note).
var sepRe = `[\s\-_/:.]*`

// AliasPattern turns an alias into a regular expression: runs of letters
// and of digits, folded, may be separated by sepRe ("" when the alias has
// no letter or digit). The workload names use it too.
func AliasPattern(alias string) string {
	a := Fold(alias)
	var parts []string
	var cur strings.Builder
	kind := 0 // 1 letters, 2 digits
	flush := func() {
		if cur.Len() > 0 {
			parts = append(parts, regexp.QuoteMeta(cur.String()))
			cur.Reset()
		}
	}
	for _, r := range a {
		k := 0
		switch {
		case r >= '0' && r <= '9' || r == '.' && kind == 2:
			k = 2
		case unicode.IsLetter(r):
			k = 1
		default:
			flush()
			kind = 0
			continue
		}
		if k != kind {
			flush()
		}
		kind = k
		cur.WriteRune(r)
	}
	flush()
	return strings.Join(parts, sepRe)
}

// Compact keeps only letters and digits of folded s ("RTX-4090 " → "rtx4090").
func Compact(s string) string {
	var b strings.Builder
	for _, r := range Fold(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func newMatcher() *matcher { return &matcher{exact: map[string]pattern{}} }

func (m *matcher) add(alias, id string, family bool) {
	if strings.TrimSpace(alias) == "" {
		return
	}
	src := AliasPattern(alias)
	key := Compact(alias)
	if old, dup := m.exact[key]; dup && old.id == id && old.re.String() == src {
		return // the same name twice ("Qwen2.5-7B" and "qwen2.5 7b")
	}
	p := pattern{re: textgate.Lazy(src), id: id, family: family}
	m.pats = append(m.pats, p)
	if _, dup := m.exact[key]; !dup {
		m.exact[key] = p
	}
}

// addAll adds id as a name of itself, then each name in lists, in order.
func (m *matcher) addAll(id string, lists ...[]string) {
	m.add(id, id, false)
	for _, names := range lists {
		for _, n := range names {
			m.add(n, id, false)
		}
	}
}

// resolve maps raw to an id: an exact compacted name first, else the first
// name found in folded raw.
func (m *matcher) resolve(raw string) (string, bool) {
	if p, ok := m.exact[Compact(raw)]; ok {
		return p.id, true
	}
	ms := m.find(Fold(raw))
	if len(ms) == 0 {
		return "", false
	}
	return ms[0].ID, true
}

func isWordRune(r rune) bool {
	return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// find returns non-overlapping matches in folded text, longest first at
// each position, in order of position.
func (m *matcher) find(folded string) []Match {
	var all []Match
	for _, p := range m.pats {
		for _, loc := range p.re.FindAllStringIndex(folded, -1) {
			if !boundaryOK(folded, loc[0], loc[1]) {
				continue
			}
			all = append(all, Match{ID: p.id, Start: loc[0], End: loc[1], Family: p.family})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		li, lj := all[i].End-all[i].Start, all[j].End-all[j].Start
		if li != lj {
			return li > lj
		}
		return all[i].Start < all[j].Start
	})
	var out []Match
	for _, c := range all {
		overlap := false
		for _, o := range out {
			if c.Start < o.End && o.Start < c.End {
				overlap = true
				break
			}
		}
		if !overlap {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// boundaryOK rejects matches glued to ASCII letters or digits. A trailing
// memory size such as "24g" or "24gb" after a space is allowed by the caller.
// Two gluings are allowed: a count written with x ("2x4090", "a100x8") and
// an English plural after a digit ("4090s", "a100s").
func boundaryOK(s string, start, end int) bool {
	if start > 0 {
		r := lastRune(s[:start])
		if isWordRune(r) && !(r == 'x' && start >= 2 && isDigit(s[start-2])) {
			return false
		}
	}
	if end < len(s) {
		r := []rune(s[end:])[0]
		switch {
		case !isWordRune(r):
		case r == 'x' && end+1 < len(s) && isDigit(s[end+1]):
		case r == 's' && end > start && isDigit(s[end-1]) && (end+1 == len(s) || !isWordRune([]rune(s[end+1:])[0])):
		default:
			return false
		}
	}
	return true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func lastRune(s string) rune {
	rs := []rune(s)
	return rs[len(rs)-1]
}
