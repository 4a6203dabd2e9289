package commands_test

import (
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/commands/scorer"
)

func envf(k string) float64 { v, _ := strconv.ParseFloat(os.Getenv(k), 64); return v }

func TestGrid(t *testing.T) {
	if os.Getenv("GRID") == "" {
		t.Skip()
	}
	cat, kb, in := corpus(t)
	full := commands.NewUnderstander(cat, kb, in, commands.UnderstanderOptions{})
	var all []commands.Labelled
	for _, l := range full.Training() {
		if !l.Keyword {
			all = append(all, l)
		}
	}
	rand.New(rand.NewSource(1)).Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	if w := envf("TW"); w > 0 {
		scorer.TagWeight = int(w)
	}
	right, n := 0, 0
	for f := 0; f < 5; f++ {
		held := map[string]bool{}
		var test []commands.Labelled
		for i, l := range all {
			if i%5 == f {
				held[l.Text] = true
				test = append(test, l)
			}
		}
		u := commands.NewUnderstander(cat, kb, in, commands.UnderstanderOptions{Exclude: held, AdviceWeight: envf("KB"), Scorer: scorer.Options{Alpha: envf("A"), Temperature: envf("T")}})
		for _, l := range test {
			want, _, _ := strings.Cut(l.Label, "/")
			q := u.Understand(l.Text)
			top := q.Intent
			if top == commands.IntentClarify && len(q.Alternatives) > 0 {
				top = q.Alternatives[0].Intent
			}
			n++
			if top == want {
				right++
			}
		}
	}
	t.Logf("intent %.4f", float64(right)/float64(n))
}
