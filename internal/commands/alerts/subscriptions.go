package alerts

import (
	"context"
	"github.com/labgpu/bot/internal/understand"
	"slices"
	"sort"
	"strconv"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/alertview"
	"github.com/labgpu/bot/internal/stock"
)

func init() {
	answer.Register(answer.Intent{Name: understand.IntentSubscriptions, Answer: subscriptionsAnswer})
	answer.Register(answer.Intent{Name: understand.IntentUnsubscribe, Answer: unsubscribeAnswer})
}

// subscriptionsAnswer answers "我的订阅": the member's subscriptions in
// this chat and the chat's mute.
func subscriptionsAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	mine, failed := Mine(ctx, a)
	if failed != nil {
		return a.Out(failed)
	}
	p := alertview.Subscriptions{Lang: i18n.Of(a.English), Subscriptions: mine, AskedMute: a.AboutMute}
	if len(mine) > 0 || a.AboutMute {
		until, err := a.Alerts.Log.MutedUntil(ctx, a.From.ChatKey())
		if err != nil {
			p.AskedMute = false // unknown: not said either way
		} else if a.Now().Before(until) {
			p.MutedUntil = until
		}
	}
	return a.Out(p)
}

// unsubscribeAnswer answers "取消订阅 4090", "unsubscribe all", "取消订阅
// 2" (its number in "我的订阅", or its id).
func unsubscribeAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	mine, failed := Mine(ctx, a)
	if failed != nil {
		return a.Out(failed)
	}
	l := i18n.Of(a.English)
	if !a.All && a.SubRef == "" && len(a.GPUs) == 0 {
		return a.Out(alertview.WhichToCancel{Lang: l})
	}
	drop := toCancel(a, mine)
	if len(drop) == 0 {
		return a.Out(alertview.Cancelled{Lang: l, Mine: mine})
	}
	for _, s := range drop {
		if err := a.Alerts.Subs.RemoveSubscription(ctx, s.ID); err != nil {
			return a.Out(answer.StoreError(a.English, err))
		}
		if err := a.Alerts.Log.DeleteNotifyRecord(ctx, s.ID); err != nil {
			return a.Out(answer.StoreError(a.English, err))
		}
	}
	return a.Out(alertview.Cancelled{Lang: l, Cancelled: drop})
}

// toCancel are the member's subscriptions a cancellation names: all of
// them, one by its number or id, or those of the GPUs (and platforms)
// named.
func toCancel(a *answer.Ask, mine []stock.Subscription) []stock.Subscription {
	var drop []stock.Subscription
	switch {
	case a.All:
		drop = mine
	case a.SubRef != "":
		if n, err := strconv.Atoi(a.SubRef); err == nil && n >= 1 && n <= len(mine) {
			drop = mine[n-1 : n]
		}
		for _, s := range mine {
			if s.ID == a.SubRef {
				drop = []stock.Subscription{s}
			}
		}
	default:
		for _, s := range mine {
			if overlaps(s.GPUs, a.GPUs) && (len(a.Platforms) == 0 || overlaps(s.Platforms, a.Platforms)) {
				drop = append(drop, s)
			}
		}
	}
	return drop
}

// Mine lists the sender's subscriptions in this chat, oldest
// first. Other members' and other chats' are never shown. When alerts
// are off or the store fails, it returns the answer that says so.
func Mine(ctx context.Context, a *answer.Ask) ([]stock.Subscription, render.Payload) {
	if Off(a) {
		return nil, alertview.Off{Lang: i18n.Of(a.English)}
	}
	all, err := a.Alerts.Subs.Subscriptions(ctx)
	if err != nil {
		return nil, answer.StoreError(a.English, err)
	}
	var mine []stock.Subscription
	for _, s := range all {
		if s.Channel == a.From.Channel && s.ChatID == a.From.ChatID && s.OwnerID == a.From.SenderID {
			mine = append(mine, s)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool { return mine[i].CreatedAt.Before(mine[j].CreatedAt) })
	return mine, nil
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}
