package understand

import (
	"testing"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Traditional characters are read as simplified, one rune for one, before
// the extractors ("50小時" is 50 hours); other text is kept as is.
func TestToSimplified(t *testing.T) {
	for in, want := range map[string]string{
		"一共跑50小時的4090 按量還是包日":  "一共跑50小时的4090 按量还是包日",
		"總共要跑100小時的A100 包週划算嗎": "总共要跑100小时的A100 包周划算吗",
		"4090 什么时候好抢":          "4090 什么时候好抢",
		"RTX 4090 ＡｕｔｏＤＬ":      "RTX 4090 ＡｕｔｏＤＬ",
	} {
		if got := toSimplified(in); got != want {
			t.Errorf("toSimplified(%q) = %q, want %q", in, got, want)
		}
	}
	trad := traditional()
	if n := len(words.Mapping("pipeline.simplified")); len(trad) != n {
		t.Errorf("%d of %d traditional characters read: each must be one character for one", len(trad), n)
	}
	for tr, s := range trad {
		if tr == s {
			t.Errorf("%q maps to itself", tr)
		}
		if _, ok := trad[s]; ok {
			t.Errorf("%q maps to %q, which is mapped again", tr, s)
		}
	}
}

// TestTraditionalAreIdeographs: toSimplified skips runes below U+4E00, so
// every traditional character it maps must be at or above it.
func TestTraditionalAreIdeographs(t *testing.T) {
	for r := range traditional() {
		if r < 0x4E00 {
			t.Errorf("%q (U+%04X) is below U+4E00, which toSimplified skips", r, r)
		}
	}
}
