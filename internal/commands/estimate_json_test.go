package commands_test

import (
	"encoding/json"
	"testing"

	"github.com/labgpu/bot/internal/commands/answer"
)

// TestEstimateJSON: the estimate and plan intents are registered answers
// whose payloads print the keys `bot ask --format json` always had, beside
// the Query's and the text.
func TestEstimateJSON(t *testing.T) {
	for _, name := range []string{"estimate", "plan"} {
		if _, ok := answer.Lookup(name); !ok {
			t.Errorf("intent %s is not registered", name)
		}
	}
	r := newRouter(t)
	for _, c := range []struct {
		ask    string
		intent string
		keys   []string
		absent []string
	}{
		{"7B LoRA 要多少钱", "estimate", []string{"estimate", "vram_gb", "fits", "tokens_trained", "flops", "hours", "options", "text", "full_text"},
			[]string{"workload_estimate", "question"}},
		{"7B 推理 要多少钱", "estimate", []string{"estimate", "vram_gb", "fits", "options"}, []string{"hours"}},
		{"训练一个ResNet50要多少钱", "estimate", []string{"workload_estimate", "options", "hours", "flops", "workload_model"}, []string{"estimate", "vram_gb"}},
		{"微调要多少钱", "estimate", []string{"question", "text"}, []string{"estimate", "options"}},
		{"A100 包月多少", "plan", []string{"plan", "text"}, []string{"plans"}},
		{"我们组每周跑40小时4090，包周还是按量", "plan", []string{"plans", "text"}, []string{"plan"}},
	} {
		res := ask(r, c.ask)
		if res.Intent != c.intent {
			t.Errorf("%q: intent %s, want %s", c.ask, res.Intent, c.intent)
			continue
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatalf("%q: %v", c.ask, err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%q: %v: %s", c.ask, err, b)
		}
		for _, k := range c.keys {
			if _, ok := got[k]; !ok {
				t.Errorf("%q: no %q in %s", c.ask, k, b)
			}
		}
		for _, k := range c.absent {
			if _, ok := got[k]; ok {
				t.Errorf("%q: unexpected %q", c.ask, k)
			}
		}
	}
}
