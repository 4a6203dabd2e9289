package answer

import (
	"fmt"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/understand"
)

// Pick is zh, or e in English.
func Pick(en bool, zh, e string) string {
	if en {
		return e
	}
	return zh
}

// Picks is zh, or e in English.
func Picks(en bool, zh, e []string) []string {
	if en {
		return e
	}
	return zh
}

// FigureText is a catalog figure: "0.5" or "0.4-0.6".
func FigureText(f catalog.Figure) string {
	if f.IsRange() {
		return fmt.Sprintf("%g-%g", f.Low, f.High)
	}
	return fmt.Sprintf("%g", f.Low)
}

// GranularityText names a billing granularity (second, minute, hour);
// "未知"/"unknown" when the catalog has none.
func GranularityText(g string, en bool) string {
	if g == "" {
		return Pick(en, "未知", "unknown")
	}
	if en {
		return "per " + g
	}
	switch g {
	case "second":
		return "秒"
	case "minute":
		return "分钟"
	case "hour":
		return "小时"
	}
	return g
}

// UnverifiedFigureNote explains the * of a figure only the seed
// articles give.
func UnverifiedFigureNote(en bool) string {
	return Pick(en, "* 只有 2025 年的租卡测评文章这么写，未经其他来源核实。", "* only 2025 rental reviews say so; not confirmed by a dated source.")
}

// JoinIDs joins names for a line of text.
func JoinIDs(ids []string, en bool) string {
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += Pick(en, "、", ", ")
		}
		out += id
	}
	return out
}

// TrimF writes x with at most two decimals, without trailing zeros.
func TrimF(x float64) string {
	s := fmt.Sprintf("%.2f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// ProblemLines turns parser problems and unknown names into short lines.
func ProblemLines(q understand.Query, en bool) []string {
	var out []string
	for _, p := range q.Problems {
		out = append(out, "⚠ "+p+Pick(en, "。", "."))
	}
	if q.UnknownGPU != "" {
		out = append(out, fmt.Sprintf(Pick(en, "⚠ 目录里没有“%s”这张卡。", "⚠ The catalog has no GPU “%s”."), q.UnknownGPU))
	}
	return out
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
