package scorer_test

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/understand/scorer"
)

func collect(text string) []string {
	var out []string
	scorer.Features(text, func(kind byte, a, b string) {
		f := string(kind) + ":" + a
		if b != "" {
			f += "|" + b
		}
		out = append(out, f)
	})
	return out
}

func TestFeatures(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"§gpu有货吗", []string{"u:§gpu", "u:有", "b:§gpu|有", "u:货", "b:有|货", "u:吗", "b:货|吗"}},
		{"out of memroy", []string{"u:out", "u:of", "b:out|of", "t:^|me", "t:mem", "t:emr", "t:mro", "t:roy", "t:oy|$", "u:memroy", "b:of|memroy"}},
		{"killed 137", []string{"t:^|ki", "t:kil", "t:ill", "t:lle", "t:led", "t:ed|$", "u:killed", "u:<n3>", "b:killed|<n3>"}},
		// Punctuation ends a phrase: no bigram across the comma.
		{"谢谢，好", []string{"u:谢", "u:谢", "b:谢|谢", "u:好"}},
		{"👍?", []string{"u:👍", "u:?", "b:👍|?"}},
	}
	for _, c := range cases {
		if got := collect(c.in); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("Features(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestFeaturesLongText reads the head and tail of a long paste only, and
// never splits a rune.
func TestFeaturesLongText(t *testing.T) {
	text := "问题开头" + strings.Repeat("中", 2000) + "killed"
	got := collect(text)
	joined := strings.Join(got, " ")
	if !strings.Contains(joined, "u:问") || !strings.Contains(joined, "u:killed") {
		t.Errorf("head or tail missing: %.200s", joined)
	}
	if n := strings.Count(joined, "u:中"); n > scorer.MaxText/3 {
		t.Errorf("%d middle characters read; want at most %d", n, scorer.MaxText/3)
	}
	for _, f := range got {
		if strings.ContainsRune(f, '\uFFFD') {
			t.Fatalf("split rune in %q", f)
		}
	}
}

func TestTrainScore(t *testing.T) {
	ex := []scorer.Example{
		{Text: "哪家有§gpu", Label: "stock"},
		{Text: "§gpu还有货吗", Label: "stock"},
		{Text: "§gpu现在有没有", Label: "stock"},
		{Text: "§model lora 要多少钱", Label: "estimate"},
		{Text: "§params 全量微调多少钱", Label: "estimate"},
		{Text: "§model 训练费用", Label: "estimate"},
		{Text: "谢谢", Label: "chitchat"},
	}
	m := scorer.Train(ex, scorer.Options{})
	cases := []struct{ in, want string }{
		{"§gpu有货没", "stock"},
		{"§params qlora 多少钱", "estimate"},
		{"多谢", "chitchat"},
	}
	for _, c := range cases {
		got := m.Score(c.in, nil)
		if got[0].Label != c.want {
			t.Errorf("Score(%q) = %v, want %s first", c.in, got, c.want)
		}
		sum := 0.0
		for _, s := range got {
			sum += s.P
			if s.P < 0 || s.P > 1 {
				t.Errorf("P out of range: %v", s)
			}
		}
		if sum < 0.999 || sum > 1.001 {
			t.Errorf("posteriors sum to %g", sum)
		}
	}
	// Tags are features too.
	m2 := scorer.Train([]scorer.Example{{Text: "x", Tags: []string{"two_gpus"}, Label: "compare"}, {Text: "x", Label: "stock"}}, scorer.Options{})
	if got := m2.Score("x", []string{"two_gpus"}); got[0].Label != "compare" {
		t.Errorf("tag ignored: %v", got)
	}
	// Unknown text gets the priors, not a crash.
	if got := m.Score("zzz qqq", nil); len(got) != 3 {
		t.Errorf("labels: %v", got)
	}
}

func FuzzFeatures(f *testing.F) {
	for _, s := range []string{"", "§", "§gpu", "哪家有4090", "\xff\xfe", strings.Repeat("é", 700)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		scorer.Features(s, func(byte, string, string) {})
	})
}

// TestModelBinary: a model read back from MarshalBinary scores every text
// as the trained one, writes the same bytes again, and a truncated or
// foreign file is an error.
func TestModelBinary(t *testing.T) {
	ex := []scorer.Example{
		{Text: "哪家有§gpu", Tags: []string{"one_platform"}, Label: "stock"},
		{Text: "§gpu还有货吗", Label: "stock"},
		{Text: "§model lora 要多少钱", Label: "estimate"},
		{Text: "out of memory killed", Label: "advice/oom"},
		{Text: "谢谢", Label: "chitchat"},
	}
	m := scorer.Train(ex, scorer.Options{Prior: func(l string) float64 { return float64(len(l)) }})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back scorer.Model
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"§gpu有货没", "memory", "多谢", "", "zzz"} {
		want, got := m.Score(q, []string{"one_platform"}), back.Score(q, []string{"one_platform"})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Score(%q) read back %v, trained %v", q, got, want)
		}
	}
	if again, _ := back.MarshalBinary(); !bytes.Equal(again, b) {
		t.Error("a model read back writes other bytes")
	}
	if !back.Same(m, 0) {
		t.Error("a model read back is not Same as the trained one")
	}
	other := scorer.Train(ex, scorer.Options{Alpha: 0.06, Prior: func(l string) float64 { return float64(len(l)) }})
	if other.Same(m, 1e-9) || !other.Same(m, 1) {
		t.Error("Same does not tell log-probabilities apart by the tolerance")
	}
	fewer := scorer.Train(ex[:4], scorer.Options{Prior: func(l string) float64 { return float64(len(l)) }})
	if fewer.Same(m, 1) {
		t.Error("Same of models with other features")
	}
	for _, bad := range [][]byte{nil, []byte("labgpu-nb1\n"), b[:len(b)-1], append(slices.Clone(b), 0), []byte("{}")} {
		if err := new(scorer.Model).UnmarshalBinary(bad); err == nil {
			t.Errorf("UnmarshalBinary of %d bytes: no error", len(bad))
		}
	}
}

func FuzzModelBinary(f *testing.F) {
	m := scorer.Train([]scorer.Example{{Text: "哪家有§gpu", Label: "stock"}, {Text: "谢谢", Label: "chitchat"}}, scorer.Options{})
	b, _ := m.MarshalBinary()
	f.Add(b)
	f.Add([]byte("labgpu-nb1\n\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m scorer.Model
		if m.UnmarshalBinary(data) == nil {
			m.Score("哪家有§gpu", []string{"x"})
		}
	})
}
