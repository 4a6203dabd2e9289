// Package chart draws the bot's charts as PNG images with gonum/plot, for
// channels that cannot draw one themselves (WeChat, the WeCom robot,
// `bot digest --png`): the weekly storage spend as bars (BarsPNG, with
// a bundled Chinese font) and stock availability as a heat map (HeatPNG).
package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// HeatPNG writes c's heat map (c.Heat) as a 900×360 PNG: one cell per
// row × column, coloured by share from red (0%) through amber to blue
// (100%), hours without data light grey and hatched, and a legend on the
// right (the colour scale and "no data"). Labels should be Latin text (no
// CJK glyphs in gonum's fonts): rows and columns are drawn as given, so
// callers pass English ones.
func HeatPNG(w io.Writer, c *chat.BarChart, title string) error {
	if c == nil || c.Heat == nil || len(c.Heat.Values) == 0 {
		return fmt.Errorf("chart: no heat map to draw")
	}
	h := c.Heat
	hdlr, err := sansHandler()
	if err != nil {
		return err
	}
	en := true
	for _, r := range h.Rows {
		en = en && len(Missing(r)) == 0 && !hasCJK(r)
	}
	if len(Missing(title)) > 0 {
		title = i18n.EN.T("chart.heat.title")
	}
	p := plot.New()
	p.TextHandler = hdlr
	p.Title.Text = title
	p.Title.TextStyle.Handler, p.Title.TextStyle.Font = hdlr, sans(13, true)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Tick.Label.Handler, a.Tick.Label.Font = hdlr, sans(11, false)
	}
	p.Add(heatCells{h})
	p.X.Min, p.X.Max = 0, float64(len(h.Cols))
	p.Y.Min, p.Y.Max = 0, float64(len(h.Rows))
	p.X.Tick.Marker = labels(h.Cols, false)
	p.Y.Tick.Marker = labels(h.Rows, true)
	img := vgimg.New(9*vg.Inch, 3.6*vg.Inch)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	legend(draw.Crop(dc, dc.Max.X-dc.Min.X-legendWidth, 0, 0, 0), p.X.Tick.Label, en)
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("chart: write png: %w", err)
	}
	return nil
}

// hasCJK reports whether s has a Han character (the heat map's labels are
// then Chinese, and so is its legend).
func hasCJK(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// legendWidth is the heat map legend's strip on the right.
const legendWidth = 1.1 * vg.Inch

// legend draws the heat map's legend in c: a vertical colour bar from 0%
// (bottom) to 100% (top) labelled 0%, 50% and 100% under the heading
// "in stock", and a hatched swatch labelled "no data" below it.
func legend(c draw.Canvas, sty text.Style, en bool) {
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	x0 := c.Min.X + 0.15*vg.Inch
	barW := 0.22 * vg.Inch
	top := c.Max.Y - 0.55*vg.Inch
	bottom := c.Min.Y + 1.05*vg.Inch
	head := sty
	head.XAlign = draw.XLeft
	c.FillText(head, vg.Point{X: x0, Y: top + 0.18*vg.Inch}, i18n.Of(en).T("chart.heat.share"))
	const steps = 50
	step := (top - bottom) / steps
	for i := range steps {
		y := bottom + vg.Length(i)*step
		c.SetColor(shade(float64(i) / (steps - 1)))
		c.Fill(vg.Rectangle{Min: vg.Point{X: x0, Y: y}, Max: vg.Point{X: x0 + barW, Y: y + step + 0.5}}.Path())
	}
	tick := draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}
	for _, v := range []float64{0, 0.5, 1} {
		y := bottom + vg.Length(v)*(top-bottom)
		c.StrokeLine2(tick, x0+barW, y, x0+barW+0.06*vg.Inch, y)
		c.FillText(sty, vg.Point{X: x0 + barW + 0.1*vg.Inch, Y: y}, fmt.Sprintf("%.0f%%", v*100))
	}
	sw := vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y + 0.45*vg.Inch}, Max: vg.Point{X: x0 + barW, Y: c.Min.Y + 0.67*vg.Inch}}
	noDataCell(c, sw)
	c.StrokeLine2(tick, sw.Min.X, sw.Min.Y, sw.Max.X, sw.Min.Y)
	c.StrokeLine2(tick, sw.Min.X, sw.Max.Y, sw.Max.X, sw.Max.Y)
	c.StrokeLine2(tick, sw.Min.X, sw.Min.Y, sw.Min.X, sw.Max.Y)
	c.StrokeLine2(tick, sw.Max.X, sw.Min.Y, sw.Max.X, sw.Max.Y)
	c.FillText(sty, vg.Point{X: x0 + barW + 0.1*vg.Inch, Y: (sw.Min.Y + sw.Max.Y) / 2}, i18n.Of(en).T("chart.heat.no_data"))
}

// noDataCell fills r light grey with diagonal hatching: an hour without
// data, unlike any share.
func noDataCell(c draw.Canvas, r vg.Rectangle) {
	c.SetColor(noData)
	c.Fill(r.Path())
	ls := draw.LineStyle{Color: noDataHatch, Width: vg.Points(0.6)}
	gap := vg.Points(4)
	// Lines x − y = k across r, clipped to it.
	for k := r.Min.X - r.Max.Y + gap/2; k < r.Max.X-r.Min.Y; k += gap {
		xa, xb := max(r.Min.X, r.Min.Y+k), min(r.Max.X, r.Max.Y+k)
		if xa < xb {
			c.StrokeLine2(ls, xa, xa-k, xb, xb-k)
		}
	}
}

// heatCells draws a heat map's cells; row 0 at the top.
type heatCells struct{ h *chat.HeatMap }

func (hc heatCells) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	n := len(hc.h.Rows)
	for i, row := range hc.h.Values {
		for j, v := range row {
			y := float64(n - 1 - i)
			rect := vg.Rectangle{Min: vg.Point{X: tx(float64(j)), Y: ty(y)}, Max: vg.Point{X: tx(float64(j + 1)), Y: ty(y + 1)}}
			if math.IsNaN(v) {
				noDataCell(c, rect)
				continue
			}
			c.SetColor(shade(v))
			c.Fill(rect.Path())
		}
	}
}

// labels puts each label at the middle of its cell (rows reversed, so
// the first is at the top).
func labels(names []string, rows bool) plot.ConstantTicks {
	var t plot.ConstantTicks
	for i, n := range names {
		pos := float64(i) + 0.5
		if rows {
			pos = float64(len(names)-1-i) + 0.5
		}
		if !rows && i%3 != 0 {
			n = ""
		}
		t = append(t, plot.Tick{Value: pos, Label: n})
	}
	return t
}
