package chart

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

// weeks is a digest's chart as render.Digest makes it: 8 ISO weeks.
func weeks(title string, values ...float64) *chat.BarChart {
	c := &chat.BarChart{Title: title, Unit: " 元"}
	for i := range values {
		c.Labels = append(c.Labels, "W"+string(rune('1'+i/10))+string(rune('0'+(41+i)%10)))
	}
	c.Values = values
	return c
}

func drawBars(t *testing.T, c *chat.BarChart) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := BarsPNG(&buf, c); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img
}

func rgb(img image.Image, x, y int) color.RGBA {
	r, g, b, _ := img.At(x, y).RGBA()
	return color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0xff}
}

// dark is text ink (titles, labels), not a bar, grid line or background.
func dark(c color.RGBA) bool { return int(c.R)+int(c.G)+int(c.B) < 3*0x70 }

// barSpan is a bar found in the image: its columns and top row.
type barSpan struct {
	x0, x1, top int
	c           color.RGBA
}

// findBars scans the row just above the baseline for runs of the bar
// colours, then each run's column up to its top.
func findBars(img image.Image, row int) []barSpan {
	b := img.Bounds()
	var out []barSpan
	for x := b.Min.X; x < b.Max.X; x++ {
		c := rgb(img, x, row)
		if c != pastColor && c != plotColor {
			continue
		}
		s := barSpan{x0: x, c: c}
		for x < b.Max.X && rgb(img, x, row) == c {
			x++
		}
		s.x1 = x - 1
		mid := (s.x0 + s.x1) / 2
		s.top = row
		for s.top > b.Min.Y && rgb(img, mid, s.top-1) == c {
			s.top--
		}
		out = append(out, s)
	}
	return out
}

// baseline is the row of the dark grey baseline under the bars.
func baseline(img image.Image) int {
	b := img.Bounds()
	for y := b.Max.Y - 1; y > b.Min.Y; y-- {
		n := 0
		for x := b.Min.X; x < b.Max.X; x++ {
			if rgb(img, x, y) == mutedColor {
				n++
			}
		}
		if n > b.Dx()/2 {
			return y
		}
	}
	return -1
}

func TestBarsPNG(t *testing.T) {
	tests := []struct {
		name  string
		chart *chat.BarChart
	}{
		{"chinese digest", weeks("近 8 周存储花费（元）", 96.4, 102.3, 118, 131.25, 128.9, 144.6, 162.3, 151.75)},
		{"english, tallest last", weeks("Storage spend, last 8 weeks (CNY)", 980, 1250, 12400.4, 9800, 15320)},
		{"two weeks", weeks("近 8 周存储花费（元）", 1.5, 0.42)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := drawBars(t, tt.chart)
			b := img.Bounds()
			if b.Dx() != 1080 || b.Dy() != 720 {
				t.Fatalf("image %v, want 1080×720 (phone width at 2×)", b)
			}
			base := baseline(img)
			if base < b.Dy()/2 {
				t.Fatalf("no baseline found (row %d)", base)
			}
			bars := findBars(img, base-3)
			if len(bars) != len(tt.chart.Values) {
				t.Fatalf("found %d bars, want %d: %+v", len(bars), len(tt.chart.Values), bars)
			}
			// The last bar is the highlighted one.
			for i, s := range bars {
				if want := i == len(bars)-1; (s.c == plotColor) != want {
					t.Errorf("bar %d colour %v", i, s.c)
				}
			}
			// Room above the tallest bar: its top is well below the top
			// grid line, and every bar has its value written just above it.
			tallest := bars[0].top
			for _, s := range bars {
				tallest = min(tallest, s.top)
				if !inkAbove(img, s) {
					t.Errorf("no value label above the bar at x %d–%d", s.x0, s.x1)
				}
			}
			plotH := base - topGrid(img, base)
			if gap := tallest - topGrid(img, base); gap < plotH/8 {
				t.Errorf("tallest bar %d px under the top grid line of a %d px plot: no headroom", gap, plotH)
			}
			// The title is drawn top left in ink.
			if !anyInk(img, image.Rect(30, 20, 400, 110)) {
				t.Error("no title at the top left")
			}
		})
	}
}

// inkAbove reports dark pixels within 40 px above a bar, over its width.
func inkAbove(img image.Image, s barSpan) bool {
	return anyInk(img, image.Rect(s.x0, s.top-40, s.x1+1, s.top-2)) || anyBlue(img, image.Rect(s.x0, s.top-40, s.x1+1, s.top-2))
}

func anyInk(img image.Image, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if dark(rgb(img, x, y)) {
				return true
			}
		}
	}
	return false
}

// anyBlue finds the highlighted value label (blue, like its bar).
func anyBlue(img image.Image, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgb(img, x, y) == plotColor {
				return true
			}
		}
	}
	return false
}

// topGrid is the row of the highest grid line above base.
func topGrid(img image.Image, base int) int {
	b := img.Bounds()
	top := base
	for y := base - 1; y > b.Min.Y; y-- {
		if rgb(img, b.Max.X-60, y) == gridColor {
			top = y
		}
	}
	return top
}

func TestBarsPNGRefuses(t *testing.T) {
	var buf bytes.Buffer
	if err := BarsPNG(&buf, &chat.BarChart{}); err == nil {
		t.Error("an empty chart was drawn")
	}
	// A character the bundled subset lacks is refused, not drawn as an
	// empty box, and the error says how to add it.
	err := BarsPNG(&buf, weeks("近 8 周存储花费（元）龘", 1, 2))
	if err == nil || !strings.Contains(err.Error(), "龘") || !strings.Contains(err.Error(), "glyphs.txt") {
		t.Errorf("a title with a missing glyph: %v", err)
	}
	if err := BarsPNG(&buf, &chat.BarChart{Labels: []string{"周一"}, Values: []float64{1}}); err != nil {
		t.Errorf("a covered label: %v", err)
	}
}

// TestFontCoversGlyphs: the bundled fonts have every character of
// fonts/glyphs.txt and printable ASCII (run fonts/subset.sh after
// editing glyphs.txt).
func TestFontCoversGlyphs(t *testing.T) {
	data, err := os.ReadFile("fonts/glyphs.txt")
	if err != nil {
		t.Fatal(err)
	}
	var ascii strings.Builder
	for r := rune(0x20); r < 0x7f; r++ {
		ascii.WriteRune(r)
	}
	if m := Missing(string(data) + ascii.String()); len(m) > 0 {
		t.Errorf("the fonts lack %q: run internal/chart/fonts/subset.sh", string(m))
	}
	if m := Missing("龘🙂"); string(m) != "龘🙂" {
		t.Errorf("Missing(龘🙂) = %q", string(m))
	}
}

func TestValueText(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 0.42: "0.42", 3.2: "3.20", 42.46: "42.5", 99.94: "99.9", 151.75: "152", 1250: "1,250", 12400.4: "12,400", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := ValueText(v); got != want {
			t.Errorf("ValueText(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestNiceScale(t *testing.T) {
	tests := []struct{ top, max, step float64 }{
		{0, 1, 0.25},
		{0.5, 0.5, 0.1},
		{191.5, 200, 50},
		{18078, 20000, 5000},
		{7, 8, 2},
		{1.18, 1.2, 0.2},
	}
	for _, tt := range tests {
		max, step := niceScale(tt.top)
		if max != tt.max || step != tt.step {
			t.Errorf("niceScale(%v) = %v, %v; want %v, %v", tt.top, max, step, tt.max, tt.step)
		}
		if max < tt.top {
			t.Errorf("niceScale(%v) tops at %v", tt.top, max)
		}
	}
}
