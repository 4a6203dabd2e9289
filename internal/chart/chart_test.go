package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

func TestHeatPNG(t *testing.T) {
	h := &chat.HeatMap{Rows: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}}
	for c := range 24 {
		h.Cols = append(h.Cols, fmt.Sprint(c))
	}
	for d := range 7 {
		row := make([]float64, 24)
		for c := range row {
			row[c] = float64(c) / 23
			if d == 6 && c < 6 {
				row[c] = math.NaN()
			}
		}
		h.Values = append(h.Values, row)
	}
	var buf bytes.Buffer
	if err := HeatPNG(&buf, &chat.BarChart{Heat: h}, "RTX 4090: share of polls with stock, 21 days"); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	b := img.Bounds()
	if b.Dx() < 850 || b.Dy() < 300 {
		t.Fatalf("image %v", b)
	}
	// The legend strip (the right 1.1 inch) draws the scale: its 0% and
	// 100% colours are there, and so is the no-data grey.
	found := map[color.RGBA]bool{}
	for x := b.Max.X - 105; x < b.Max.X; x++ {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			found[color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 0xff}] = true
		}
	}
	for name, c := range map[string]color.RGBA{"0%": shade(0), "100%": shade(1), "no data": noData} {
		if !found[c] {
			t.Errorf("legend has no %s colour %v", name, c)
		}
	}
}

func TestShade(t *testing.T) {
	// 0% is clearly coloured (not near white), unknown is grey and unlike
	// any share.
	if c := shade(0); int(c.R)+int(c.G)+int(c.B) > 3*0xc0 || c.R < 0xa0 {
		t.Errorf("0%% is %v, want a clear red", c)
	}
	for v := 0.0; v <= 1; v += 0.01 {
		c := shade(v)
		if c == noData || max(c.R, c.G, c.B)-min(c.R, c.G, c.B) < 0x28 {
			t.Errorf("%.2f is %v: too grey, reads as no data", v, c)
		}
	}
	if shade(math.NaN()) != noData {
		t.Error("NaN is not the no-data grey")
	}
}

// A Chinese heat map (WeChat, the WeCom robot) is drawn with the bundled
// font: its day names, title and legend are all characters the font has,
// so none comes out as an empty box.
func TestHeatPNGChinese(t *testing.T) {
	h := &chat.HeatMap{Rows: []string{"一", "二", "三", "四", "五", "六", "日"}}
	for c := range 24 {
		h.Cols = append(h.Cols, fmt.Sprint(c))
	}
	for range 7 {
		row := make([]float64, 24)
		for c := range row {
			row[c] = float64(c) / 23
		}
		h.Values = append(h.Values, row)
	}
	title := "按星期×小时的有货比例"
	for _, s := range append([]string{title, "有货比例", "无数据"}, h.Rows...) {
		if m := Missing(s); len(m) > 0 {
			t.Errorf("%q: the font lacks %q", s, string(m))
		}
	}
	var buf bytes.Buffer
	if err := HeatPNG(&buf, &chat.BarChart{Heat: h}, title); err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if out := os.Getenv("HEAT_PNG_OUT"); out != "" {
		_ = os.WriteFile(out, buf.Bytes(), 0o644)
	}
}
