package jobs_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/jobs"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/store/embedded"
)

// countingBoard counts refreshes (a poll) and returns an empty snapshot.
type countingBoard struct{ n atomic.Int32 }

func (b *countingBoard) Refresh(context.Context) stock.Snapshot {
	b.n.Add(1)
	return stock.Snapshot{TakenAt: time.Now()}
}

// killable passes lock calls to the real store until killed; then they
// fail without reaching it, as from a replica that died (its lock is
// neither renewed nor released).
type killable struct {
	stock.Locker
	dead atomic.Bool
}

var errDead = errors.New("replica killed")

func (k *killable) TryLock(ctx context.Context, name, owner string, ttl time.Duration) (bool, error) {
	if k.dead.Load() {
		return false, errDead
	}
	return k.Locker.TryLock(ctx, name, owner, ttl)
}

func (k *killable) Unlock(ctx context.Context, name, owner string) error {
	if k.dead.Load() {
		return errDead
	}
	return k.Locker.Unlock(ctx, name, owner)
}

// TestPollTakeover: the replica holding the poll lock keeps it between
// polls (the other one only stands by), and when it dies the other polls
// within two intervals, with the lock's lifetime one interval.
func TestPollTakeover(t *testing.T) {
	st, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	const interval = 600 * time.Millisecond
	lockA := &killable{Locker: st}
	boardA, boardB := &countingBoard{}, &countingBoard{}
	a := &jobs.Poller{Board: boardA, Locker: lockA, Owner: "a", LockTTL: interval}
	b := &jobs.Poller{Board: boardB, Locker: st, Owner: "b", LockTTL: interval}
	ctx := context.Background()
	defer a.Release(ctx)
	defer b.Release(ctx)

	for range 3 { // A polls, B stands by, for three intervals
		if ran, _, _, err := a.RunOnce(ctx); !ran || err != nil {
			t.Fatalf("holder: ran %v, err %v", ran, err)
		}
		if ran, _, _, _ := b.RunOnce(ctx); ran {
			t.Fatal("the standby polled while the holder was alive")
		}
		time.Sleep(interval)
	}
	lockA.dead.Store(true)
	killed := time.Now()
	for time.Since(killed) < 3*interval {
		if ran, _, _, _ := b.RunOnce(ctx); ran {
			if took := time.Since(killed); took > 2*interval {
				t.Errorf("the standby polled %v after the holder died, more than two intervals", took)
			}
			return
		}
		time.Sleep(interval)
	}
	t.Fatalf("the standby never polled after the holder died (%d polls)", boardB.n.Load())
}

// TestAddNowRunsAtStart: a job added with AddNow runs when the scheduler
// starts, not a whole interval later.
func TestAddNowRunsAtStart(t *testing.T) {
	s := jobs.NewScheduler(time.UTC, nil)
	ran := make(chan struct{}, 1)
	if err := s.AddNow(context.Background(), "@every 1h", func(context.Context) { ran <- struct{}{} }); err != nil {
		t.Fatal(err)
	}
	s.Start()
	defer s.Stop()
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the job did not run at start")
	}
}
