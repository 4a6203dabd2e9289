package chart

import (
	"image/color"
	"math"
)

// plotColor is the bars' colour (Feishu blue), also the heat map's 100%.
var plotColor = color.RGBA{R: 0x33, G: 0x70, B: 0xff, A: 0xff}

// Heat map colours: a red–amber–blue scale (heatStops) whose 0% is a
// clear red, never white, so it does not read as "no data", and which
// never passes through grey (amber to blue goes by mint); unknown hours
// are light grey, hatched (noDataHatch).
var (
	heatStops = []struct {
		at float64
		c  color.RGBA
	}{
		{0, color.RGBA{R: 0xd7, G: 0x30, B: 0x27, A: 0xff}},
		{0.25, color.RGBA{R: 0xfc, G: 0x8d, B: 0x59, A: 0xff}},
		{0.5, color.RGBA{R: 0xfe, G: 0xe0, B: 0x90, A: 0xff}},
		{0.625, color.RGBA{R: 0xa8, G: 0xdd, B: 0xb5, A: 0xff}},
		{0.75, color.RGBA{R: 0x6b, G: 0xae, B: 0xd6, A: 0xff}},
		{1, plotColor},
	}
	noData      = color.RGBA{R: 0xee, G: 0xee, B: 0xee, A: 0xff}
	noDataHatch = color.RGBA{R: 0xa8, G: 0xa8, B: 0xa8, A: 0xff}
)

// shade is a heat map cell's colour: noData when unknown (NaN), else the
// share's colour on heatStops.
func shade(v float64) color.RGBA {
	if math.IsNaN(v) {
		return noData
	}
	v = math.Max(0, math.Min(1, v))
	i := 0
	for i+2 < len(heatStops) && v > heatStops[i+1].at {
		i++
	}
	from, to := heatStops[i], heatStops[i+1]
	f := (v - from.at) / (to.at - from.at)
	mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + (float64(b)-float64(a))*f)) }
	return color.RGBA{R: mix(from.c.R, to.c.R), G: mix(from.c.G, to.c.G), B: mix(from.c.B, to.c.B), A: 0xff}
}
