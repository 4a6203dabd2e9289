package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/chat"
)

// DigestClaimTTL keeps a week's digest claims past the week.
const DigestClaimTTL = 30 * 24 * time.Hour

// DigestChats lists the chats that turned the weekly digest on
// ("开启周报"), as chat keys.
type DigestChats interface {
	DigestChats(ctx context.Context) ([]string, error)
}

// Digest posts last week's storage digest to every chat that turned it
// on. Each chat gets it once per week even with several replicas: the
// send is claimed under digest:<chat>:<week>, and the claim is released
// when the send fails so the next run retries.
type Digest struct {
	Chats  DigestChats
	Claims Claimer
	// Render is the digest of the lab of chatKey for the ISO week
	// ("2026-W48"), as of now.
	Render func(ctx context.Context, chatKey, week string, now time.Time) (chat.Reply, error)
	Send   SendFunc
	// Location is the time zone of the weeks; Now the clock (default
	// time.Now).
	Location *time.Location
	Now      func() time.Time
	Log      *slog.Logger
}

// RunOnce posts the digest of the ISO week before now's to each enabled
// chat not yet served. It returns how many were sent; errors of single
// chats are joined, the others still go out.
func (d *Digest) RunOnce(ctx context.Context) (int, error) {
	now := clock(d.Now)
	week := billing.WeekOf(now.AddDate(0, 0, -7), d.Location)
	chats, err := d.Chats.DigestChats(ctx)
	if err != nil {
		return 0, err
	}
	sent := 0
	var errs []error
	for _, ck := range chats {
		key := "digest:" + ck + ":" + week
		ok, err := d.Claims.ClaimAlert(ctx, key, DigestClaimTTL)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: claim: %w", ck, err))
			continue
		}
		if !ok {
			continue // sent already, by this or another replica
		}
		r, err := d.Render(ctx, ck, week, now)
		if err == nil {
			err = d.Send(ctx, ck, r)
		}
		if err != nil {
			_ = d.Claims.ReleaseAlert(context.WithoutCancel(ctx), key)
			errs = append(errs, fmt.Errorf("digest to %s: %w", ck, err))
			continue
		}
		sent++
	}
	return sent, errors.Join(errs...)
}

// Run is the scheduled digest: RunOnce, logged.
func (d *Digest) Run(ctx context.Context) {
	log := logger(d.Log)
	n, err := d.RunOnce(ctx)
	if err != nil {
		log.Error("storage digest", "sent", n, "err", err)
		return
	}
	log.Info("storage digest posted", "chats", n)
}
