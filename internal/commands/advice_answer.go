package commands

import (
	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/render/adviceview"

	// The advice and factcheck intents register from their package.
	_ "github.com/labgpu/bot/internal/commands/advice"
)

// AdviceTopics returns the knowledge base's topics (nil without one).
func (r *Router) AdviceTopics() []kb.Topic {
	r.ready()
	if r.advice == nil {
		return nil
	}
	return r.advice.Topics
}

// adviceTopic is the knowledge base's topic of an id (none without a
// base or an id).
func (r *Router) adviceTopic(id string) (*kb.Topic, bool) {
	if r.advice == nil || id == "" {
		return nil, false
	}
	return r.advice.Topic(id)
}

// adviceEstimated reports whether an advice answer estimated a job (an
// OOM report or a card question naming one): it can be followed up
// ("seq 2048") like an estimate.
func adviceEstimated(res Result) bool {
	p, ok := res.Payload.(adviceview.Advice)
	return ok && p.Estimate != nil
}
