package commands

import (
	"github.com/labgpu/bot/internal/commands/availability"
	"github.com/labgpu/bot/internal/history"
)

// IntentAvailability answers "4090 什么时候好抢" from the availability
// history (configs/intents/availability.yaml; the answer is
// commands/availability's, registered there).
const IntentAvailability = availability.Intent

// WithHistory enables the availability answer and the subscription's
// wait line over the history (nil: answers say there is none).
func WithHistory(h *history.Recorder) Option { return func(r *Router) { r.history = h } }

// availabilityAnswers reads the router's history at its clock, in its
// time zone (the subscription reply's wait line).
func (r *Router) availabilityAnswers() *availability.Answers {
	return &availability.Answers{H: r.history, Now: r.now, Loc: r.loc()}
}
