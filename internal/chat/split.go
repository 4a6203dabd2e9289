package chat

import (
	"strings"
	"unicode/utf8"
)

// Segment is a run of lines that belong together: a paragraph list, a
// table, the notes. Head lines (a table's header) are written before the
// segment's first line in every part the segment appears in.
type Segment struct {
	Head  []string
	Lines []string
}

// TextSegment makes a segment of s split into lines.
func TextSegment(s string) Segment {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return Segment{}
	}
	return Segment{Lines: strings.Split(s, "\n")}
}

// SplitOptions say how Split measures and bounds a part.
type SplitOptions struct {
	// Budget is the most a part may cost; First, when positive, the most
	// the first part may (room kept for an @mention prefix).
	Budget, First int
	// Cost measures a text (RuneCost, ByteCost, a JSON-escaped length).
	Cost func(string) int
	// Gap puts a blank line between segments within a part.
	Gap bool
}

// RuneCost is a text's length in runes.
func RuneCost(s string) int { return utf8.RuneCountInString(s) }

// ByteCost is a text's UTF-8 length.
func ByteCost(s string) int { return len(s) }

// SplitText is Split of one text.
func SplitText(s string, o SplitOptions) []string { return Split([]Segment{TextSegment(s)}, o) }

// Split packs segments, in order, into parts of at most o.Budget (the
// first at most o.First), measured by o.Cost over the part's text (lines
// joined by "\n"). It breaks only between lines, except that a line too
// long for a part on its own is cut at rune boundaries. With o.Gap, a
// blank line separates segments within a part. Parts are trimmed of blank
// lines at both ends; empty parts are dropped. Every channel splits its
// long replies with it.
func Split(segs []Segment, o SplitOptions) []string {
	sp := &splitter{o: o, nl: o.Cost("\n"), budget: o.Budget}
	if o.First > 0 {
		sp.budget = min(o.First, o.Budget)
	}
	for si, sg := range segs {
		sp.segment(sg, o.Gap && si > 0)
	}
	sp.flush()
	return sp.parts
}

// splitter is Split's state: the parts made, the part being filled and
// its cost, and the budget of that part.
type splitter struct {
	o       SplitOptions
	nl      int
	parts   []string
	cur     []string
	curCost int
	budget  int
}

// flush ends the current part (kept unless blank); the next one has the
// whole budget.
func (sp *splitter) flush() {
	s := strings.Trim(strings.Join(sp.cur, "\n"), "\n")
	if strings.TrimSpace(s) != "" {
		sp.parts = append(sp.parts, s)
		sp.budget = sp.o.Budget
	}
	sp.cur, sp.curCost = nil, 0
}

// add puts one line in the current part.
func (sp *splitter) add(l string) {
	if len(sp.cur) > 0 {
		sp.curCost += sp.nl
	}
	sp.cur = append(sp.cur, l)
	sp.curCost += sp.o.Cost(l)
}

// segment packs one segment's lines, its head repeated at the top of
// each part it spans (kept once when it would take over half a part),
// after a blank line when gap is set and the part has lines already.
func (sp *splitter) segment(sg Segment, gap bool) {
	cost := sp.o.Cost
	head := sg.Head
	headCost := 0
	for _, h := range head {
		headCost += cost(h) + sp.nl
	}
	if headCost > sp.budget/2 {
		// A head this large is not worth repeating: keep it once.
		head, headCost = nil, 0
		sg.Lines = append(append([]string(nil), sg.Head...), sg.Lines...)
	}
	headDone := false
	emit := func(l string) {
		need := cost(l) + sp.nl
		if !headDone {
			need += headCost
		}
		if gap && len(sp.cur) > 0 {
			need += sp.nl
		}
		if len(sp.cur) > 0 && sp.curCost+need > sp.budget {
			sp.flush()
			headDone = false
		}
		if gap && len(sp.cur) > 0 {
			sp.add("")
		}
		gap = false
		if !headDone {
			for _, h := range head {
				sp.add(h)
			}
			headDone = true
		}
		sp.add(l)
	}
	for _, l := range sg.Lines {
		if cost(l)+headCost <= sp.budget {
			emit(l)
			continue
		}
		for _, c := range cut(l, max(sp.budget-headCost, 1), cost) {
			emit(c)
		}
	}
}

// cut splits s into pieces of cost at most limit, at rune boundaries; each
// piece holds at least one rune.
func cut(s string, limit int, cost func(string) int) []string {
	var out []string
	start, acc := 0, 0
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		c := cost(s[i : i+size])
		if acc+c > limit && i > start {
			out = append(out, s[start:i])
			start, acc = i, 0
		}
		acc += c
		i += size
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
