package config_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/config"
)

// TestReleaseWarnings: the thresholds load, default to 3 days, 1 day and
// right after a stop, and a bad value is refused naming its key.
func TestReleaseWarnings(t *testing.T) {
	cfg, err := config.Load("", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	rw := cfg.Storage.ReleaseWarnings
	if got := rw.BeforeDurations(); !reflect.DeepEqual(got, []time.Duration{72 * time.Hour, 24 * time.Hour}) || rw.AfterStop.D() != 24*time.Hour || rw.Schedule == "" {
		t.Errorf("defaults = %+v", rw)
	}
	cfg, err = config.Load(write(t, "storage:\n  release_warnings:\n    before: [\"48h\", \"6h\"]\n    after_stop: 0s\n    schedule: \"\"\n"), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	rw = cfg.Storage.ReleaseWarnings
	if got := rw.BeforeDurations(); !reflect.DeepEqual(got, []time.Duration{48 * time.Hour, 6 * time.Hour}) || rw.AfterStop.D() != 0 || rw.Schedule != "" {
		t.Errorf("loaded = %+v", rw)
	}
	bad := []struct{ body, want string }{
		{"storage:\n  release_warnings:\n    schedule: sometimes\n", "storage.release_warnings.schedule"},
		{"storage:\n  release_warnings:\n    schedule: \"@every 10s\"\n", "storage.release_warnings.schedule"},
		{"storage:\n  release_warnings:\n    before: [\"72h\", soon]\n", "storage.release_warnings.before[1]"},
		{"storage:\n  release_warnings:\n    before: [\"-1h\"]\n", "storage.release_warnings.before[0]"},
		{"storage:\n  release_warnings:\n    before: [\"1000h\"]\n", "storage.release_warnings.before[0]"},
		{"storage:\n  release_warnings:\n    after_stop: \"-1h\"\n", "storage.release_warnings.after_stop"},
		{"storage:\n  release_warnings:\n    after_stop: later\n", "storage.release_warnings.after_stop"},
	}
	for _, c := range bad {
		_, err := config.Load(write(t, c.body), env(nil))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one naming %s", c.body, err, c.want)
		}
	}
}
