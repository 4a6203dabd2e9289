// Package chart draws the bot's charts as PNG images with gonum/plot, for
// channels that cannot draw one themselves (WeChat, `bot digest --png`).
package chart

import (
	"fmt"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/labgpu/bot/internal/chat"
)

// BarsPNG writes c as a 640×360 PNG bar chart. Titles and labels should be
// Latin text: gonum's built-in fonts have no CJK glyphs, so title is used
// instead of c.Title (which is in the user's language). It fails on a
// chart without values.
func BarsPNG(w io.Writer, c *chat.BarChart, title, yLabel string) error {
	if c == nil || len(c.Values) == 0 {
		return fmt.Errorf("chart: no values to draw")
	}
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = yLabel
	p.Y.Min = 0
	bars, err := plotter.NewBarChart(plotter.Values(c.Values), vg.Points(36))
	if err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	bars.LineStyle.Width = 0
	bars.Color = plotColor
	p.Add(bars)
	p.NominalX(c.Labels...)
	img := vgimg.New(6.4*vg.Inch, 3.6*vg.Inch)
	p.Draw(draw.New(img))
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("chart: write png: %w", err)
	}
	return nil
}

// HeatPNG writes c's heat map (c.Heat) as a 900×360 PNG: one cell per
// row × column, white (0) to blue (1), grey where unknown. Labels should
// be Latin text (no CJK glyphs in gonum's fonts): rows and columns are
// drawn as given, so callers pass English ones.
func HeatPNG(w io.Writer, c *chat.BarChart, title string) error {
	if c == nil || c.Heat == nil || len(c.Heat.Values) == 0 {
		return fmt.Errorf("chart: no heat map to draw")
	}
	h := c.Heat
	p := plot.New()
	p.Title.Text = title
	p.Add(heatCells{h})
	p.X.Min, p.X.Max = 0, float64(len(h.Cols))
	p.Y.Min, p.Y.Max = 0, float64(len(h.Rows))
	p.X.Tick.Marker = labels(h.Cols, false)
	p.Y.Tick.Marker = labels(h.Rows, true)
	img := vgimg.New(9*vg.Inch, 3.6*vg.Inch)
	p.Draw(draw.New(img))
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("chart: write png: %w", err)
	}
	return nil
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
