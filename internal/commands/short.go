package commands

import (
	"github.com/mattn/go-runewidth"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
)

// A short form fits a phone screen (see answer.MaxShortLines): at most
// MaxShortLines lines of text and MaxShortRows table rows, a line wider
// than ScreenColumns counting once per ScreenColumns.
const (
	MaxShortLines = answer.MaxShortLines
	MaxShortRows  = answer.MaxShortRows
	ScreenColumns = answer.ScreenColumns
)

// ShortLines counts the text lines of a reply as a phone shows them (the
// table and MoreHint not counted).
func ShortLines(r chat.Reply) int {
	n := 0
	count := func(s string) {
		w := runewidth.StringWidth(s)
		n += max(1, (w+ScreenColumns-1)/ScreenColumns)
	}
	if r.Title != "" {
		count(r.Title)
	}
	for _, l := range r.Lines {
		count(l)
	}
	for _, l := range r.Notes {
		count(l)
	}
	return n
}

// shortForm makes sure the reply fits a phone screen. A handler that built
// its own short form (Full set) keeps it, trimmed if it overflows; a
// longer reply is cut to its title, first lines, first rows and first
// notes, with the whole of it as Full.
func (r *Router) shortForm(rep chat.Reply, en bool) chat.Reply {
	rep.English = en
	if rep.Full != nil {
		rep.Full.English = en
		rep.Full.Full = nil
	}
	rows := 0
	if rep.Table != nil {
		rows = len(rep.Table.Rows)
	}
	if ShortLines(rep) <= MaxShortLines && rows <= MaxShortRows {
		return rep
	}
	full := rep
	if rep.Full != nil {
		full = *rep.Full
	}
	short := chat.Reply{Title: rep.Title, Mentions: rep.Mentions, Chart: rep.Chart, English: en, Full: &full}
	full.Mentions = nil
	if rep.Table != nil {
		t := *rep.Table
		if len(t.Rows) > MaxShortRows {
			t.Rows = t.Rows[:MaxShortRows]
		}
		short.Table = &t
	}
	budget := MaxShortLines - ShortLines(chat.Reply{Title: rep.Title})
	more := 0
	if rows > MaxShortRows {
		more = rows - MaxShortRows
		budget--
	}
	// Notes carry sources and freshness: the first two are kept before
	// further lines.
	notes := rep.Notes
	if len(notes) > 2 {
		notes = notes[:2]
	}
	for len(notes) > 0 && ShortLines(chat.Reply{Notes: notes}) > budget-1 {
		notes = notes[:len(notes)-1]
	}
	budget -= ShortLines(chat.Reply{Notes: notes})
	for _, l := range rep.Lines {
		c := ShortLines(chat.Reply{Lines: []string{l}})
		if c > budget {
			break
		}
		short.Lines = append(short.Lines, l)
		budget -= c
	}
	short.Notes = notes
	if more > 0 {
		// Under the table it cuts.
		short.Notes = append([]string{i18n.Of(en).T("meta.more_rows", more)}, notes...)
	}
	return short
}
