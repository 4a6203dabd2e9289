// Package claim is the Feishu callback's deduplication: one claim per
// event or message id ("feishu:msg:<id>"), taken once across replicas in
// the bot's store (embedded or Redis) with an owner token per claim, and
// in a process-local window (MemoryDeduper, 10 minutes by default) while
// the store fails. StoreDeduper is what `bot serve` passes as the Feishu
// bot's Options.Dedup; MemoryDeduper is the default without one.
// Durations are time.Duration; keys are the callers' strings.
package claim

import (
	"context"
	"time"
)

// Deduper is the stores' SET NX: ClaimAlert returns true for the first
// caller with key within ttl and false for every later one. The embedded
// and Redis stores implement it; MemoryDeduper is a process-local one.
type Deduper interface {
	ClaimAlert(ctx context.Context, key string, ttl time.Duration) (bool, error)
	// ReleaseAlert frees a claim whose work was not done (a failed reply,
	// a job dropped at shutdown), so Feishu's retry is answered.
	ReleaseAlert(ctx context.Context, key string) error
}

// Claim is one claim on an event or message id, as a Claimer took it.
type Claim struct {
	Key string
	// Held: the caller holds the claim and answers; false for a
	// duplicate.
	Held bool
	// Owner is the token the store holds for this claim ("" when the
	// store takes no tokens or the claim is Local); only a release with
	// it frees the claim.
	Owner string
	// Local: the store could not be used, the claim is in the process's
	// window (StoreDeduperOptions.Window).
	Local bool
}

// Claimer is how the Feishu callback claims event_id and message_id when
// its Options.Dedup implements it (StoreDeduper does): each claim carries
// its own owner token, and Release frees only the caller's own claim.
// Other Dedupers are used through ClaimAlert and ReleaseAlert.
type Claimer interface {
	Claim(ctx context.Context, key string, ttl time.Duration) (Claim, error)
	// Release frees c, taken by Claim, when its work was not done (a
	// failed reply, a job dropped at shutdown), so Feishu's retry is
	// answered.
	Release(ctx context.Context, c Claim) error
}

// OwnerStore is a store whose claims carry an owner token; the embedded
// and Redis stores implement it. ClaimAs is SET NX with the owner as the
// value, ClaimOwner a GET, ReleaseAs a compare and delete.
type OwnerStore interface {
	ClaimAs(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	ClaimOwner(ctx context.Context, key string) (owner string, held bool, err error)
	ReleaseAs(ctx context.Context, key, owner string) (bool, error)
}
