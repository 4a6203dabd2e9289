package advice

import (
	"bytes"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/catalog"
)

// Term weights. A topic's raw score is the sum of the weights of its
// distinct terms found; a strong term (error or pattern) found in the last
// lines of a multi-line paste (where a traceback names its exception)
// counts TailBoost times.
const (
	WeightError  = 1.0
	WeightPhrase = 0.6
	WeightHint   = 0.2
	TailBoost    = 1.5
)

// Confidence thresholds on Score (1 − e^(−raw)): Threshold picks a topic
// (one error or one phrase suffices: 0.63 and 0.45); RelatedMin lists
// another topic beside it.
const (
	Threshold  = 0.4
	RelatedMin = 0.3
)

// MaxInput is the most text matched, bytes: longer pastes keep their first
// quarter and last three quarters (the exception is at the end).
const MaxInput = 64 << 10

// tailLines is how many last non-empty lines of a paste get TailBoost.
const tailLines = 3

// Hit is a topic found in a text.
type Hit struct {
	Topic *Topic
	// Score is the confidence in [0, 1).
	Score float64
	// Terms are the terms found, strongest first.
	Terms []string
	// Strong is set when one of the topic's errors (text as a program
	// prints it) was found, not only patterns, phrases and hints.
	Strong bool
}

// Result is what Match found.
type Result struct {
	// Best is the topic with the highest score when it reaches Threshold.
	Best *Hit
	// Related are other topics at RelatedMin or more, then the best
	// topic's declared related topics (Score 0 when not found in the text),
	// at most 3.
	Related []Hit
	// Closest are the highest-scoring topics when none reached Threshold,
	// at most 3 (empty when nothing matched at all).
	Closest []Hit
	// Problem is true when the text reads as a problem report or a
	// question about one ("报错", "怎么办", "error", a traceback).
	Problem bool
}

// Normalize folds text for matching (catalog.Fold: lowercase, full-width
// ASCII narrowed, ideographic spaces to spaces), turns invalid UTF-8 into
// spaces and collapses whitespace runs (including newlines) to one space.
// Terms are matched against it.
func Normalize(text string) []byte {
	return normalize(text, nil, nil)
}

// normalizeLines is Normalize that keeps a line break as "\n" (a
// whitespace run containing one becomes "\n" instead of " "), with the
// same byte offsets. Patterns are matched against it, so "^killed$" can
// mean a line of its own and "." stops at the end of a line.
func normalizeLines(text string) []byte {
	var breaks []int
	out := normalize(text, nil, &breaks)
	for _, b := range breaks {
		out[b] = '\n'
	}
	return out
}

// normalize is Normalize that also records, when tail is non-nil, the byte
// offset in the output where the last tailLines non-empty lines begin, and
// when breaks is non-nil the offsets of the spaces that stand for a line
// break.
func normalize(text string, tail *int, breaks *[]int) []byte {
	out := make([]byte, 0, len(text))
	space := true // drop leading spaces
	var lineStarts []int
	lineHasText := false
	for i := 0; i < len(text); {
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:])
		}
		i += n
		if r == utf8.RuneError && n == 1 {
			r = ' '
		}
		if r == '\n' {
			lineHasText = false
			if breaks != nil && len(out) > 0 {
				if !space {
					out = append(out, ' ')
					space = true
				}
				if k := len(*breaks); k == 0 || (*breaks)[k-1] != len(out)-1 {
					*breaks = append(*breaks, len(out)-1)
				}
			}
		}
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x3000 || r == 0x2005 || r == 0xa0 {
			if !space {
				out = append(out, ' ')
				space = true
			}
			continue
		}
		if !lineHasText {
			lineHasText = true
			if tail != nil {
				lineStarts = append(lineStarts, len(out))
			}
		}
		if r = foldRune(r); r < utf8.RuneSelf {
			out = append(out, byte(r))
		} else {
			out = utf8.AppendRune(out, r)
		}
		space = false
	}
	if len(out) > 0 && out[len(out)-1] == ' ' {
		out = out[:len(out)-1]
		if breaks != nil && len(*breaks) > 0 && (*breaks)[len(*breaks)-1] >= len(out) {
			*breaks = (*breaks)[:len(*breaks)-1]
		}
	}
	if tail != nil {
		*tail = len(out) + 1 // nothing boosted
		if len(lineStarts) > tailLines {
			*tail = lineStarts[len(lineStarts)-tailLines]
		}
	}
	return out
}

func foldRune(r rune) rune {
	if r < 0x80 {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	s := catalog.Fold(string(r))
	fr, _ := utf8.DecodeRuneInString(s)
	return fr
}

// clip keeps at most MaxInput bytes of a text on rune boundaries.
func clip(text string) string {
	if len(text) <= MaxInput {
		return text
	}
	head := strings.ToValidUTF8(text[:MaxInput/4], "")
	tail := strings.ToValidUTF8(text[len(text)-MaxInput*3/4:], "")
	return head + "\n" + tail
}

// Match scores every topic against a question or a pasted error.
func (b *Base) Match(text string) Result {
	norm, lines, tail := matchText(text)
	return b.match(norm, lines, tail)
}

// MatchWorkload is Match and WorkloadIn of one text, which is normalized
// once for both (a paste is kilobytes, and every message is matched).
func (b *Base) MatchWorkload(text string) (Result, *Workload) {
	norm, lines, tail := matchText(text)
	return b.match(norm, lines, tail), b.workloadIn(norm)
}

// match is Match of a text already normalized (matchText).
func (b *Base) match(norm, lines []byte, tail int) Result {
	// The steps fill these; made here, they can stay on the stack.
	seen := make(map[int]*occ, 16)             // literal → its occurrences
	spans := map[patRef][][][2]int{}           // pattern → clause → spans
	near := map[patRef][][2]int{}              // pattern to run → spans
	raw := make([]float64, len(b.Topics))      // raw score per topic
	found := make([][]int, len(b.Topics))      // term indexes per topic
	patHits := make([][]string, len(b.Topics)) // pattern excerpts per topic
	problem := b.findLiterals(norm, tail, seen)
	b.scoreTerms(seen, raw, found, spans)
	b.patternWindows(spans, len(norm), near)
	b.runPatterns(near, norm, lines, tail, raw, patHits)
	return b.result(b.hits(raw, found, patHits), problem)
}

// matchText is text clipped (see MaxInput) and normalized: norm for the
// terms, lines (norm with its line breaks back, same byte offsets) for the
// patterns, and tail, the offset in both where the last tailLines
// non-empty lines begin.
func matchText(text string) (norm, lines []byte, tail int) {
	var breaks []int
	norm = normalize(clip(text), &tail, &breaks)
	lines = norm
	if len(breaks) > 0 {
		lines = bytes.Clone(norm)
		for _, b := range breaks {
			lines[b] = '\n'
		}
	}
	return norm, lines, tail
}

// occ records a literal's occurrences in a text: up to maxSpans spans
// [start, end) anywhere (a pattern's required literal needs no word
// boundary), whether it occurs as a whole term (at its word boundaries),
// and whether such an occurrence starts in the tail.
type occ struct {
	spans      [][2]int
	term, tail bool
}

// findLiterals finds every literal in norm — those of MinAutomaton bytes
// or more in one pass of the automaton, the few shorter ones (" ", "in",
// ":", which a paste has hundreds of) with bytes.Index — recording literal
// l's occurrences in seen[l], and reports whether one of problemWords
// occurs. tail is where the tail lines begin in norm.
func (b *Base) findLiterals(norm []byte, tail int, seen map[int]*occ) bool {
	problem := false
	record := func(l, start, end int) {
		problem = problem || b.lits[l].problem
		o := seen[l]
		if o == nil {
			o = &occ{}
			seen[l] = o
		}
		sp := [2]int{start, end}
		if len(o.spans) < maxSpans {
			o.spans = append(o.spans, sp)
		} else {
			// Keep the first two and the latest ones: a paste ends with
			// its error.
			copy(o.spans[2:], o.spans[3:])
			o.spans[maxSpans-1] = sp
		}
		if b.lits[l].term.bounded(norm, end) {
			o.term = true
			o.tail = o.tail || start >= tail
		}
	}
	if b.trie != nil {
		for _, m := range b.trie.FindAllOverlapping(norm) {
			record(m.PatternID, m.Start, m.End)
		}
	}
	for _, l := range b.short {
		for _, start := range shortSpans(norm, b.lits[l].term.text, len(b.lits[l].terms) > 0) {
			record(l, start, start+len(b.lits[l].term.text))
		}
	}
	return problem
}

// shortSpans returns where a short literal starts in norm, in order:
// every occurrence when all is set (a term, whose occurrences are checked
// for word boundaries), else only those findLiterals keeps — the first
// two and the latest maxSpans-2 — found from both ends, so " " in a long
// paste costs a few searches, not hundreds.
func shortSpans(norm []byte, lit string, all bool) []int {
	var starts []int
	for from := 0; all || len(starts) < 2; {
		i := bytes.Index(norm[from:], []byte(lit))
		if i < 0 {
			return starts
		}
		starts = append(starts, from+i)
		from += i + 1
	}
	var last []int
	for to := len(norm); len(last) < maxSpans-2; {
		i := bytes.LastIndex(norm[:to], []byte(lit))
		if i <= starts[1] {
			break
		}
		last = append(last, i)
		to = i + len(lit) - 1
	}
	slices.Reverse(last)
	return append(starts, last...)
}

// scoreTerms adds to raw[topic] the weight of each term found as a whole
// term (strong ones found in the tail count TailBoost times) and appends
// the term's index to found[topic]. It records where the patterns'
// required literals occur in spans: spans[ref][c] for pattern ref's clause c.
func (b *Base) scoreTerms(seen map[int]*occ, raw []float64, found [][]int, spans map[patRef][][][2]int) {
	for l, o := range seen {
		lit := &b.lits[l]
		for _, cr := range lit.pats {
			sp := spans[cr.ref]
			if sp == nil {
				sp = make([][][2]int, b.clauses[cr.ref])
				spans[cr.ref] = sp
			}
			sp[cr.c] = append(sp[cr.c], o.spans...)
		}
		if !o.term {
			continue
		}
		for _, p := range lit.terms {
			t := b.terms[p]
			w := t.weight
			if t.strong && o.tail {
				w *= TailBoost
			}
			raw[t.topic] += w
			found[t.topic] = append(found[t.topic], p)
		}
	}
}

// patternWindows puts in near the patterns to run and where: a pattern
// runs when every clause of its required literals occurs, near the rarest
// clause's spans; a pattern without required literals runs on the whole
// text (n bytes).
func (b *Base) patternWindows(spans map[patRef][][][2]int, n int, near map[patRef][][2]int) {
	for ref, sp := range spans {
		var rarest [][2]int
		for _, c := range sp {
			if len(c) == 0 {
				rarest = nil
				break
			}
			if rarest == nil || len(c) < len(rarest) {
				rarest = c
			}
		}
		if rarest != nil {
			near[ref] = rarest
		}
	}
	for _, ref := range b.always {
		near[ref] = [][2]int{{0, n}}
	}
}

// runPatterns runs the patterns in near (by topic, then pattern order) on
// lines around their spans, adds WeightError to raw[topic] for each that
// matches (TailBoost times when the match starts in the tail), and appends
// the excerpt matched to patHits[topic].
func (b *Base) runPatterns(near map[patRef][][2]int, norm, lines []byte, tail int, raw []float64, patHits [][]string) {
	run := make([]patRef, 0, len(near))
	for ref := range near {
		run = append(run, ref)
	}
	sort.Slice(run, func(i, j int) bool { return run[i].t < run[j].t || run[i].t == run[j].t && run[i].k < run[j].k })
	for _, ref := range run {
		t := &b.Topics[ref.t]
		loc := findNear(t.res[ref.k], lines, near[ref], t.anchored[ref.k])
		if loc == nil {
			continue
		}
		w := WeightError
		if loc[0] >= tail {
			w *= TailBoost
		}
		raw[ref.t] += w
		patHits[ref.t] = append(patHits[ref.t], excerpt(norm[loc[0]:loc[1]]))
	}
}

// hits are the topics with a raw score, Score 1 − e^(−raw), highest first
// (then by id); each lists its pattern excerpts, then its terms by weight.
func (b *Base) hits(raw []float64, found [][]int, patHits [][]string) []Hit {
	var hits []Hit
	for i, r := range raw {
		if r == 0 {
			continue
		}
		h := Hit{Topic: &b.Topics[i], Score: 1 - math.Exp(-r)}
		idx := found[i]
		for _, p := range idx {
			h.Strong = h.Strong || b.terms[p].strong
		}
		sort.Slice(idx, func(x, y int) bool {
			if b.terms[idx[x]].weight != b.terms[idx[y]].weight {
				return b.terms[idx[x]].weight > b.terms[idx[y]].weight
			}
			return idx[x] < idx[y]
		})
		h.Terms = append(h.Terms, patHits[i]...)
		for _, p := range idx {
			h.Terms = append(h.Terms, b.terms[p].text)
		}
		hits = append(hits, h)
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Topic.ID < hits[j].Topic.ID
	})
	return hits
}

// result makes sorted hits a Result: the best one when it reaches
// Threshold, with up to 3 related (other hits at RelatedMin or more, then
// its declared related topics), else up to 3 closest.
func (b *Base) result(hits []Hit, problem bool) Result {
	res := Result{Problem: problem}
	if len(hits) == 0 || hits[0].Score < Threshold {
		for i := 0; i < len(hits) && i < 3; i++ {
			res.Closest = append(res.Closest, hits[i])
		}
		return res
	}
	best := hits[0]
	res.Best = &best
	listed := map[string]bool{best.Topic.ID: true}
	for _, h := range hits[1:] {
		if len(res.Related) == 3 || h.Score < RelatedMin {
			break
		}
		res.Related = append(res.Related, h)
		listed[h.Topic.ID] = true
	}
	for _, id := range best.Topic.Related {
		if len(res.Related) == 3 {
			break
		}
		if listed[id] {
			continue
		}
		t := b.byID[id]
		res.Related = append(res.Related, Hit{Topic: t})
		listed[id] = true
	}
	return res
}

// Patterns run only near their required literals: within PatternReach
// bytes either side of each occurrence (per literal the first two and the
// latest maxSpans-2), so
// a long paste costs the regexp engine a few short windows, not the whole
// text per pattern. A pattern with ^ or $ runs on the whole text.
const (
	PatternReach = 160
	maxSpans     = 8
)

// findNear returns the first match of re in text within the windows
// around spans (the whole text when whole is set), as [start, end) in
// text. Short windows also let the regexp package use its backtracker,
// much faster than its NFA on kilobytes of text.
func findNear(re *regexp.Regexp, text []byte, spans [][2]int, whole bool) []int {
	if whole {
		return re.FindIndex(text)
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var wins [][2]int
	for _, sp := range spans {
		lo, hi := max(0, sp[0]-PatternReach), min(len(text), sp[1]+PatternReach)
		if n := len(wins); n > 0 && lo <= wins[n-1][1] {
			wins[n-1][1] = max(wins[n-1][1], hi)
			continue
		}
		wins = append(wins, [2]int{lo, hi})
	}
	for _, w := range wins {
		if loc := re.FindIndex(text[w[0]:w[1]]); loc != nil {
			return []int{w[0] + loc[0], w[0] + loc[1]}
		}
	}
	return nil
}

// excerpt is matched text as answers quote it: at most 40 bytes, valid
// UTF-8.
func excerpt(b []byte) string {
	if len(b) > 40 {
		b = b[:40]
	}
	return strings.ToValidUTF8(string(b), "")
}

// WorkloadIn returns the workload a question names, or nil: of those whose
// keywords occur, leaving out any another one refines, the one with the
// most keyword bytes found.
func (b *Base) WorkloadIn(text string) *Workload {
	if len(b.Workloads) == 0 {
		return nil
	}
	return b.workloadIn(Normalize(clip(text)))
}

// workloadIn is WorkloadIn of a normalized text.
func (b *Base) workloadIn(norm []byte) *Workload {
	if len(b.Workloads) == 0 {
		return nil
	}
	score := make([]int, len(b.Workloads))
	add := func(t term, end int) {
		if t.bounded(norm, end) {
			score[t.topic] += len(t.text)
		}
	}
	switch {
	case b.wtrie != nil:
		for _, m := range b.wtrie.FindAllOverlapping(norm) {
			add(b.wterms[m.PatternID], m.End)
		}
	case b.scan:
		for _, t := range b.wterms {
			for _, start := range shortSpans(norm, t.text, true) {
				add(t, start+len(t.text))
			}
		}
	}
	refined := map[string]bool{}
	for i, s := range score {
		if s > 0 {
			for _, r := range b.Workloads[i].Refines {
				refined[r] = true
			}
		}
	}
	best := -1
	for i, s := range score {
		if s > 0 && !refined[b.Workloads[i].ID] && (best < 0 || s > score[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return &b.Workloads[best]
}
