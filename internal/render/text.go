package render

import (
	"fmt"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/i18n"
)

// ShortRows is the most table rows a short form shows (the rest is behind
// "详情").
const ShortRows = 5

// TextFor is the text m gives k in the reader's language, or fallback's
// when m has none: a table of texts instead of a switch.
func TextFor[K comparable](m map[K][2]string, k K, fallback [2]string, en bool) string {
	p, ok := m[k]
	if !ok {
		p = fallback
	}
	return i18n.Pick(i18n.Of(en), p[0], p[1])
}

// TrimF writes x with at most two decimals, without trailing zeros.
func TrimF(x float64) string {
	s := fmt.Sprintf("%.2f", x)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// FigureText is a catalog figure: "0.5" or "0.4-0.6".
func FigureText(f catalog.Figure) string {
	if f.IsRange() {
		return fmt.Sprintf("%g-%g", f.Low, f.High)
	}
	return fmt.Sprintf("%g", f.Low)
}

// JoinIDs joins names for a line of text.
func JoinIDs(ids []string, en bool) string {
	return strings.Join(ids, i18n.Of(en).T("list.sep"))
}

// UnverifiedFigureNote explains the * of a figure only the seed
// articles give.
func UnverifiedFigureNote(en bool) string {
	return i18n.Of(en).T("offers.note.unverified_figure")
}
