package app

import (
	"time"

	"github.com/labgpu/bot/internal/jobs"
)

// NewPoller builds the app's poll job: the board, the alerter (when
// alerts are on) and the store's lock.
func (a *App) NewPoller() *jobs.Poller {
	p := &jobs.Poller{Board: a.Board, Log: a.Log, Now: a.now}
	if a.History != nil {
		p.History = a.History
	}
	if a.Alerter != nil {
		p.Alerter = a.Alerter
	}
	if a.Store != nil {
		p.Locker = a.Store
		p.LockTTL = a.pollLockTTL()
	}
	return p
}

// minPollLockTTL is the shortest default poll lock lifetime: a lock
// renewed every third of it needs a few seconds of slack.
const minPollLockTTL = 30 * time.Second

// pollLockTTL is stock.poll.lock_ttl, or the schedule's interval (at least
// 30 s): a dead holder's lock frees within one interval and another
// replica polls at its next run, within two intervals of the death.
func (a *App) pollLockTTL() time.Duration {
	if d := a.Cfg.Stock.Poll.LockTTL.D(); d > 0 {
		return d
	}
	if spec := a.Cfg.Stock.Poll.Schedule; spec != "" {
		if iv, err := jobs.Interval(spec, time.Now().In(a.Location)); err == nil {
			return max(iv, minPollLockTTL)
		}
	}
	return jobs.DefaultLockTTL
}

// LiveProviders reports whether any provider besides the catalog runs
// set up, so polling has something to watch.
func (a *App) LiveProviders() bool { return a.Cfg.Stock.Providers.Live() }
