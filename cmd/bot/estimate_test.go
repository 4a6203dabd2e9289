package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// decodeOne decodes out as exactly one JSON object.
func decodeOne(t *testing.T, out string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	var got map[string]any
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("stdout has more than one JSON value:\n%s", out)
	}
	return got
}

// TestEstimateCatalogModelsJSON: models students name now are in the
// catalog, and `bot estimate --format json` answers them with one object.
func TestEstimateCatalogModelsJSON(t *testing.T) {
	for name, want := range map[string]string{"gemma-2b": "Gemma-2B", "qwen3-30b-a3b": "Qwen3-30B-A3B", "glm4": "GLM-4-9B"} {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := run(t, "", nil, "estimate", "--model", name, "--format", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := decodeOne(t, out)
			est, _ := got["estimate"].(map[string]any)
			if est == nil || est["model"] != want || est["typical_config"] != false {
				t.Errorf("estimate = %v, want model %s", est, want)
			}
		})
	}
}

// TestEstimateUnknownModelWithSize: a name the catalog lacks but with a
// size in it is estimated with the typical configuration nearest in size,
// and the answer says so.
func TestEstimateUnknownModelWithSize(t *testing.T) {
	out, stderr, code := run(t, "", nil, "estimate", "--model", "xxx-7b", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := decodeOne(t, out)
	est, _ := got["estimate"].(map[string]any)
	if est == nil || est["typical_config"] != true || est["params_b"] != 7.0 || got["model_text"] != "xxx-7b" {
		t.Fatalf("want a typical 7B config for xxx-7b, got model_text %v, estimate %v", got["model_text"], est)
	}
	text, _ := got["text"].(string)
	if !strings.Contains(text, "xxx-7b") || !strings.Contains(text, "典型配置") {
		t.Errorf("the answer does not say it fell back to a typical config:\n%s", text)
	}
	out, _, code = run(t, "", nil, "estimate", "--model", "某某-13B")
	if code != 0 || !strings.Contains(out, "某某-13B") || !strings.Contains(out, "13B 模型（按典型配置") {
		t.Errorf("text answer for 某某-13B (exit %d):\n%s", code, out)
	}
}

// TestEstimateErrorObject: in JSON mode every failure prints one error
// object with the reason on stdout and exits non-zero; stderr keeps its
// one line.
func TestEstimateErrorObject(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		reason string
	}{
		{"unknown model without size", []string{"--model", "FooLM"}, "unknown_model"},
		{"more GPUs than a machine", []string{"--params", "7", "--gpus", "20"}, "too_many_gpus"},
		{"flag that does not parse", []string{"--seq", "abc", "--params", "7"}, "bad_input"},
		{"bad method", []string{"--params", "7", "--method", "dpo"}, "bad_input"},
		{"not a language model", []string{"--model", "t5-base"}, "not_llm"},
		{"no model", nil, "bad_input"},
	}
	for _, c := range cases {
		for _, format := range [][]string{{"--format", "json"}, {"--format=json"}} {
			t.Run(c.name+" "+strings.Join(format, " "), func(t *testing.T) {
				args := append(append([]string{"estimate"}, c.args...), format...)
				out, stderr, code := run(t, "", nil, args...)
				if code == 0 {
					t.Fatalf("exit 0 for an impossible request; stdout %s", out)
				}
				got := decodeOne(t, out)
				if got["intent"] != "estimate" || got["reason"] != c.reason || got["error"] == "" || got["error"] == nil {
					t.Errorf("error object %v, want reason %q", got, c.reason)
				}
				if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.HasPrefix(stderr, "bot: ") {
					t.Errorf("stderr %q: want one line", stderr)
				}
			})
		}
	}
	// Text mode keeps stdout empty on errors.
	if out, _, code := run(t, "", nil, "estimate", "--model", "FooLM"); code != 2 || out != "" {
		t.Errorf("text mode: exit %d, stdout %q", code, out)
	}
}

func TestJSONRequested(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"estimate", "--format", "json"}, true},
		{[]string{"estimate", "--format=json", "--seq", "x"}, true},
		{[]string{"estimate", "--format", "text"}, false},
		{[]string{"estimate", "--model", "--format"}, false},
		{[]string{"estimate", "--", "--format", "json"}, false},
	} {
		if got := jsonRequested(c.args); got != c.want {
			t.Errorf("jsonRequested(%q) = %v", c.args, got)
		}
	}
	var b bytes.Buffer
	writeErrorObject(&b, "estimate", usageError{errString("--seq: bad\nvalue")})
	if got := decodeOne(t, b.String()); got["error"] != "--seq: bad; value" || got["reason"] != "bad_input" {
		t.Errorf("error object %v", got)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// `--gpu a100` and `--gpu h100`, as the help writes them, are the
// family's cards (a new user's test: both were "unknown GPU").
func TestEstimateGPUFamilyFlag(t *testing.T) {
	for gpu, want := range map[string]string{"a100": "A100 80GB", "h100": "H100 SXM", "4090": "RTX 4090"} {
		out, stderr, code := run(t, "", nil, "estimate", "--model", "qwen2.5-7b", "--gpu", gpu, "--format", "json")
		if code != 0 {
			t.Fatalf("--gpu %s: exit %d: %s", gpu, code, stderr)
		}
		got := decodeOne(t, out)
		gpus, _ := got["gpus"].([]any)
		found := false
		for _, g := range gpus {
			found = found || g == want
		}
		if !found {
			t.Errorf("--gpu %s: gpus %v, want %s among them", gpu, gpus, want)
		}
	}
}
