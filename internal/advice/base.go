// Package advice answers the troubleshooting and card-choice questions lab
// members paste into the group: "CUDA out of memory", "SSH 连不上", "微调
// BERT 用什么卡". Its knowledge base is configs/advice.yaml (topics with the
// symptoms they match, causes, numbered fix steps and their source; and
// workloads with the VRAM they need), loaded and validated like the catalog.
// Match maps a question or a pasted error (a traceback, nvidia-smi or ssh
// output) to the best topic with a confidence.
package advice

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"

	ahocorasick "github.com/coregx/ahocorasick"
	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/strictyaml"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/textgate"
)

// File is the knowledge base's file name inside the configs directory.
const File = "advice.yaml"

// The topics the code names by id (the rest are data only): the card
// choice ("用什么卡"), which a workload or a card follow-up continues, and
// CUDA out of memory, which an OOM paste or a fit question is about.
const (
	TopicCardChoice = "card-choice"
	TopicOOM        = "cuda-oom"
)

// Ties name the lab data an answer adds to a topic's steps.
const (
	TieOOM       = "oom"       // the estimate of the job in the question
	TieDisk      = "disk"      // data-disk prices and how to expand
	TieCard      = "card"      // the cards that fit, cheapest first
	TieStorage   = "storage"   // storage prices and the no-GPU mode (无卡模式)
	TieBilling   = "billing"   // billing granularity and minimum per start
	TieStock     = "stock"     // current stock and the subscribe hint
	TieRetention = "retention" // when stopped instances and data are deleted
	TiePlatform  = "platform"  // the named platform's hidden costs
)

var ties = []string{TieOOM, TieDisk, TieCard, TieStorage, TieBilling, TieStock, TieRetention, TiePlatform}

// Lines is a list of short sentences in Chinese and English (same count).
type Lines struct {
	Zh []string `yaml:"zh" json:"zh"`
	En []string `yaml:"en" json:"en"`
}

// Pick returns the English lines when en is set, else the Chinese ones.
func (l Lines) Pick(en bool) []string {
	if en {
		return l.En
	}
	return l.Zh
}

// Topic is one pitfall: what it looks like, why it happens, how to fix it.
//
// Terms are lowercase; the text they are matched against is folded
// (catalog.Fold: lowercase, full-width ASCII narrowed) with whitespace runs
// collapsed to one space. A term starting or ending with an ASCII letter or
// digit matches only at an ASCII word boundary there ("oom" not in "room").
type Topic struct {
	// ID is the kebab-case name answers and JSON use ("cuda-oom").
	ID    string       `yaml:"id" json:"id"`
	Title catalog.Text `yaml:"title" json:"title"`
	// Errors are texts as a program prints them (weight WeightError).
	Errors []string `yaml:"errors,omitempty" json:"errors,omitempty"`
	// Patterns are RE2 regular expressions in lowercase (WeightError).
	Patterns []string `yaml:"patterns,omitempty" json:"patterns,omitempty"`
	// Phrases are chat wordings that name the topic alone (WeightPhrase).
	Phrases []string `yaml:"phrases,omitempty" json:"phrases,omitempty"`
	// Hints support a match but do not make one alone (WeightHint).
	Hints []string `yaml:"hints,omitempty" json:"hints,omitempty"`
	// Causes are the likely causes; Steps the fix, in order.
	Causes Lines `yaml:"causes" json:"causes"`
	Steps  Lines `yaml:"steps" json:"steps"`
	// Related are other topic ids worth reading next.
	Related []string `yaml:"related,omitempty" json:"related,omitempty"`
	// Tie is the lab data the answer adds (one of the Tie constants, or
	// empty).
	Tie string `yaml:"tie,omitempty" json:"tie,omitempty"`
	// Source names where the facts come from: a seed section or a vendor
	// document.
	Source string `yaml:"source" json:"source"`
	// Examples are real-style inputs; every term must occur in one of
	// them, which Load checks.
	Examples []string `yaml:"examples" json:"examples,omitempty"`
	// Next is what to try when the steps did not help ("还是不行", "有没
	// 有别的办法"): alternatives the steps do not name, in zh and en.
	Next Lines `yaml:"next,omitempty" json:"next,omitempty"`
	// Follow are the topic's branches: a finding or a fix a member names
	// after its answer ("nvidia-smi能看到卡", "换bf16行吗") and what it
	// means there.
	Follow []Branch `yaml:"follow,omitempty" json:"follow,omitempty"`
	// Leads are causes that come first when the message shows them
	// ("connection refused": the instance is stopped or the port wrong,
	// not the password).
	Leads []Lead `yaml:"leads,omitempty" json:"leads,omitempty"`

	res []*regexp.Regexp
	// anchored[k] is set when pattern k uses ^ or $ (run on the whole text).
	anchored []bool
}

// Branch is one finding or fix a follow-up of a topic's answer can name:
// When are its terms (lowercase substrings of the folded message, each
// enough alone; a term that starts or ends with an ASCII letter or digit
// only at a word boundary there), Verdict the answer to a yes/no question
// about it ("yes", "no", "maybe"; empty for a finding), Text what it
// means, in zh and en.
type Branch struct {
	When    []string     `yaml:"when" json:"when"`
	Verdict string       `yaml:"verdict,omitempty" json:"verdict,omitempty"`
	Text    catalog.Text `yaml:"text" json:"text"`
}

// Lead is a cause a message shows by itself: When are lowercase RE2
// patterns on the normalized message (each matching one of the topic's
// examples), Cause the line that then leads the causes, in zh and en.
type Lead struct {
	When  []string     `yaml:"when" json:"when"`
	Cause catalog.Text `yaml:"cause" json:"cause"`
}

// LeadOf is the first lead of t whose pattern the text matches (nil for
// none).
func (t *Topic) LeadOf(text string) *Lead {
	norm := Normalize(text)
	for i := range t.Leads {
		for _, w := range t.Leads[i].When {
			if re, err := regexp.Compile(w); err == nil && re.Match(norm) {
				return &t.Leads[i]
			}
		}
	}
	return nil
}

// Branch verdicts.
const (
	VerdictYes   = "yes"
	VerdictNo    = "no"
	VerdictMaybe = "maybe"
	// VerdictStated: the text opens with its own verdict ("一般没影响：…"),
	// for a question neither "yes" nor "no" answers in a word.
	VerdictStated = "stated"
)

// Workload is a job the LLM estimator does not model (BERT fine-tuning,
// Stable Diffusion images, CNN training): the VRAM it needs on one card.
type Workload struct {
	ID   string       `yaml:"id" json:"id"`
	Name catalog.Text `yaml:"name" json:"name"`
	// Keywords name the workload in a question (lowercase).
	Keywords []string `yaml:"keywords" json:"keywords"`
	// Kind is "training" or "inference".
	Kind string `yaml:"kind" json:"kind"`
	// VRAMGB is the memory one card needs, GB (1e9 bytes): Low for the
	// smallest sensible setting, High for a comfortable one.
	VRAMGB Range `yaml:"vram_gb" json:"vram_gb"`
	// Refines lists workloads this one is a special case of ("sdxl-images"
	// refines "sd15-images"): when both are named, this one is meant.
	Refines []string `yaml:"refines,omitempty" json:"-"`
	// Note is what to know beyond memory (speed, environment).
	Note   catalog.Text `yaml:"note,omitempty" json:"note,omitempty"`
	Source string       `yaml:"source" json:"source"`
	// Reference is a measured run of the workload, when a source gives
	// one: cost questions ("训练一个ResNet50要多少钱") are scaled from it.
	Reference *Reference `yaml:"reference,omitempty" json:"reference,omitempty"`
	// Examples are questions that name the workload.
	Examples []string `yaml:"examples" json:"examples,omitempty"`
}

// Reference is one measured run: the setting, the GPU (a catalog id) and
// its wall-clock hours; Reported are the totals the source paid per
// platform (CNY, at the source's prices); Source names where it comes from.
type Reference struct {
	Setting catalog.Text `yaml:"setting" json:"setting"`
	GPU     string       `yaml:"gpu" json:"gpu"`
	Hours   float64      `yaml:"hours" json:"hours"`
	// Epochs is the run's epochs; Dataset names its dataset as folded
	// text says it ("imagenet") and Fraction the part of it used (0.1), so
	// a question about the whole dataset or more epochs scales up.
	Epochs   float64            `yaml:"epochs,omitempty" json:"epochs,omitempty"`
	Dataset  string             `yaml:"dataset,omitempty" json:"dataset,omitempty"`
	Fraction float64            `yaml:"fraction,omitempty" json:"fraction,omitempty"`
	Reported map[string]float64 `yaml:"reported,omitempty" json:"reported,omitempty"`
	Source   string             `yaml:"source" json:"source"`
}

// Range is a low–high figure.
type Range struct {
	Low  float64 `yaml:"low" json:"low"`
	High float64 `yaml:"high" json:"high"`
}

// Base is the loaded knowledge base. It is safe for concurrent use.
type Base struct {
	Topics    []Topic
	Workloads []Workload

	byID map[string]*Topic
	// always are the patterns with no required literal: they run on every
	// text; the others run only when each of their clauses has one of its
	// literals in the text (clauses[ref] is how many they have).
	always  []patRef
	clauses map[patRef]int
	// trie finds every literal of MinAutomaton bytes or more in one pass
	// (its pattern i is lits[i]); short are the indexes of the shorter
	// ones. One literal can be a term of several topics (a shared hint).
	trie  *ahocorasick.Automaton
	short []int
	terms []term
	lits  []literal
	// wtrie finds workload keywords; wterms[i] is keyword i's workload.
	wtrie *ahocorasick.Automaton
	// finds are the branches' terms (Findings); ftrie finds them in one
	// pass (pattern i is finds[i]).
	finds  []finding
	ftrie  *ahocorasick.Automaton
	wterms []term
	// scan: no automata (Scan); every literal is in short, and workload
	// keywords are looked for one by one.
	scan bool
}

// literal is a distinct string in the trie, the terms it stands for, and
// the patterns it is a required part of (found anywhere, it lets them run).
type literal struct {
	term  term // for the boundary check
	terms []int
	pats  []clauseRef
	// problem marks one of problemWords.
	problem bool
}

// patRef is pattern k of topic t.
type patRef struct{ t, k int }

// clauseRef is clause c of pattern ref's required literals.
type clauseRef struct {
	ref patRef
	c   int
}

// term is a literal of one topic (or workload) with its weight.
type term struct {
	text   string
	topic  int
	weight float64
	strong bool
	// boundL/boundR: the term starts/ends with an ASCII letter or digit,
	// so the text must have a word boundary there.
	boundL, boundR bool
}

type doc struct {
	Topics    []Topic    `yaml:"topics"`
	Workloads []Workload `yaml:"workloads"`
}

// Option changes how New builds the knowledge base's matchers.
type Option func(*options)

type options struct{ scan bool }

// Scan builds no automaton: each literal and workload keyword is looked
// for in a text with bytes.Index, which finds the same occurrences
// (FuzzScan). Building the automata takes 40–60 ms and a match then
// costs a few microseconds; scanning costs tens of microseconds a text:
// the cheaper choice for a process that answers one question (`bot ask`).
func Scan() Option { return func(o *options) { o.scan = true } }

// Load reads advice.yaml from fsys, decodes it strictly and validates it
// (see New). Errors name the file and the entry:
//
//	advice.yaml: topic "cuda-oom": phrase "爆显存" occurs in none of its examples
func Load(fsys fs.FS, opts ...Option) (*Base, error) {
	b, err := fs.ReadFile(fsys, File)
	if err != nil {
		return nil, fmt.Errorf("advice: read %s: %w", File, err)
	}
	var d doc
	if err := strictyaml.Decode(b, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	base, err := New(d.Topics, d.Workloads, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	return base, nil
}

var (
	reID = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	// reUpper finds an uppercase ASCII letter not after a backslash (\S,
	// \D and \W are classes, not letters).
	reUpper = regexp.MustCompile(`(?:^|[^\\])[A-Z]`)
)

// New validates topics and workloads and builds the matcher. It checks:
// unique kebab-case ids; titles, causes, steps (same count in zh and en)
// and source present; at least one error, pattern or phrase per topic;
// terms lowercase, folded and trimmed, errors and phrases not shared
// between topics; patterns compile; related ids exist; tie known; every
// term and pattern occurs in one of the topic's examples; workloads have
// keywords found in their examples, a kind and 0 < low ≤ high VRAM.
// The first problem found is returned, topics before workloads.
func New(topics []Topic, workloads []Workload, opts ...Option) (*Base, error) {
	if len(topics) == 0 {
		return nil, errors.New("no topics")
	}
	var o options
	for _, f := range opts {
		f(&o)
	}
	b := &Base{Topics: topics, Workloads: workloads, byID: map[string]*Topic{}, clauses: map[patRef]int{}, scan: o.scan}
	ix := &indexer{b: b, litIndex: map[string]int{}, owner: map[string]string{}}
	for i := range b.Topics {
		if err := ix.addTopic(i); err != nil {
			return nil, err
		}
	}
	if err := b.checkRelated(); err != nil {
		return nil, err
	}
	problemWords, err := readProblemWords()
	if err != nil {
		return nil, err
	}
	for _, w := range problemWords {
		li := b.literal(w, ix.litIndex)
		b.lits[li].problem = true
	}
	if b.trie, b.short, err = literalAutomaton(b.lits, b.scan); err != nil {
		return nil, err
	}
	if err := b.indexWorkloads(); err != nil {
		return nil, err
	}
	if err := b.indexFindings(); err != nil {
		return nil, err
	}
	return b, nil
}

// finding is one term of a branch: topic i's branch n (0-based).
type finding struct {
	term      term
	topic, br int
}

// indexFindings lists every branch's terms, and builds the automaton
// that finds them all in one pass (none in scan mode: Findings scans).
func (b *Base) indexFindings() error {
	var strs []string
	for i := range b.Topics {
		for n, br := range b.Topics[i].Follow {
			for _, w := range br.When {
				b.finds = append(b.finds, finding{term: newTerm(w, i, 0, false), topic: i, br: n})
				strs = append(strs, w)
			}
		}
	}
	if b.scan {
		return nil
	}
	var err error
	b.ftrie, err = newAutomaton(strs)
	return err
}

// indexer is New's state while it indexes the topics' terms and patterns
// into b (b.terms, b.lits, b.clauses, b.always) and the literal trie.
type indexer struct {
	b        *Base
	litIndex map[string]int    // literal → its index in b.lits
	owner    map[string]string // strong term (error or phrase) → topic id
}

// topicExamples is topic i's examples as terms (Normalize: spaces) and
// patterns (normalizeLines: line breaks) see them, and the terms it has
// listed so far.
type topicExamples struct {
	i     int
	t     *Topic
	terms [][]byte
	lines [][]byte
	seen  map[string]bool
}

// entryError is an error about one topic or workload:
//
//	topic "cuda-oom": phrase "爆显存" occurs in none of its examples
func entryError(kind, id, format string, a ...any) error {
	return fmt.Errorf("%s %q: %s", kind, id, fmt.Sprintf(format, a...))
}

// addTopic validates topic i and indexes its errors, phrases, hints (in
// that order) and patterns.
func (ix *indexer) addTopic(i int) error {
	b := ix.b
	t := &b.Topics[i]
	if !reID.MatchString(t.ID) {
		return entryError("topic", t.ID, "id must be kebab-case (a-z, 0-9, -)")
	}
	if _, dup := b.byID[t.ID]; dup {
		return entryError("topic", t.ID, "duplicate id")
	}
	b.byID[t.ID] = t
	if err := checkTopic(t); err != nil {
		return err
	}
	te := &topicExamples{i: i, t: t, terms: make([][]byte, len(t.Examples)),
		lines: make([][]byte, len(t.Examples)), seen: map[string]bool{}}
	for k, e := range t.Examples {
		te.terms[k], te.lines[k] = Normalize(e), normalizeLines(e)
	}
	if err := ix.addTerms(te, "error", t.Errors, WeightError, true); err != nil {
		return err
	}
	if err := ix.addTerms(te, "phrase", t.Phrases, WeightPhrase, true); err != nil {
		return err
	}
	if err := ix.addTerms(te, "hint", t.Hints, WeightHint, false); err != nil {
		return err
	}
	return ix.addPatterns(te)
}

// checkTopic checks a topic's fields other than its id, terms, patterns
// and related ids: title, causes and steps in zh and en (as many lines of
// each, none empty), source, at least one error, pattern or phrase,
// examples, and a known tie.
func checkTopic(t *Topic) error {
	bad := func(format string, a ...any) error { return entryError("topic", t.ID, format, a...) }
	switch {
	case strings.TrimSpace(t.Title.Zh) == "" || strings.TrimSpace(t.Title.En) == "":
		return bad("title needs zh and en")
	case len(t.Causes.Zh) == 0 || len(t.Causes.Zh) != len(t.Causes.En):
		return bad("causes need zh and en lines, as many of each (%d zh, %d en)", len(t.Causes.Zh), len(t.Causes.En))
	case len(t.Steps.Zh) == 0 || len(t.Steps.Zh) != len(t.Steps.En):
		return bad("steps need zh and en lines, as many of each (%d zh, %d en)", len(t.Steps.Zh), len(t.Steps.En))
	case strings.TrimSpace(t.Source) == "":
		return bad("source is missing")
	case len(t.Errors)+len(t.Patterns)+len(t.Phrases) == 0:
		return bad("needs at least one error, pattern or phrase (hints alone never make a match)")
	case len(t.Examples) == 0:
		return bad("needs examples")
	case t.Tie != "" && !contains(ties, t.Tie):
		return bad("tie %q is not one of %s", t.Tie, strings.Join(ties, ", "))
	}
	for _, l := range append(append(append([]string{}, t.Causes.Zh...), t.Causes.En...), append(t.Steps.Zh, t.Steps.En...)...) {
		if strings.TrimSpace(l) == "" {
			return bad("empty cause or step")
		}
	}
	if len(t.Next.Zh) != len(t.Next.En) {
		return bad("next needs as many zh as en lines (%d zh, %d en)", len(t.Next.Zh), len(t.Next.En))
	}
	if err := checkLeads(t); err != nil {
		return err
	}
	for i, br := range t.Follow {
		switch {
		case len(br.When) == 0:
			return bad("follow %d has no when terms", i+1)
		case strings.TrimSpace(br.Text.Zh) == "" || strings.TrimSpace(br.Text.En) == "":
			return bad("follow %d needs zh and en text", i+1)
		case br.Verdict != "" && br.Verdict != VerdictYes && br.Verdict != VerdictNo && br.Verdict != VerdictMaybe && br.Verdict != VerdictStated:
			return bad("follow %d: verdict %q is not yes, no, maybe or stated", i+1, br.Verdict)
		}
		for _, w := range br.When {
			if w == "" || w != strings.TrimSpace(string(Normalize(w))) {
				return bad("follow %d: term %q is not lowercase, folded and trimmed", i+1, w)
			}
		}
	}
	return nil
}

// checkLeads validates a topic's leads: zh and en causes, lowercase
// patterns that compile and match one of its examples.
func checkLeads(t *Topic) error {
	for i, l := range t.Leads {
		if len(l.When) == 0 || strings.TrimSpace(l.Cause.Zh) == "" || strings.TrimSpace(l.Cause.En) == "" {
			return entryError("topic", t.ID, "lead %d needs when patterns and a zh and en cause", i+1)
		}
		for _, w := range l.When {
			re, err := regexp.Compile(w)
			if err != nil || w != strings.ToLower(w) || !slices.ContainsFunc(t.Examples, func(e string) bool { return re.Match(Normalize(e)) }) {
				return entryError("topic", t.ID, "lead %d: pattern %q must compile, be lowercase and match an example", i+1, w)
			}
		}
	}
	return nil
}

// Findings are the branches of every topic whose terms the text names,
// as "topic#n" (n counts from 1), in the order of the file.
func (b *Base) Findings(text string) []string {
	norm := Normalize(text)
	hit := map[[2]int]bool{}
	if b.ftrie != nil {
		for _, m := range b.ftrie.FindAllOverlapping(norm) {
			if f := b.finds[m.PatternID]; f.term.bounded(norm, m.End) {
				hit[[2]int{f.topic, f.br}] = true
			}
		}
	} else {
		for _, f := range b.finds {
			if !hit[[2]int{f.topic, f.br}] && f.term.in(norm) {
				hit[[2]int{f.topic, f.br}] = true
			}
		}
	}
	var out []string
	for _, f := range b.finds {
		// In the knowledge base's order, each branch once.
		if k := [2]int{f.topic, f.br}; hit[k] {
			out = append(out, fmt.Sprintf("%s#%d", b.Topics[f.topic].ID, f.br+1))
			delete(hit, k)
		}
	}
	return out
}

// FindingOf is the first of findings that is a branch of topic id, and
// its number (1-based); ok is false for none.
func (b *Base) FindingOf(id string, findings []string) (*Branch, int, bool) {
	t, ok := b.byID[id]
	if !ok {
		return nil, 0, false
	}
	for _, f := range findings {
		tid, num, found := strings.Cut(f, "#")
		if !found || tid != id {
			continue
		}
		var n int
		if _, err := fmt.Sscanf(num, "%d", &n); err != nil || n < 1 || n > len(t.Follow) {
			continue
		}
		return &t.Follow[n-1], n, true
	}
	return nil, 0, false
}

// addTerms validates and indexes a topic's terms of one kind ("error",
// "phrase" or "hint") with their weight: each normalized, listed once,
// found in an example, and when strong (errors and phrases) owned by this
// topic alone.
func (ix *indexer) addTerms(te *topicExamples, kind string, list []string, weight float64, strong bool) error {
	b, t := ix.b, te.t
	for _, s := range list {
		switch {
		case s == "" || s != strings.TrimSpace(s):
			return entryError("topic", t.ID, "%s %q: empty or padded with spaces", kind, s)
		case string(Normalize(s)) != s:
			return entryError("topic", t.ID, "%s %q: write it lowercase, half-width, single-spaced (%q)", kind, s, Normalize(s))
		case te.seen[s]:
			return entryError("topic", t.ID, "%s %q: listed twice", kind, s)
		}
		te.seen[s] = true
		if strong {
			if other, ok := ix.owner[s]; ok {
				return entryError("topic", t.ID, "%s %q is also an error or phrase of %q; shared words can only be hints", kind, s, other)
			}
			ix.owner[s] = t.ID
		}
		tm := newTerm(s, te.i, weight, kind == "error")
		if !anyOf(te.terms, tm.in) {
			return entryError("topic", t.ID, "%s %q occurs in none of its examples", kind, s)
		}
		b.terms = append(b.terms, tm)
		li := b.literal(s, ix.litIndex)
		b.lits[li].terms = append(b.lits[li].terms, len(b.terms)-1)
	}
	return nil
}

// addPatterns compiles a topic's patterns (lowercase, no (?i), each
// matching an example) into t.res and t.anchored, and indexes each under
// its required literals, or in b.always when it has none.
func (ix *indexer) addPatterns(te *topicExamples) error {
	b, t := ix.b, te.t
	t.res, t.anchored = nil, nil
	for _, p := range t.Patterns {
		if reUpper.MatchString(p) || strings.Contains(p, "(?i") {
			return entryError("topic", t.ID, "pattern %q: write it lowercase without (?i); the text is lowercased first", p)
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return entryError("topic", t.ID, "pattern %q: %v", p, err)
		}
		if !anyOf(te.lines, re.Match) {
			return entryError("topic", t.ID, "pattern %q matches none of its examples", p)
		}
		ref := patRef{te.i, len(t.res)}
		t.res = append(t.res, re)
		t.anchored = append(t.anchored, hasTextAnchor(p))
		req := textgate.RequiredLiterals(p)
		if len(req) == 0 {
			b.always = append(b.always, ref)
			continue
		}
		b.clauses[ref] = len(req)
		for c, clause := range req {
			for _, l := range clause {
				li := b.literal(l, ix.litIndex)
				b.lits[li].pats = append(b.lits[li].pats, clauseRef{ref, c})
			}
		}
	}
	return nil
}

// checkRelated checks that every topic's related ids name other topics.
func (b *Base) checkRelated() error {
	for i := range b.Topics {
		t := &b.Topics[i]
		for _, r := range t.Related {
			if _, ok := b.byID[r]; !ok || r == t.ID {
				return fmt.Errorf("topic %q: related %q is not another topic", t.ID, r)
			}
		}
	}
	return nil
}

// indexWorkloads validates the workloads (see checkWorkload), indexes
// their keywords (normalized, each found in one of the workload's
// examples, not shared between workloads) into b.wterms and b.wtrie, and
// checks that refines names other workloads.
func (b *Base) indexWorkloads() error {
	wids := map[string]bool{}
	wkeys := map[string]string{} // keyword → workload id
	for i := range b.Workloads {
		w := &b.Workloads[i]
		if err := checkWorkload(w, wids); err != nil {
			return err
		}
		wids[w.ID] = true
		wexamples := make([][]byte, len(w.Examples))
		for k, e := range w.Examples {
			wexamples[k] = Normalize(e)
		}
		for _, k := range w.Keywords {
			if k == "" || string(Normalize(k)) != k {
				return entryError("workload", w.ID, "keyword %q: write it lowercase, half-width, single-spaced", k)
			}
			tm := newTerm(k, i, 1, false)
			if !anyOf(wexamples, tm.in) {
				return entryError("workload", w.ID, "keyword %q occurs in none of its examples", k)
			}
			if other, dup := wkeys[k]; dup {
				return entryError("workload", w.ID, "keyword %q is also a keyword of %q", k, other)
			}
			wkeys[k] = w.ID
			b.wterms = append(b.wterms, tm)
		}
	}
	for _, w := range b.Workloads {
		for _, r := range w.Refines {
			if !wids[r] || r == w.ID {
				return fmt.Errorf("workload %q: refines %q, which is not another workload", w.ID, r)
			}
		}
	}
	if b.scan {
		return nil
	}
	keywords := make([]string, len(b.wterms))
	for i, t := range b.wterms {
		keywords[i] = t.text
	}
	var err error
	b.wtrie, err = newAutomaton(keywords)
	return err
}

// checkWorkload checks a workload's fields other than its keywords and
// refines: a kebab-case id not in wids (those seen so far), a zh and en
// name, kind training or inference, 0 < low ≤ high ≤ 2000 GB of VRAM, a
// source, keywords and examples, and a complete reference when it has one.
func checkWorkload(w *Workload, wids map[string]bool) error {
	bad := func(format string, a ...any) error { return entryError("workload", w.ID, format, a...) }
	switch {
	case !reID.MatchString(w.ID):
		return bad("id must be kebab-case")
	case wids[w.ID]:
		return bad("duplicate id")
	case w.Name.Zh == "" || w.Name.En == "":
		return bad("name needs zh and en")
	case w.Kind != "training" && w.Kind != "inference":
		return bad("kind %q must be training or inference", w.Kind)
	case !(w.VRAMGB.Low > 0 && w.VRAMGB.High >= w.VRAMGB.Low && w.VRAMGB.High <= 2000):
		return bad("vram_gb needs 0 < low ≤ high ≤ 2000 (GB), got %g–%g", w.VRAMGB.Low, w.VRAMGB.High)
	case strings.TrimSpace(w.Source) == "":
		return bad("source is missing")
	case len(w.Keywords) == 0 || len(w.Examples) == 0:
		return bad("needs keywords and examples")
	case w.Reference != nil && (!(w.Reference.Hours > 0) || w.Reference.GPU == "" || w.Reference.Source == "" || w.Reference.Setting.Zh == "" || w.Reference.Setting.En == ""):
		return bad("reference needs a setting (zh and en), a gpu, hours > 0 and a source")
	}
	return nil
}

// literal returns the index of s in b.lits, adding it.
func (b *Base) literal(s string, index map[string]int) int {
	if li, ok := index[s]; ok {
		return li
	}
	li := len(b.lits)
	index[s] = li
	b.lits = append(b.lits, literal{term: newTerm(s, -1, 0, false)})
	return li
}

// MinAutomaton is the shortest literal the automaton finds, bytes: the
// automaton reports every occurrence, and a paste has hundreds of " ",
// "in" and ":" (required literals of a few patterns), so those are found
// with bytes.Index instead, which costs no allocation per occurrence.
const MinAutomaton = 3

// literalAutomaton builds the automaton for the literals of MinAutomaton
// bytes or more (pattern i is lits[i]; the shorter ones are replaced by a
// string of 0xff bytes, which UTF-8 text never has) and lists the shorter
// ones; with scan, no automaton, and every literal is listed.
func literalAutomaton(lits []literal, scan bool) (*ahocorasick.Automaton, []int, error) {
	if scan {
		all := make([]int, len(lits))
		for i := range all {
			all[i] = i
		}
		return nil, all, nil
	}
	texts := make([]string, len(lits))
	var short []int
	for i, l := range lits {
		texts[i] = l.term.text
		if len(texts[i]) < MinAutomaton {
			texts[i] = "\xff\xff\xff\xff"
			short = append(short, i)
		}
	}
	a, err := newAutomaton(texts)
	return a, short, err
}

// newAutomaton builds the Aho-Corasick automaton that finds every
// occurrence of the strings (pattern i is strs[i]), overlapping ones too:
// a DFA whose bytes are grouped into the classes the strings tell apart,
// a fraction of a full 256-entry table per state. No strings, no
// automaton (nil finds nothing).
func newAutomaton(strs []string) (*ahocorasick.Automaton, error) {
	if len(strs) == 0 {
		return nil, nil
	}
	a, err := ahocorasick.NewBuilder().AddStrings(strs).Build()
	if err != nil {
		return nil, fmt.Errorf("advice: matcher: %w", err)
	}
	return a, nil
}

// hasTextAnchor reports whether a pattern uses ^ or $ (or \A, \z).
func hasTextAnchor(pattern string) bool {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return true
	}
	var walk func(*syntax.Regexp) bool
	walk = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine:
			return true
		}
		for _, s := range r.Sub {
			if walk(s) {
				return true
			}
		}
		return false
	}
	return walk(re)
}

// anyOf reports whether f holds for one of the texts.
func anyOf(texts [][]byte, f func([]byte) bool) bool {
	for _, t := range texts {
		if f(t) {
			return true
		}
	}
	return false
}

// Topic returns the topic with the id.
func (b *Base) Topic(id string) (*Topic, bool) {
	t, ok := b.byID[id]
	return t, ok
}

func newTerm(s string, topic int, weight float64, strong bool) term {
	return term{text: s, topic: topic, weight: weight, strong: strong,
		boundL: isWord(s[0]), boundR: isWord(s[len(s)-1])}
}

// in reports whether the term occurs in normalized text at a boundary.
func (t term) in(text []byte) bool {
	off := 0
	for {
		i := bytes.Index(text[off:], []byte(t.text))
		if i < 0 {
			return false
		}
		end := off + i + len(t.text)
		if t.bounded(text, end) {
			return true
		}
		off += i + 1
	}
}

// bounded checks the word boundaries of a match ending at end.
func (t term) bounded(text []byte, end int) bool {
	start := end - len(t.text)
	if t.boundL && start > 0 && isWord(text[start-1]) {
		return false
	}
	if t.boundR && end < len(text) && isWord(text[end]) {
		return false
	}
	return true
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// WordsFile is the embedded file of the words that make a text a
// problem report.
const WordsFile = "advicewords.yaml"

// readProblemWords are the words of configs/advicewords.yaml that make a
// text a problem report (Result.Problem), read once.
var readProblemWords = sync.OnceValues(func() ([]string, error) {
	b, err := configs.FS.ReadFile(WordsFile)
	if err != nil {
		return nil, err
	}
	var w struct {
		Problem []string `yaml:"problem"`
	}
	if err := strictyaml.Decode(b, &w); err != nil {
		return nil, fmt.Errorf("%s: %w", WordsFile, err)
	}
	for i, p := range w.Problem {
		if strings.TrimSpace(p) == "" {
			return nil, fmt.Errorf("%s: problem[%d]: empty", WordsFile, i)
		}
	}
	return w.Problem, nil
})
