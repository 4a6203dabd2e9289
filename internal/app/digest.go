package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/chat/feishu"
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
	c := newCron(p.App.Location, p.App.Log)
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

// BudgetWatcher tells a lab's chats when its month-to-date storage spend
// reaches 50%, 80% and 100% of its budget (config storage.budgets), each
// threshold once per month across replicas (claims
// budget:<lab>:<month>:<percent>). When several thresholds are reached
// at once, one message names the highest.
type BudgetWatcher struct {
	App  *App
	Send func(ctx context.Context, chatKey string, r chat.Reply) error
	Now  func() time.Time
}

// RunOnce checks every budget and returns how many messages were sent.
func (w *BudgetWatcher) RunOnce(ctx context.Context) (int, error) {
	a := w.App
	if a.Store == nil {
		return 0, errNoStore
	}
	now := a.now()
	if w.Now != nil {
		now = w.Now()
	}
	month := now.In(a.Location).Format("2006-01")
	price := a.StorageOptions().Price
	sent := 0
	var errs []error
	for lab, budget := range a.Cfg.Storage.Budgets {
		ev, err := a.Store.StorageEvents(ctx, lab)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		mtd, err := billing.MonthToDate(ev, now, a.Location, price)
		if err != nil {
			errs = append(errs, fmt.Errorf("lab %s: %w", lab, err))
			continue
		}
		var claimed []string
		top := 0
		for _, p := range billing.BudgetCrossed(mtd, budget) {
			key := fmt.Sprintf("budget:%s:%s:%d", lab, month, p)
			ok, err := a.Store.ClaimAlert(ctx, key, 40*24*time.Hour)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if ok {
				claimed = append(claimed, key)
				top = p
			}
		}
		if top == 0 {
			continue
		}
		r := chat.Reply{
			Title: fmt.Sprintf("💰 存储预算提醒：%s 月已用 %.0f%%（%.2f / %.0f 元）", month, mtd/budget*100, mtd, budget),
			Lines: []string{fmt.Sprintf("本月存储花费已达到预算的 %d%%。问“本周存储花费”看明细和闲置盘。", top),
				fmt.Sprintf("Storage spend this month has reached %d%% of the budget (%.2f of %.0f CNY).", top, mtd, budget)},
			Notes: []string{"按存储账本和目录数据盘价估算，不是平台账单。/ Estimated from the storage ledger at catalog prices, not the platforms' bills."},
		}
		var failed error
		labSent := 0
		for _, ck := range a.labChats(lab) {
			if err := w.Send(ctx, ck, r); err != nil {
				failed = errors.Join(failed, fmt.Errorf("budget notice to %s: %w", ck, err))
				continue
			}
			labSent++
		}
		sent += labSent
		if failed != nil && labSent == 0 {
			// Nobody heard it: let the next run try again. (When some
			// chats got it, a retry would repeat it there.)
			for _, k := range claimed {
				_ = a.Store.ReleaseAlert(context.WithoutCancel(ctx), k)
			}
			errs = append(errs, failed)
		}
	}
	return sent, errors.Join(errs...)
}

// labChats are the chat keys of a lab: its storage.labs entry, or the lab
// itself when it is a chat key.
func (a *App) labChats(lab string) []string {
	if chats, ok := a.Cfg.Storage.Labs[lab]; ok {
		return chats
	}
	if strings.Contains(lab, "/") {
		return []string{lab}
	}
	return nil
}

// commandLineChannels are the channels a one-shot command can send
// through for the given chat keys: the configured webhooks, and the
// Feishu app when a key needs it. WeChat needs bot serve's login. The
// returned close releases them.
func (a *App) commandLineChannels(ctx context.Context, chatKeys []string) (chat.Channels, func(), error) {
	chans := chat.Channels{}
	hooks, err := a.webhooks()
	if err != nil {
		return nil, nil, err
	}
	chans.Add(hooks)
	closeAll := func() {}
	for _, ck := range chatKeys {
		switch name, _, _ := strings.Cut(ck, "/"); name {
		case "feishu":
			if chans["feishu"] != nil {
				continue
			}
			fc := a.Cfg.Feishu
			if fc.AppID == "" {
				return nil, nil, fmt.Errorf("%s: the Feishu app is not configured (FEISHU_APP_ID)", ck)
			}
			bot, err := feishu.New(ctx, feishu.Options{AppID: fc.AppID, AppSecret: fc.AppSecret, VerificationToken: fc.VerificationToken,
				EncryptKey: fc.EncryptKey, AllowNoEncryptKey: true, BaseURL: fc.BaseURL, Mode: fc.Mode, Handler: a.Router, Log: a.Log})
			if err != nil {
				return nil, nil, err
			}
			chans.Add(bot)
			closeAll = func() { bot.Close() }
		case "wechat":
			return nil, nil, fmt.Errorf("%s: WeChat cannot be reached from the command line (it needs bot serve's login)", ck)
		}
	}
	return chans, closeAll, nil
}

// SendDigest posts lab's digest for week ("" = this week so far) to the
// lab's chats now (`bot digest --send`), through the configured webhooks
// and the Feishu app; WeChat needs `bot serve`'s login and is refused. A
// chat that already got that week's digest (from the Monday job or an
// earlier --send) is skipped.
// It returns the chats served.
func (a *App) SendDigest(ctx context.Context, lab, week string) ([]string, error) {
	chats := a.labChats(lab)
	if len(chats) == 0 {
		return nil, fmt.Errorf("lab %q has no chats: name a chat key (feishu/oc_…, webhook/<name>) or list its chats in storage.labs", lab)
	}
	d, err := a.BuildDigest(ctx, lab, week)
	if err != nil {
		return nil, err
	}
	r := commands.RenderDigest(d, false, a.platformName)
	chans, closeAll, err := a.commandLineChannels(ctx, chats)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	var sent []string
	for _, ck := range chats {
		// The same claim as the Monday job: a chat never gets a week twice.
		key := "digest:" + ck + ":" + d.Week
		if ok, err := a.Store.ClaimAlert(ctx, key, digestClaimTTL); err != nil {
			return sent, err
		} else if !ok {
			a.Log.Warn("digest already sent to this chat for this week; not sent again", "chat", ck, "week", d.Week)
			continue
		}
		if err := chans.Send(ctx, ck, r, chat.SendOptions{IdempotencyKey: key}); err != nil {
			_ = a.Store.ReleaseAlert(context.WithoutCancel(ctx), key)
			return sent, fmt.Errorf("%s: %w", ck, err)
		}
		sent = append(sent, ck)
	}
	return sent, nil
}
