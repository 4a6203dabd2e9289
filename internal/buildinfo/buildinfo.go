// Package buildinfo reads what the Go toolchain stamped into the binary:
// the module version, the VCS revision, its time and whether the tree had
// uncommitted changes, and the Go version. One reading serves `bot
// version`, the start-up log line, the labgpu_build_info metric and the
// in-chat "版本" answer.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// Devel is the module version of a binary built from a checkout
// (`go build`, `go run`) rather than `go install module@version`.
const Devel = "(devel)"

// Info is one binary's build.
type Info struct {
	// Version is the module version ("v1.4.0"), Devel when built from a
	// checkout.
	Version string `json:"version"`
	// Revision is the VCS commit (the full hash), "" when the build had
	// no VCS stamp (-buildvcs=false, a tree without .git).
	Revision string `json:"revision,omitempty"`
	// Time is the commit's time (zero when unknown); Modified says the
	// tree had uncommitted changes.
	Time     time.Time `json:"time,omitzero"`
	Modified bool      `json:"modified,omitempty"`
	// GoVersion is the toolchain ("go1.26.0").
	GoVersion string `json:"go_version"`
}

// Read is this binary's build, read once.
var Read = sync.OnceValue(func() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: Devel, GoVersion: runtime.Version()}
	}
	return From(bi)
})

// From is the Info of a build info as debug.ReadBuildInfo returns it.
func From(bi *debug.BuildInfo) Info {
	in := Info{Version: Devel, GoVersion: bi.GoVersion}
	if in.GoVersion == "" {
		in.GoVersion = runtime.Version()
	}
	if bi.Main.Version != "" {
		in.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		case "vcs.time":
			if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
				in.Time = t
			}
		}
	}
	return in
}

// ShortRevision is the revision's first 12 hex digits ("" without one).
func (in Info) ShortRevision() string { return in.Revision[:min(12, len(in.Revision))] }

// String is the build in one line: "v1.4.0 (rev 0123456789ab,
// modified, 2026-12-01T08:00:00Z, go1.26.0)".
func (in Info) String() string {
	var parts []string
	if r := in.ShortRevision(); r != "" {
		parts = append(parts, "rev "+r)
	}
	if in.Modified {
		parts = append(parts, "modified")
	}
	if !in.Time.IsZero() {
		parts = append(parts, in.Time.UTC().Format(time.RFC3339))
	}
	parts = append(parts, in.GoVersion)
	return fmt.Sprintf("%s (%s)", in.Version, strings.Join(parts, ", "))
}
