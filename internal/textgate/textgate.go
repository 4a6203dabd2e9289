// Package textgate runs a regular expression only on texts that contain
// the literals every match must contain. Go's regexp engine has no
// literal prefilter for unanchored patterns with alternations, and the
// bot runs dozens of them on every message; most messages contain none of
// a pattern's words, and a few strings.Contains calls rule them out.
package textgate

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// Regexp is a regexp.Regexp with a literal gate. Its Find and Match
// methods return what the regexp would, only faster on texts the gate
// rules out. Its gate is worked out when first used (from the parsed
// pattern; a plain string is its own gate) and the regexp compiled when a
// text first passes the gate: the bot declares a few hundred as package
// variables and builds one per name alias of the catalog (540), and a
// process that answers no message (bot --help, a server waiting for one)
// need not compile them (about 15 ms and 2.5 MB at start), nor one
// question all of those its text rules out.
type Regexp struct {
	pattern  string
	gateOnce sync.Once
	reOnce   sync.Once
	re       *regexp.Regexp
	bad      error // the pattern's parse error (set in gateOnce)
	reErr    error // its compile error (set in reOnce)
	// clauses: every match contains one string of each clause (nil when
	// nothing is known and the gate is always open).
	clauses [][]string
	// words: the pattern is only words joined by | (see wordsOf);
	// MatchString looks for each with strings.Index instead of running
	// the regexp, which tries every alternative at every position.
	words *words
}

var (
	declaredMu sync.Mutex
	declared   []*Regexp
)

// MustCompile returns the gated regexp of pattern, compiled on first use,
// where it panics like regexp.MustCompile if the pattern is bad;
// CompileAll compiles every one declared (tests).
func MustCompile(pattern string) *Regexp {
	r := &Regexp{pattern: pattern}
	declaredMu.Lock()
	declared = append(declared, r)
	declaredMu.Unlock()
	return r
}

// Lazy is MustCompile for a pattern built from data at run time (a
// catalog name's AliasPattern): compiled on first use and not kept for
// CompileAll, so loading a catalog again does not grow the list.
func Lazy(pattern string) *Regexp { return &Regexp{pattern: pattern} }

// CompileAll compiles every regexp MustCompile has returned so far and
// returns the bad patterns' errors (a test calls it, so a bad pattern
// fails CI rather than the first message that reaches it).
func CompileAll() error {
	declaredMu.Lock()
	all := append([]*Regexp(nil), declared...)
	declaredMu.Unlock()
	var errs []error
	for _, r := range all {
		if _, err := regexp.Compile(r.pattern); err != nil {
			errs = append(errs, err)
			continue
		}
		r.regexp()
	}
	return errors.Join(errs...)
}

// gate works out the gate, once: a pattern with no metacharacter is its
// own clause; any other is parsed (a bad pattern panics with its error at
// every use).
func (r *Regexp) gate() {
	r.gateOnce.Do(func() {
		r.words = wordsOf(r.pattern)
		if regexp.QuoteMeta(r.pattern) == r.pattern {
			if r.pattern != "" {
				r.clauses = [][]string{{r.pattern}}
			}
			return
		}
		var err error
		if r.clauses, err = parseRequired(r.pattern); err != nil {
			r.bad = fmt.Errorf("textgate: %w", err)
		}
	})
	if r.bad != nil {
		panic(r.bad.Error())
	}
}

// regexp returns the compiled regexp, compiling it once.
func (r *Regexp) regexp() *regexp.Regexp {
	r.gate()
	r.reOnce.Do(func() {
		re, err := regexp.Compile(r.pattern)
		if err != nil {
			r.reErr = fmt.Errorf("textgate: %w", err)
			return
		}
		r.re = re
	})
	if r.re == nil {
		panic(r.reErr.Error())
	}
	return r.re
}

// Regexp returns the compiled regexp without the gate.
func (r *Regexp) Regexp() *regexp.Regexp { return r.regexp() }

// String returns the pattern.
func (r *Regexp) String() string { return r.pattern }

// SubexpNames is regexp's SubexpNames.
func (r *Regexp) SubexpNames() []string { return r.Regexp().SubexpNames() }

// Possible reports whether s contains a string of every clause.
func (r *Regexp) Possible(s string) bool {
	r.gate()
	for _, c := range r.clauses {
		found := false
		for _, lit := range c {
			if strings.Contains(s, lit) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// MatchString is regexp's MatchString behind the gate.
func (r *Regexp) MatchString(s string) bool {
	r.gate()
	if r.words != nil {
		return r.words.match(s)
	}
	return r.Possible(s) && r.regexp().MatchString(s)
}

// FindStringSubmatch is regexp's FindStringSubmatch behind the gate.
func (r *Regexp) FindStringSubmatch(s string) []string {
	if !r.Possible(s) {
		return nil
	}
	return r.regexp().FindStringSubmatch(s)
}

// FindStringSubmatchIndex is regexp's FindStringSubmatchIndex behind the
// gate.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	if !r.Possible(s) {
		return nil
	}
	return r.regexp().FindStringSubmatchIndex(s)
}

// FindStringIndex is regexp's FindStringIndex behind the gate.
func (r *Regexp) FindStringIndex(s string) []int {
	if !r.Possible(s) {
		return nil
	}
	return r.regexp().FindStringIndex(s)
}

// FindAllStringSubmatchIndex is regexp's FindAllStringSubmatchIndex
// behind the gate.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !r.Possible(s) {
		return nil
	}
	return r.regexp().FindAllStringSubmatchIndex(s, n)
}

// FindAllStringIndex is regexp's FindAllStringIndex behind the gate.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if !r.Possible(s) {
		return nil
	}
	return r.regexp().FindAllStringIndex(s, n)
}

// ReplaceAllString is regexp's ReplaceAllString behind the gate.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	if !r.Possible(src) {
		return src
	}
	return r.regexp().ReplaceAllString(src, repl)
}

// RequiredLiterals returns what every match of the pattern contains, as
// clauses: each match contains at least one string of every clause. Nil
// means no such literal is known (the pattern must run on every text). It
// reads the parsed pattern: a literal is one clause; a concatenation needs
// all its parts' clauses; an alternation needs, from each branch, one of
// that branch's most selective clause; x+ and x{n,} with n ≥ 1 need what x
// needs; anything optional needs nothing; a small class of Chinese
// characters ("没|无" parses as [无没]) is a clause of single characters.
func RequiredLiterals(pattern string) [][]string {
	clauses, _ := parseRequired(pattern)
	return clauses
}

// parseRequired is RequiredLiterals with the pattern's parse error.
func parseRequired(pattern string) ([][]string, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, err
	}
	return required(re.Simplify()), nil
}

func required(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		return [][]string{{string(re.Rune)}}
	case syntax.OpCharClass:
		return classLiterals(re)
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var all [][]string
		for _, sub := range re.Sub {
			all = append(all, required(sub)...)
		}
		return all
	case syntax.OpAlternate:
		var union []string
		for _, sub := range re.Sub {
			r := required(sub)
			if r == nil {
				return nil
			}
			best := r[0]
			for _, c := range r[1:] {
				if shortest(c) > shortest(best) {
					best = c
				}
			}
			union = append(union, best...)
		}
		return [][]string{union}
	}
	return nil
}

// classLiterals is a small class of non-ASCII characters as one clause.
func classLiterals(re *syntax.Regexp) [][]string {
	var lits []string
	for i := 0; i+1 < len(re.Rune); i += 2 {
		lo, hi := re.Rune[i], re.Rune[i+1]
		if lo < 0x80 || hi-lo > 8 || len(lits) > 8 {
			return nil
		}
		for r := lo; r <= hi; r++ {
			lits = append(lits, string(r))
		}
	}
	if len(lits) == 0 {
		return nil
	}
	return [][]string{lits}
}

// shortest is the byte length of the shortest string in a set.
func shortest(xs []string) int {
	n := -1
	for _, x := range xs {
		if n < 0 || len(x) < n {
			n = len(x)
		}
	}
	return n
}

// Compile is MustCompile that returns the error.
func Compile(pattern string) (*Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	r := &Regexp{pattern: pattern, re: re, clauses: RequiredLiterals(pattern), words: wordsOf(pattern)}
	r.gateOnce.Do(func() {})
	r.reOnce.Do(func() {})
	return r, nil
}

// FindAllStringSubmatch is regexp's FindAllStringSubmatch behind the gate.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.Possible(s) {
		return nil
	}
	return r.regexp().FindAllStringSubmatch(s, n)
}

// FindAllString is regexp's FindAllString behind the gate.
func (r *Regexp) FindAllString(s string, n int) []string {
	if !r.Possible(s) {
		return nil
	}
	return r.regexp().FindAllString(s, n)
}

// FindString is regexp's FindString behind the gate.
func (r *Regexp) FindString(s string) string {
	if !r.Possible(s) {
		return ""
	}
	return r.regexp().FindString(s)
}

// ReplaceAllStringFunc is regexp's ReplaceAllStringFunc behind the gate.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if !r.Possible(src) {
		return src
	}
	return r.regexp().ReplaceAllStringFunc(src, repl)
}

// Declared is how many regexps MustCompile has returned.
func Declared() int {
	declaredMu.Lock()
	defer declaredMu.Unlock()
	return len(declared)
}
