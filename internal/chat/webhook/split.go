package webhook

import (
	"strings"
	"unicode/utf8"
)

// segment is a run of lines that belong together: a paragraph list, a
// table, the notes. head lines (a table's header) are written before the
// segment's first line in every part the segment appears in.
type segment struct {
	head  []string
	lines []string
}

// textSegment makes a segment of s split into lines.
func textSegment(s string) segment {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return segment{}
	}
	return segment{lines: strings.Split(s, "\n")}
}

// split packs segments, in order, into parts of at most budget, measured
// by cost over the part's text (lines joined by "\n"). It breaks only
// between lines, except that a line too long for a part on its own is cut
// at rune boundaries. With gap, a blank line separates segments within a
// part. Parts are trimmed of blank lines at both ends; empty parts are
// dropped.
func split(segs []segment, budget int, cost func(string) int, gap bool) []string {
	nl := cost("\n")
	var (
		parts   []string
		cur     []string
		curCost int
	)
	flush := func() {
		s := strings.Trim(strings.Join(cur, "\n"), "\n")
		if strings.TrimSpace(s) != "" {
			parts = append(parts, s)
		}
		cur, curCost = nil, 0
	}
	add := func(l string) {
		if len(cur) > 0 {
			curCost += nl
		}
		cur = append(cur, l)
		curCost += cost(l)
	}
	for si, sg := range segs {
		head := sg.head
		headCost := 0
		for _, h := range head {
			headCost += cost(h) + nl
		}
		if headCost > budget/2 {
			// A head this large is not worth repeating: keep it once.
			head, headCost = nil, 0
			sg.lines = append(append([]string(nil), sg.head...), sg.lines...)
		}
		headDone := false
		gapPending := gap && si > 0
		emit := func(l string) {
			need := cost(l) + nl
			if !headDone {
				need += headCost
			}
			if gapPending && len(cur) > 0 {
				need += nl
			}
			if len(cur) > 0 && curCost+need > budget {
				flush()
				headDone = false
			}
			if gapPending && len(cur) > 0 {
				add("")
			}
			gapPending = false
			if !headDone {
				for _, h := range head {
					add(h)
				}
				headDone = true
			}
			add(l)
		}
		for _, l := range sg.lines {
			if cost(l)+nl+headCost <= budget {
				emit(l)
				continue
			}
			for _, c := range cut(l, budget-headCost-2*nl, cost) {
				emit(c)
			}
		}
	}
	flush()
	return parts
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
