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
