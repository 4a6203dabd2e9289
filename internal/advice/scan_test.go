package advice_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/advice"
)

// matchSummary is what a match found, comparable across two bases.
func matchSummary(r advice.Result, w *advice.Workload) string {
	hit := func(h advice.Hit) string { return fmt.Sprintf("%s %.6f %q %v", h.Topic.ID, h.Score, h.Terms, h.Strong) }
	s := fmt.Sprintf("problem=%v", r.Problem)
	if r.Best != nil {
		s += " best=" + hit(*r.Best)
	}
	for _, h := range r.Related {
		s += " related=" + hit(h)
	}
	for _, h := range r.Closest {
		s += " closest=" + hit(h)
	}
	if w != nil {
		s += " workload=" + w.ID
	}
	return s
}

func scanPair(tb testing.TB) (auto, scan *advice.Base) {
	tb.Helper()
	auto = loadKB(tb)
	scan, err := advice.Load(configs.FS, advice.Scan())
	if err != nil {
		tb.Fatal(err)
	}
	return auto, scan
}

// TestScanMatchesAutomaton: on every example of the knowledge base (and
// the tracebacks of these tests), a base built with Scan finds what the
// one with automata finds.
func TestScanMatchesAutomaton(t *testing.T) {
	auto, scan := scanPair(t)
	texts := []string{tracebackOOM, nvidiaSMIFail, sshDenied, killed}
	for _, tp := range auto.Topics {
		texts = append(texts, tp.Examples...)
	}
	for _, w := range auto.Workloads {
		texts = append(texts, w.Examples...)
	}
	if len(texts) < 250 {
		t.Fatalf("only %d texts", len(texts))
	}
	found := 0
	for _, text := range texts {
		a, b := matchSummary(auto.MatchWorkload(text)), matchSummary(scan.MatchWorkload(text))
		if a != b {
			t.Errorf("%q:\n automaton %s\n scan      %s", text, a, b)
		}
		if a != "problem=false" {
			found++
		}
	}
	if found < len(texts)/2 {
		t.Errorf("only %d of %d texts matched anything", found, len(texts))
	}
	if !reflect.DeepEqual(auto.Topics, scan.Topics) {
		t.Error("topics differ")
	}
}

// FuzzScan: Scan and the automata find the same in any text.
func FuzzScan(f *testing.F) {
	for _, s := range []string{tracebackOOM, nvidiaSMIFail, sshDenied, killed, "\xff\xfe", "", "Killed\n\n\nKilled", "sdxl 出图 爆显存了 4090"} {
		f.Add(s)
	}
	auto, scan := scanPair(f)
	f.Fuzz(func(t *testing.T, text string) {
		if a, b := matchSummary(auto.MatchWorkload(text)), matchSummary(scan.MatchWorkload(text)); a != b {
			t.Fatalf("%q:\n automaton %s\n scan      %s", text, a, b)
		}
	})
}

// BenchmarkScan: one question and one traceback matched by the automata
// and by Scan (what `bot ask` pays for not building them).
func BenchmarkScan(b *testing.B) {
	auto, scan := scanPair(b)
	for _, c := range []struct{ name, text string }{{"question", "哪家有4090，跑 sdxl 够不够"}, {"traceback", tracebackOOM}} {
		for _, kb := range []struct {
			name string
			base *advice.Base
		}{{"automaton", auto}, {"scan", scan}} {
			b.Run(c.name+"/"+kb.name, func(b *testing.B) {
				for b.Loop() {
					kb.base.MatchWorkload(c.text)
				}
			})
		}
	}
}

// BenchmarkLoadEmbedded: loading the embedded knowledge base with its
// automata and with Scan (what `bot ask` loads).
func BenchmarkLoadEmbedded(b *testing.B) {
	for _, c := range []struct {
		name string
		opts []advice.Option
	}{{"automata", nil}, {"scan", []advice.Option{advice.Scan()}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := advice.Load(configs.FS, c.opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
