package commands_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/fixture"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/embedded"
	"github.com/labgpu/bot/internal/understand"
)

// The answer snapshot: every corpus phrasing alone and every conversation
// of testdata/snapshot-dialogues.yaml, answered by a router with every
// area on (recordings, knowledge base, alerts, storage, history) at a
// fixed time, each reply (short form and 详情) kept whole as JSON in
// testdata/answers.golden.jsonl. A change that must leave answers as they
// are (a restructuring) keeps this file byte for byte; one that changes
// answers rewrites it (-update-snapshot) and the diff shows every answer
// it changed. -snapshot-inputs rebuilds the list of inputs from the
// corpus and the dialogues.
var (
	updateSnapshot = flag.Bool("update-snapshot", false, "rewrite testdata/answers.golden.jsonl's answers")
	snapshotInputs = flag.Bool("snapshot-inputs", false, "rebuild testdata/answers.golden.jsonl's inputs from the corpus and dialogues")
)

const snapshotFile = "testdata/answers.golden.jsonl"

// snapTurn is one line of the snapshot: a conversation's number, the
// sender and text of one turn, and what the bot answered.
type snapTurn struct {
	Conv   int             `json:"conv"`
	Sender string          `json:"sender"`
	Text   string          `json:"text"`
	Intent string          `json:"intent,omitempty"`
	Reply  json.RawMessage `json:"reply,omitempty"`
}

func TestAnswerSnapshot(t *testing.T) {
	if testing.Short() {
		t.Skip("answers every corpus phrasing")
	}
	turns := snapshotTurns(t)
	r := snapshotRouter(t)
	var out bytes.Buffer
	changed := 0
	for i := range turns {
		tr := turns[i]
		res := r.Answer(context.Background(), chat.Message{Channel: "test", ChatID: fmt.Sprintf("chat%d", tr.Conv),
			SenderID: tr.Sender, SenderName: tr.Sender, Text: tr.Text, ChatType: chat.Group})
		got := snapTurn{Conv: tr.Conv, Sender: tr.Sender, Text: tr.Text, Intent: res.Intent, Reply: replyJSON(t, res.Reply)}
		line, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(line)
		out.WriteByte('\n')
		if !*updateSnapshot && !*snapshotInputs && (got.Intent != tr.Intent || !bytes.Equal(got.Reply, tr.Reply)) {
			if changed++; changed <= 5 {
				t.Errorf("conversation %d, %q: answer changed\nwas  %s %s\nnow  %s %s", tr.Conv, tr.Text, tr.Intent, tr.Reply, got.Intent, got.Reply)
			}
		}
	}
	if changed > 5 {
		t.Errorf("… %d answers changed in all (of %d); -update-snapshot rewrites them", changed, len(turns))
	}
	if *updateSnapshot || *snapshotInputs {
		if err := os.WriteFile(snapshotFile, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// replyJSON is a reply as compact JSON (the short form with its 详情).
func replyJSON(t *testing.T, r chat.Reply) json.RawMessage {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// snapshotTurns reads the snapshot's inputs, or builds them from the
// corpus and the dialogues with -snapshot-inputs.
func snapshotTurns(t *testing.T) []snapTurn {
	if *snapshotInputs {
		return buildSnapshotInputs(t)
	}
	f, err := os.Open(snapshotFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var turns []snapTurn
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var tr snapTurn
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			t.Fatal(err)
		}
		turns = append(turns, tr)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return turns
}

func buildSnapshotInputs(t *testing.T) []snapTurn {
	var turns []snapTurn
	conv := 0
	b, err := os.ReadFile("testdata/snapshot-dialogues.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var dialogues [][]string
	if err := yaml.Unmarshal(b, &dialogues); err != nil {
		t.Fatal(err)
	}
	for _, d := range dialogues {
		conv++
		for _, line := range d {
			sender, text := "alice", line
			if s, rest, ok := strings.Cut(line, ": "); ok && !strings.ContainsAny(s, " ：") && len(s) < 12 {
				sender, text = s, rest
			}
			turns = append(turns, snapTurn{Conv: conv, Sender: sender, Text: text})
		}
	}
	cat, kb, in := corpus(t)
	u := understand.NewUnderstander(cat, kb, in, commands.UnderstanderOptions{})
	seen := map[string]bool{}
	for _, l := range append(u.Training(), u.Scored()...) {
		if l.Keyword || seen[l.Text] {
			continue
		}
		seen[l.Text] = true
		conv++
		turns = append(turns, snapTurn{Conv: conv, Sender: "alice", Text: l.Text})
	}
	return turns
}

// snapshotRouter answers from the recordings in testdata/stock at a fixed
// time, with the knowledge base, alerts and storage on an embedded store,
// and a flat availability history.
func snapshotRouter(t *testing.T) *commands.Router {
	t.Helper()
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat := testCatalog(t)
	kb, err := sharedAdvice()
	if err != nil {
		t.Fatal(err)
	}
	loc := time.FixedZone("CST", 8*3600)
	return routerOver(t, fixture.Dir(fixture.Stock), commands.WithAdvice(kb), commands.WithLocation(loc),
		commands.WithHistory(flat(t)), commands.WithAlerts(st, st, stock.DefaultPolicy()),
		commands.WithStorage(commands.StorageOptions{Ledger: st, Blobs: st, Console: &bytes.Buffer{}, Admins: []string{"boss"},
			Price: ledger.CatalogStoragePrice(cat, nil)}))
}
