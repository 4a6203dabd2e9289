package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/labgpu/bot/internal/chat"
)

// Bar chart geometry: a 540×360 pt canvas drawn at 2× (144 dpi), so
// 1080×720 px, the width chat apps show full-screen on a phone without
// scaling it up. Sizes are in points at that scale (1 pt = 2 px).
const (
	barsWidth  = 540
	barsHeight = 360
	barsDPI    = 144
	barsMargin = 18
	// barsHeadroom is the room above the tallest bar, as a share of its
	// height: its value label and some air fit under the top tick.
	barsHeadroom = 0.18
)

// Bar chart colours: Feishu's text grey and blue; the last bar (the
// current week) in full blue, the earlier ones lighter.
var (
	inkColor   = color.RGBA{R: 0x1f, G: 0x23, B: 0x29, A: 0xff}
	mutedColor = color.RGBA{R: 0x64, G: 0x6a, B: 0x73, A: 0xff}
	gridColor  = color.RGBA{R: 0xe4, G: 0xe6, B: 0xeb, A: 0xff}
	pastColor  = color.RGBA{R: 0xa9, G: 0xc2, B: 0xff, A: 0xff}
)

// BarsPNG writes c as a 1080×720 px PNG bar chart for a phone screen:
// c.Title at the top left, one bar per value over c.Labels, each value
// written above its bar, the last bar (the latest period) highlighted,
// the value axis from 0 with room above the tallest bar. Text is drawn
// with the bundled Noto Sans SC subset, so titles and labels may be
// Chinese or English; it fails, rather than draw empty boxes, when a
// title or label has a character the subset lacks (Missing), and on a
// chart without values.
func BarsPNG(w io.Writer, c *chat.BarChart) error {
	if c == nil || len(c.Values) == 0 {
		return fmt.Errorf("chart: no values to draw")
	}
	labels := make([]string, len(c.Values))
	copy(labels, c.Labels)
	if err := checkGlyphs(append([]string{c.Title}, labels...)...); err != nil {
		return err
	}
	hdlr, err := sansHandler()
	if err != nil {
		return err
	}
	img := vgimg.NewWith(vgimg.UseWH(barsWidth, barsHeight), vgimg.UseDPI(barsDPI), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	top := dc.Max.Y - barsMargin
	if c.Title != "" {
		title := text.Style{Color: inkColor, Font: sans(17, true), XAlign: draw.XLeft, YAlign: draw.YTop, Handler: hdlr}
		dc.FillText(title, vg.Point{X: dc.Min.X + barsMargin, Y: top}, c.Title)
		top -= title.Height(c.Title) + 14
	}
	p, err := barsPlot(c.Values, labels, hdlr)
	if err != nil {
		return err
	}
	p.Draw(draw.Crop(dc, barsMargin-6, -barsMargin, barsMargin-4, top-dc.Max.Y))
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("chart: write png: %w", err)
	}
	return nil
}

// barsPlot is the plot of values over labels: light bars with the last
// one blue, value labels above them, light horizontal rules at the value
// ticks, a baseline at 0 and no axis lines.
func barsPlot(values []float64, labels []string, hdlr text.Handler) (*plot.Plot, error) {
	p := plot.New()
	p.TextHandler = hdlr
	p.BackgroundColor = nil
	styleAxes(p, hdlr)
	ymax, step := niceScale(maxOf(values) * (1 + barsHeadroom))
	p.Y.Min, p.Y.Max = 0, ymax
	p.Y.Tick.Marker = valueTicks(ymax, step)
	var grid []float64
	for _, t := range p.Y.Tick.Marker.Ticks(0, ymax) {
		if t.Value > 0 {
			grid = append(grid, t.Value)
		}
	}
	p.Add(rules{grid, draw.LineStyle{Color: gridColor, Width: vg.Points(0.75)}})

	width := min(vg.Length(44), vg.Length(0.6*(barsWidth-80)/float64(len(values))))
	past, last := make(plotter.Values, len(values)), make(plotter.Values, len(values))
	copy(past, values)
	past[len(values)-1], last[len(values)-1] = 0, values[len(values)-1]
	for _, b := range []struct {
		v plotter.Values
		c color.Color
	}{{past, pastColor}, {last, plotColor}} {
		bars, err := plotter.NewBarChart(b.v, width)
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		bars.LineStyle.Width = 0
		bars.Color = b.c
		p.Add(bars)
	}
	p.Add(rules{[]float64{0}, draw.LineStyle{Color: mutedColor, Width: vg.Points(1)}})
	vl, err := valueLabels(values, hdlr)
	if err != nil {
		return nil, err
	}
	p.Add(vl)
	p.NominalX(labels...)
	// One slot per bar, the bar in its middle; the value range as set
	// above whatever the labels' data range says.
	p.X.Min, p.X.Max = -0.5, float64(len(values))-0.5
	p.Y.Min, p.Y.Max = 0, ymax
	return p, nil
}

// styleAxes sets the axes' fonts and colours: grey tick labels, no tick
// marks, no value axis line, a thin baseline.
func styleAxes(p *plot.Plot, hdlr text.Handler) {
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Tick.Label = text.Style{Color: mutedColor, Font: sans(12, false), Handler: hdlr, XAlign: a.Tick.Label.XAlign, YAlign: a.Tick.Label.YAlign}
		a.Label.TextStyle.Handler, a.Label.TextStyle.Font = hdlr, sans(12, false)
		a.Tick.LineStyle.Width = 0
		a.Tick.Length = 0
		a.Padding = 0
	}
	p.X.LineStyle.Width = 0
	p.X.Tick.Label.YAlign = draw.YTop
	p.X.Tick.Label.XAlign = draw.XCenter
	p.X.Tick.Label.Font = sans(13, false)
	p.X.Tick.Label.Color = inkColor
	p.Y.LineStyle.Width = 0
	p.Y.Tick.Label.XAlign = draw.XRight
	p.Y.Tick.Label.YAlign = draw.YCenter
	p.Y.Padding = 6
}

// rules draws horizontal lines across the plot at values (grid lines, the
// baseline).
type rules struct {
	at    []float64
	style draw.LineStyle
}

func (r rules) Plot(c draw.Canvas, p *plot.Plot) {
	_, ty := p.Transforms(&c)
	for _, v := range r.at {
		c.StrokeLine2(r.style, c.Min.X, ty(v), c.Max.X, ty(v))
	}
}

// valueLabels writes each value above its bar: the last one bold and
// blue, like its bar.
func valueLabels(values []float64, hdlr text.Handler) (*plotter.Labels, error) {
	xy := plotter.XYLabels{XYs: make(plotter.XYs, len(values)), Labels: make([]string, len(values))}
	for i, v := range values {
		xy.XYs[i] = plotter.XY{X: float64(i), Y: v}
		xy.Labels[i] = ValueText(v)
	}
	l, err := plotter.NewLabels(xy)
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	for i := range l.TextStyle {
		l.TextStyle[i] = text.Style{Color: inkColor, Font: sans(12, false), XAlign: draw.XCenter, YAlign: draw.YBottom, Handler: hdlr}
	}
	lastStyle := &l.TextStyle[len(values)-1]
	lastStyle.Font, lastStyle.Color = sans(13, true), plotColor
	l.Offset = vg.Point{Y: 5}
	return l, nil
}

// ValueText is how a bar's value is written above it: two decimals
// under 10, one under 100, none from 100 on with thousands separated by
// commas ("3.25", "42.5", "1,280").
func ValueText(v float64) string {
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a < 10:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case a < 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return thousands(math.Round(v))
}

// thousands writes a whole number with its thousands separated by
// commas ("12,345").
func thousands(v float64) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', 0, 64)
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, d := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}

// niceScale is the value axis for data up to top: a step of 1, 2, 2.5 or
// 5 times a power of ten giving 3 to 6 intervals, and the first multiple
// of it at or above top (1 and 0.25 for top <= 0).
func niceScale(top float64) (ymax, step float64) {
	if !(top > 0) || math.IsInf(top, 0) {
		return 1, 0.25
	}
	mag := math.Pow(10, math.Floor(math.Log10(top/4)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		step = m * mag
		if top/step <= 6 {
			break
		}
	}
	n := math.Ceil(top/step - 1e-9)
	// Rounded to 12 digits: 6 × 0.2 is 1.2, not 1.2000000000000002.
	round := func(x float64) float64 { v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64); return v }
	return round(n * step), round(step)
}

// valueTicks are the value axis ticks: every step from 0 to ymax,
// labelled like the values.
func valueTicks(ymax, step float64) plot.ConstantTicks {
	var t plot.ConstantTicks
	for i := 0; float64(i)*step <= ymax+step/1e6; i++ {
		v := float64(i) * step
		t = append(t, plot.Tick{Value: v, Label: tickText(v, step)})
	}
	return t
}

// tickText writes a tick value with as many decimals as its step needs.
func tickText(v, step float64) string {
	if v == 0 {
		return "0"
	}
	dec := 0
	for s := step; s-math.Floor(s) > 1e-9 && dec < 3; s *= 10 {
		dec++
	}
	if dec == 0 {
		return thousands(math.Round(v))
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// maxOf is the largest of values, 0 when none is positive.
func maxOf(values []float64) float64 {
	m := 0.0
	for _, v := range values {
		if v > m && !math.IsInf(v, 0) {
			m = v
		}
	}
	return m
}
