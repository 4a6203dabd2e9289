package chat

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// PlainText renders a reply for channels without rich formatting (the
// console, WeChat): title, lines, the table with columns aligned by display
// width (a CJK character is two columns wide), then notes.
func PlainText(r Reply) string {
	var b strings.Builder
	if r.Title != "" {
		b.WriteString(r.Title)
		b.WriteByte('\n')
	}
	for _, l := range r.Lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if r.Table != nil && len(r.Table.Rows) > 0 {
		b.WriteString(AlignTable(r.Table))
	}
	for _, n := range r.Notes {
		b.WriteString(n)
		b.WriteByte('\n')
	}
	return b.String()
}

// AlignTable renders a table as text with two spaces between columns.
func AlignTable(t *Table) string {
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	w := make([]int, cols)
	all := append([][]string{t.Header}, t.Rows...)
	for _, r := range all {
		for i, c := range r {
			w[i] = max(w[i], runewidth.StringWidth(c))
		}
	}
	var b strings.Builder
	for _, r := range all {
		var line strings.Builder
		for i := 0; i < cols; i++ {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			if i < cols-1 {
				line.WriteString(runewidth.FillRight(c, w[i]))
				line.WriteString("  ")
			} else {
				line.WriteString(c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}
