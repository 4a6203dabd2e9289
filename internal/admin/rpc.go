package admin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/stock"
)

// Store is what the listener forwards: the store every bot has (the
// methods of app.Store). A store that also keeps blobs, the availability
// history or owned claims (both stores do) serves those too.
type Store interface {
	stock.SnapshotStore
	stock.SubscriptionStore
	stock.AlertStore
	stock.Locker
	AppendStorageEvents(ctx context.Context, events []ledger.StorageEvent) error
	StorageEvents(ctx context.Context, lab string) ([]ledger.StorageEvent, error)
	SetDigestChat(ctx context.Context, chatKey string, on bool) error
	AddStorageDisk(ctx context.Context, e ledger.StorageEvent) (string, error)
	AppendStorageEventsIf(ctx context.Context, lab string, have int, events []ledger.StorageEvent) error
	DigestChats(ctx context.Context) ([]string, error)
	DigestMark(ctx context.Context, chatKey string) (string, error)
	SwapDigestMark(ctx context.Context, chatKey, old, new string) (bool, error)
	Delivered(ctx context.Context, key string) (bool, error)
	MarkDelivered(ctx context.Context, key string, ttl time.Duration) error
	PutInbox(ctx context.Context, key, owner string, data []byte, ttl time.Duration) error
	DropInbox(ctx context.Context, key string) error
	RenewInboxLease(ctx context.Context, owner string, ttl time.Duration) error
	ClaimInbox(ctx context.Context, prefix, taker string, confirm time.Duration) (map[string][]byte, error)
}

// The optional parts a store may serve.
type (
	blobs interface {
		GetBlob(ctx context.Context, name string) ([]byte, error)
		PutBlob(ctx context.Context, name string, data []byte) error
		UpdateBlob(ctx context.Context, name string, f func(old []byte) ([]byte, error)) error
	}
	history interface {
		PutHistory(ctx context.Context, chunks map[string][]byte) error
		LoadHistory(ctx context.Context) (map[string][]byte, error)
		GetHistory(ctx context.Context, keys []string) (map[string][]byte, error)
	}
	ownedClaims interface {
		ClaimAs(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
		ClaimOwner(ctx context.Context, key string) (owner string, held bool, err error)
		ReleaseAs(ctx context.Context, key, owner string) (bool, error)
	}
	frames interface {
		PutFrame(ctx context.Context, key string, data []byte, ttl time.Duration) error
		Frame(ctx context.Context, key string) ([]byte, error)
		TakeFrame(ctx context.Context, key string) ([]byte, error)
		PushFrame(ctx context.Context, key string, data []byte, keep int, ttl time.Duration) error
		Frames(ctx context.Context, key string) ([][]byte, error)
	}
	conditionalAdd interface {
		AddSubscriptionIf(ctx context.Context, sub stock.Subscription, check func([]stock.Subscription) error) error
	}
)

// call is one request: the store and the raw arguments.
type call struct {
	ctx  context.Context
	s    any
	args []json.RawMessage
}

// handler runs one method; it returns the result, the method's error, and
// whether the request itself was bad (bad: the arguments did not decode).
type handler func(c *call) (result any, err error, bad error)

// arg decodes argument i as a T.
func arg[T any](c *call, i int) (T, error) {
	var v T
	if i >= len(c.args) {
		return v, fmt.Errorf("argument %d missing", i+1)
	}
	if err := json.Unmarshal(c.args[i], &v); err != nil {
		return v, fmt.Errorf("argument %d: %w", i+1, err)
	}
	return v, nil
}

// errUnsupported is a method the bot's store does not have.
var errUnsupported = errors.New("the running bot's store does not do this")

// as is c's store as an S.
func as[S any](c *call) (S, error) {
	s, ok := c.s.(S)
	if !ok {
		return s, errUnsupported
	}
	return s, nil
}

// m0 … m3 adapt a method (as a method expression, receiver first) with
// no to three arguments and a result; e1 … e3 one with only an error.
func m0[S, R any](f func(S, context.Context) (R, error)) handler {
	return func(c *call) (any, error, error) {
		s, err := as[S](c)
		if err != nil {
			return nil, err, nil
		}
		r, err := f(s, c.ctx)
		return r, err, nil
	}
}

func m1[S, A, R any](f func(S, context.Context, A) (R, error)) handler {
	return func(c *call) (any, error, error) {
		s, err := as[S](c)
		if err != nil {
			return nil, err, nil
		}
		a, bad := arg[A](c, 0)
		if bad != nil {
			return nil, nil, bad
		}
		r, err := f(s, c.ctx, a)
		return r, err, nil
	}
}

func m2[S, A, B, R any](f func(S, context.Context, A, B) (R, error)) handler {
	return func(c *call) (any, error, error) {
		s, err := as[S](c)
		if err != nil {
			return nil, err, nil
		}
		a, bad := arg[A](c, 0)
		b, bad2 := arg[B](c, 1)
		if bad = errors.Join(bad, bad2); bad != nil {
			return nil, nil, bad
		}
		r, err := f(s, c.ctx, a, b)
		return r, err, nil
	}
}

func m3[S, A, B, C, R any](f func(S, context.Context, A, B, C) (R, error)) handler {
	return func(c *call) (any, error, error) {
		s, err := as[S](c)
		if err != nil {
			return nil, err, nil
		}
		a, bad := arg[A](c, 0)
		b, bad2 := arg[B](c, 1)
		x, bad3 := arg[C](c, 2)
		if bad = errors.Join(bad, bad2, bad3); bad != nil {
			return nil, nil, bad
		}
		r, err := f(s, c.ctx, a, b, x)
		return r, err, nil
	}
}

func e4[S, A, B, C, D any](f func(S, context.Context, A, B, C, D) error) handler {
	return func(c *call) (any, error, error) {
		s, err := as[S](c)
		if err != nil {
			return nil, err, nil
		}
		a, bad := arg[A](c, 0)
		b, bad2 := arg[B](c, 1)
		x, bad3 := arg[C](c, 2)
		y, bad4 := arg[D](c, 3)
		if bad = errors.Join(bad, bad2, bad3, bad4); bad != nil {
			return nil, nil, bad
		}
		return none{}, f(s, c.ctx, a, b, x, y), nil
	}
}

// none is the result of a method that returns only an error.
type none struct{}

func e1[S, A any](f func(S, context.Context, A) error) handler {
	return m1(func(s S, ctx context.Context, a A) (none, error) { return none{}, f(s, ctx, a) })
}

func e2[S, A, B any](f func(S, context.Context, A, B) error) handler {
	return m2(func(s S, ctx context.Context, a A, b B) (none, error) { return none{}, f(s, ctx, a, b) })
}

func e3[S, A, B, C any](f func(S, context.Context, A, B, C) error) handler {
	return m3(func(s S, ctx context.Context, a A, b B, x C) (none, error) { return none{}, f(s, ctx, a, b, x) })
}

// claimOwner is ClaimOwner's result.
type claimOwner struct {
	Owner string `json:"owner"`
	Held  bool   `json:"held"`
}

// versioned is SubscriptionsVersion's result: the subscriptions and a
// hash of them as the store decodes them.
type versioned struct {
	Subs    []stock.Subscription `json:"subs"`
	Version string               `json:"version"`
}

// errChanged is a conditional write refused because what it was decided
// on changed (the client reads and decides again).
var errChanged = errors.New("changed meanwhile")

// subsVersion hashes subscriptions as decoded.
func subsVersion(subs []stock.Subscription) string {
	b, _ := json.Marshal(subs)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// methods are the store methods the listener serves, by name. The
// conditional writes whose check is a function (AddSubscriptionIf,
// UpdateBlob) run as the client reading, deciding, then writing only if
// nothing changed (SubscriptionsVersion and AddSubscriptionIfVersion,
// SwapBlob), so they stay one step of the store.
var methods = map[string]handler{
	"SaveProviderSnapshot":  e1(Store.SaveProviderSnapshot),
	"LoadProviderSnapshots": m0(Store.LoadProviderSnapshots),
	"AddSubscription":       e1(Store.AddSubscription),
	"RemoveSubscription":    e1(Store.RemoveSubscription),
	"Subscriptions":         m0(Store.Subscriptions),
	"NotifyRecords":         m1(Store.NotifyRecords),
	"PutNotifyRecords":      e1(Store.PutNotifyRecords),
	"DeleteNotifyRecord":    e1(Store.DeleteNotifyRecord),
	"ClaimAlert":            m2(Store.ClaimAlert),
	"ReleaseAlert":          e1(Store.ReleaseAlert),
	"SetMute":               e2(Store.SetMute),
	"MutedUntil":            m1(Store.MutedUntil),
	"TryLock":               m3(Store.TryLock),
	"Unlock":                e2(Store.Unlock),
	"AppendStorageEvents":   e1(Store.AppendStorageEvents),
	"StorageEvents":         m1(Store.StorageEvents),
	"SetDigestChat":         e2(Store.SetDigestChat),
	"AddStorageDisk":        m1(Store.AddStorageDisk),
	"AppendStorageEventsIf": e3(Store.AppendStorageEventsIf),
	"DigestChats":           m0(Store.DigestChats),
	"DigestMark":            m1(Store.DigestMark),
	"SwapDigestMark":        m3(Store.SwapDigestMark),
	"Delivered":             m1(Store.Delivered),
	"MarkDelivered":         e2(Store.MarkDelivered),
	"PutInbox":              e4(Store.PutInbox),
	"DropInbox":             e1(Store.DropInbox),
	"RenewInboxLease":       e2(Store.RenewInboxLease),
	"ClaimInbox":            m3(Store.ClaimInbox),
	"PutFrame":              e3(frames.PutFrame),
	"Frame":                 m1(frames.Frame),
	"TakeFrame":             m1(frames.TakeFrame),
	"PushFrame":             e4(frames.PushFrame),
	"Frames":                m1(frames.Frames),
	"GetBlob":               m1(blobs.GetBlob),
	"PutBlob":               e2(blobs.PutBlob),
	"PutHistory":            e1(history.PutHistory),
	"LoadHistory":           m0(history.LoadHistory),
	"GetHistory":            m1(history.GetHistory),
	"ClaimAs":               m3(ownedClaims.ClaimAs),
	"ReleaseAs":             m2(ownedClaims.ReleaseAs),
	"ClaimOwner": m1(func(s ownedClaims, ctx context.Context, key string) (claimOwner, error) {
		o, held, err := s.ClaimOwner(ctx, key)
		return claimOwner{o, held}, err
	}),
	"SubscriptionsVersion": m0(func(s Store, ctx context.Context) (versioned, error) {
		subs, err := s.Subscriptions(ctx)
		return versioned{subs, subsVersion(subs)}, err
	}),
	"AddSubscriptionIfVersion": e2(func(s conditionalAdd, ctx context.Context, sub stock.Subscription, version string) error {
		return s.AddSubscriptionIf(ctx, sub, func(all []stock.Subscription) error {
			if subsVersion(all) != version {
				return errChanged
			}
			return nil
		})
	}),
	"SwapBlob": e3(func(s blobs, ctx context.Context, name string, old, new []byte) error {
		return s.UpdateBlob(ctx, name, func(cur []byte) ([]byte, error) {
			if string(cur) != string(old) {
				return nil, errChanged
			}
			return new, nil
		})
	}),
}

// Error codes the client turns back into the errors callers test for.
const (
	codeLedgerChanged = "ledger_changed"
	codeChanged       = "changed"
	codeUnsupported   = "unsupported"
	codeBadRequest    = "bad_request"
)

// codeOf is err's code ("" for any other error).
func codeOf(err error) string {
	switch {
	case errors.Is(err, ledger.ErrLedgerChanged):
		return codeLedgerChanged
	case errors.Is(err, errChanged):
		return codeChanged
	case errors.Is(err, errUnsupported):
		return codeUnsupported
	}
	return ""
}
