package procs

import (
	"reflect"
	"testing"
)

func TestParseLog(t *testing.T) {
	tests := []struct {
		name, line string
		want       LogLine
	}{
		{"text", `time=2025-06-01T10:00:00.000Z level=INFO msg=poll subscriptions=8 fetched="replay:ok@2025-06-01T10:00:00Z vastai:stale/open"`,
			LogLine{Level: "INFO", Msg: "poll", Attrs: map[string]string{"time": "2025-06-01T10:00:00.000Z", "level": "INFO", "msg": "poll",
				"subscriptions": "8", "fetched": "replay:ok@2025-06-01T10:00:00Z vastai:stale/open"}}},
		{"text, quoted message", `level=error msg="reply failed" err="dial tcp: refused"`,
			LogLine{Level: "ERROR", Msg: "reply failed", Attrs: map[string]string{"level": "error", "msg": "reply failed", "err": "dial tcp: refused"}}},
		{"JSON", `{"level":"WARN","msg":"poll failed","alerts":2}`,
			LogLine{Level: "WARN", Msg: "poll failed", Attrs: map[string]string{"level": "WARN", "msg": "poll failed", "alerts": "2"}}},
		{"broken JSON", `{"level":`, LogLine{Attrs: map[string]string{}}},
		{"not a log line", `panic: runtime error`, LogLine{Attrs: map[string]string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseLog(tt.line); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseLog(%q) = %+v, want %+v", tt.line, got, tt.want)
			}
		})
	}
}
