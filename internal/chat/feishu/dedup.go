package feishu

import (
	"context"
	"time"

	"github.com/labgpu/bot/internal/chat/claim"
)

// claim claims key for DedupTTL through Options.Dedup.
func (b *Bot) claim(ctx context.Context, key string) (claim.Claim, error) {
	if c, ok := b.opts.Dedup.(claim.Claimer); ok {
		return c.Claim(ctx, key, DedupTTL)
	}
	held, err := b.opts.Dedup.ClaimAlert(ctx, key, DedupTTL)
	return claim.Claim{Key: key, Held: held}, err
}

// releaseClaims frees claims whose work was not done; those of a Claimer
// only when they are the caller's own.
func (b *Bot) releaseClaims(cs ...claim.Claim) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cl, owned := b.opts.Dedup.(claim.Claimer)
	for _, c := range cs {
		if c.Key == "" {
			continue
		}
		var err error
		if owned {
			err = cl.Release(ctx, c)
		} else {
			err = b.opts.Dedup.ReleaseAlert(ctx, c.Key)
		}
		if err != nil {
			b.log.Warn("feishu: release dedup key", "key", c.Key, "err", err)
		}
	}
}
