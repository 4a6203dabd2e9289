package commands

import (
	"context"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/commands/advice"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/commands/estimate"
	"github.com/labgpu/bot/internal/commands/offers"
)

// answers builds the areas' answers over what the options set: each takes
// the Env (catalog, offers, clock, renderer) and what else it reads.
func (r *Router) answers() {
	est := &estimator.Estimator{Cat: r.cat}
	r.env = &answer.Env{Cat: r.cat, Offers: r.offers, Now: r.now, ListPriceMaxAge: r.listPriceMaxAge, Rd: r.rd,
		Loc: r.location, ChatEnglish: r.chatEn, Est: est, Work: r.work, KB: r.advice, History: r.history,
		LabPlans: r.labPlans, QueueRisk: r.queueRisk}
	if r.subs != nil {
		r.env.Alerts = &answer.Alerts{Subs: r.subs, Log: r.alerts, Policy: r.policy}
	}
	r.offerAnswers = offers.New(r.env)
	r.estimates = estimate.New(r.env, est, r.work)
	r.estimates.LabPlans, r.estimates.Risk = r.labPlans, r.queueRisk
	r.adviceAnswers = advice.New(r.env, advice.Deps{Est: est, KB: r.advice, Estimates: r.estimates, Offers: r.offerAnswers,
		Alerts: r.subs != nil, Storage: r.storage != nil})
}

// AdviceTopics returns the knowledge base's topics (nil without one).
func (r *Router) AdviceTopics() []kb.Topic { r.ready(); return r.adviceAnswers.Topics() }

// handler is the answer to one intent.
type handler = func(r *Router, ctx context.Context, res *Result)

// offersHandler runs an offers answer (stock, prices, compare) and keeps
// what it found.
func offersHandler(f func(*offers.Answers, context.Context, *offers.Result)) handler {
	return func(r *Router, ctx context.Context, res *Result) {
		o := offers.Result{Query: res.Query}
		f(r.offerAnswers, ctx, &o)
		res.Query, res.Offers, res.Providers, res.Compare, res.Question, res.Reply = o.Query, o.Offers, o.Providers, o.Compare, o.Question, o.Reply
	}
}

// estimateHandler runs an estimate answer (estimate, plan).
func estimateHandler(f func(*estimate.Answers, context.Context, *estimate.Result)) handler {
	return func(r *Router, ctx context.Context, res *Result) {
		e := estimate.Result{Query: res.Query}
		f(r.estimates, ctx, &e)
		res.Figures, res.Workload, res.Plan, res.Question, res.Reply = e.Figures, e.Workload, e.Plan, e.Question, e.Reply
		res.Plans = e.Plans
	}
}

// adviceHandler runs an advice answer (advice, factcheck).
func adviceHandler(f func(*advice.Answers, context.Context, *advice.Result)) handler {
	return func(r *Router, ctx context.Context, res *Result) {
		a := advice.Result{Query: res.Query}
		f(r.adviceAnswers, ctx, &a)
		res.Figures, res.Advice, res.Check, res.Reply = a.Figures, a.Advice, a.Check, a.Reply
	}
}
