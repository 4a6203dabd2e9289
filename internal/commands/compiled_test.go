package commands_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/commands"
	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/understand/scorer"
)

// TestCompiledIsCurrent: configs/intents.json, intents-inputs.jsonl and
// intents.model are what `go generate ./configs` builds from the YAML,
// the slot extractors and the scorer as they are now (the model compared
// with scorer.Model.Same: another CPU may round a logarithm differently).
func TestCompiledIsCurrent(t *testing.T) {
	cat, kb, in := corpus(t)
	c := understand.Compile(cat, kb, in)
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "..", "configs", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	stale := func(name string) {
		t.Errorf("configs/%s is stale: run `go generate ./configs` (intents, knowledge base, extractors or scorer changed)", name)
	}
	for name, marshal := range map[string]func() ([]byte, error){
		understand.CompiledFile: c.Marshal,
		understand.InputsFile:   c.MarshalInputs,
	} {
		want, err := marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(read(name), want) {
			stale(name)
		}
	}
	var m scorer.Model
	if err := m.UnmarshalBinary(read(understand.ModelFile)); err != nil || !m.Same(c.Model, 1e-9) {
		stale(understand.ModelFile)
	}
}

// TestCompiledLoads: the compiled definitions load, and a router built on
// them understands as one trained from the YAML does.
func TestCompiledLoads(t *testing.T) {
	in, m, _, err := understand.LoadCompiled(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Defs) < 20 || m.Features() < 10000 || in.Lexicon == nil {
		t.Fatalf("%d definitions, %d features", len(in.Defs), m.Features())
	}
	r := adviceRouter(t)
	cat, kb, yin := corpus(t)
	u := understand.NewUnderstander(cat, kb, yin, commands.UnderstanderOptions{})
	for _, q := range []string{"哪家有4090", "7B LoRA 要多少钱", "取消全部订阅", "Killed", "恒源云和AutoDL哪个便宜"} {
		a, b := r.Understand(q), u.Understand(q)
		if a.Intent != b.Intent || a.Topic != b.Topic {
			t.Errorf("%q: compiled %s/%s, YAML %s/%s", q, a.Intent, a.Topic, b.Intent, b.Topic)
		}
	}
}

// BenchmarkStartup is the intent model's start-up cost on the compiled
// intents: reading configs/intents.json and the trained intents.model.
func BenchmarkStartup(b *testing.B) {
	cat, kb, _ := corpus(b)
	b.ReportAllocs()
	var retained float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		u, err := understand.NewStartupUnderstander(cat, kb)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		retained = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
		runtime.KeepAlive(u)
	}
	// The model's live heap after start-up, MiB.
	b.ReportMetric(retained, "MiB-live")
}
