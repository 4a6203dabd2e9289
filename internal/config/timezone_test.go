package config_test

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/internal/config"
)

// TestTimezone: one key sets the bot's zone (default Asia/Shanghai); the
// older stock.poll.timezone is still read; BOT_TIMEZONE overrides the
// file; a bad or conflicting zone is refused naming the key.
func TestTimezone(t *testing.T) {
	cases := []struct {
		name, file string
		env        map[string]string
		want, err  string
	}{
		{"default", "", nil, "Asia/Shanghai", ""},
		{"key", "timezone: Europe/Berlin\n", nil, "Europe/Berlin", ""},
		{"older key", "stock:\n  poll:\n    timezone: UTC\n", nil, "UTC", ""},
		{"both agree", "timezone: UTC\nstock:\n  poll:\n    timezone: UTC\n", nil, "UTC", ""},
		{"environment", "timezone: UTC\n", map[string]string{"BOT_TIMEZONE": "Asia/Tokyo"}, "Asia/Tokyo", ""},
		{"both differ", "timezone: UTC\nstock:\n  poll:\n    timezone: Asia/Tokyo\n", nil, "", "timezone: \"UTC\" and stock.poll.timezone \"Asia/Tokyo\" differ"},
		{"bad zone", "timezone: Mars/Base\n", nil, "", "timezone: \"Mars/Base\" is not a time zone"},
		{"bad older zone", "stock:\n  poll:\n    timezone: Mars/Base\n", nil, "", "stock.poll.timezone: \"Mars/Base\""},
		{"machine zone", "timezone: Local\n", nil, "", "timezone: \"Local\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := ""
			if c.file != "" {
				path = write(t, c.file)
			}
			cfg, err := config.Load(path, env(c.env))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %v, want an error with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			loc, err := cfg.Location()
			if err != nil || loc.String() != c.want {
				t.Errorf("Location() = %v, %v; want %s", loc, err, c.want)
			}
		})
	}
}
