package chart

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

func TestBarsPNG(t *testing.T) {
	var buf bytes.Buffer
	c := &chat.BarChart{Labels: []string{"W47", "W48"}, Values: []float64{2.1, 10.5}}
	if err := BarsPNG(&buf, c, "Storage spend", "CNY"); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 300 {
		t.Errorf("image %v", b)
	}
	if err := BarsPNG(&buf, &chat.BarChart{}, "x", "y"); err == nil {
		t.Error("an empty chart was drawn")
	}
}
