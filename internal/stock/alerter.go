package stock

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"
)

// AlertItem is one subscription's news in an alert.
type AlertItem struct {
	Subscription Subscription
	Reason       Reason
	// Offers are the satisfying offers, cheapest first (none for sold out).
	Offers []Offer
}

// Alert is everything one poll has to tell one chat: all its items go out
// as one message.
type Alert struct {
	Channel string
	ChatID  string
	// English is true when every subscription in it was made in English.
	English bool
	Items   []AlertItem
	// At is the poll time.
	At time.Time
	// Key identifies the alert's content across retries (its items' claim
	// keys): a channel uses it as the send's idempotency key, so a retry
	// of a send that did arrive is not posted twice.
	Key string
}

// Notifier delivers alerts to a chat (console, Feishu, WeChat).
type Notifier interface {
	// Notify sends one alert; an error means it was not delivered and the
	// items will be decided again at the next poll.
	Notify(ctx context.Context, a Alert) error
}

// NotifierFunc adapts a function to Notifier.
type NotifierFunc func(ctx context.Context, a Alert) error

// Notify calls f.
func (f NotifierFunc) Notify(ctx context.Context, a Alert) error { return f(ctx, a) }

// QuietHours reports whether a chat (ChatKey) is in its quiet hours at t.
type QuietHours func(chatKey string, t time.Time) bool

// Alerter turns snapshots into alerts for the stored subscriptions.
type Alerter struct {
	Subs     SubscriptionStore
	Log      AlertStore
	Notifier Notifier
	Policy   Policy
	Quiet    QuietHours
	Logger   *slog.Logger
	// ClaimTTL bounds how long an alert key blocks a duplicate send
	// (default 24 h).
	ClaimTTL time.Duration
}

// ProcessResult counts what one Process call did.
type ProcessResult struct {
	Subscriptions int `json:"subscriptions"`
	Alerts        int `json:"alerts"` // messages sent
	Items         int `json:"items"`  // subscription items in them
	Held          int `json:"held"`   // muted, quiet hours, claimed elsewhere, or failed
}

// Process decides every subscription against the snapshot at time now,
// sends one merged alert per chat, and stores the new notification
// records. An item is recorded as notified only after its message was
// sent; each item is claimed first (SET NX) so that two replicas never
// both send it.
func (a *Alerter) Process(ctx context.Context, snap Snapshot, now time.Time) (ProcessResult, error) {
	var res ProcessResult
	subs, err := a.Subs.Subscriptions(ctx)
	if err != nil {
		if len(subs) == 0 {
			return res, fmt.Errorf("alerts: list subscriptions: %w", err)
		}
		// Some entries did not decode: go on with the others.
		a.logger().Warn("alerts: some subscriptions unreadable", "err", err)
	}
	res.Subscriptions = len(subs)
	if len(subs) == 0 {
		return res, nil
	}
	ids := make([]string, len(subs))
	for i, s := range subs {
		ids[i] = s.ID
	}
	recs, err := a.Log.NotifyRecords(ctx, ids)
	if err != nil {
		if recs == nil {
			return res, fmt.Errorf("alerts: read notification log: %w", err)
		}
		// A record that does not decode is skipped, not its whole log;
		// its subscription starts afresh.
		a.logger().Warn("alerts: some notification records unreadable", "err", err)
	}
	ix := NewIndex(snap)
	type pending struct {
		item AlertItem
		prev NotifyRecord
		next NotifyRecord
	}
	byChat := map[string][]pending{}
	var updates []NotifyRecord
	for _, s := range subs {
		prev := recs[s.ID]
		prev.SubscriptionID = s.ID
		o := ix.Observe(s)
		d, next := Decide(prev, o, now, a.Policy)
		if d.Notify {
			byChat[s.ChatKey()] = append(byChat[s.ChatKey()], pending{item: AlertItem{Subscription: s, Reason: d.Reason, Offers: o.List()}, prev: prev, next: next})
			continue
		}
		if next != prev {
			updates = append(updates, next)
		}
	}
	chats := make([]string, 0, len(byChat))
	for k := range byChat {
		chats = append(chats, k)
	}
	sort.Strings(chats)
	ttl := a.ClaimTTL
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	if ttl < a.Policy.Cooldown {
		ttl = a.Policy.Cooldown
	}
	for _, chat := range chats {
		items := byChat[chat]
		// Held items keep their observation but not the notification, so
		// they are decided again at the next poll.
		hold := func(p pending) {
			r := p.next
			r.Active, r.NotifiedAt, r.NotifiedPrice, r.Seq = p.prev.Active, p.prev.NotifiedAt, p.prev.NotifiedPrice, p.prev.Seq
			updates = append(updates, r)
			res.Held++
		}
		if a.muted(ctx, chat, now) {
			for _, p := range items {
				hold(p)
			}
			continue
		}
		alert := Alert{Channel: items[0].item.Subscription.Channel, ChatID: items[0].item.Subscription.ChatID, English: true, At: now}
		var sent []pending
		var keys []string
		for _, p := range items {
			// One key per subscription and alert number: a second
			// replica, or a retry after a failed log write, finds it
			// taken. A failed send releases it.
			key := fmt.Sprintf("alert:%s:%d", p.item.Subscription.ID, p.next.Seq)
			ok, err := a.Log.ClaimAlert(ctx, key, ttl)
			if err != nil {
				a.logger().Warn("alerts: claim failed", "subscription", p.item.Subscription.ID, "err", err)
				hold(p)
				continue
			}
			if !ok {
				// Another replica sends it and records it.
				res.Held++
				continue
			}
			alert.Items = append(alert.Items, p.item)
			alert.English = alert.English && p.item.Subscription.English
			sent = append(sent, p)
			keys = append(keys, key)
		}
		if len(alert.Items) == 0 {
			continue
		}
		alert.Key = strings.Join(keys, ",")
		if err := a.Notifier.Notify(ctx, alert); err != nil {
			a.logger().Warn("alerts: send failed; will retry at the next poll", "chat", chat, "items", len(alert.Items), "err", err)
			for i, p := range sent {
				hold(p)
				if err := a.Log.ReleaseAlert(ctx, keys[i]); err != nil {
					a.logger().Warn("alerts: release claim", "key", keys[i], "err", err)
				}
			}
			continue
		}
		res.Alerts++
		res.Items += len(sent)
		// Record what went out right away, chat by chat.
		var done []NotifyRecord
		for _, p := range sent {
			done = append(done, p.next)
		}
		if err := a.Log.PutNotifyRecords(ctx, done); err != nil {
			a.logger().Error("alerts: sent but not recorded; the claims stop a repeat", "chat", chat, "err", err)
		}
	}
	if len(updates) > 0 {
		if err := a.Log.PutNotifyRecords(ctx, updates); err != nil {
			return res, fmt.Errorf("alerts: write notification log: %w", err)
		}
	}
	return res, nil
}

func (a *Alerter) muted(ctx context.Context, chat string, now time.Time) bool {
	if a.Quiet != nil && a.Quiet(chat, now) {
		return true
	}
	until, err := a.Log.MutedUntil(ctx, chat)
	if err != nil {
		a.logger().Warn("alerts: read mute", "chat", chat, "err", err)
		return false
	}
	return now.Before(until)
}

func (a *Alerter) logger() *slog.Logger {
	if a.Logger != nil {
		return a.Logger
	}
	return slog.Default()
}
