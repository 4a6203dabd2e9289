package commands

import (
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
)

// A short form fits a phone screen (render.PhoneLines lines wrapped at
// render.PhoneCells cells, a CJK character two): MaxShortLines lines of
// plain text in all — title, lines, table, notes and the "详情" hint — and
// at most MaxShortRows table rows. The rest is behind "详情".
const (
	MaxShortLines = answer.MaxShortLines
	MaxShortRows  = answer.MaxShortRows
	ScreenColumns = answer.ScreenColumns
)

// ShortLines counts the lines a reply takes on a phone screen as plain
// text (render.ReplyLines).
func ShortLines(r chat.Reply) int { return render.ReplyLines(r) }

// shortForm makes sure the reply fits a phone screen. A reply that fits
// is kept (with its own Full); a longer one is cut to its title, first
// lines, first rows (a short list when the table is wider than the
// screen) and first notes, with the whole of it as Full (render.FitPhone).
func (r *Router) shortForm(rep chat.Reply, en bool) chat.Reply {
	rep.English = en
	if rep.Full != nil {
		rep.Full.English = en
		rep.Full.Full = nil
	}
	if rep.Table != nil && len(rep.Table.Rows) > MaxShortRows {
		full := rep
		if rep.Full != nil {
			full = *rep.Full
		}
		t := *rep.Table
		t.Rows = t.Rows[:MaxShortRows]
		rep.Table, rep.Full = &t, &full
	}
	full := rep
	if rep.Full != nil {
		full = *rep.Full
	}
	return render.FitPhone(rep, full, en)
}
