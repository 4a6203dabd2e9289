package stock

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Subscription is a member's standing request: "tell me when a 4090 under
// 2.5 元 is free". Alerts go to the chat it was made in and @mention the
// owner.
type Subscription struct {
	// ID is unique per store ("s-<random>").
	ID string `json:"id"`
	// Channel ("console", "feishu", "wechat") and ChatID (Feishu chat_id)
	// say where alerts go.
	Channel string `json:"channel"`
	ChatID  string `json:"chat_id"`
	// OwnerID (Feishu open_id) and OwnerName identify who asked; only the
	// owner sees and cancels it.
	OwnerID   string `json:"owner_id"`
	OwnerName string `json:"owner_name,omitempty"`
	// GPUs are catalog GPU ids; a family ("A100") is stored expanded.
	GPUs []string `json:"gpus"`
	// Platforms limits the platforms (catalog ids); empty means any.
	// ExcludePlatforms are ruled out ("4090有货了提醒我 不要autodl").
	Platforms        []string `json:"platforms,omitempty"`
	ExcludePlatforms []string `json:"exclude_platforms,omitempty"`
	// MaxPriceCNY is the price ceiling per GPU-hour; 0 means any price.
	MaxPriceCNY float64 `json:"max_price_cny,omitempty"`
	// MinFree is the fewest free GPUs in one offer (default 1).
	MinFree int `json:"min_free,omitempty"`
	// Region is matched as a case-insensitive substring of the offer's
	// region ("西北", "quebec"); empty means any.
	Region string `json:"region,omitempty"`
	// English is the language the owner asked in; alerts use it.
	English   bool      `json:"english,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// AlertClaimKey is the claim of a subscription's alert number seq
// (NotifyRecord.Seq): the Alerter claims it before sending, so an alert
// goes out once across replicas; the subscribe command claims alert 1
// when its answer already says the stock is there.
func AlertClaimKey(subID string, seq int) string { return fmt.Sprintf("alert:%s:%d", subID, seq) }

// MinFreeOrDefault is MinFree, at least 1.
func (s Subscription) MinFreeOrDefault() int {
	if s.MinFree < 1 {
		return 1
	}
	return s.MinFree
}

// ChatKey identifies the conversation: channel and chat id.
func (s Subscription) ChatKey() string { return s.Channel + "/" + s.ChatID }

// Wants reports whether the offer is for one of the subscription's GPUs on
// one of its platforms and regions, regardless of stock and price.
func (s Subscription) Wants(o Offer) bool {
	if !containsString(s.GPUs, o.GPU) {
		return false
	}
	if len(s.Platforms) > 0 && !containsString(s.Platforms, o.Platform) || containsString(s.ExcludePlatforms, o.Platform) {
		return false
	}
	if s.Region != "" && !strings.Contains(strings.ToLower(o.Region), strings.ToLower(s.Region)) {
		return false
	}
	return true
}

// Satisfied reports whether a wanted offer meets the conditions now: known
// to be in stock with at least MinFree GPUs, and, with a ceiling, priced at
// or under it. An offer without a price never satisfies a ceiling.
func (s Subscription) Satisfied(o Offer) bool {
	if !s.Wants(o) || o.Stale || o.Free == nil || *o.Free < s.MinFreeOrDefault() {
		return false
	}
	if s.MaxPriceCNY > 0 && (!o.HasPrice() || o.CNYPerGPUHour > s.MaxPriceCNY+1e-9) {
		return false
	}
	return true
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// NotifyRecord is the notification log entry of one subscription: what was
// last observed (for debounce) and what was last sent (for edge triggering
// and cooldown). It survives restarts in the store, so a restart never
// re-sends an alert already sent.
type NotifyRecord struct {
	SubscriptionID string `json:"subscription_id"`
	// Observed is the last known (not unknown) state and Streak how many
	// polls in a row it has held.
	Observed Available `json:"observed"`
	Streak   int       `json:"streak"`
	// Active is true after an "available" alert until a sold-out state
	// holds for the debounce window.
	Active bool `json:"active"`
	// NotifiedAt and NotifiedPrice are the last alert's time and best
	// price (CNY per GPU-hour, 0 when the offer had none); Seq counts
	// alerts and makes each one's idempotency key.
	NotifiedAt    time.Time `json:"notified_at"`
	NotifiedPrice float64   `json:"notified_price"`
	Seq           int       `json:"seq"`
}

// Announced is the record of a subscription whose reply told its chat
// the card is in stock now ("订阅好了；现在 AutoDL 有货 …"): active, as
// if alert 1 had said it (its claim is taken by the reply), so that the
// first poll does not repeat it; but no alert went out, so no cooldown
// runs from it (NotifiedAt stays zero). A sell-out and return soon after
// the reply is then alerted at once: a cooldown started by the reply
// held that alert, and the card could be gone again before it ended.
func Announced(subscriptionID string, price float64) NotifyRecord {
	return NotifyRecord{SubscriptionID: subscriptionID, Observed: InStock, Streak: 1, Active: true, NotifiedPrice: price, Seq: 1}
}

// SubscriptionStore keeps subscriptions. Implemented by the embedded and
// Redis stores.
type SubscriptionStore interface {
	// AddSubscription stores s (its ID set by the caller).
	AddSubscription(ctx context.Context, s Subscription) error
	// RemoveSubscription deletes by id; removing a missing id is no error.
	RemoveSubscription(ctx context.Context, id string) error
	// Subscriptions lists every subscription.
	Subscriptions(ctx context.Context) ([]Subscription, error)
}

// AlertStore keeps the notification log, chat mutes and the claims that
// make each alert go out once across replicas.
type AlertStore interface {
	// NotifyRecords returns the records of the given subscriptions; a
	// subscription without one is absent from the map.
	NotifyRecords(ctx context.Context, ids []string) (map[string]NotifyRecord, error)
	// PutNotifyRecords stores records (replacing those with the same id).
	PutNotifyRecords(ctx context.Context, recs []NotifyRecord) error
	// DeleteNotifyRecord removes a subscription's record.
	DeleteNotifyRecord(ctx context.Context, id string) error
	// ClaimAlert returns true for the first caller with this key within
	// ttl, false for every later one (SET NX).
	ClaimAlert(ctx context.Context, key string, ttl time.Duration) (bool, error)
	// ReleaseAlert frees a claim whose send failed.
	ReleaseAlert(ctx context.Context, key string) error
	// SetMute mutes a chat (ChatKey) until the given time; a zero time
	// unmutes. MutedUntil returns the zero time when not muted.
	SetMute(ctx context.Context, chatKey string, until time.Time) error
	MutedUntil(ctx context.Context, chatKey string) (time.Time, error)
}

// Locker grants a named lock with an expiry to one holder at a time, so
// that with several replicas exactly one polls.
type Locker interface {
	// TryLock takes the lock for ttl if it is free or already held by
	// owner (which renews it), and reports whether owner holds it now.
	TryLock(ctx context.Context, name, owner string, ttl time.Duration) (bool, error)
	// Unlock releases the lock if owner holds it.
	Unlock(ctx context.Context, name, owner string) error
}
