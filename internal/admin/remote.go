package admin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/stock"
)

// The store methods of Client: each is the running bot's store method,
// run in the bot (see methods). Their documentation is the stores'.

func (c *Client) SaveProviderSnapshot(ctx context.Context, ps stock.ProviderSnapshot) error {
	return c.do(ctx, "SaveProviderSnapshot", nil, ps)
}

func (c *Client) LoadProviderSnapshots(ctx context.Context) (out []stock.ProviderSnapshot, err error) {
	err = c.do(ctx, "LoadProviderSnapshots", &out)
	return out, err
}

func (c *Client) AddSubscription(ctx context.Context, sub stock.Subscription) error {
	return c.do(ctx, "AddSubscription", nil, sub)
}

func (c *Client) RemoveSubscription(ctx context.Context, id string) error {
	return c.do(ctx, "RemoveSubscription", nil, id)
}

func (c *Client) Subscriptions(ctx context.Context) (out []stock.Subscription, err error) {
	err = c.do(ctx, "Subscriptions", &out)
	return out, err
}

func (c *Client) NotifyRecords(ctx context.Context, ids []string) (map[string]stock.NotifyRecord, error) {
	out := map[string]stock.NotifyRecord{}
	err := c.do(ctx, "NotifyRecords", &out, ids)
	return out, err
}

func (c *Client) PutNotifyRecords(ctx context.Context, recs []stock.NotifyRecord) error {
	return c.do(ctx, "PutNotifyRecords", nil, recs)
}

func (c *Client) DeleteNotifyRecord(ctx context.Context, id string) error {
	return c.do(ctx, "DeleteNotifyRecord", nil, id)
}

func (c *Client) ClaimAlert(ctx context.Context, key string, ttl time.Duration) (ok bool, err error) {
	err = c.do(ctx, "ClaimAlert", &ok, key, ttl)
	return ok, err
}

func (c *Client) ReleaseAlert(ctx context.Context, key string) error {
	return c.do(ctx, "ReleaseAlert", nil, key)
}

func (c *Client) SetMute(ctx context.Context, chatKey string, until time.Time) error {
	return c.do(ctx, "SetMute", nil, chatKey, until)
}

func (c *Client) MutedUntil(ctx context.Context, chatKey string) (until time.Time, err error) {
	err = c.do(ctx, "MutedUntil", &until, chatKey)
	return until, err
}

func (c *Client) TryLock(ctx context.Context, name, owner string, ttl time.Duration) (ok bool, err error) {
	err = c.do(ctx, "TryLock", &ok, name, owner, ttl)
	return ok, err
}

func (c *Client) Unlock(ctx context.Context, name, owner string) error {
	return c.do(ctx, "Unlock", nil, name, owner)
}

func (c *Client) AppendStorageEvents(ctx context.Context, events []ledger.StorageEvent) error {
	return c.do(ctx, "AppendStorageEvents", nil, events)
}

func (c *Client) StorageEvents(ctx context.Context, lab string) (out []ledger.StorageEvent, err error) {
	err = c.do(ctx, "StorageEvents", &out, lab)
	return out, err
}

func (c *Client) SetDigestChat(ctx context.Context, chatKey string, on bool) error {
	return c.do(ctx, "SetDigestChat", nil, chatKey, on)
}

func (c *Client) AddStorageDisk(ctx context.Context, e ledger.StorageEvent) (id string, err error) {
	err = c.do(ctx, "AddStorageDisk", &id, e)
	return id, err
}

func (c *Client) AppendStorageEventsIf(ctx context.Context, lab string, have int, events []ledger.StorageEvent) error {
	return c.do(ctx, "AppendStorageEventsIf", nil, lab, have, events)
}

func (c *Client) DigestChats(ctx context.Context) (out []string, err error) {
	err = c.do(ctx, "DigestChats", &out)
	return out, err
}

func (c *Client) DigestMark(ctx context.Context, chatKey string) (mark string, err error) {
	err = c.do(ctx, "DigestMark", &mark, chatKey)
	return mark, err
}

func (c *Client) SwapDigestMark(ctx context.Context, chatKey, old, new string) (ok bool, err error) {
	err = c.do(ctx, "SwapDigestMark", &ok, chatKey, old, new)
	return ok, err
}

func (c *Client) Delivered(ctx context.Context, key string) (ok bool, err error) {
	err = c.do(ctx, "Delivered", &ok, key)
	return ok, err
}

func (c *Client) MarkDelivered(ctx context.Context, key string, ttl time.Duration) error {
	return c.do(ctx, "MarkDelivered", nil, key, ttl)
}

func (c *Client) PutInbox(ctx context.Context, key, owner string, data []byte, ttl time.Duration) error {
	return c.do(ctx, "PutInbox", nil, key, owner, data, ttl)
}

func (c *Client) DropInbox(ctx context.Context, key string) error {
	return c.do(ctx, "DropInbox", nil, key)
}

func (c *Client) RenewInboxLease(ctx context.Context, owner string, ttl time.Duration) error {
	return c.do(ctx, "RenewInboxLease", nil, owner, ttl)
}

func (c *Client) ClaimInbox(ctx context.Context, prefix, taker string, confirm time.Duration) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := c.do(ctx, "ClaimInbox", &out, prefix, taker, confirm)
	return out, err
}

func (c *Client) GetBlob(ctx context.Context, name string) (b []byte, err error) {
	err = c.do(ctx, "GetBlob", &b, name)
	return b, err
}

func (c *Client) PutBlob(ctx context.Context, name string, data []byte) error {
	return c.do(ctx, "PutBlob", nil, name, data)
}

func (c *Client) PutHistory(ctx context.Context, chunks map[string][]byte) error {
	return c.do(ctx, "PutHistory", nil, chunks)
}

func (c *Client) LoadHistory(ctx context.Context) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := c.do(ctx, "LoadHistory", &out)
	return out, err
}

func (c *Client) GetHistory(ctx context.Context, keys []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := c.do(ctx, "GetHistory", &out, keys)
	return out, err
}

func (c *Client) ClaimAs(ctx context.Context, key, owner string, ttl time.Duration) (ok bool, err error) {
	err = c.do(ctx, "ClaimAs", &ok, key, owner, ttl)
	return ok, err
}

func (c *Client) ReleaseAs(ctx context.Context, key, owner string) (ok bool, err error) {
	err = c.do(ctx, "ReleaseAs", &ok, key, owner)
	return ok, err
}

func (c *Client) ClaimOwner(ctx context.Context, key string) (string, bool, error) {
	var r claimOwner
	err := c.do(ctx, "ClaimOwner", &r, key)
	return r.Owner, r.Held, err
}

// conditionalTries bounds the reads and decisions again of a conditional
// write whose ground kept changing.
const conditionalTries = 20

// AddSubscriptionIf stores sub when check, given every stored
// subscription, returns nil: check runs here on the subscriptions as the
// bot read them, and the bot adds sub only if they are still those (else
// they are read and checked again), so no write comes between.
func (c *Client) AddSubscriptionIf(ctx context.Context, sub stock.Subscription, check func([]stock.Subscription) error) error {
	for range conditionalTries {
		var v versioned
		if err := c.do(ctx, "SubscriptionsVersion", &v); err != nil && v.Subs == nil {
			return err
		}
		if err := check(v.Subs); err != nil {
			return fmt.Errorf("add subscription %q: %w", sub.ID, err)
		}
		err := c.do(ctx, "AddSubscriptionIfVersion", nil, sub, v.Version)
		if !errors.Is(err, errChanged) {
			return err
		}
	}
	return fmt.Errorf("add subscription %q: the subscriptions kept changing (%d tries)", sub.ID, conditionalTries)
}

// UpdateBlob replaces the blob by f(the bytes saved now): f runs here,
// and the bot writes its output only if the blob still holds what f was
// given (else f runs again on the new bytes).
func (c *Client) UpdateBlob(ctx context.Context, name string, f func(old []byte) ([]byte, error)) error {
	for range conditionalTries {
		old, err := c.GetBlob(ctx, name)
		if err != nil {
			return err
		}
		data, err := f(old)
		if err != nil {
			return fmt.Errorf("update blob %q: %w", name, err)
		}
		err = c.do(ctx, "SwapBlob", nil, name, old, data)
		if !errors.Is(err, errChanged) {
			return err
		}
	}
	return fmt.Errorf("update blob %q: it kept changing (%d tries)", name, conditionalTries)
}

func (c *Client) PutFrame(ctx context.Context, key string, data []byte, ttl time.Duration) error {
	return c.do(ctx, "PutFrame", nil, key, data, ttl)
}

func (c *Client) Frame(ctx context.Context, key string) (out []byte, err error) {
	err = c.do(ctx, "Frame", &out, key)
	return out, err
}

func (c *Client) TakeFrame(ctx context.Context, key string) (out []byte, err error) {
	err = c.do(ctx, "TakeFrame", &out, key)
	return out, err
}

func (c *Client) PushFrame(ctx context.Context, key string, data []byte, keep int, ttl time.Duration) error {
	return c.do(ctx, "PushFrame", nil, key, data, keep, ttl)
}

func (c *Client) Frames(ctx context.Context, key string) (out [][]byte, err error) {
	err = c.do(ctx, "Frames", &out, key)
	return out, err
}
