package scorer

import (
	"unicode"
	"unicode/utf8"
)

// Placeholder starts a placeholder token the caller puts in the text for a
// recognised name or figure ("§gpu", "§money"): letters after it belong to
// the token.
const Placeholder = '§'

// MaxText is how much of a text is read, bytes: its first and last halves.
// A longer message is a paste whose head and tail carry the question and
// the final error.
const MaxText = 1200

// Features calls emit for every feature of text, which must already be
// folded (lower case, half-width). Tokens are Chinese characters, Latin
// words (runs of a-z and 0-9; all-digit runs become their length class,
// "<n3>"), placeholders and other symbols (emoji, "?"). It emits:
//
//	'u' every token;
//	'b' every pair of adjacent tokens (spaces do not separate, punctuation
//	    does);
//	't' the character trigrams of Latin words of five letters or more,
//	    with ^ and $ at the ends, for typos.
//
// Kinds are bytes so that callers can add their own ('#' tags). A
// feature has one part (b is "") or two: a bigram's tokens, and a word's
// first and last trigrams as ("^", "me") and ("oy", "$"), so that no
// feature needs a string built for it.
func Features(text string, emit func(kind byte, a, b string)) {
	if len(text) > MaxText {
		text = validHead(text, MaxText/2) + "\n" + validTail(text, MaxText/2)
	}
	prev := ""
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		var tok string
		switch {
		case r == ' ' || r == '\t':
			i += size
			continue
		case r == Placeholder:
			j := i + size
			for j < len(text) && (text[j] >= 'a' && text[j] <= 'z' || text[j] == '_') {
				j++
			}
			tok, i = text[i:j], j
		case isWordByte(r):
			j := i
			for j < len(text) && isWordByte(rune(text[j])) {
				j++
			}
			tok, i = word(text[i:j], emit), j
		case unicode.Is(unicode.Han, r):
			tok, i = text[i:i+size], i+size
		case r == '?' || unicode.IsSymbol(r) || r >= 0x1F000:
			// "?" marks a question; emoji and symbols say a lot in chat.
			tok, i = text[i:i+size], i+size
		default:
			// Punctuation and line breaks end a phrase.
			prev = ""
			i += size
			continue
		}
		emit('u', tok, "")
		if prev != "" {
			emit('b', prev, tok)
		}
		prev = tok
	}
}

func isWordByte(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }

// digitClasses are the tokens of all-digit runs by length.
var digitClasses = [...]string{"<n0>", "<n1>", "<n2>", "<n3>", "<n4>"}

// word returns the token of a Latin word and emits its trigrams.
func word(w string, emit func(kind byte, a, b string)) string {
	digits := true
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			digits = false
			break
		}
	}
	if digits {
		return digitClasses[min(len(w), 4)]
	}
	if len(w) >= 5 {
		emit('t', "^", w[:2])
		for i := 0; i+3 <= len(w); i++ {
			emit('t', w[i:i+3], "")
		}
		emit('t', w[len(w)-2:], "$")
	}
	return w
}

// validHead is the first n bytes of s, cut back to a rune boundary.
func validHead(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// validTail is the last n bytes of s, moved forward to a rune boundary.
func validTail(s string, n int) string {
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}
