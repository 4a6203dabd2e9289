package main

import (
	"strings"
	"testing"
)

// TestEstimateWorkload: `bot estimate --model` with a job that is not a
// language model answers from the workload estimator: the seeds' ResNet-50
// case on a 3090 in about 6 h, and a flag it cannot use is an error
// object naming the flag.
func TestEstimateWorkload(t *testing.T) {
	out, stderr, code := run(t, "", nil, "estimate", "--model", "resnet50", "--dataset", "imagenet", "--fraction", "0.1", "--epochs", "30", "--gpu", "3090", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := decodeOne(t, out)
	we, _ := got["workload_estimate"].(map[string]any)
	job, _ := we["job"].(map[string]any)
	if got["intent"] != "estimate" || job["model"] != "resnet50" || job["dataset"] != "imagenet" || job["fraction"] != 0.1 {
		t.Fatalf("answer %v", got)
	}
	opts, _ := got["options"].([]any)
	if len(opts) == 0 {
		t.Fatalf("no options: %v", got)
	}
	for _, o := range opts {
		o := o.(map[string]any)
		if h := o["hours"].(float64); o["gpu"] != "RTX 3090" || h < 5.5 || h > 6.7 {
			t.Errorf("option %v: want a 3090, about 6 h (seed 000 §5)", o)
		}
	}
	if out, _, code := run(t, "", nil, "estimate", "--model", "sdxl", "--images", "1000"); code != 0 || !strings.Contains(out, "SDXL 出 1000 张图") {
		t.Errorf("text answer (exit %d):\n%s", code, out)
	}
	out, _, code = run(t, "", nil, "estimate", "--model", "yolov8n", "--dataset", "lsun", "--format", "json")
	if got := decodeOne(t, out); code != 2 || got["reason"] != "bad_input" || !strings.Contains(got["error"].(string), "--dataset") {
		t.Errorf("unknown dataset: exit %d, %v", code, got)
	}
}
