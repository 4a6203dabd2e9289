package i18n

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Reword replaces, in text, each occurrence of the message key (as T
// formats it in l, whatever its arguments) with the message to filled
// with the same arguments as they were written; to "" removes it. It
// reports whether it found one. A channel words some of the catalog's
// sentences otherwise this way: a push-only webhook, whose readers cannot
// write to the bot, leaves out what asks them to. to may use any of key's
// arguments (by their index: "%[2]s"), each as the text it was.
func (l Lang) Reword(text, key, to string) (string, bool) {
	re := l.pattern(key)
	if re == nil || !re.MatchString(text) {
		return text, false
	}
	format := ""
	if to != "" {
		format = asText(l.T(to))
	}
	n := Args(loaded()[l.index()].texts[key])
	out := re.ReplaceAllStringFunc(text, func(m string) string {
		if format == "" {
			return ""
		}
		sub := re.FindStringSubmatch(m)
		args := make([]any, n)
		for i := range args {
			args[i] = ""
			if k := re.SubexpIndex(fmt.Sprintf("a%d", i+1)); k >= 0 {
				args[i] = sub[k]
			}
		}
		return fmt.Sprintf(format, args...)
	})
	return out, true
}

// patterns are the compiled patterns of the messages, by language and key.
var patterns sync.Map // [2]string{lang, key} → *regexp.Regexp (nil: none)

// pattern matches message key in l: its text with each verb a group
// capturing the argument's text, in the order of the arguments (a verb
// that reads an argument already captured matches it again by text). nil
// when there is no such message.
func (l Lang) pattern(key string) *regexp.Regexp {
	id := [2]string{l.Code(), key}
	if re, ok := patterns.Load(id); ok {
		return re.(*regexp.Regexp)
	}
	s, ok := loaded()[l.index()].texts[key]
	var re *regexp.Regexp
	if ok && s != "" {
		re = regexp.MustCompile(toPattern(s))
	}
	patterns.Store(id, re)
	return re
}

// toPattern is the regular expression of a format: its literal text
// quoted, each argument a group named "a<n>" (lazy; greedy at the end),
// an argument written again any text.
func toPattern(format string) string {
	var b strings.Builder
	seen := map[int]bool{}
	toks := tokens(format)
	for i, t := range toks {
		if t.verb == nil {
			b.WriteString(regexp.QuoteMeta(t.lit))
			continue
		}
		any := ".*?"
		if i == len(toks)-1 {
			any = ".*"
		}
		if seen[t.verb.Arg] {
			b.WriteString(any)
			continue
		}
		seen[t.verb.Arg] = true
		fmt.Fprintf(&b, "(?P<a%d>%s)", t.verb.Arg, any)
	}
	return b.String()
}

// piece is a piece of a format: literal text, or one verb.
type piece struct {
	lit  string
	verb *Verb
}

// tokens splits a format into literal text ("%%" read as "%") and verbs.
func tokens(format string) []piece {
	var out []piece
	var lit strings.Builder
	verbs := Verbs(format)
	rs := []rune(format)
	k := 0
	for i := 0; i < len(rs); i++ {
		if rs[i] != '%' {
			lit.WriteRune(rs[i])
			continue
		}
		if i+1 < len(rs) && rs[i+1] == '%' {
			lit.WriteRune('%')
			i++
			continue
		}
		// Skip flags, width, precision and an index up to the letter.
		j := i + 1
		for j < len(rs) && strings.ContainsRune("+-# 0123456789.[]*", rs[j]) {
			j++
		}
		if lit.Len() > 0 {
			out = append(out, piece{lit: lit.String()})
			lit.Reset()
		}
		for k < len(verbs) && verbs[k].Letter == '*' {
			k++
		}
		if k < len(verbs) {
			v := verbs[k]
			out = append(out, piece{verb: &v})
			k++
		}
		i = j
	}
	if lit.Len() > 0 {
		out = append(out, piece{lit: lit.String()})
	}
	return out
}

// asText is a format whose verbs all print their argument as text, by
// index ("%d%%" → "%[1]s%%"), for arguments captured as text.
func asText(format string) string {
	var b strings.Builder
	toks := tokens(format)
	for _, t := range toks {
		if t.verb == nil {
			b.WriteString(strings.ReplaceAll(t.lit, "%", "%%"))
			continue
		}
		fmt.Fprintf(&b, "%%[%d]s", t.verb.Arg)
	}
	return b.String()
}
