package advice

import (
	"fmt"
	"strings"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/textgate"
)

// mini is a small knowledge base for the matcher's mechanics.
func mini() []Topic {
	lines := func(s string) Lines { return Lines{Zh: []string{s}, En: []string{s}} }
	return []Topic{
		{ID: "oom", Title: catalog.Text{Zh: "显存不足", En: "OOM"}, Errors: []string{"cuda out of memory"}, Phrases: []string{"爆显存", "oom"},
			Hints: []string{"显存", "permission denied"}, Causes: lines("batch"), Steps: lines("smaller batch"), Source: "test", Related: []string{"ssh"},
			Examples: []string{"RuntimeError: CUDA out of memory.", "爆显存了 OOM", "显存 permission denied"}},
		{ID: "ssh", Title: catalog.Text{Zh: "SSH 连不上", En: "SSH refused"}, Errors: []string{"connection refused", "permission denied (publickey"},
			Patterns: []string{`port \d+: connection timed out`}, Phrases: []string{"ssh 连不上"}, Hints: []string{"permission denied", "ssh"},
			Causes: lines("sshd"), Steps: lines("wait"), Source: "test",
			Examples: []string{"ssh: connect to host x port 22: Connection refused", "SSH 连不上", "Permission denied (publickey,password).", "ssh: connect to host a port 22: connection timed out"}},
	}
}

func mustNew(t *testing.T, topics []Topic, w []Workload) *Base {
	t.Helper()
	b, err := New(topics, w)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNormalize(t *testing.T) {
	cases := map[string]string{
		"  CUDA   Out\tof\n\nMemory  ": "cuda out of memory",
		"ＣＵＤＡ　ＯＯＭ":                     "cuda oom",
		"a\xffb":                       "a b",
		"":                             "",
		"显存\u2005不足":                   "显存 不足",
	}
	for in, want := range cases {
		if got := string(Normalize(in)); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalizeLines(t *testing.T) {
	for in, want := range map[string]string{
		"a \n\n  b":         "a\nb",
		"Loading\nKilled\n": "loading\nkilled",
		"x  y":              "x y",
		"\n\nstart":         "start",
	} {
		got := normalizeLines(in)
		if string(got) != want {
			t.Errorf("normalizeLines(%q) = %q, want %q", in, got, want)
		}
		if len(got) != len(Normalize(in)) {
			t.Errorf("%q: offsets differ from Normalize", in)
		}
	}
}

func TestMatchMechanics(t *testing.T) {
	b := mustNew(t, mini(), nil)
	cases := []struct {
		name, text, best string
		minScore         float64
	}{
		{"error line", "RuntimeError: CUDA out of memory. Tried to allocate 20 MiB", "oom", 0.6},
		{"phrase", "训练爆显存了", "oom", 0.4},
		{"word boundary: room is not oom", "the room is cold", "", 0},
		{"word boundary at the end", "we hit oom.", "oom", 0.4},
		{"wrapped across lines", "CUDA out\nof memory", "oom", 0.6},
		{"regex pattern", "ssh: connect to host 1.2.3.4 port 22: Connection timed out", "ssh", 0.6},
		{"shared hint alone is not a topic", "permission denied", "", 0},
		{"specific error wins over shared hint", "Permission denied (publickey,password).", "ssh", 0.6},
		{"unrelated chat", "今天中午吃什么", "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := b.Match(c.text)
			got := ""
			if r.Best != nil {
				got = r.Best.Topic.ID
				if r.Best.Score < c.minScore {
					t.Errorf("score %.2f < %.2f", r.Best.Score, c.minScore)
				}
			}
			if got != c.best {
				t.Errorf("best = %q, want %q (result %+v)", got, c.best, r)
			}
		})
	}
}

// A shared hint counts for every topic that lists it.
func TestSharedHintCountsForBoth(t *testing.T) {
	b := mustNew(t, mini(), nil)
	r := b.Match("permission denied")
	if len(r.Closest) != 2 {
		t.Fatalf("closest = %d topics, want 2: %+v", len(r.Closest), r.Closest)
	}
}

// The exception at the end of a traceback outweighs an error quoted
// earlier in it.
func TestTailBoost(t *testing.T) {
	b := mustNew(t, mini(), nil)
	text := "ssh: connect to host x port 22: Connection refused\nretrying\nline\nline\nline\nRuntimeError: CUDA out of memory"
	r := b.Match(text)
	if r.Best == nil || r.Best.Topic.ID != "oom" {
		t.Fatalf("best = %+v, want oom", r.Best)
	}
	if len(r.Related) == 0 || r.Related[0].Topic.ID != "ssh" || r.Related[0].Score == 0 {
		t.Fatalf("related = %+v, want ssh with its score", r.Related)
	}
	// Declared related topics are listed even when not in the text.
	r = b.Match("爆显存")
	if len(r.Related) != 1 || r.Related[0].Topic.ID != "ssh" || r.Related[0].Score != 0 {
		t.Fatalf("related = %+v, want the declared ssh", r.Related)
	}
}

func TestProblemFlag(t *testing.T) {
	b := mustNew(t, mini(), nil)
	for text, want := range map[string]bool{
		"我的代码报错了怎么办":                         true,
		"Traceback (most recent call last):": true,
		"how do I fix this":                  true,
		"今天中午吃什么":                            false,
		"没问题，谢谢":                             false,
	} {
		if got := b.Match(text).Problem; got != want {
			t.Errorf("Problem(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestLongInputKeepsTheEnd(t *testing.T) {
	b := mustNew(t, mini(), nil)
	text := strings.Repeat("  File \"/x/y.py\", line 1, in f\n", 10000) + "RuntimeError: CUDA out of memory"
	if len(text) <= MaxInput {
		t.Fatal("test text too short")
	}
	r := b.Match(text)
	if r.Best == nil || r.Best.Topic.ID != "oom" {
		t.Fatalf("best = %+v, want oom from the last line", r.Best)
	}
}

func TestNewRejects(t *testing.T) {
	mod := func(f func(ts []Topic, ws *[]Workload)) ([]Topic, []Workload) {
		ts := mini()
		var ws []Workload
		f(ts, &ws)
		return ts, ws
	}
	okWorkload := Workload{ID: "bert", Name: catalog.Text{Zh: "b", En: "b"}, Keywords: []string{"bert"}, Kind: "training",
		VRAMGB: Range{Low: 4, High: 8}, Source: "seed", Examples: []string{"微调 BERT 用什么卡"}}
	cases := []struct {
		name, want string
		f          func(ts []Topic, ws *[]Workload)
	}{
		{"bad id", "kebab-case", func(ts []Topic, _ *[]Workload) { ts[0].ID = "Out Of Memory" }},
		{"duplicate id", "duplicate id", func(ts []Topic, _ *[]Workload) { ts[1].ID = "oom" }},
		{"no title", "title needs zh and en", func(ts []Topic, _ *[]Workload) { ts[0].Title.En = "" }},
		{"steps count differs", "steps need zh and en", func(ts []Topic, _ *[]Workload) { ts[0].Steps.En = append(ts[0].Steps.En, "x") }},
		{"no source", "source is missing", func(ts []Topic, _ *[]Workload) { ts[0].Source = " " }},
		{"only hints", "hints alone", func(ts []Topic, _ *[]Workload) { ts[0].Errors, ts[0].Phrases = nil, nil }},
		{"uppercase term", "write it lowercase", func(ts []Topic, _ *[]Workload) { ts[0].Errors = []string{"CUDA out of memory"} }},
		{"term in no example", "occurs in none of its examples", func(ts []Topic, _ *[]Workload) { ts[0].Phrases = append(ts[0].Phrases, "显存炸了") }},
		{"shared strong term", "shared words can only be hints", func(ts []Topic, _ *[]Workload) {
			ts[1].Phrases = append(ts[1].Phrases, "oom")
			ts[1].Examples = append(ts[1].Examples, "oom")
		}},
		{"bad regex", "pattern", func(ts []Topic, _ *[]Workload) { ts[1].Patterns = []string{`port (\d+`} }},
		{"uppercase regex", "write it lowercase", func(ts []Topic, _ *[]Workload) { ts[1].Patterns = []string{`Port \d+`} }},
		{"regex in no example", "matches none of its examples", func(ts []Topic, _ *[]Workload) { ts[1].Patterns = []string{`kex_exchange`} }},
		{"unknown related", "related \"nope\"", func(ts []Topic, _ *[]Workload) { ts[0].Related = []string{"nope"} }},
		{"unknown tie", "tie \"money\"", func(ts []Topic, _ *[]Workload) { ts[0].Tie = "money" }},
		{"workload kind", "kind", func(_ []Topic, ws *[]Workload) { w := okWorkload; w.Kind = "both"; *ws = []Workload{w} }},
		{"workload vram", "vram_gb", func(_ []Topic, ws *[]Workload) {
			w := okWorkload
			w.VRAMGB = Range{Low: 8, High: 4}
			*ws = []Workload{w}
		}},
		{"workload keyword", "occurs in none", func(_ []Topic, ws *[]Workload) {
			w := okWorkload
			w.Keywords = []string{"roberta"}
			*ws = []Workload{w}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, ws := mod(c.f)
			_, err := New(ts, ws)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %q", err, c.want)
			}
		})
	}
	if _, err := New(mini(), []Workload{okWorkload}); err != nil {
		t.Fatalf("valid base refused: %v", err)
	}
}

func TestWorkloadIn(t *testing.T) {
	ws := []Workload{
		{ID: "bert", Name: catalog.Text{Zh: "b", En: "b"}, Keywords: []string{"bert", "roberta"}, Kind: "training", VRAMGB: Range{Low: 4, High: 8}, Source: "s", Examples: []string{"bert roberta"}},
		{ID: "bert-large", Name: catalog.Text{Zh: "l", En: "l"}, Keywords: []string{"roberta-large"}, Kind: "training", VRAMGB: Range{Low: 12, High: 24}, Source: "s", Examples: []string{"roberta-large"}},
	}
	b := mustNew(t, mini(), ws)
	for text, want := range map[string]string{
		"微调 BERT 用什么卡":       "bert",
		"roberta-large 用什么卡": "bert-large",
		"robertas":           "",
		"哪家有4090":            "",
	} {
		got := ""
		if w := b.WorkloadIn(text); w != nil {
			got = w.ID
		}
		if got != want {
			t.Errorf("WorkloadIn(%q) = %q, want %q", text, got, want)
		}
	}
}

// FuzzMatch: any text, valid or not, is matched without a panic, with
// scores in [0, 1) and a best topic only at the threshold.
func FuzzMatch(f *testing.F) {
	for _, s := range []string{"CUDA out of memory", "爆显存", "", "\xff\xfe", "ssh port 22: connection timed out", strings.Repeat("oom ", 100)} {
		f.Add(s)
	}
	b, err := New(mini(), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := b.Match(text)
		if r.Best != nil && (r.Best.Score < Threshold || r.Best.Score >= 1) {
			t.Fatalf("best score %v out of range", r.Best.Score)
		}
		for _, h := range append(r.Related, r.Closest...) {
			if h.Score < 0 || h.Score >= 1 || h.Topic == nil {
				t.Fatalf("bad hit %+v", h)
			}
		}
		_ = b.WorkloadIn(text)
	})
}

// TestRequiredLiteralsSound: the prefilter never hides a match. For every
// pattern of the real knowledge base and every example it matches, each of
// its required clauses has a literal in that example.
func TestRequiredLiteralsSound(t *testing.T) {
	b, err := Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tp := range b.Topics {
		for k, re := range tp.res {
			req := textgate.RequiredLiterals(tp.Patterns[k])
			for _, ex := range tp.Examples {
				lines := normalizeLines(ex)
				if !re.Match(lines) {
					continue
				}
				checked++
				for _, clause := range req {
					ok := false
					for _, l := range clause {
						ok = ok || strings.Contains(string(lines), l)
					}
					if !ok {
						t.Errorf("%s: pattern %q matches %q but none of %q occurs", tp.ID, tp.Patterns[k], ex, clause)
					}
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d pattern matches checked", checked)
	}
	// And by construction on a few shapes.
	for p, want := range map[string]string{
		`abc`:                 `[["abc"]]`,
		`a(b|c)d`:             `[["a"] ["d"]]`, // an ASCII class is not a clause
		`(没|无|非) ?root`:       `[["无" "没" "非"] ["root"]]`,
		`(x)?y+`:              `[["y"]]`,
		`\d+ killed`:          `[[" killed"]]`,
		`(^|\] )killed(\n|$)`: `[["killed"]]`,
		`.*`:                  `[]`,
	} {
		if got := fmt.Sprintf("%q", textgate.RequiredLiterals(p)); got != want && !(want == "[]" && got == "[]") {
			t.Errorf("textgate.RequiredLiterals(%q) = %s, want %s", p, got, want)
		}
	}
}
