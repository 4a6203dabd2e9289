package main

import (
	"context"
	"time"

	"github.com/labgpu/bot/tools/soak/fakes"
)

// fakesSoak is the soak as its fake platforms see it (fakes.Soak).
type fakesSoak struct{ s *soak }

func (f fakesSoak) Logf(format string, args ...any) { f.s.logf(format, args...) }

func (f fakesSoak) Stock(platform string) (map[string]bool, map[string]int) {
	return f.s.platformState(platform)
}

// hangSchedule drives the hung platform f, hanging since before the
// replicas started: in a run with stretches it answers for 15-40 s after
// every 60-150 s of hanging.
func (s *soak) hangSchedule(ctx context.Context, f *fakes.Platform, stretches bool) {
	if !stretches {
		<-ctx.Done()
		return
	}
	rng := s.stream(f.Name)
	for {
		if !sleep(ctx, s.durWith(rng, 60*time.Second, 150*time.Second)) {
			return
		}
		f.SetMode(fakes.ModeOK)
		if !sleep(ctx, s.durWith(rng, 15*time.Second, 40*time.Second)) {
			return
		}
		f.SetMode(fakes.ModeHang)
	}
}

// flapSchedule drives the flapping platform f: it answers for 20-80 s,
// then fails (503, 429, timeouts or reset connections, at random) or
// answers slowly for 8-45 s, and so on. A short run has one failure,
// from 5 s to 13 s.
func (s *soak) flapSchedule(ctx context.Context, f *fakes.Platform, short bool) {
	rng := s.stream(f.Name)
	pick := rng.IntN
	if short {
		if !sleep(ctx, 5*time.Second) {
			return
		}
		f.SetMode(fakes.FlapFailures[pick(len(fakes.FlapFailures))])
		if sleep(ctx, 8*time.Second) {
			f.SetMode(fakes.ModeOK)
		}
		return
	}
	for {
		if !sleep(ctx, s.durWith(rng, 20*time.Second, 80*time.Second)) {
			return
		}
		m := fakes.ModeSlow
		if pick(5) > 0 {
			m = fakes.FlapFailures[pick(len(fakes.FlapFailures))]
		}
		f.SetMode(m)
		if !sleep(ctx, s.durWith(rng, 8*time.Second, 45*time.Second)) {
			return
		}
		f.SetMode(fakes.ModeOK)
	}
}
