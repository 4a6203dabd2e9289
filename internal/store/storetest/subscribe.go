package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/stock"
)

// SubscriptionAdder adds a subscription only when a check of the stored
// ones passes, with no other write in between.
type SubscriptionAdder interface {
	stock.SubscriptionStore
	AddSubscriptionIf(ctx context.Context, sub stock.Subscription, check func([]stock.Subscription) error) error
}

// errTaken is the checks' refusal in SubscribeOnce.
var errTaken = errors.New("this owner has a subscription")

// SubscribeOnce checks AddSubscriptionIf over stores (one store, or
// replicas over one server): the check sees the stored subscriptions and
// its refusal stores nothing and comes back to the caller; of writers
// that add "unless this owner has one" at once, exactly one adds.
func SubscribeOnce(t *testing.T, stores ...SubscriptionAdder) {
	t.Helper()
	ctx := context.Background()
	owner := unique(t, "ou")
	unlessOwned := func(all []stock.Subscription) error {
		for _, s := range all {
			if s.OwnerID == owner {
				return errTaken
			}
		}
		return nil
	}
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	sub := func(i int) stock.Subscription {
		return stock.Subscription{ID: unique(t, "s"), Channel: "feishu", ChatID: "oc_1", OwnerID: owner, GPUs: []string{"RTX 4090"}, CreatedAt: at.Add(time.Duration(i) * time.Second)}
	}
	const n = 12
	var mu sync.Mutex
	refused := 0
	won := Race(t, n, "add subscription", func(i int) (bool, error) {
		err := stores[i%len(stores)].AddSubscriptionIf(ctx, sub(i), unlessOwned)
		if errors.Is(err, errTaken) {
			mu.Lock()
			refused++
			mu.Unlock()
			return false, nil
		}
		return err == nil, err
	})
	if won != 1 || refused != n-1 {
		t.Errorf("%d of %d adds went through and %d were refused; want 1 and %d", won, n, refused, n-1)
	}
	mine := func(s SubscriptionAdder) []stock.Subscription {
		all, err := s.Subscriptions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []stock.Subscription
		for _, x := range all {
			if x.OwnerID == owner {
				out = append(out, x)
			}
		}
		return out
	}
	for si, s := range stores {
		if got := mine(s); len(got) != 1 {
			t.Errorf("store %d holds %d of the owner's subscriptions, want 1", si, len(got))
		}
	}
	// The check sees what is stored, oldest first.
	var seen []string
	err := stores[0].AddSubscriptionIf(ctx, sub(n), func(all []stock.Subscription) error {
		seen = seen[:0]
		for _, x := range all {
			if x.OwnerID == owner {
				seen = append(seen, x.ID)
			}
		}
		return fmt.Errorf("refused: %w", errTaken)
	})
	if !errors.Is(err, errTaken) || len(seen) != 1 {
		t.Errorf("a refusing check: %v, saw %v; want errTaken, one subscription", err, seen)
	}
	got := mine(stores[0])
	if len(got) != 1 {
		t.Errorf("a refused add stored something: %+v", got)
	}
	for _, x := range got {
		if err := stores[0].RemoveSubscription(ctx, x.ID); err != nil {
			t.Fatal(err)
		}
	}
}
