package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
)

// Release @mentions a disk's owner in the lab's chats before the disk's
// platform deletes it (ledger.ReleaseRisks from the ledgers' stop events
// and the catalog's retention rules; ledger.DueWarnings under Policy):
// by default 3 days and 1 day before a release, and right after a stop
// when the loss comes within a day. Each disk is warned once per stop,
// rule and threshold across replicas: a message is claimed under its
// latest threshold (ledger.Warning.Threshold), as
// release:<lab>:<disk>:<stop, unix s>:<rule>:<threshold>, which is also
// the message's idempotency key, and thresholds reached together (a late
// check) go in that one message. The claim is released when a chat did
// not get the message, so the next run retries there (the chats that got
// it skip it).
// Platforms without timed rules are never warned about.
type Release struct {
	// Events reads the ledgers (every lab: StorageEvents(ctx, "")).
	Events  StorageEvents
	Claims  Claimer
	Catalog *catalog.Catalog
	Policy  ledger.ReleasePolicy
	// Chats are a lab's chat keys that can be reached now.
	Chats func(lab string) []string
	// Render is the warning for a chat, in English when en.
	Render func(w ledger.Warning, now time.Time, en bool) chat.Reply
	// English reports whether a chat reads English (nil: Chinese).
	English func(chatKey string) bool
	Send    SendFunc
	// Now is the clock (default time.Now).
	Now func() time.Time
	Log *slog.Logger
}

// releaseClaimGrace keeps a claim this long after its threshold can no
// longer be due.
const releaseClaimGrace = 7 * 24 * time.Hour

// RunOnce sends the warnings due now and returns how many messages went
// out. Errors of single warnings are joined; the others still go out.
func (j *Release) RunOnce(ctx context.Context) (int, error) {
	now := clock(j.Now)
	ev, err := j.Events.StorageEvents(ctx, "")
	if err != nil {
		return 0, fmt.Errorf("release warnings: %w", err)
	}
	sent := 0
	var errs []error
	for _, w := range ledger.DueWarnings(ledger.ReleaseRisks(ev, j.Catalog, now), j.Policy, now) {
		n, err := j.warn(ctx, w, now)
		sent += n
		if err != nil {
			errs = append(errs, fmt.Errorf("lab %s disk %s: %w", w.Lab, w.Disk, err))
		}
	}
	return sent, errors.Join(errs...)
}

// warn claims w's latest threshold and, when it got it, tells the lab's
// chats; when none heard it the claim is given back.
func (j *Release) warn(ctx context.Context, w ledger.Warning, now time.Time) (int, error) {
	chats := j.Chats(w.Lab)
	if len(chats) == 0 {
		return 0, nil // nobody to tell; a later run may reach a chat
	}
	ttl := later(w.Loss, w.StoppedAt.Add(j.Policy.AfterStop)).Sub(now) + releaseClaimGrace
	key := ReleaseKey(w, w.Threshold())
	ok, err := j.Claims.ClaimAlert(ctx, key, ttl)
	if err != nil {
		return 0, fmt.Errorf("claim: %w", err)
	}
	if !ok {
		return 0, nil // sent already, by this or another replica
	}
	sent := 0
	var failed error
	o := chat.SendOptions{IdempotencyKey: key, Remember: ttl}
	for _, ck := range chats {
		en := j.English != nil && j.English(ck)
		if err := j.Send(ctx, ck, j.Render(w, now, en), o); err != nil {
			failed = errors.Join(failed, fmt.Errorf("warning to %s: %w", ck, err))
			continue
		}
		sent++
	}
	if failed != nil {
		// Let the next run try again; the chats that heard it skip it.
		_ = j.Claims.ReleaseAlert(context.WithoutCancel(ctx), key)
	}
	return sent, failed
}

// ReleaseKey is the claim of one threshold of a warning.
func ReleaseKey(w ledger.Warning, threshold string) string {
	return fmt.Sprintf("release:%s:%s:%d:%s:%s", w.Lab, w.Disk, w.StoppedAt.Unix(), w.RuleID, threshold)
}

// Run is the scheduled check: RunOnce, logged.
func (j *Release) Run(ctx context.Context) {
	n, err := j.RunOnce(ctx)
	if err != nil {
		logger(j.Log).Error("release warnings", "sent", n, "err", err)
		return
	}
	if n > 0 {
		logger(j.Log).Info("release warnings sent", "messages", n)
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
