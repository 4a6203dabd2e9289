package i18n

import "strconv"

// Verb is one formatting verb of a text: the argument it reads (from 1)
// and its letter ('s', 'd', 'f' …).
type Verb struct {
	Arg    int
	Letter rune
}

// Verbs are the formatting verbs of a Go format string in the order they
// appear, each with the argument it formats (explicit [n] indexes
// honoured; a * width or precision reads an argument of its own, reported
// with letter '*').
func Verbs(format string) []Verb {
	var out []Verb
	arg := 1
	rs := []rune(format)
	for i := 0; i < len(rs); i++ {
		if rs[i] != '%' {
			continue
		}
		i++
		if i < len(rs) && rs[i] == '%' {
			continue
		}
		for i < len(rs) {
			c := rs[i]
			switch {
			case c == '+' || c == '-' || c == '#' || c == ' ' || c == '0' || c == '.' || c >= '1' && c <= '9':
				i++
				continue
			case c == '*':
				out = append(out, Verb{Arg: arg, Letter: '*'})
				arg++
				i++
				continue
			case c == '[':
				j := i + 1
				for j < len(rs) && rs[j] != ']' {
					j++
				}
				if n, err := strconv.Atoi(string(rs[i+1 : j])); err == nil {
					arg = n
				}
				i = j + 1
				continue
			}
			out = append(out, Verb{Arg: arg, Letter: c})
			arg++
			break
		}
	}
	return out
}

// Args is how many arguments a format string reads (its highest
// argument).
func Args(format string) int {
	n := 0
	for _, v := range Verbs(format) {
		n = max(n, v.Arg)
	}
	return n
}
