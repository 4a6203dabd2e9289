package chart

import (
	"embed"
	"fmt"
	"strings"
	"sync"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
)

// fontFiles are the bundled chart fonts: subsets of Noto Sans CJK SC
// (SIL OFL 1.1, fonts/OFL.txt) with printable ASCII and the characters of
// fonts/glyphs.txt (fonts/README.md says how to regenerate them).
//
//go:embed fonts/NotoSansSC-Regular-subset.otf fonts/NotoSansSC-Bold-subset.otf
var fontFiles embed.FS

// sansFace is the typeface name the chart fonts are cached under.
const sansFace font.Typeface = "Noto Sans SC"

// sansFonts are the parsed chart fonts: the gonum font cache of both
// weights (regular first, so it is the default) and the regular face for
// coverage checks. Parsed once; an error means a broken embed.
var sansFonts = sync.OnceValues(func() (*font.Cache, error) {
	var coll font.Collection
	for _, f := range []struct {
		file   string
		weight xfont.Weight
	}{{"fonts/NotoSansSC-Regular-subset.otf", xfont.WeightNormal}, {"fonts/NotoSansSC-Bold-subset.otf", xfont.WeightBold}} {
		data, err := fontFiles.ReadFile(f.file)
		if err != nil {
			return nil, fmt.Errorf("chart: font %s: %w", f.file, err)
		}
		face, err := opentype.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("chart: font %s: %w", f.file, err)
		}
		coll = append(coll, font.Face{Font: font.Font{Typeface: sansFace, Weight: f.weight}, Face: face})
	}
	return font.NewCache(coll), nil
})

// sansHandler is the text handler that draws with the chart fonts.
func sansHandler() (text.Handler, error) {
	c, err := sansFonts()
	if err != nil {
		return nil, err
	}
	return text.Plain{Fonts: c}, nil
}

// sans is the chart font at size points, bold or regular.
func sans(size float64, bold bool) font.Font {
	f := font.Font{Typeface: sansFace, Size: font.Length(size)}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return f
}

// Missing lists the characters of s that the chart fonts cannot draw
// (they would come out as empty boxes), in order, once each; nil when
// every one is there. Line breaks and spaces are always fine.
func Missing(s string) []rune {
	c, err := sansFonts()
	if err != nil {
		return []rune(s)
	}
	face := c.Lookup(font.Font{Typeface: sansFace}, 10).Face
	var buf sfnt.Buffer
	var out []rune
	for _, r := range s {
		if r == '\n' || r == ' ' || strings.ContainsRune(string(out), r) {
			continue
		}
		if i, err := face.GlyphIndex(&buf, r); err != nil || i == 0 {
			out = append(out, r)
		}
	}
	return out
}

// checkGlyphs fails when a text to draw has characters the fonts lack.
func checkGlyphs(texts ...string) error {
	for _, t := range texts {
		if m := Missing(t); len(m) > 0 {
			return fmt.Errorf("chart: the bundled font has no glyph for %q in %q (add them to internal/chart/fonts/glyphs.txt and run subset.sh)", string(m), t)
		}
	}
	return nil
}
