package advice

import (
	"context"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/commands/estimate"
	"github.com/labgpu/bot/internal/commands/offers"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/adviceview"
	"github.com/labgpu/bot/internal/understand"
)

// The advice answer's calls into the estimate and offers areas, all here:
// the job a question describes and its estimate (an OOM report, a card
// question naming an LLM job), the offers of a card and a card at its
// cheapest known price.

// jobOf is the estimator's job a question describes
// (estimate.JobFromQuery).
func jobOf(q understand.Query) estimator.Job { return estimate.JobFromQuery(q) }

// estimateJob is the estimate answer to the job the question names (as
// intent estimate would answer it): its reply, its figures and whether it
// could estimate the job.
func estimateJob(ctx context.Context, a *answer.Ask) (render.Payload, adviceview.Figures, bool) {
	q := a.Query
	q.Intent = understand.IntentEstimate
	p := estimate.Run(ctx, a.Env, q)
	f := p.EstimateFigures()
	return p, f, f.Estimate != nil
}

// liveRows are the offer rows of the GPUs the question names, as the
// stock answer lists them.
func liveRows(ctx context.Context, a *answer.Ask) []render.OfferRow {
	rows, _ := offers.New(a.Env).RowsFor(a.Offers.Snapshot(ctx), a.Query, a.Now())
	return rows
}

// cardOf is a card at its cheapest known quote (no platform when none),
// as the offers area picks it (offers.CardOf).
func cardOf(g *catalog.GPU, quotes estimator.Quotes) adviceview.Card {
	c := offers.CardOf(g, quotes)
	return adviceview.Card{GPU: c.GPU, MemoryGB: c.MemoryGB, NominalGB: g.MemoryGB, Comfortable: c.Comfortable, Platform: c.Platform,
		PriceCNY: c.PriceCNY, PriceLowCNY: c.PriceLowCNY, PriceHighCNY: c.PriceHighCNY, Source: c.Source, AsOf: c.AsOf,
		Verified: c.Verified, UnitUnverified: c.UnitUnverified}
}
