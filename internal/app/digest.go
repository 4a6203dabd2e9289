package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands"
)

// DigestPoster posts last week's storage digest to every chat that turned
// it on ("开启周报"). Each chat gets it once per week even with several
// replicas: the send is claimed in the store under digest:<chat>:<week>,
// and the claim is released when the send fails so the next run retries.
type DigestPoster struct {
	App *App
	// Send delivers a reply to a chat key ("feishu/oc_…", "webhook/lab").
	Send func(ctx context.Context, chatKey string, r chat.Reply) error
	// Now is the clock (default the app's).
	Now func() time.Time
}

// digestClaimTTL keeps a week's claims past the week.
const digestClaimTTL = 30 * 24 * time.Hour

// RunOnce posts the digest of the ISO week before now's to each enabled
// chat not yet served. It returns how many were sent; errors of single
// chats are joined, the others still go out.
func (p *DigestPoster) RunOnce(ctx context.Context) (int, error) {
	a := p.App
	if a.Store == nil {
		return 0, errNoStore
	}
	now := a.now()
	if p.Now != nil {
		now = p.Now()
	}
	week := billing.WeekOf(now.AddDate(0, 0, -7), a.Location)
	chats, err := a.Store.DigestChats(ctx)
	if err != nil {
		return 0, err
	}
	sent := 0
	var errs []error
	for _, ck := range chats {
		key := "digest:" + ck + ":" + week
		ok, err := a.Store.ClaimAlert(ctx, key, digestClaimTTL)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: claim: %w", ck, err))
			continue
		}
		if !ok {
			continue // sent already, by this or another replica
		}
		d, err := a.buildDigestAt(ctx, a.LabFor(ck), week, now)
		if err == nil {
			err = p.Send(ctx, ck, commands.RenderDigest(d, false, a.platformName))
		}
		if err != nil {
			_ = a.Store.ReleaseAlert(context.WithoutCancel(ctx), key)
			errs = append(errs, fmt.Errorf("digest to %s: %w", ck, err))
			continue
		}
		sent++
	}
	return sent, errors.Join(errs...)
}

// Start runs RunOnce on the cron spec in the app's time zone, with
// Recover and SkipIfStillRunning. Stop the returned cron at shutdown.
func (p *DigestPoster) Start(ctx context.Context, spec string) (*cron.Cron, error) {
	logger := cronLogger{p.App.Log}
	c := cron.New(cron.WithLocation(p.App.Location), cron.WithChain(cron.Recover(logger), cron.SkipIfStillRunning(logger)))
	if _, err := c.AddFunc(spec, func() {
		n, err := p.RunOnce(ctx)
		if err != nil {
			p.App.Log.Error("storage digest", "sent", n, "err", err)
			return
		}
		p.App.Log.Info("storage digest posted", "chats", n)
	}); err != nil {
		return nil, fmt.Errorf("storage.digest_schedule: %q: %w", spec, err)
	}
	c.Start()
	return c, nil
}
