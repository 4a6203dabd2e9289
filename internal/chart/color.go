package chart

import (
	"image/color"
	"math"
)

// plotColor is the bars' colour (Feishu blue).
var plotColor = color.RGBA{R: 0x33, G: 0x70, B: 0xff, A: 0xff}

// shade is a heat map cell's colour: light grey when unknown (NaN), else
// from near white (0) to plotColor (1).
func shade(v float64) color.Color {
	if math.IsNaN(v) {
		return color.RGBA{R: 0xd0, G: 0xd0, B: 0xd0, A: 0xff}
	}
	v = math.Max(0, math.Min(1, v))
	mix := func(a, b uint8) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*v) }
	return color.RGBA{R: mix(0xf7, plotColor.R), G: mix(0xf8, plotColor.G), B: mix(0xfa, plotColor.B), A: 0xff}
}
