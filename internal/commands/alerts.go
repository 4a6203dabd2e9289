package commands

import (
	"github.com/labgpu/bot/internal/commands/alerts"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// ConsoleOwner is the sender id of the console and the command line.
const ConsoleOwner = render.ConsoleOwner

// MaxSubscriptionsPerMember caps one member's subscriptions in one chat
// (the alert intents' package registers them).
const MaxSubscriptionsPerMember = alerts.MaxSubscriptionsPerMember

// WithAlerts enables the subscription commands over the given stores, with
// the policy whose cooldown the replies mention.
func WithAlerts(subs stock.SubscriptionStore, log stock.AlertStore, p stock.Policy) Option {
	return func(r *Router) { r.subs, r.alerts, r.policy = subs, log, p }
}
