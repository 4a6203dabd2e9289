package commands

import (
	"fmt"
	"time"

	"github.com/labgpu/bot/internal/commands/frame"

	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/alertview"
	"github.com/labgpu/bot/internal/understand"
)

// AlertFacts are what the answers to questions about how the alerts work
// ("提醒多久检查一次", "会不会半夜@我") say besides the policy: how often the
// platforms are polled and the chats' daily quiet hours, from the config.
type AlertFacts struct {
	// PollEvery is the poll schedule's interval (0: no polling).
	PollEvery time.Duration
	// QuietHours are the daily windows by chat key ("feishu/oc_…",
	// "webhook/lab") or "*" for every chat ("23:00-08:00").
	QuietHours map[string]string
}

// DefaultPollEvery is the poll interval of the default config
// (stock.poll.schedule "@every 2m").
const DefaultPollEvery = 2 * time.Minute

// WithAlertFacts sets the poll interval and quiet hours the answers about
// how alerts work state (default: every 2 minutes, no quiet hours).
func WithAlertFacts(f AlertFacts) Option { return func(r *Router) { r.facts = f; r.factsSet = true } }

// quietWindow is the chat's daily quiet hours ("" when none).
func (f AlertFacts) quietWindow(chatKey string) string {
	if w, ok := f.QuietHours[chatKey]; ok {
		return w
	}
	return f.QuietHours["*"]
}

// alertHowLine answers a question about how the alerts work from what
// the bot does: the policy (cooldown, least price drop) and the facts
// (poll interval, the chat's quiet hours); "" for an action's name.
func (r *Router) alertHowLine(topic, chatKey string, l i18n.Lang) string {
	if key, ok := coversKeys[topic]; ok {
		return l.T(key)
	}
	facts := r.facts
	if !r.factsSet {
		facts.PollEvery = DefaultPollEvery
	}
	cooldown := r.policy.Cooldown
	if cooldown <= 0 {
		cooldown = 30 * time.Minute
	}
	drop := r.policy.MinDrop
	if drop <= 0 {
		drop = 0.05
	}
	dropText := fmt.Sprintf("%g%%", drop*100)
	every := l.T("explain.alerts.every", alertview.Duration(facts.PollEvery, l))
	switch topic {
	case understand.ExplainAlertInterval, understand.ExplainAlertInStock:
		if facts.PollEvery <= 0 {
			return l.T("explain.alerts.no_poll")
		}
	}
	switch topic {
	case understand.ExplainAlertInterval:
		return l.T("explain.alerts.interval", every, dropText)
	case understand.ExplainAlertNight:
		if w := facts.quietWindow(chatKey); w != "" {
			return l.T("explain.alerts.night_quiet", w)
		}
		return l.T("explain.alerts.night")
	case understand.ExplainAlertMention:
		return l.T("explain.alerts.mention")
	case understand.ExplainAlertRepeat:
		return l.T("explain.alerts.repeat", dropText, alertview.Duration(cooldown, l))
	case understand.ExplainAlertInStock:
		return l.T("explain.alerts.instock", every, dropText, alertview.Duration(cooldown, l))
	case understand.ExplainAlertOptions:
		return l.T("explain.alerts.options")
	}
	return ""
}

// coversKeys are the catalog's verdict on each.
var coversKeys = map[string]string{
	frame.ExplainCoversAny: "explain.alerts.covers_any", frame.ExplainCoversSome: "explain.alerts.covers_some", frame.ExplainCoversNot: "explain.alerts.covers_not",
}
