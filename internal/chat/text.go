package chat

import (
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"
)

// PlainText renders a reply for channels without rich formatting (the
// console, WeChat): title, lines, the table with columns aligned by display
// width (a CJK character is two columns wide), notes, then MoreHint when
// the reply has a full form.
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
	if r.Chart != nil {
		b.WriteString(TextBars(r.Chart))
	}
	if r.Table != nil && len(r.Table.Rows) > 0 {
		b.WriteString(AlignTable(r.Table))
	}
	for _, n := range r.Notes {
		b.WriteString(n)
		b.WriteByte('\n')
	}
	if r.Full != nil {
		b.WriteString(MoreHint(r.English))
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

// TextBars renders a bar chart as text: the title, then a line per bar
// with the label, a bar of █ up to 20 cells long scaled to the largest
// value, and the value.
func TextBars(c *BarChart) string {
	var b strings.Builder
	if c.Title != "" {
		b.WriteString(c.Title + "\n")
	}
	top, lw := 0.0, 0
	for i, v := range c.Values {
		top = max(top, v)
		if i < len(c.Labels) {
			lw = max(lw, runewidth.StringWidth(c.Labels[i]))
		}
	}
	for i, v := range c.Values {
		label := ""
		if i < len(c.Labels) {
			label = c.Labels[i]
		}
		n := 0
		if top > 0 && v > 0 {
			n = max(1, int(v/top*20+0.5))
		}
		b.WriteString(runewidth.FillRight(label, lw) + " " + strings.Repeat("█", n) + " " + strconv.FormatFloat(v, 'f', 2, 64) + c.Unit + "\n")
	}
	return b.String()
}
