package commands

import (
	"context"

	"github.com/labgpu/bot/internal/commands/availability"
	"github.com/labgpu/bot/internal/history"
)

// IntentAvailability answers "4090 什么时候好抢" from the availability
// history (configs/intents/availability.yaml).
const IntentAvailability = "availability"

// WithHistory enables the availability answer and the subscription's
// wait line over the history (nil: answers say there is none).
func WithHistory(h *history.Recorder) Option { return func(r *Router) { r.history = h } }

// availabilityAnswers builds the availability answers over the router's
// env, history and time zone.
func (r *Router) availabilityAnswers() *availability.Answers {
	return &availability.Answers{Env: r.env, H: r.history, Loc: r.loc()}
}

func (r *Router) availabilityAnswer(ctx context.Context, res *Result) {
	a := availability.Result{Query: res.Query}
	r.availabilityAnswers().Availability(ctx, &a)
	res.Availability, res.Question, res.Reply = a.Availability, a.Question, a.Reply
}
