package buildinfo_test

import (
	"runtime/debug"
	"testing"

	"github.com/labgpu/bot/internal/buildinfo"
)

func TestFrom(t *testing.T) {
	cases := []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"stamped", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2026-12-01T08:00:00Z"}}},
			"v1.2.3 (rev 0123456789ab, modified, 2026-12-01T08:00:00Z, go1.26.0)"},
		{"checkout without VCS", debug.BuildInfo{GoVersion: "go1.26.0"}, "(devel) (go1.26.0)"},
		{"bad time", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.time", Value: "yesterday"}}}, "(devel) (rev abc, go1.26.0)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := buildinfo.From(&c.bi).String(); got != c.want {
				t.Errorf("String() = %q, want %q", got, c.want)
			}
		})
	}
}

// TestRead: a test binary has build info; its Go version is set.
func TestRead(t *testing.T) {
	if in := buildinfo.Read(); in.Version == "" || in.GoVersion == "" {
		t.Errorf("Read() = %+v", in)
	}
}
