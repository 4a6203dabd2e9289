package chat_test

import (
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/labgpu/bot/internal/chat"
)

// TestAlignTableCJK: columns line up by display width, where a CJK
// character takes two columns.
func TestAlignTableCJK(t *testing.T) {
	out := chat.AlignTable(&chat.Table{
		Header: []string{"平台", "GPU", "元/卡时"},
		Rows:   [][]string{{"恒源云", "RTX 4090", "1.30"}, {"AutoDL", "RTX 3090", "1.32"}, {"vast.ai", "A100 80GB", "7.15"}},
	})
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("lines: %q", lines)
	}
	col := -1
	for _, l := range lines {
		i := strings.Index(l, "RTX")
		if i < 0 {
			i = strings.Index(l, "A100")
		}
		if i < 0 {
			i = strings.Index(l, "GPU")
		}
		w := runewidth.StringWidth(l[:i])
		if col >= 0 && w != col {
			t.Errorf("second column starts at width %d, want %d:\n%s", w, col, out)
		}
		col = w
	}
}

func TestPlainTextOrder(t *testing.T) {
	r := chat.Reply{Title: "T", Lines: []string{"L"}, Table: &chat.Table{Header: []string{"h"}, Rows: [][]string{{"r"}}}, Notes: []string{"N"}}
	if got := chat.PlainText(r); got != "T\nL\nh\nr\nN\n" {
		t.Errorf("%q", got)
	}
	if !(chat.Reply{}).Empty() || r.Empty() {
		t.Error("Empty")
	}
}
