package chat_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/chat"
)

func TestSplit(t *testing.T) {
	long := strings.Repeat("长", 50) // 150 bytes
	for _, tc := range []struct {
		name   string
		segs   []chat.Segment
		budget int
		gap    bool
		want   []string
	}{
		{"fits", []chat.Segment{chat.TextSegment("a\nb\nc")}, 100, false, []string{"a\nb\nc"}},
		{"line boundaries", []chat.Segment{chat.TextSegment("aaaa\nbbbb\ncccc")}, 9, false, []string{"aaaa\nbbbb", "cccc"}},
		{"gap between segments", []chat.Segment{chat.TextSegment("a"), chat.TextSegment("b")}, 100, true, []string{"a\n\nb"}},
		{"gap dropped at part start", []chat.Segment{chat.TextSegment("aaaa"), chat.TextSegment("bbbb")}, 8, true, []string{"aaaa", "bbbb"}},
		{"head repeated", []chat.Segment{{Head: []string{"H"}, Lines: []string{"r1", "r2", "r3"}}}, 8, false, []string{"H\nr1\nr2", "H\nr3"}},
		{"long line cut at runes", []chat.Segment{chat.TextSegment(long)}, 64, false, nil},
		{"empty", []chat.Segment{chat.TextSegment(""), chat.TextSegment("\n\n")}, 10, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := chat.Split(tc.segs, chat.SplitOptions{Budget: tc.budget, Cost: chat.ByteCost, Gap: tc.gap})
			for _, p := range got {
				if len(p) > tc.budget {
					t.Errorf("part %q over budget %d", p, tc.budget)
				}
			}
			if tc.name == "long line cut at runes" {
				if strings.Join(got, "") != long || len(got) < 3 {
					t.Fatalf("cut: %q", got)
				}
				for _, p := range got {
					if strings.ContainsRune(p, '\uFFFD') {
						t.Fatalf("cut inside a rune: %q", p)
					}
				}
				return
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSplitFirstPart: a smaller first part (room for an @mention), exact
// rune budgets, long lines cut between runes, blank parts dropped.
func TestSplitFirstPart(t *testing.T) {
	long := strings.Repeat("算", 25)
	cases := []struct {
		name       string
		in         string
		first, max int
		want       []string
	}{
		{"fits", "a\nb", 10, 10, []string{"a\nb"}},
		{"at line boundaries", "aaaa\nbbbb\ncccc", 9, 9, []string{"aaaa\nbbbb", "cccc"}},
		{"smaller first part", "aaaa\nbbbb\ncccc", 4, 9, []string{"aaaa", "bbbb\ncccc"}},
		{"long line cut between runes", long, 10, 10, []string{strings.Repeat("算", 10), strings.Repeat("算", 10), strings.Repeat("算", 5)}},
		{"blank parts dropped", "a\n\n\n\nb", 1, 1, []string{"a", "b"}},
		{"blank lines kept inside a part", "a\n\nb", 10, 10, []string{"a\n\nb"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := chat.SplitText(c.in, chat.SplitOptions{Budget: c.max, First: c.first, Cost: chat.RuneCost})
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
				t.Errorf("SplitText = %q, want %q", got, c.want)
			}
			for i, p := range got {
				limit := c.max
				if i == 0 {
					limit = c.first
				}
				if n := utf8.RuneCountInString(p); n > limit {
					t.Errorf("part %d: %d runes > %d", i, n, limit)
				}
			}
		})
	}
}
