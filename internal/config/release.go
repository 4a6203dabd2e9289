package config

import (
	"fmt"
	"time"

	"github.com/labgpu/bot/internal/jobs"
)

// ReleaseWarnConf is when `bot serve` @mentions a disk's owner in the
// lab's chat before a platform deletes a stopped disk (the catalog's
// timed retention rules: AutoDL releases an instance shut down 15 days,
// 恒源云 empties /hy-tmp 24 h after a shutdown and deletes the instance
// after 10 days, 秘塔智算 may empty the data disk at shutdown).
type ReleaseWarnConf struct {
	// Schedule is when the ledgers are checked: a cron spec in
	// stock.poll.timezone (default "*/10 * * * *"); empty turns the
	// warnings off.
	Schedule string `yaml:"schedule"`
	// Before are how long before a loss the owner is warned, each once
	// (default 72h and 24h).
	Before []Duration `yaml:"before"`
	// AfterStop: a disk deleted within this long of its stop is also
	// warned right after the stop (default 24h; 0s turns that off).
	AfterStop Duration `yaml:"after_stop"`
}

// DefaultReleaseWarnings checks every 10 minutes and warns 3 days and 1
// day before a loss, and right after a stop when the loss comes within a
// day.
func DefaultReleaseWarnings() ReleaseWarnConf {
	return ReleaseWarnConf{Schedule: "*/10 * * * *", Before: []Duration{Dur(72 * time.Hour), Dur(24 * time.Hour)}, AfterStop: Dur(24 * time.Hour)}
}

// BeforeDurations are Before as durations.
func (r ReleaseWarnConf) BeforeDurations() []time.Duration {
	out := make([]time.Duration, len(r.Before))
	for i, b := range r.Before {
		out[i] = b.D()
	}
	return out
}

// validate checks the schedule (a minute apart at most often), each
// threshold (above 0, at most 30 days, at most 5 of them) and after_stop
// (0 to 7 days).
func (rw ReleaseWarnConf) validate(r *report) {
	const key = "storage.release_warnings"
	if rw.Schedule != "" {
		if err := jobs.ValidateSchedule(rw.Schedule, time.Minute); err != nil {
			r.add(key+".schedule", "%v (e.g. \"*/10 * * * *\"; \"\" turns the warnings off)", err)
		}
	}
	if len(rw.Before) > 5 {
		r.add(key+".before", "%d thresholds, at most 5", len(rw.Before))
	}
	for i, b := range rw.Before {
		k := fmt.Sprintf("%s.before[%d]", key, i)
		if d := b.D(); b.check(r, k) && (d <= 0 || d > 30*24*time.Hour) {
			r.add(k, "%v is not between 0 and 720h (e.g. 72h)", d)
		}
	}
	if d := rw.AfterStop.D(); rw.AfterStop.check(r, key+".after_stop") && (d < 0 || d > 7*24*time.Hour) {
		r.add(key+".after_stop", "%v is not between 0s and 168h (e.g. 24h; 0s: never)", d)
	}
}
