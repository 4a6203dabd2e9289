package commands

import (
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/commands/answer"
)

// answers builds the areas' answers over what the options set: each takes
// the Env (catalog, offers, clock, renderer) and what else it reads.
func (r *Router) answers() {
	est := &estimator.Estimator{Cat: r.cat}
	r.env = &answer.Env{Cat: r.cat, Offers: r.offers, Now: r.now, ListPriceMaxAge: r.listPriceMaxAge, Rd: r.rd,
		Loc: r.location, ChatEnglish: r.chatEn, Est: est, Work: r.work, KB: r.advice, History: r.history,
		LabPlans: r.labPlans, QueueRisk: r.queueRisk, LedgerOn: r.storage != nil}
	if r.subs != nil {
		r.env.Alerts = &answer.Alerts{Subs: r.subs, Log: r.alerts, Policy: r.policy}
	}
	r.env.Storage = r.storage
}
