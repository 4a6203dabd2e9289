// Package words is the slot data: the words the slot extractors (and
// the pipeline's rules in package understand) read, which are data in
// configs/slots/*.yaml. `go generate ./configs` writes them, read and
// checked, into configs/slots.json (CompiledDataFile), which the bot
// reads once when first needed (Preload reads it beside the compiled
// intents): a tenth of the YAML's cost. TestCompiledDataIsCurrent fails
// while it is stale.
// The Go holds what a match means (which group is the number, which unit
// multiplies); the files hold how Chinese and English say it. Each file
// has any of these sections, named "<file>.<name>" in Go ("alerts.mute"
// is the mute pattern of alerts.yaml):
//
//	fragments: name → a piece of pattern, written {{name}} in any file's
//	           patterns (fragment names are shared by all files)
//	patterns:  name → a regular expression (RE2, on folded text: lower
//	           case, half-width), or a list of alternatives joined by |
//	           (Expr, NewExpr)
//	lists:     name → regular expressions tried in order (Exprs)
//	words:     name → plain words (WordList, ContainsAny, sets)
//	numbers:   name → word → number (Number, Numbers; the numerals
//	           ParseNum reads)
//	maps:      name → word → word (Mapping)
//
// and time.yaml the one vocabulary of times of day and of the week
// (vocabulary.go: DayParts, Weekdays, WeekParts, RelativeDays and their
// readers), which package when reads a question's times with.
// It imports nothing of the slot extractors (package slots) or the
// pipeline.
package words

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/strictyaml"
	"github.com/labgpu/bot/internal/textgate"
)

// DataDir is the directory of the slot data in the configs FS, and
// CompiledDataFile the compiled data beside it.
const (
	DataDir          = "slots"
	CompiledDataFile = "slots.json"
)

// dataFile is one file of configs/slots (Name: its base name, the first
// part of its keys).
type dataFile struct {
	Name           string                        `yaml:"-" json:"name"`
	Fragments      map[string]string             `yaml:"fragments" json:"fragments,omitempty"`
	Patterns       map[string]alternatives       `yaml:"patterns" json:"patterns,omitempty"`
	Lists          map[string][]alternatives     `yaml:"lists" json:"lists,omitempty"`
	Words          map[string][]string           `yaml:"words" json:"words,omitempty"`
	Numbers        map[string]map[string]float64 `yaml:"numbers" json:"numbers,omitempty"`
	Maps           map[string]map[string]string  `yaml:"maps" json:"maps,omitempty"`
	vocabularyFile `yaml:",inline"`
}

// alternatives is a pattern written as one string or as a list of
// alternatives (joined by |).
type alternatives string

// UnmarshalYAML reads a string or a list of strings.
func (a *alternatives) UnmarshalYAML(n *strictyaml.Node) error {
	if n.Kind == strictyaml.ScalarNode {
		var s string
		if err := n.Decode(&s); err != nil {
			return err
		}
		*a = alternatives(s)
		return nil
	}
	var l []string
	if err := n.Decode(&l); err != nil {
		return err
	}
	*a = alternatives(strings.Join(l, "|"))
	return nil
}

// slotData is every file of configs/slots, merged and checked: patterns
// with their fragments expanded, keyed "<file>.<name>".
type slotData struct {
	patterns map[string]string
	lists    map[string][]string
	words    map[string][]string
	numbers  map[string]map[string]float64
	maps     map[string]map[string]string
	vocab    *vocabulary
	// frags are the fragments, the vocabulary's too.
	frags map[string]string
}

// yamlSource: the bot reads configs/slots/*.yaml rather than the
// compiled data (ReadYAML).
var yamlSource atomic.Bool

// ReadYAML makes the slot extractors read configs/slots/*.yaml, not the
// compiled configs/slots.json: for the generator that writes it, before
// anything reads the data.
func ReadYAML() { yamlSource.Store(true) }

// loadedData is the embedded slot data, read once.
var loadedData = sync.OnceValues(func() (*slotData, error) {
	if yamlSource.Load() {
		return LoadData(configs.FS)
	}
	return loadCompiledData(configs.FS)
})

// Preload reads the embedded slot data now (a one-shot process overlaps
// it with loading the catalog).
func Preload() { _, _ = loadedData() }

// data is the embedded slot data; it panics when the files do not load,
// which TestDataLoads rules out (as a bad pattern in Go would panic in
// textgate.MustCompile).
func data() *slotData {
	d, err := loadedData()
	if err != nil {
		panic(err.Error())
	}
	return d
}

// LoadData reads and checks configs/slots/*.yaml from fsys.
func LoadData(fsys fs.FS) (*slotData, error) {
	files, err := readYAML(fsys)
	if err != nil {
		return nil, err
	}
	return buildData(files)
}

// CompileData is the compiled slot data (CompiledDataFile) of
// configs/slots/*.yaml in fsys: every file as read, as JSON.
func CompileData(fsys fs.FS) ([]byte, error) {
	files, err := readYAML(fsys)
	if err != nil {
		return nil, err
	}
	d, err := buildData(files)
	if err != nil {
		return nil, err
	}
	if err := d.vocab.compiles(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(files); err != nil {
		return nil, fmt.Errorf("slots: compile: %w", err)
	}
	return b.Bytes(), nil
}

// loadCompiledData reads CompiledDataFile from fsys.
func loadCompiledData(fsys fs.FS) (*slotData, error) {
	b, err := fs.ReadFile(fsys, CompiledDataFile)
	if err != nil {
		return nil, fmt.Errorf("slots: %w", err)
	}
	var files []*dataFile
	if err := json.Unmarshal(b, &files); err != nil {
		return nil, fmt.Errorf("slots: %s: %w", CompiledDataFile, err)
	}
	return buildData(files)
}

// readYAML reads every configs/slots/*.yaml of fsys strictly.
func readYAML(fsys fs.FS) ([]*dataFile, error) {
	names, err := fs.Glob(fsys, path.Join(DataDir, "*.yaml"))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("slots: no %s/*.yaml", DataDir)
	}
	files := make([]*dataFile, len(names))
	for i, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("slots: %w", err)
		}
		f := &dataFile{Name: strings.TrimSuffix(path.Base(name), ".yaml")}
		if err := strictyaml.Decode(b, f); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		files[i] = f
	}
	return files, nil
}

// buildData merges and checks the files: fragments expanded, keys
// "<file>.<name>".
func buildData(files []*dataFile) (*slotData, error) {
	d := &slotData{patterns: map[string]string{}, lists: map[string][]string{}, words: map[string][]string{},
		numbers: map[string]map[string]float64{}, maps: map[string]map[string]string{}}
	frags := map[string]string{}
	for _, f := range files {
		for k, v := range f.Fragments {
			if _, dup := frags[k]; dup {
				return nil, fmt.Errorf("slots: %s: fragment %s is also in another file", f.Name, k)
			}
			frags[k] = v
		}
	}
	var vf []*vocabularyFile
	for _, f := range files {
		vf = append(vf, &f.vocabularyFile)
	}
	var err error
	if d.vocab, err = newVocabulary(vf, frags); err != nil {
		return nil, err
	}
	for k, v := range d.vocab.fragments {
		if _, dup := frags[k]; dup {
			return nil, fmt.Errorf("slots: fragment %s is the vocabulary's", k)
		}
		frags[k] = v
	}
	for k, v := range d.vocab.patterns {
		d.patterns[k] = v
	}
	d.frags = frags
	for _, f := range files {
		name := f.Name
		key := func(k string) string { return name + "." + k }
		for k, v := range f.Patterns {
			if _, dup := d.patterns[key(k)]; dup {
				return nil, fmt.Errorf("slots: %s: pattern %s is the vocabulary's", name, k)
			}
			if v == "" {
				// An empty pattern matches every text.
				return nil, fmt.Errorf("slots: %s: pattern %s is empty", name, k)
			}
			p, err := expand(string(v), frags)
			if err != nil {
				return nil, fmt.Errorf("slots: %s: pattern %s: %w", name, k, err)
			}
			d.patterns[key(k)] = p
		}
		for k, vs := range f.Lists {
			for j, v := range vs {
				p, err := expand(string(v), frags)
				if err != nil {
					return nil, fmt.Errorf("slots: %s: list %s[%d]: %w", name, k, j, err)
				}
				d.lists[key(k)] = append(d.lists[key(k)], p)
			}
		}
		for k, v := range f.Words {
			d.words[key(k)] = v
		}
		for k, v := range f.Numbers {
			d.numbers[key(k)] = v
		}
		for k, v := range f.Maps {
			d.maps[key(k)] = v
		}
	}
	return d, nil
}

// expand replaces each {{name}} of p by its fragment (fragments may hold
// fragments).
func expand(p string, frags map[string]string) (string, error) {
	for depth := 0; strings.Contains(p, "{{"); depth++ {
		if depth == 8 {
			return "", fmt.Errorf("fragments nested too deep in %q", p)
		}
		var b strings.Builder
		rest := p
		for {
			i := strings.Index(rest, "{{")
			if i < 0 {
				b.WriteString(rest)
				break
			}
			j := strings.Index(rest[i:], "}}")
			if j < 0 {
				return "", fmt.Errorf("unclosed {{ in %q", p)
			}
			name := rest[i+2 : i+j]
			f, ok := frags[name]
			if !ok {
				return "", fmt.Errorf("no fragment %q", name)
			}
			b.WriteString(rest[:i])
			b.WriteString(f)
			rest = rest[i+j+2:]
		}
		p = b.String()
	}
	return p, nil
}

// Expr is a regular expression of the slot data ("alerts.mute"): gated
// and compiled by textgate when first used, so declaring one as a package
// variable costs nothing at start-up. Its methods are textgate's.
type Expr struct {
	key  string
	once sync.Once
	re   *textgate.Regexp
}

// Exprs are regular expressions of the slot data tried in order
// ("job.seq"), as many as the Go that reads them expects.
type Exprs struct {
	key  string
	n    int
	once sync.Once
	res  []*textgate.Regexp
}

// WordList is a list of plain words of the slot data ("alerts.stock_word").
type WordList struct {
	key  string
	once sync.Once
	w    []string
	set  map[string]bool
}

var (
	declaredMu    sync.Mutex
	declaredExpr  []*Expr
	declaredExprs []*Exprs
	declaredWords []*WordList
)

// NewExpr declares the pattern key ("<file>.<name>") of the slot data.
func NewExpr(key string) *Expr {
	e := &Expr{key: key}
	declaredMu.Lock()
	declaredExpr = append(declaredExpr, e)
	declaredMu.Unlock()
	return e
}

// NewExprs declares the list key of the slot data, of n patterns.
func NewExprs(key string, n int) *Exprs {
	e := &Exprs{key: key, n: n}
	declaredMu.Lock()
	declaredExprs = append(declaredExprs, e)
	declaredMu.Unlock()
	return e
}

// NewWords declares the word list key of the slot data.
func NewWords(key string) *WordList {
	w := &WordList{key: key}
	declaredMu.Lock()
	declaredWords = append(declaredWords, w)
	declaredMu.Unlock()
	return w
}

// Regexp is the gated expression.
func (e *Expr) Regexp() *textgate.Regexp {
	e.once.Do(func() {
		p, ok := data().patterns[e.key]
		if !ok {
			panic("slots: no pattern " + e.key + " in configs/" + DataDir)
		}
		e.re = textgate.Lazy(p)
	})
	return e.re
}

// Key is the pattern's key in the slot data ("alerts.mute").
func (e *Expr) Key() string { return e.key }

// String is the pattern.
func (e *Expr) String() string { return e.Regexp().String() }

// MatchString is textgate's MatchString.
func (e *Expr) MatchString(s string) bool { return e.Regexp().MatchString(s) }

// FindStringSubmatch is textgate's FindStringSubmatch.
func (e *Expr) FindStringSubmatch(s string) []string { return e.Regexp().FindStringSubmatch(s) }

// FindStringSubmatchIndex is textgate's FindStringSubmatchIndex.
func (e *Expr) FindStringSubmatchIndex(s string) []int { return e.Regexp().FindStringSubmatchIndex(s) }

// FindStringIndex is textgate's FindStringIndex.
func (e *Expr) FindStringIndex(s string) []int { return e.Regexp().FindStringIndex(s) }

// FindString is textgate's FindString.
func (e *Expr) FindString(s string) string { return e.Regexp().FindString(s) }

// FindAllStringSubmatch is textgate's FindAllStringSubmatch.
func (e *Expr) FindAllStringSubmatch(s string, n int) [][]string {
	return e.Regexp().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is textgate's FindAllStringSubmatchIndex.
func (e *Expr) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return e.Regexp().FindAllStringSubmatchIndex(s, n)
}

// FindAllStringIndex is textgate's FindAllStringIndex.
func (e *Expr) FindAllStringIndex(s string, n int) [][]int {
	return e.Regexp().FindAllStringIndex(s, n)
}

// ReplaceAllString is textgate's ReplaceAllString.
func (e *Expr) ReplaceAllString(src, repl string) string {
	return e.Regexp().ReplaceAllString(src, repl)
}

// All are the gated expressions, in order.
func (e *Exprs) All() []*textgate.Regexp {
	e.once.Do(func() {
		ps, ok := data().lists[e.key]
		if !ok || len(ps) != e.n {
			panic(fmt.Sprintf("slots: list %s in configs/%s: %d patterns, the Go reads %d", e.key, DataDir, len(ps), e.n))
		}
		for _, p := range ps {
			e.res = append(e.res, textgate.Lazy(p))
		}
	})
	return e.res
}

// List is the words (shared: not to be changed).
func (w *WordList) List() []string {
	w.load()
	return w.w
}

// Has reports whether word is one of the words.
func (w *WordList) Has(word string) bool {
	w.load()
	return w.set[word]
}

func (w *WordList) load() {
	w.once.Do(func() {
		l, ok := data().words[w.key]
		if !ok {
			panic("slots: no words " + w.key + " in configs/" + DataDir)
		}
		w.w = l
		w.set = make(map[string]bool, len(l))
		for _, x := range l {
			w.set[x] = true
		}
	})
}

// Mapping is the word map key ("pipeline.simplified").
func Mapping(key string) map[string]string {
	m, ok := data().maps[key]
	if !ok {
		panic("slots: no map " + key + " in configs/" + DataDir)
	}
	return m
}

// CheckData checks the embedded slot data against the Go that reads it:
// every pattern, list and word list declared (NewExpr, NewExprs,
// NewWords) is there, compiles and is as long as the Go reads; and every
// one of the data is declared. Tests call it once every package that
// declares keys (words, when, slots, understand) is loaded.
func CheckData() error {
	d, err := loadedData()
	if err != nil {
		return err
	}
	var errs []error
	if err := d.vocab.compiles(); err != nil {
		errs = append(errs, err)
	}
	exprs, lists, words := declaredKeys()
	for _, k := range exprs {
		if p, ok := d.patterns[k]; !ok {
			errs = append(errs, fmt.Errorf("pattern %s: not in configs/%s", k, DataDir))
		} else if _, err := regexp.Compile(p); err != nil {
			errs = append(errs, fmt.Errorf("pattern %s: %w", k, err))
		}
	}
	declaredMu.Lock()
	want := map[string]int{}
	for _, e := range declaredExprs {
		want[e.key] = e.n
	}
	declaredMu.Unlock()
	for _, k := range lists {
		ps, ok := d.lists[k]
		if !ok || len(ps) != want[k] {
			errs = append(errs, fmt.Errorf("list %s: %d patterns in configs/%s, the Go reads %d", k, len(ps), DataDir, want[k]))
		}
		for i, p := range ps {
			if _, err := regexp.Compile(p); err != nil {
				errs = append(errs, fmt.Errorf("list %s[%d]: %w", k, i, err))
			}
		}
	}
	for _, k := range words {
		if _, ok := d.words[k]; !ok {
			errs = append(errs, fmt.Errorf("words %s: not in configs/%s", k, DataDir))
		}
	}
	unused := func(kind string, have map[string]bool, declared []string) {
		for _, k := range declared {
			delete(have, k)
		}
		for k := range have {
			errs = append(errs, fmt.Errorf("%s %s of configs/%s: no Go reads it", kind, k, DataDir))
		}
	}
	unused("pattern", keysOf(d.patterns), exprs)
	unused("list", keysOf(d.lists), lists)
	unused("words", keysOf(d.words), words)
	return errors.Join(errs...)
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// declaredKeys are the keys the Go declares (the tests check each exists
// and every key of the data is declared).
func declaredKeys() (exprs, lists, words []string) {
	declaredMu.Lock()
	defer declaredMu.Unlock()
	for _, e := range declaredExpr {
		exprs = append(exprs, e.key)
	}
	for _, e := range declaredExprs {
		lists = append(lists, e.key)
	}
	for _, w := range declaredWords {
		words = append(words, w.key)
	}
	sort.Strings(exprs)
	sort.Strings(lists)
	sort.Strings(words)
	return exprs, lists, words
}
