package answer

import (
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/understand"
)

// GranularityText names a billing granularity (second, minute, hour);
// "未知"/"unknown" when the catalog has none.
func GranularityText(g string, en bool) string {
	l := i18n.Of(en)
	switch g {
	case "":
		return l.T("meta.granularity.unknown")
	case "second":
		return l.T("meta.granularity.second")
	case "minute":
		return l.T("meta.granularity.minute")
	case "hour":
		return l.T("meta.granularity.hour")
	}
	return l.T("meta.granularity.other", g)
}

// ProblemLines turns parser problems and unknown names into short lines
// (render.ProblemLines).
func ProblemLines(q understand.Query, en bool) []string {
	return render.ProblemLines(q.Problems, q.UnknownGPU, en)
}

// ShortTable is a table cut to MaxShortRows rows (nil stays nil).
func ShortTable(t *chat.Table) *chat.Table {
	if t == nil || len(t.Rows) <= MaxShortRows {
		return t
	}
	c := *t
	c.Rows = c.Rows[:MaxShortRows]
	return &c
}
