package render

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// One phone screen: PhoneLines lines of PhoneCells cells (a CJK character
// takes two cells, as go-runewidth measures it). The first reply of every
// answer fits one; the rest is behind "详情" (chat.Reply.Full).
const (
	PhoneCells = 36
	PhoneLines = 14
)

// TextLines is how many lines text takes on a phone screen: each of its
// lines wrapped at PhoneCells cells (an empty line is one).
func TextLines(text string) int {
	n := 0
	for line := range strings.SplitSeq(text, "\n") {
		rows, w := 1, 0
		for _, r := range line {
			rw := runewidth.RuneWidth(r)
			if w+rw > PhoneCells {
				rows++
				w = 0
			}
			w += rw
		}
		n += rows
	}
	return n
}

// ReplyLines is how many lines a reply takes on a phone screen as plain
// text (chat.PlainText: title, lines, chart, table, notes and the "详情"
// hint).
func ReplyLines(r chat.Reply) int {
	return TextLines(strings.TrimRight(chat.PlainText(r), "\n"))
}

// FitsPhone reports whether a reply fits one phone screen.
func FitsPhone(r chat.Reply) bool { return ReplyLines(r) <= PhoneLines }

// TableFits reports whether a table, aligned as plain text, is no wider
// than a phone screen.
func TableFits(t *chat.Table) bool {
	if t == nil {
		return true
	}
	for line := range strings.SplitSeq(strings.TrimRight(chat.AlignTable(t), "\n"), "\n") {
		if runewidth.StringWidth(line) > PhoneCells {
			return false
		}
	}
	return true
}

// RowItem is a table row as one line of a short list (for a table too
// wide for a phone): "· " and its first two cells, then each further
// one after its column's name ("· AutoDL RTX 4090，小时 3.7，元 7.34");
// empty cells left out.
func RowItem(header, row []string, l i18n.Lang) string {
	var b strings.Builder
	b.WriteString("· ")
	n := 0
	for i, c := range row {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		switch {
		case n == 0:
		case n == 1:
			b.WriteString(" ")
		default:
			b.WriteString(l.T("offers.sep.comma"))
			if i < len(header) && header[i] != "" {
				b.WriteString(header[i] + " ")
			}
		}
		b.WriteString(c)
		n++
	}
	return b.String()
}

// FitPhone cuts rep to one phone screen with full behind "详情": the
// title, then the lines, the table's rows (as a short list when the
// table is wider than the screen) and the notes in that order, each while
// it fits, and a line saying how many rows were left out. A reply that
// fits is returned as it is.
func FitPhone(rep, full chat.Reply, en bool) chat.Reply {
	if FitsPhone(rep) {
		return rep
	}
	full.Mentions, full.Full = nil, nil
	short := chat.Reply{Title: rep.Title, Mentions: rep.Mentions, English: en, Full: &full}
	budget := PhoneLines - 1 // the "详情" hint
	if rep.Title != "" {
		budget -= TextLines(rep.Title)
	}
	// A chart is a picture in the chats (a chart element in Feishu, an
	// image in WeChat): kept when it fits beside the title, the text
	// taking the room left.
	if rep.Chart != nil {
		if c := TextLines(strings.TrimRight(chat.TextBars(rep.Chart), "\n")); c <= budget {
			short.Chart = rep.Chart
			budget -= c
		}
	}
	var rows []string
	table := rep.Table != nil && len(rep.Table.Rows) > 0
	asTable := false
	if table {
		rep.Table = NarrowTable(rep.Table)
		asTable = TableFits(rep.Table)
		rows = tableItems(rep.Table, asTable, i18n.Of(en))
	}
	// Room for two rows and the line that counts the rest, when there
	// is a table; a warning ("⚠ …") goes before any row.
	reserve := 0
	if table {
		reserve = 1
		for _, r := range rows[:min(2, len(rows))] {
			reserve += TextLines(r)
		}
	}
	for i, l := range rep.Lines {
		room := budget - reserve
		if i < rep.Keep || strings.HasPrefix(l, warning) {
			room = budget
		}
		if c := TextLines(l); c <= room {
			short.Lines = append(short.Lines, l)
			budget -= c
		} else {
			break
		}
	}
	if n := len(short.Lines); n > 0 && n < len(rep.Lines) && n > rep.Keep && heading(short.Lines[n-1]) {
		// A heading ("怎么做：") whose first item did not fit is left to
		// 详情 with its items.
		budget += TextLines(short.Lines[n-1])
		short.Lines = short.Lines[:n-1]
	}
	if table {
		budget = fitRows(&short, rep.Table, asTable, rows, budget, i18n.Of(en))
	}
	for _, n := range rep.Notes {
		// A note that does not fit is left to 详情; a shorter one after
		// it may still fit.
		if c := TextLines(n); c <= budget {
			short.Notes = append(short.Notes, n)
			budget -= c
		}
	}
	return short
}

// warning opens a line that warns ("⚠ 恒源云 数据获取失败…"): kept before
// any table row.
const warning = "⚠"

// minPhoneColumns is the fewest columns a table keeps on a phone; one
// that needs fewer to fit becomes a short list.
const minPhoneColumns = 3

// NarrowTable is a table made narrow enough for a phone by leaving out
// columns but the first (what 详情 keeps): as many columns as fit, down
// to minPhoneColumns, the earlier ones first among as many (the first
// columns say what a row is, the last its source and date). A table that
// fits is returned as it is, and one that does not fit even then too
// (the short form lists its rows).
func NarrowTable(t *chat.Table) *chat.Table {
	if TableFits(t) {
		return t
	}
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	if cols > maxNarrowColumns {
		return t
	}
	widths := make([]int, cols)
	for c := range widths {
		widths[c] = columnWidth(t, c)
	}
	var best []int
	// Every set of the other columns, as a bit mask (bit i: column i+1).
	for mask := 0; mask < 1<<(cols-1); mask++ {
		keep := []int{0}
		w := widths[0]
		for c := 1; c < cols; c++ {
			if mask&(1<<(c-1)) != 0 {
				keep = append(keep, c)
				w += columnGap + widths[c]
			}
		}
		if len(keep) < minPhoneColumns || w > PhoneCells || len(keep) < len(best) {
			continue
		}
		if len(keep) > len(best) || slices.Compare(keep, best) < 0 {
			best = keep
		}
	}
	if best == nil {
		return t
	}
	return pick(t, best)
}

// columnGap is the space between two columns of an aligned table
// (chat.AlignTable); maxNarrowColumns the most columns a table may have
// for NarrowTable to try its sets of columns.
const (
	columnGap        = 2
	maxNarrowColumns = 12
)

// columnWidth is the widest cell of column c (the header's too).
func columnWidth(t *chat.Table, c int) int {
	w := 0
	for _, r := range append([][]string{t.Header}, t.Rows...) {
		if c < len(r) {
			w = max(w, runewidth.StringWidth(r[c]))
		}
	}
	return w
}

// pick is t with only the columns keep, in their order.
func pick(t *chat.Table, keep []int) *chat.Table {
	cell := func(r []string, c int) string {
		if c < len(r) {
			return r[c]
		}
		return ""
	}
	out := &chat.Table{}
	for _, c := range keep {
		out.Header = append(out.Header, cell(t.Header, c))
	}
	for _, r := range t.Rows {
		row := make([]string, len(keep))
		for i, c := range keep {
			row[i] = cell(r, c)
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// tableItems are a table's rows as they take room on a phone: aligned
// rows when the table fits the width (asTable), else short list lines
// (RowItem).
func tableItems(t *chat.Table, asTable bool, l i18n.Lang) []string {
	if asTable {
		lines := strings.Split(strings.TrimRight(chat.AlignTable(t), "\n"), "\n")
		return lines[1:] // the header is counted with the first row
	}
	items := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		items[i] = RowItem(t.Header, r, l)
	}
	return items
}

// fitRows puts the table's rows that fit the budget into short (a table
// that fits the width stays a table; else a short list among its lines)
// with a line counting the rest, and returns the budget left.
func fitRows(short *chat.Reply, t *chat.Table, asTable bool, items []string, budget int, l i18n.Lang) int {
	if asTable {
		budget-- // the header
	}
	n := 0
	for i, it := range items {
		c := TextLines(it)
		rest := 0
		if i < len(items)-1 {
			rest = 1 // "……还有 N 条"
		}
		if c+rest > budget {
			break
		}
		budget -= c
		n++
	}
	if n == 0 {
		if asTable {
			budget++
		}
		return budget
	}
	if asTable {
		c := *t
		c.Rows = t.Rows[:n]
		short.Table = &c
	} else {
		short.Lines = append(short.Lines, items[:n]...)
	}
	if n < len(items) {
		short.Notes = append(short.Notes, l.T("meta.more_rows", len(items)-n))
		budget--
	}
	return budget
}

// ShownRows is how many of total rows a short form shows when it wants
// to show want: all of them when only one more is left (a "……还有 1 条"
// line takes the place the row would).
func ShownRows(total, want int) int {
	if total == want+1 {
		return total
	}
	return min(total, want)
}

// heading reports whether a line introduces the lines after it: it ends
// with a colon ("怎么做：", "What to do:").
func heading(line string) bool {
	t := strings.TrimSpace(line)
	r, _ := utf8.DecodeLastRuneInString(t)
	return r == ':' || r == fullWidthColon
}

// fullWidthColon is U+FF1A, the colon of Chinese text.
const fullWidthColon = 0xFF1A
