package chat

import (
	"math"
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
	if c.Heat != nil {
		return TextHeat(c)
	}
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

// heatShades are the text shades of a heat map, from 0 to 1.
var heatShades = []string{" ", "░", "▒", "▓", "█"}

// TextHeat renders a heat map as text: the title, a line of column ticks
// (every sixth column's label), a line per row with one shade per column
// (· unknown), then the legend.
func TextHeat(c *BarChart) string {
	h := c.Heat
	var b strings.Builder
	if c.Title != "" {
		b.WriteString(c.Title + "\n")
	}
	lw := 0
	for _, r := range h.Rows {
		lw = max(lw, runewidth.StringWidth(r))
	}
	ticks := []rune(strings.Repeat(" ", len(h.Cols)+2))
	for i := 0; i < len(h.Cols); i += 6 {
		for j, ch := range h.Cols[i] {
			if i+j < len(ticks) {
				ticks[i+j] = ch
			}
		}
	}
	b.WriteString(strings.Repeat(" ", lw+1) + strings.TrimRight(string(ticks), " ") + "\n")
	for i, r := range h.Rows {
		b.WriteString(runewidth.FillRight(r, lw) + " ")
		for j := range h.Cols {
			v := math.NaN()
			if i < len(h.Values) && j < len(h.Values[i]) {
				v = h.Values[i][j]
			}
			if math.IsNaN(v) {
				b.WriteString("·")
				continue
			}
			b.WriteString(heatShades[min(len(heatShades)-1, int(math.Round(max(v, 0)*float64(len(heatShades)-1))))])
		}
		b.WriteByte('\n')
	}
	if h.Legend != "" {
		b.WriteString(h.Legend + "\n")
	}
	return b.String()
}
