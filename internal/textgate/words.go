package textgate

import (
	"strings"
	"unicode/utf8"
)

// words is a pattern made only of words (see wordsOf), matched with
// strings.Index and HasPrefix instead of the regexp, which tries every
// alternative at every position and costs a few hundred ns a call even
// when anchored.
type words struct {
	list []word
	// anchored: the pattern is ^\s*(?:…): a word must start the text,
	// after ASCII spaces.
	anchored bool
}

// word is one alternative: a literal, with \b required before (boundL)
// or after (boundR) it.
type word struct {
	lit            string
	boundL, boundR bool
}

// wordsOf returns the words of a pattern that is only literals joined by
// | ("关|停|\boff\b|no more"), or such a list inside \b(?:…)\b or
// ^\s*(?:…) or ^\s*(?:…)\b; each literal may have \b at an end where it
// has a word character. Anything else — a class, a repeat, a group
// inside, another metacharacter, \b beside a non-word character — gives
// nil: the regexp runs.
func wordsOf(pattern string) *words {
	inner, bound, anchored := pattern, false, false
	if rest, ok := strings.CutPrefix(inner, `^\s*(?:`); ok {
		inner, anchored = rest, true
		if rest, ok := strings.CutSuffix(inner, `)\b`); ok {
			inner, bound = rest, true
		} else if rest, ok := strings.CutSuffix(inner, `)`); ok {
			inner = rest
		} else {
			return nil
		}
	} else if strings.HasPrefix(inner, `\b(?:`) && strings.HasSuffix(inner, `)\b`) {
		inner, bound = inner[len(`\b(?:`):len(inner)-len(`)\b`)], true
	}
	w := &words{anchored: anchored}
	for _, lit := range strings.Split(inner, "|") {
		wd := word{boundL: bound && !anchored, boundR: bound}
		if rest, ok := strings.CutPrefix(lit, `\b`); ok {
			lit, wd.boundL = rest, true
		}
		if rest, ok := strings.CutSuffix(lit, `\b`); ok {
			lit, wd.boundR = rest, true
		}
		// U+FFFD in a pattern also matches invalid UTF-8 in the text,
		// which strings.Index does not.
		if lit == "" || strings.ContainsAny(lit, `\.+*?()|[]{}^$`) || strings.ContainsRune(lit, utf8.RuneError) ||
			wd.boundL && !isWordByte(lit[0]) || wd.boundR && !isWordByte(lit[len(lit)-1]) {
			return nil
		}
		wd.lit = lit
		w.list = append(w.list, wd)
	}
	return w
}

// match reports what the regexp's MatchString would.
func (w *words) match(s string) bool {
	if w.anchored {
		return w.matchStart(s)
	}
	for _, wd := range w.list {
		for from := 0; from <= len(s)-len(wd.lit); {
			i := strings.Index(s[from:], wd.lit)
			if i < 0 {
				break
			}
			i += from
			if wd.bounded(s, i) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// matchStart is match for ^\s*(?:…): one of the words after the leading
// ASCII spaces (regexp's \s).
func (w *words) matchStart(s string) bool {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r') {
		i++
	}
	// \s* gives back spaces a word may start with ("  x" against " x").
	for start := i; start >= 0; start-- {
		for _, wd := range w.list {
			if strings.HasPrefix(s[start:], wd.lit) && wd.bounded(s, start) {
				return true
			}
		}
		if start == 0 {
			break
		}
	}
	return false
}

// bounded reports whether the word at s[i:] has the boundaries it needs.
func (wd word) bounded(s string, i int) bool {
	end := i + len(wd.lit)
	return (!wd.boundL || i == 0 || !isWordByte(s[i-1])) && (!wd.boundR || end == len(s) || !isWordByte(s[end]))
}

// isWordByte is regexp's \w: an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
