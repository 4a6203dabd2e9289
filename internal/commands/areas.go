package commands

import (
	"context"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/commands/advice"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/commands/estimate"
	"github.com/labgpu/bot/internal/commands/offers"
)

// answers builds the areas' answers over what the options set: each takes
// the Env (catalog, offers, clock, renderer) and what else it reads.
func (r *Router) answers() {
	est := &billing.Estimator{Cat: r.cat}
	r.env = &answer.Env{Cat: r.cat, Offers: r.offers, Now: r.now, ListPriceMaxAge: r.listPriceMaxAge, Rd: r.rd,
		Loc: r.location, ChatEnglish: r.chatEn, Est: est, Work: r.work, KB: r.advice, History: r.history,
		LabPlans: r.labPlans, QueueRisk: r.queueRisk}
	if r.subs != nil {
		r.env.Alerts = &answer.Alerts{Subs: r.subs, Log: r.alerts, Policy: r.policy}
	}
	r.env.Storage = r.storage
	r.offerAnswers = offers.New(r.env)
	r.estimates = estimate.New(r.env)
	r.adviceAnswers = advice.New(r.env, advice.Deps{Est: est, KB: r.advice, Estimates: r.estimates, Offers: r.offerAnswers,
		Alerts: r.subs != nil, Storage: r.storage != nil})
}

// AdviceTopics returns the knowledge base's topics (nil without one).
func (r *Router) AdviceTopics() []kb.Topic { r.ready(); return r.adviceAnswers.Topics() }

// handler is the answer to one intent.
type handler = func(r *Router, ctx context.Context, res *Result)

// adviceHandler runs an advice answer (advice, factcheck).
func adviceHandler(f func(*advice.Answers, context.Context, *advice.Result)) handler {
	return func(r *Router, ctx context.Context, res *Result) {
		a := advice.Result{Query: res.Query}
		f(r.adviceAnswers, ctx, &a)
		res.Figures, res.Advice, res.Check, res.Reply = a.Figures, a.Advice, a.Check, a.Reply
	}
}
