package chart

import "image/color"

// plotColor is the bars' colour (Feishu blue).
var plotColor = color.RGBA{R: 0x33, G: 0x70, B: 0xff, A: 0xff}
