package webhook

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/chat"
)

var updateCards = flag.Bool("update-cards", false, "rewrite testdata/feishu-cards.golden")

// cardCase is one reply of internal/chat/testdata/card-replies.json.
type cardCase struct {
	Name  string     `json:"name"`
	Reply chat.Reply `json:"reply"`
}

// TestFeishuCardsGolden: the Feishu custom bot's messages (unsigned)
// for a corpus of replies — cards or texts, and the texts a refused card
// falls back to, without a secret and with one (whose signature takes
// room) — are byte for byte testdata/feishu-cards.golden (go test -run
// TestFeishuCardsGolden -update-cards rewrites it).
func TestFeishuCardsGolden(t *testing.T) {
	b, err := os.ReadFile("../testdata/card-replies.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []cardCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, secret := range []string{"", "s3cret"} {
		bot, err := NewFeishuBot("https://open.feishu.cn/open-apis/bot/v2/hook/abc", secret)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			fmt.Fprintf(&out, "== %s (secret %q)\n", c.Name, secret)
			msgs := bot.render(c.Reply, wantsCard(c.Reply))
			if wantsCard(c.Reply) {
				msgs = append(msgs, bot.render(c.Reply, false)...)
			}
			for _, m := range msgs {
				data, err := marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&out, "-- %s\n%s\n", m.MsgType, data)
			}
		}
	}
	const golden = "testdata/feishu-cards.golden"
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
		t.Errorf("the messages differ from %s (first difference at byte %d)", golden, firstDiff(got, string(want)))
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
