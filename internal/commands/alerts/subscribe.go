package alerts

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"github.com/labgpu/bot/internal/understand"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/commands/availability"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/alertview"
	"github.com/labgpu/bot/internal/stock"
)

func init() {
	answer.Register(answer.Intent{Name: understand.IntentSubscribe, Answer: subscribeAnswer})
}

// MaxSubscriptionsPerMember caps one member's subscriptions in one chat.
const MaxSubscriptionsPerMember = 20

// Off reports whether the alert intents have no stores to work on.
func Off(a *answer.Ask) bool {
	return a.Alerts == nil || a.Alerts.Subs == nil || a.Alerts.Log == nil
}

// subscribeAnswer answers "4090 有货了提醒我": the subscription, added
// once however often the message arrives, and where stock stands for it
// now.
func subscribeAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	l := i18n.Of(a.English)
	switch {
	case Off(a):
		return a.Out(alertview.Off{Lang: l})
	case len(a.GPUs) == 0:
		return a.Out(alertview.WhichGPU{Lang: l, UnknownGPU: a.UnknownGPU})
	}
	sub := stock.Subscription{ID: newID(), Channel: a.From.Channel, ChatID: a.From.ChatID, OwnerID: a.From.SenderID, OwnerName: a.From.SenderName,
		GPUs: a.GPUs, Platforms: groupPlatforms(a), ExcludePlatforms: a.ExcludePlatforms, MaxPriceCNY: a.MaxPriceCNY, MinFree: a.MinFree,
		Region: a.Region, English: a.English, CreatedAt: a.Now()}
	old, failed := replacedSub(ctx, a)
	if failed != nil {
		return a.Out(failed)
	}
	same, mine, err := addSubscription(ctx, a.Alerts.Subs, sub)
	if err == nil && old != nil {
		err = removeSub(ctx, a, *old)
	}
	switch {
	case errors.Is(err, errSubscribed):
		return a.Out(alertview.Already{Lang: l, Subscription: same})
	case errors.Is(err, errTooManySubscriptions):
		return a.Out(alertview.TooMany{Lang: l, Have: mine, Max: MaxSubscriptionsPerMember})
	case err != nil:
		return a.Out(answer.StoreError(a.English, err))
	}
	p := alertview.Subscribed{Lang: l, Subscription: sub, Problems: a.Problems, UnknownGPU: a.UnknownGPU,
		Cooldown: a.Alerts.Policy.Cooldown, Asker: a.From.SenderID, Replaced: old}
	stockNow(ctx, a, &p)
	return a.Out(p)
}

// replacedSub is the member's subscription a new one replaces (SubRef,
// set by an edit of the alert just set: "改成1块8"); nil when none is
// named or it is gone.
func replacedSub(ctx context.Context, a *answer.Ask) (*stock.Subscription, render.Payload) {
	if a.SubRef == "" {
		return nil, nil
	}
	mine, failed := Mine(ctx, a)
	for _, s := range mine {
		if s.ID == a.SubRef {
			return &s, nil
		}
	}
	return nil, failed
}

// removeSub cancels s and forgets its alerts.
func removeSub(ctx context.Context, a *answer.Ask, s stock.Subscription) error {
	if err := a.Alerts.Subs.RemoveSubscription(ctx, s.ID); err != nil {
		return err
	}
	return a.Alerts.Log.DeleteNotifyRecord(ctx, s.ID)
}

// groupPlatforms are the platforms a subscription watches: those named,
// else with a group said ("国内的", "overseas only") the catalog's
// platforms in it (nil: any).
func groupPlatforms(a *answer.Ask) []string {
	if len(a.Platforms) > 0 || a.PlatformGroup == "" {
		return a.Platforms
	}
	var out []string
	for _, p := range a.Rd.Cat.Platforms {
		if answer.InGroup(a.Rd.Cat, p.ID, a.PlatformGroup) && !slices.Contains(a.ExcludePlatforms, p.ID) {
			out = append(out, p.ID)
		}
	}
	return out
}

// stockNow finds where stock stands for a new subscription. When it is
// in stock the answer says so, as alert 1 would: it claims alert 1
// first, so a poll deciding the subscription at the same moment finds it
// sent (and records it as announced, so the first poll does not repeat
// it); when that poll claimed it first, its alert is the news.
func stockNow(ctx context.Context, a *answer.Ask, p *alertview.Subscribed) {
	sub := p.Subscription
	p.Now = a.Now()
	obs := stock.NewIndex(a.Offers.Snapshot(ctx)).Observe(sub)
	p.State = obs.State
	if obs.State != stock.InStock {
		wait := &availability.Answers{H: a.History, Now: a.Now, Loc: a.Rd.Clock.Location()}
		p.Wait = wait.SubscribeLine(sub.GPUs, sub.Platforms, a.English)
		return
	}
	claimed, err := a.Alerts.Log.ClaimAlert(ctx, stock.AlertClaimKey(sub.ID, 1), max(24*time.Hour, a.Alerts.Policy.Cooldown))
	if err == nil && !claimed {
		p.Announced = true
		return
	}
	p.Offer = obs.List()[0]
	rec := stock.Announced(sub.ID, obs.BestPrice())
	if err == nil {
		err = a.Alerts.Log.PutNotifyRecords(ctx, []stock.NotifyRecord{rec})
	}
	if err != nil {
		e := answer.StoreError(a.English, err)
		p.RecordErr = &e
	}
}

// What a subscription's check refuses (addSubscription).
var (
	errSubscribed           = errors.New("the member has this subscription already")
	errTooManySubscriptions = errors.New("the member has the most subscriptions allowed")
)

// subscriptionAdder adds a subscription only when a check of the stored
// ones passes, in one step (both stores: AddSubscriptionIf).
type subscriptionAdder interface {
	AddSubscriptionIf(ctx context.Context, sub stock.Subscription, check func([]stock.Subscription) error) error
}

// addSubscription adds sub unless its owner has one with the same
// conditions in the chat (errSubscribed, with it) or has
// MaxSubscriptionsPerMember there (errTooManySubscriptions); mine is how
// many they have. The check runs in the store's write when the store can
// (subscriptionAdder), so the same message sent twice at once, or to two
// replicas, adds one; else read, check, add.
func addSubscription(ctx context.Context, subs stock.SubscriptionStore, sub stock.Subscription) (same stock.Subscription, mine int, err error) {
	check := func(all []stock.Subscription) error {
		same, mine = stock.Subscription{}, 0
		for _, s := range all {
			if s.ChatKey() != sub.ChatKey() || s.OwnerID != sub.OwnerID {
				continue
			}
			mine++
			if sameConditions(s, sub) {
				same = s
				return errSubscribed
			}
		}
		if mine >= MaxSubscriptionsPerMember {
			return errTooManySubscriptions
		}
		return nil
	}
	if add, ok := subs.(subscriptionAdder); ok {
		return same, mine, add.AddSubscriptionIf(ctx, sub, check)
	}
	all, err := subs.Subscriptions(ctx)
	if err != nil {
		return same, mine, err
	}
	if err := check(all); err != nil {
		return same, mine, err
	}
	return same, mine, subs.AddSubscription(ctx, sub)
}

func sameConditions(a, b stock.Subscription) bool {
	return strings.Join(a.GPUs, ",") == strings.Join(b.GPUs, ",") && strings.Join(a.Platforms, ",") == strings.Join(b.Platforms, ",") &&
		strings.Join(a.ExcludePlatforms, ",") == strings.Join(b.ExcludePlatforms, ",") &&
		a.MaxPriceCNY == b.MaxPriceCNY && a.MinFreeOrDefault() == b.MinFreeOrDefault() && strings.EqualFold(a.Region, b.Region)
}

func newID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "s-" + hex.EncodeToString(b)
}
