package feishu

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

var updateCards = flag.Bool("update-cards", false, "rewrite testdata/cards.golden")

// cardCase is one reply of internal/chat/testdata/card-replies.json.
type cardCase struct {
	Name  string     `json:"name"`
	Reply chat.Reply `json:"reply"`
}

// TestCardsGolden: what the app bot posts for a corpus of replies (its
// cards, or texts, and the texts a refused card falls back to) is byte
// for byte testdata/cards.golden (go test -run TestCardsGolden
// -update-cards rewrites it).
func TestCardsGolden(t *testing.T) {
	b, err := os.ReadFile("../testdata/card-replies.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []cardCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, c := range cases {
		r := c.Reply
		fmt.Fprintf(&out, "== %s\n", c.Name)
		if r.Table != nil || r.Chart != nil || r.Full != nil {
			cards, err := renderCards(r, r.Mentions)
			if err != nil {
				fmt.Fprintf(&out, "-- cards: %v\n", err)
			}
			for _, p := range cards {
				fmt.Fprintf(&out, "-- interactive\n%s\n", p)
			}
		}
		for _, p := range renderTexts(r, r.Mentions) {
			fmt.Fprintf(&out, "-- text\n%s\n", p)
		}
	}
	const golden = "testdata/cards.golden"
	if *updateCards {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		t.Errorf("the cards differ from %s (first difference at byte %d)", golden, firstDiff(got, string(want)))
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
