// Package jobs holds the bot's scheduled work: the stock poll with its
// alert dispatch, the scheduled storage digest, the release warnings and
// the hourly budget check.
// Each job takes the narrow interfaces it needs (a board, a store's
// claims, a send function), never the application; a Scheduler runs them
// on robfig/cron with JobWrappers for recovery, skip-if-still-running and
// jitter. It is the only package that imports cron: config validates
// schedules through ValidateSchedule.
package jobs

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"math/big"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/labgpu/bot/internal/chat"
)

// MinInterval is the shortest "@every" schedule ValidateSchedule accepts:
// the platforms ask for gentle polling (at least 30 s per platform).
const MinInterval = 30 * time.Second

// ValidateSchedule checks a cron spec ("*/2 * * * *", "@every 2m",
// "0 9 * * 1"); an "@every" shorter than minEvery is refused (0: any).
func ValidateSchedule(spec string, minEvery time.Duration) error {
	s, err := cron.ParseStandard(spec)
	if err != nil {
		return fmt.Errorf("%q is not a cron spec: %w", spec, err)
	}
	if every, ok := s.(cron.ConstantDelaySchedule); ok && minEvery > 0 && every.Delay < minEvery {
		return fmt.Errorf("%q runs more often than every %v", spec, minEvery)
	}
	return nil
}

// Next is the first time after after that spec fires, in after's
// location ("0 9 * * 1" after Sunday 23:00 → Monday 09:00).
func Next(spec string, after time.Time) (time.Time, error) {
	s, err := cron.ParseStandard(spec)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a cron spec: %w", spec, err)
	}
	return s.Next(after), nil
}

// Scheduler runs jobs on cron schedules in one time zone. Every job
// recovers from panics and skips a run while its previous run is still
// going (both logged). Recovery sits inside the skip: robfig/cron v3.0.1's
// SkipIfStillRunning frees its slot only when the job returns, so a panic
// passing through it would skip that job forever.
type Scheduler struct {
	c   *cron.Cron
	log cronLogger
	now []cron.EntryID // jobs that also run once at Start
	wg  sync.WaitGroup
}

// NewScheduler returns a stopped scheduler in loc.
func NewScheduler(loc *time.Location, log *slog.Logger) *Scheduler {
	l := cronLogger{logger(log)}
	return &Scheduler{c: cron.New(cron.WithLocation(loc), cron.WithChain(cron.SkipIfStillRunning(l), cron.Recover(l))), log: l}
}

// Add schedules run(ctx) on spec, inside the given wrappers (Jitter).
func (s *Scheduler) Add(ctx context.Context, spec string, run func(context.Context), wrappers ...cron.JobWrapper) error {
	_, err := s.add(ctx, spec, run, wrappers)
	return err
}

// AddNow is Add, and the job also runs once when the scheduler starts
// (the stock poll: a fresh snapshot without waiting a whole interval), on
// the same chain: a scheduled run meanwhile is skipped, a panic
// recovered.
func (s *Scheduler) AddNow(ctx context.Context, spec string, run func(context.Context), wrappers ...cron.JobWrapper) error {
	id, err := s.add(ctx, spec, run, wrappers)
	if err == nil {
		s.now = append(s.now, id)
	}
	return err
}

func (s *Scheduler) add(ctx context.Context, spec string, run func(context.Context), wrappers []cron.JobWrapper) (cron.EntryID, error) {
	job := cron.NewChain(wrappers...).Then(cron.FuncJob(func() { run(ctx) }))
	id, err := s.c.AddJob(spec, job)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", spec, err)
	}
	return id, nil
}

// Start starts the scheduler and the AddNow jobs' first runs.
func (s *Scheduler) Start() {
	s.c.Start()
	for _, id := range s.now {
		job := s.c.Entry(id).WrappedJob
		s.wg.Add(1)
		go func() { defer s.wg.Done(); job.Run() }()
	}
}

// Stop stops scheduling and waits for running jobs to end.
func (s *Scheduler) Stop() {
	<-s.c.Stop().Done()
	s.wg.Wait()
}

// Interval is how long spec waits between runs after after: an @every
// delay, or the gap between a cron spec's next two times.
func Interval(spec string, after time.Time) (time.Duration, error) {
	first, err := Next(spec, after)
	if err != nil {
		return 0, err
	}
	second, _ := Next(spec, first)
	return second.Sub(first), nil
}

// Jitter delays each run by a random time up to max (nothing when max is
// not positive), so replicas and restarts do not poll in step; a run
// whose ctx ends while waiting is skipped.
func Jitter(ctx context.Context, max time.Duration) cron.JobWrapper {
	return func(j cron.Job) cron.Job {
		return cron.FuncJob(func() {
			if max > 0 {
				n, _ := rand.Int(rand.Reader, big.NewInt(int64(max)))
				t := time.NewTimer(time.Duration(n.Int64()))
				defer t.Stop()
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
			}
			j.Run()
		})
	}
}

// cronLogger adapts slog to cron.Logger: errors (recovered panics) at
// error level, the rest (skipped runs, schedule) at debug.
type cronLogger struct{ l *slog.Logger }

func (c cronLogger) Info(msg string, kv ...any) { c.l.Debug("cron: "+msg, kv...) }
func (c cronLogger) Error(err error, msg string, kv ...any) {
	c.l.Error("cron: "+msg, append(kv, "err", err)...)
}

// Claimer claims a key once across replicas (a sent digest, a budget
// notice) and releases it when the work failed, so a later run retries.
type Claimer interface {
	ClaimAlert(ctx context.Context, key string, ttl time.Duration) (bool, error)
	ReleaseAlert(ctx context.Context, key string) error
}

// SendFunc delivers a reply to a chat key ("feishu/oc_…", "webhook/lab")
// (chat.Channels.Send). The jobs' sends carry an idempotency key derived
// from what they are (a digest's lab and period, a budget's lab, month
// and threshold, a release warning's disk, stop, rule and threshold), so
// a send repeated after a failure, a stop or on another replica delivers
// what is missing and nothing twice.
type SendFunc = func(ctx context.Context, chatKey string, r chat.Reply, o chat.SendOptions) error

// logger is l, or slog's default logger when l is nil.
func logger(l *slog.Logger) *slog.Logger {
	if l != nil {
		return l
	}
	return slog.Default()
}

func clock(now func() time.Time) time.Time {
	if now != nil {
		return now()
	}
	return time.Now()
}
