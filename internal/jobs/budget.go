package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
)

// StorageEvents reads a lab's storage ledger.
type StorageEvents interface {
	StorageEvents(ctx context.Context, lab string) ([]ledger.StorageEvent, error)
}

// Budget tells a lab's chats when its month-to-date storage spend reaches
// 50%, 80% and 100% of its budget, each threshold once per month across
// replicas (claims budget:<lab>:<month>:<percent>). When several
// thresholds are reached at once, one message names the highest, sent
// under that threshold's claim key as its idempotency key: when a chat did
// not get it the claims are given back and the next run sends it there,
// skipping the chats that did.
type Budget struct {
	Events StorageEvents
	Claims Claimer
	// Budgets are CNY per month by lab (config storage.budgets).
	Budgets map[string]float64
	Price   ledger.StoragePrice
	// Chats are a lab's chat keys.
	Chats    func(lab string) []string
	Send     SendFunc
	Location *time.Location
	Now      func() time.Time
	Log      *slog.Logger
}

// budgetClaimTTL keeps a month's claims past the month.
const budgetClaimTTL = 40 * 24 * time.Hour

// RunOnce checks every budget and returns how many messages were sent.
func (b *Budget) RunOnce(ctx context.Context) (int, error) {
	now := clock(b.Now)
	month := now.In(b.Location).Format("2006-01")
	sent := 0
	var errs []error
	for lab, budget := range b.Budgets {
		n, err := b.checkLab(ctx, lab, budget, now, month)
		sent += n
		if err != nil {
			errs = append(errs, err)
		}
	}
	return sent, errors.Join(errs...)
}

// checkLab claims the thresholds a lab crossed and tells its chats.
func (b *Budget) checkLab(ctx context.Context, lab string, budget float64, now time.Time, month string) (int, error) {
	ev, err := b.Events.StorageEvents(ctx, lab)
	if err != nil {
		return 0, err
	}
	mtd, err := ledger.MonthToDate(ev, now, b.Location, b.Price)
	if err != nil {
		return 0, fmt.Errorf("lab %s: %w", lab, err)
	}
	var claimed []string
	var errs []error
	top := 0
	for _, p := range ledger.BudgetCrossed(mtd, budget) {
		key := fmt.Sprintf("budget:%s:%s:%d", lab, month, p)
		ok, err := b.Claims.ClaimAlert(ctx, key, budgetClaimTTL)
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
		return 0, errors.Join(errs...)
	}
	r := budgetReply(month, mtd, budget, top)
	o := chat.SendOptions{IdempotencyKey: fmt.Sprintf("budget:%s:%s:%d", lab, month, top), Remember: budgetClaimTTL}
	var failed error
	sent := 0
	for _, ck := range b.Chats(lab) {
		if err := b.Send(ctx, ck, r, o); err != nil {
			failed = errors.Join(failed, fmt.Errorf("budget notice to %s: %w", ck, err))
			continue
		}
		sent++
	}
	if failed != nil {
		// Let the next run try again; the chats that got it skip it
		// (the same idempotency key).
		for _, k := range claimed {
			_ = b.Claims.ReleaseAlert(context.WithoutCancel(ctx), k)
		}
		errs = append(errs, failed)
	}
	return sent, errors.Join(errs...)
}

// budgetReply is the notice that a lab's storage spend reached top% of
// its budget, in both languages (it goes to the lab's chats).
func budgetReply(month string, mtd, budget float64, top int) chat.Reply {
	zh, en := i18n.ZH, i18n.EN
	return chat.Reply{
		Title: zh.T("jobs.budget.title", month, mtd/budget*100, mtd, budget),
		Lines: []string{zh.T("jobs.budget.reached", top), en.T("jobs.budget.reached", top)},
		Notes: []string{zh.T("jobs.budget.estimated") + " / " + en.T("jobs.budget.estimated")},
	}
}

// Run is the scheduled budget check: RunOnce, logged.
func (b *Budget) Run(ctx context.Context) {
	if n, err := b.RunOnce(ctx); err != nil {
		logger(b.Log).Error("storage budgets", "sent", n, "err", err)
	}
}
