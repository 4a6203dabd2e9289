package understand

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/labgpu/bot/internal/strictyaml"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/textgate"
)

// IntentsDir is the directory of intent definitions in the configs FS.
const IntentsDir = "intents"

// Definition is one intent as configs/intents/<intent>.yaml defines it:
// what it answers (help is generated from it), how it is recognised (its
// high-precision patterns, keywords and example phrasings) and which slots
// it takes. The handler is bound in Go (handlers).
type Definition struct {
	Intent string `yaml:"intent"`
	// Area groups intents in the help menu (price, estimate, alerts,
	// storage, advice, meta); Order sorts them there and orders the
	// pattern checks (lower first).
	Area  string `yaml:"area"`
	Order int    `yaml:"order"`
	// Menu places the intent's first help phrasing in the help menu's line
	// for its area (1 first; 0 leaves it out of the menu).
	Menu int `yaml:"menu"`
	// Name is a short label, Description what it answers.
	Name        catalog.Text `yaml:"name"`
	Description catalog.Text `yaml:"description"`
	// Help are the phrasings help shows, Chinese first, then English.
	Help []string `yaml:"help"`
	// Slots are the slots the intent takes (JSON names).
	Slots []string `yaml:"slots"`
	// Patterns recognise the intent outright (confidence 1).
	Patterns []Pattern `yaml:"patterns"`
	// Verbs make the intent an action (Action): it changes state (a mute,
	// a subscription cancelled, the storage ledger, the digest switch)
	// and is done only when one of them matches the message — the
	// member's explicit verb for it — and the reading is sure enough
	// (ActionFloor); otherwise the bot asks first and does nothing.
	Verbs []Pattern `yaml:"verbs"`
	// Question is the intent that answers a message read as this action
	// that asks rather than tells and has none of its verbs ("存储1 现在是
	// 开着的还是关机了": storage_list, which shows the disk's state); ""
	// asks back whether to do the action.
	Question string `yaml:"question"`
	// Keywords and Examples train the scorer; Scored are phrasings held
	// out of training, only scored by the corpus test.
	Keywords []string `yaml:"keywords"`
	Examples []string `yaml:"examples"`
	Scored   []string `yaml:"scored"`
}

// Pattern is a high-precision rule: an RE2 regex on the folded text
// (lower case, half-width), the slots that must have been found for it to
// apply (gpu, platform, disk, size, job) and an optional veto regex.
type Pattern struct {
	Re     string   `yaml:"re"`
	Needs  []string `yaml:"needs"`
	Unless string   `yaml:"unless"`
	// With must match too, anywhere in the text: what a verb must be said
	// of ("关" turns the digest off only in a message naming the digest).
	With string `yaml:"with"`

	re, unless, with *textgate.Regexp
}

// TopicCorpus are phrasings of one knowledge-base topic.
type TopicCorpus struct {
	Examples []string `yaml:"examples"`
	Scored   []string `yaml:"scored"`
}

// intentFile is one file of configs/intents: an intent definition, or
// phrasings of knowledge-base topics.
type intentFile struct {
	Definition `yaml:",inline"`
	Topics     map[string]TopicCorpus `yaml:"topics"`
	Concepts   map[string][]string    `yaml:"concepts"`
}

// Intents are the loaded definitions and topic phrasings.
type Intents struct {
	// Defs are sorted by Order.
	Defs []*Definition
	// Topics maps a knowledge-base topic id to its phrasings.
	Topics map[string]TopicCorpus
	// Concepts are lexicon.yaml's word groups (and each intent's keywords
	// as "kw_<intent>"); Lexicon finds them in a text.
	Concepts map[string][]string
	Lexicon  *Lexicon
}

// slotNames are the slots a pattern may need, with the test.
var slotNames = map[string]func(q *Query) bool{
	"gpu":           func(q *Query) bool { return len(q.GPUs) > 0 || q.UnknownGPU != "" },
	"platform":      func(q *Query) bool { return len(q.Platforms) > 0 },
	"disk":          func(q *Query) bool { return q.DiskRef != "" },
	"size":          func(q *Query) bool { return q.SizeGB != 0 },
	"job":           func(q *Query) bool { return q.Model != "" || q.ParamsB > 0 || q.ModelText != "" },
	"no_gpu":        func(q *Query) bool { return len(q.GPUs) == 0 && q.UnknownGPU == "" },
	"no_job":        func(q *Query) bool { return q.Model == "" && q.ParamsB == 0 && q.ModelText == "" },
	"two_gpus":      func(q *Query) bool { return len(q.NamedGPUs) >= 2 },
	"no_workload":   func(q *Query) bool { return q.Workload == "" },
	"two_platforms": func(q *Query) bool { return len(q.Platforms) >= 2 },
	"price":         func(q *Query) bool { return q.PriceCNY > 0 || q.MaxPriceCNY > 0 },
}

// LoadIntents reads every configs/intents/*.yaml strictly (an unknown key
// is an error) and checks it: known intents, compiling lowercase
// patterns with known slot names, no phrasing twice.
func LoadIntents(fsys fs.FS) (*Intents, error) {
	names, err := fs.Glob(fsys, path.Join(IntentsDir, "*.yaml"))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("intents: no %s/*.yaml", IntentsDir)
	}
	out := &Intents{Topics: map[string]TopicCorpus{}}
	seen := map[string]string{}
	concepts := map[string][]string{}
	for _, name := range names {
		f, err := readIntentFile(fsys, name)
		if err != nil {
			return nil, err
		}
		if err := collect(out, f, name, seen); err != nil {
			return nil, err
		}
		for c, ws := range f.Concepts {
			concepts[c] = append(concepts[c], ws...)
		}
		if f.Intent != "" && len(f.Keywords) > 0 {
			// An intent's keywords are a concept of their own ("@kw_stock").
			for _, k := range f.Keywords {
				concepts["kw_"+f.Intent] = append(concepts["kw_"+f.Intent], catalog.Fold(k))
			}
		}
	}
	lx, err := newLexicon(concepts, false)
	if err != nil {
		return nil, err
	}
	out.Concepts, out.Lexicon = concepts, lx
	sort.SliceStable(out.Defs, func(i, j int) bool { return out.Defs[i].Order < out.Defs[j].Order })
	return out, nil
}

func readIntentFile(fsys fs.FS, name string) (*intentFile, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("intents: %w", err)
	}
	var f intentFile
	if err := strictyaml.Decode(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &f, nil
}

// collect checks one file and adds it to out; seen maps each folded
// phrasing to the file that has it.
func collect(out *Intents, f *intentFile, name string, seen map[string]string) error {
	phrase := func(p string) error {
		k := strings.Join(strings.Fields(catalog.Fold(p)), " ")
		if k == "" {
			return fmt.Errorf("%s: empty phrasing", name)
		}
		if other, dup := seen[k]; dup {
			return fmt.Errorf("%s: %q is also in %s", name, p, other)
		}
		seen[k] = name
		return nil
	}
	for id, tc := range f.Topics {
		for _, p := range append(append([]string{}, tc.Examples...), tc.Scored...) {
			if err := phrase(p); err != nil {
				return err
			}
		}
		prev := out.Topics[id]
		prev.Examples = append(prev.Examples, tc.Examples...)
		prev.Scored = append(prev.Scored, tc.Scored...)
		out.Topics[id] = prev
	}
	d := f.Definition
	if d.Intent == "" {
		if len(f.Topics) == 0 && len(f.Concepts) == 0 {
			return fmt.Errorf("%s: neither an intent nor topics", name)
		}
		return nil
	}
	for _, p := range append(append(append([]string{}, d.Examples...), d.Scored...), d.Keywords...) {
		if err := phrase(p); err != nil {
			return err
		}
	}
	if err := d.compile(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	out.Defs = append(out.Defs, &d)
	return nil
}

// compile compiles the definition's patterns and verbs.
func (d *Definition) compile() error {
	for i := range d.Patterns {
		if err := d.Patterns[i].compile(); err != nil {
			return fmt.Errorf("pattern %d: %w", i+1, err)
		}
	}
	for i := range d.Verbs {
		if err := d.Verbs[i].compile(); err != nil {
			return fmt.Errorf("verb %d: %w", i+1, err)
		}
	}
	return nil
}

// Action reports whether the intent changes state: it has verbs, and is
// done only on one of them (see Verbs).
func (d *Definition) Action() bool { return d != nil && len(d.Verbs) > 0 }

// named reports whether the folded text s names what the definition's
// verbs must be said of (Pattern.With): true when a verb needs nothing
// named.
func (d *Definition) named(s string) bool {
	for i := range d.Verbs {
		if d.Verbs[i].with == nil || d.Verbs[i].with.MatchString(s) {
			return true
		}
	}
	return false
}

// hasVerb reports whether one of the definition's verbs matches the
// folded text s with slots q.
func (d *Definition) hasVerb(s string, q *Query) bool {
	for i := range d.Verbs {
		if d.Verbs[i].matches(s, q) {
			return true
		}
	}
	return false
}

func (p *Pattern) compile() error {
	if p.Re != strings.ToLower(p.Re) && !textgate.MustCompile(`\\[A-Z]`).MatchString(p.Re) {
		return fmt.Errorf("%q: patterns read folded (lowercase) text; write them in lowercase", p.Re)
	}
	var err error
	if p.re, err = textgate.Compile(p.Re); err != nil {
		return err
	}
	if p.Unless != "" {
		if p.unless, err = textgate.Compile(p.Unless); err != nil {
			return err
		}
	}
	if p.With != "" {
		if p.with, err = textgate.Compile(p.With); err != nil {
			return err
		}
	}
	for _, n := range p.Needs {
		if slotNames[n] == nil {
			return errors.New("unknown slot " + n + " in needs")
		}
	}
	return nil
}

// matches reports whether the pattern recognises the folded text s with
// slots q.
func (p *Pattern) matches(s string, q *Query) bool {
	if !p.re.MatchString(s) || p.unless != nil && p.unless.MatchString(s) || p.with != nil && !p.with.MatchString(s) {
		return false
	}
	for _, n := range p.Needs {
		if !slotNames[n](q) {
			return false
		}
	}
	return true
}

// Def returns the definition of an intent.
func (in *Intents) Def(intent string) *Definition {
	for _, d := range in.Defs {
		if d.Intent == intent {
			return d
		}
	}
	return nil
}
