package understand

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"sync"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/scorer"
)

// The compiled intents in the configs FS, written by `go generate
// ./configs` from configs/intents/*.yaml and configs/advice.yaml:
// CompiledFile holds the definitions (without their phrasings) and the
// concept lexicon, ModelFile the scorer trained on every phrasing
// (scorer.Model.MarshalBinary). InputsFile, beside them but not embedded,
// lists what the scorer read of each phrasing, one a line, so that a
// change to the extractors shows in review.
const (
	CompiledFile = "intents.json"
	ModelFile    = "intents.model"
	InputsFile   = "intents-inputs.jsonl"
)

// Compiled is what the bot needs of configs/intents at start-up, already
// read and trained: the definitions, the concept lexicon and the scorer.
// Reading the YAML, running the extractors over three thousand phrasings
// and training is done by `go generate`; start-up reads the definitions
// and the model, and TestCompiledIsCurrent fails when the files are
// stale.
type Compiled struct {
	// Source is a hash of everything the file is built from (the intents'
	// YAML and the knowledge base's phrasings), to tell it is current.
	Source string `json:"source"`
	// Base fingerprints the knowledge base the inputs were built with; a
	// lab's own advice.yaml differs, and the bot then trains from the
	// YAML at start-up instead.
	Base     string              `json:"base"`
	Defs     []*Definition       `json:"defs"`
	Concepts map[string][]string `json:"concepts"`
	// Inputs is what the scorer read of every phrasing (InputsFile), and
	// Model the scorer trained on them (ModelFile).
	Inputs []Input       `json:"-"`
	Model  *scorer.Model `json:"-"`
}

// Input is one training phrasing as the scorer reads it.
type Input struct {
	Label string   `json:"l"`
	Text  string   `json:"t"`
	Tags  []string `json:"g,omitempty"`
}

// Compile builds the compiled intents from the definitions and the
// knowledge base, running the slot extractors over every phrasing and
// training the scorer on them.
func Compile(cat *catalog.Catalog, base *advice.Base, in *Intents) *Compiled {
	u := &Understander{cat: cat, base: base, in: in}
	var train []Labelled
	train = append(train, u.Training()...)
	ex := scorerExamples(cat, base, in.Lexicon, train)
	c := &Compiled{Source: SourceHash(in, base), Base: baseHash(base), Concepts: in.Concepts}
	for _, d := range in.Defs {
		cp := *d
		cp.Examples, cp.Scored = nil, nil
		c.Defs = append(c.Defs, &cp)
	}
	for _, e := range ex {
		c.Inputs = append(c.Inputs, Input{Label: e.Label, Text: e.Text, Tags: e.Tags})
	}
	c.Model = trainCompiled(c.Inputs)
	return c
}

// Marshal writes CompiledFile: the definitions and concepts as JSON.
func (c *Compiled) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("intents: compile: %w", err)
	}
	return b.Bytes(), nil
}

// MarshalInputs writes InputsFile: one training input per line as JSON,
// in training order.
func (c *Compiled) MarshalInputs() ([]byte, error) {
	var b bytes.Buffer
	for _, x := range c.Inputs {
		line, err := json.Marshal(x)
		if err != nil {
			return nil, fmt.Errorf("intents: compile: %w", err)
		}
		b.Write(bytes.ReplaceAll(line, []byte(`\u0026`), []byte("&")))
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// LoadCompiled reads the compiled intents and the trained scorer from
// fsys and checks their patterns and lexicon. It returns the definitions,
// the model and the fingerprint of the knowledge base they were built
// with. The lexicon's matcher is built while the model is read.
func LoadCompiled(fsys fs.FS) (*Intents, *scorer.Model, string, error) {
	return loadCompiled(fsys, false)
}

// loadCompiled is LoadCompiled; scan builds the lexicon without its
// automaton (see newLexicon).
func loadCompiled(fsys fs.FS, scan bool) (*Intents, *scorer.Model, string, error) {
	b, err := fs.ReadFile(fsys, CompiledFile)
	if err != nil {
		return nil, nil, "", fmt.Errorf("intents: %w", err)
	}
	var c Compiled
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, nil, "", fmt.Errorf("intents: %s: %w", CompiledFile, err)
	}
	in := &Intents{Defs: c.Defs, Concepts: c.Concepts}
	for _, d := range in.Defs {
		if err := d.compile(); err != nil {
			return nil, nil, "", fmt.Errorf("intents: %s: %s: %w", CompiledFile, d.Intent, err)
		}
	}
	var wg sync.WaitGroup
	var lexErr error
	wg.Go(func() { in.Lexicon, lexErr = newLexicon(c.Concepts, scan) })
	m, err := readModel(fsys)
	wg.Wait()
	if err == nil {
		err = lexErr
	}
	if err != nil {
		return nil, nil, "", err
	}
	return in, m, c.Base, nil
}

// readModel reads ModelFile from fsys.
func readModel(fsys fs.FS) (*scorer.Model, error) {
	b, err := fs.ReadFile(fsys, ModelFile)
	if err != nil {
		return nil, fmt.Errorf("intents: %w", err)
	}
	m := &scorer.Model{}
	if err := m.UnmarshalBinary(b); err != nil {
		return nil, fmt.Errorf("intents: %s: %w", ModelFile, err)
	}
	return m, nil
}

// SourceHash fingerprints what the compiled file is built from: every
// phrasing, keyword, pattern and concept of the intents, and the knowledge
// base's topic and workload phrasings.
func SourceHash(in *Intents, base *advice.Base) string {
	h := sha256.New()
	w := func(parts ...string) {
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
	}
	for _, d := range in.Defs {
		w("def", d.Intent)
		w(d.Examples...)
		w(d.Keywords...)
		for _, p := range d.Patterns {
			w(p.Re, p.Unless, p.With)
			w(p.Needs...)
		}
		for _, p := range d.Verbs {
			w("verb", p.Re, p.Unless, p.With)
			w(p.Needs...)
		}
		w("question", d.Question)
	}
	ids := make([]string, 0, len(in.Topics))
	for id := range in.Topics {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		w("topic", id)
		w(in.Topics[id].Examples...)
	}
	names := make([]string, 0, len(in.Concepts))
	for c := range in.Concepts {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		w("concept", c)
		w(in.Concepts[c]...)
	}
	w("base", baseHash(base))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// baseHash fingerprints the knowledge base's phrasings (a lab's own
// advice.yaml changes it, and the bot then trains from the YAML).
func baseHash(base *advice.Base) string {
	if base == nil {
		return ""
	}
	h := sha256.New()
	for _, t := range base.Topics {
		h.Write([]byte(t.ID))
		for _, e := range t.Examples {
			h.Write([]byte(e))
		}
	}
	for _, wl := range base.Workloads {
		h.Write([]byte(wl.ID))
		for _, e := range wl.Examples {
			h.Write([]byte(e))
		}
		for _, k := range wl.Keywords {
			h.Write([]byte(k))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// withModel is the understander over a trained scorer.
func withModel(cat *catalog.Catalog, base *advice.Base, in *Intents, m *scorer.Model, chatEn bool) *Understander {
	return &Understander{cat: cat, base: base, in: in, chatEn: chatEn, kbW: adviceWeight, model: m}
}

// trainCompiled trains the scorer on compiled inputs: they are already
// read (slots, knowledge base), so the model needs neither the catalog
// nor the knowledge base and is the same for every understander built
// on them.
func trainCompiled(inputs []Input) *scorer.Model {
	ex := make([]scorer.Example, len(inputs))
	for i, x := range inputs {
		ex[i] = scorer.Example{Text: x.Text, Tags: x.Tags, Label: x.Label}
	}
	return scorer.Train(ex, scorer.Options{Prior: intentPrior(ex)})
}

// NewStartupUnderstander is what a router does at start-up: read the
// embedded compiled intents and the trained scorer (uncached;
// BenchmarkStartup measures it).
func NewStartupUnderstander(cat *catalog.Catalog, base *advice.Base) (*Understander, error) {
	in, m, bh, err := LoadCompiled(configs.FS)
	if err != nil {
		return nil, err
	}
	if bh != baseHash(base) {
		return nil, fmt.Errorf("intents: %s was built with another knowledge base", CompiledFile)
	}
	return withModel(cat, base, in, m, false), nil
}
