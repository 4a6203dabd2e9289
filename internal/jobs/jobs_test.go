package jobs_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/labgpu/bot/internal/jobs"
)

func TestValidateSchedule(t *testing.T) {
	cases := []struct {
		spec  string
		min   time.Duration
		valid bool
	}{
		{"*/2 * * * *", jobs.MinInterval, true},
		{"@every 2m", jobs.MinInterval, true},
		{"@every 5s", jobs.MinInterval, false},
		{"@every 5s", 0, true},
		{"@every 0s", jobs.MinInterval, false},
		{"0 9 * * 1", 0, true},
		{"every monday", 0, false},
		{"0 9 * *", 0, false},
	}
	for _, c := range cases {
		if err := jobs.ValidateSchedule(c.spec, c.min); (err == nil) != c.valid {
			t.Errorf("ValidateSchedule(%q, %v) = %v, want valid %v", c.spec, c.min, err, c.valid)
		}
	}
}

// TestJitterSkipsWhenCancelled: a run waiting out its jitter is skipped
// when the context ends, and runs after the wait otherwise.
func TestJitterSkipsWhenCancelled(t *testing.T) {
	var ran atomic.Int32
	job := cron.FuncJob(func() { ran.Add(1) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	jobs.Jitter(ctx, time.Hour)(job).Run()
	if ran.Load() != 0 {
		t.Error("a cancelled run still ran")
	}
	jobs.Jitter(context.Background(), time.Millisecond)(job).Run()
	jobs.Jitter(context.Background(), 0)(job).Run()
	if ran.Load() != 2 {
		t.Errorf("ran %d times, want 2", ran.Load())
	}
}

// TestSchedulerRecoversAndSkips: a panicking job keeps running on later
// firings (the panic does not leave it marked as running), and a job still
// running is not started again.
func TestSchedulerRecoversAndSkips(t *testing.T) {
	s := jobs.NewScheduler(time.UTC, slog.New(slog.DiscardHandler))
	var panics, slow atomic.Int32
	release := make(chan struct{})
	ctx := context.Background()
	if err := s.Add(ctx, "@every 1s", func(context.Context) { panics.Add(1); panic("bug") }); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(ctx, "@every 1s", func(context.Context) { slow.Add(1); <-release }); err != nil {
		t.Fatal(err)
	}
	s.Start()
	time.Sleep(3200 * time.Millisecond) // three firings
	close(release)
	s.Stop()
	if panics.Load() < 2 {
		t.Errorf("the panicking job ran %d times; a panic stopped it", panics.Load())
	}
	if slow.Load() != 1 {
		t.Errorf("the slow job started %d times while still running", slow.Load())
	}
}
