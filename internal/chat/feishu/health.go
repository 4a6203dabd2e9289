package feishu

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// Readiness is recorded, never probed: /readyz asks Ready, which reads
// what the token fetches and the callback last saw and calls nobody.

// refusingAfter is how long the callback may refuse every verified event
// (answering 503, for Feishu to retry) before the bot reports itself not
// ready; refusingMin is how many refusals that takes at least.
const (
	refusingAfter = 30 * time.Second
	refusingMin   = 3
)

// intake records the callback's verified events: when one was last
// accepted, and the refusals since (503: queue full, shutting down, the
// claim store failing, bot info missing). Events that fail verification
// are not counted: nobody can make the bot unready by posting garbage.
type intake struct {
	mu          sync.Mutex
	refused     int
	firstRefuse time.Time
	lastReason  string
}

func (in *intake) accepted() {
	in.mu.Lock()
	in.refused, in.firstRefuse, in.lastReason = 0, time.Time{}, ""
	in.mu.Unlock()
}

func (in *intake) refuse(now time.Time, reason string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.refused == 0 {
		in.firstRefuse = now
	}
	in.refused++
	in.lastReason = reason
}

// state is an error when every verified event has been refused for
// refusingAfter (at least refusingMin of them).
func (in *intake) state(now time.Time) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.refused >= refusingMin && now.Sub(in.firstRefuse) >= refusingAfter {
		return fmt.Errorf("refusing every event for %s (%d, last: %s)", now.Sub(in.firstRefuse).Round(time.Second), in.refused, in.lastReason)
	}
	return nil
}

// tokenState is the outcome of the last tenant_access_token fetch.
type tokenState struct {
	err     error
	expires time.Time // of the token held, zero without one
}

// tokenHealth is an error when the last token fetch failed and no
// unexpired token is held.
func (b *Bot) tokenHealth(now time.Time) error {
	st := b.tokState.Load()
	if st == nil || st.err == nil {
		return nil
	}
	if !st.expires.IsZero() && now.Before(st.expires) {
		return nil
	}
	return errors.Join(errors.New("no tenant_access_token"), st.err)
}
