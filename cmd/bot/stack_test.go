package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestEstimateStackFlag: --stack picks the training stack, shown in the
// JSON with the tuned speed-up and padding factor; an unknown stack exits
// 2 naming the flag.
func TestEstimateStackFlag(t *testing.T) {
	cases := []struct {
		stack, want string
		speedup     bool
	}{{"", "fa2", true}, {"hf", "hf", true}, {"tuned", "tuned", false}}
	for _, c := range cases {
		args := []string{"estimate", "--model", "qwen2.5 7b", "--method", "lora", "--samples", "50000", "--gpu", "4090", "--format", "json"}
		if c.stack != "" {
			args = append(args, "--stack", c.stack)
		}
		out, stderr, code := run(t, "", nil, args...)
		if code != 0 {
			t.Fatalf("--stack %q: exit %d: %s", c.stack, code, stderr)
		}
		var got struct {
			Estimate struct {
				Stack         string             `json:"stack"`
				PaddingFactor float64            `json:"padding_factor"`
				TunedSpeedup  map[string]float64 `json:"tuned_speedup"`
			} `json:"estimate"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		e := got.Estimate
		if e.Stack != c.want || e.PaddingFactor != 4 || (e.TunedSpeedup["high"] > 1) != c.speedup {
			t.Errorf("--stack %q: stack %q, padding %g, tuned speed-up %v", c.stack, e.Stack, e.PaddingFactor, e.TunedSpeedup)
		}
	}
	_, stderr, code := run(t, "", nil, "estimate", "--params", "7", "--stack", "deepspeed")
	if code != 2 || !strings.Contains(stderr, "--stack") {
		t.Errorf("--stack deepspeed: exit %d, stderr %q", code, stderr)
	}
}
