package commands

import (
	"fmt"
	"slices"
	"time"

	"github.com/labgpu/bot/internal/commands/answer"
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

// The Explain values of "海外的也算吗" after an alert was set: whether it
// covers the platforms asked (alertCovers).
const (
	explainCoversAny  = "alerts.covers_any"
	explainCoversSome = "alerts.covers_some"
	explainCoversNot  = "alerts.covers_not"
)

// coversKeys are the catalog's verdict on each.
var coversKeys = map[string]string{
	explainCoversAny: "explain.alerts.covers_any", explainCoversSome: "explain.alerts.covers_some", explainCoversNot: "explain.alerts.covers_not",
}

// alertCovers answers "海外的也算吗", "runpod的也算吗", "does it cover
// overseas platforms?" right after an alert was set (a, its Query): yes
// or no first, then the member's alerts; nothing changes. False when q
// names a card, a price, a job, says a verb or an edit ("改成runpod").
func (r *Router) alertCovers(a, q Query) (Query, bool) {
	if a.Intent != IntentSubscribe || len(a.GPUs) == 0 || q.PlatformGroup == "" && len(q.Platforms) == 0 {
		return q, false
	}
	if len(q.GPUs) > 0 || len(q.Verbs) > 0 || q.EditVerb || q.FollowAddOne || frame.HasJob(q) || q.MaxPriceCNY > 0 || q.PriceCNY > 0 {
		return q, false
	}
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives = IntentSubscriptions, "", 1, nil
	m.Explain = r.coverage(a, q)
	m.Platform, m.Platforms, m.PlatformGroup = "", nil, ""
	m.English = frame.Language(a, q)
	return m, true
}

// coverage is whether alert a watches the platforms q names or the
// group it says: any platform, some of them, or none.
func (r *Router) coverage(a, q Query) string {
	if len(a.Platforms) == 0 && a.PlatformGroup == "" && len(a.ExcludePlatforms) == 0 {
		return explainCoversAny
	}
	asked := q.Platforms
	if len(asked) == 0 {
		for _, p := range r.cat.Platforms {
			if answer.InGroup(r.cat, p.ID, q.PlatformGroup) {
				asked = append(asked, p.ID)
			}
		}
	}
	for _, p := range asked {
		if r.watches(a, p) {
			return explainCoversSome
		}
	}
	return explainCoversNot
}

// watches reports whether alert a looks at platform p.
func (r *Router) watches(a Query, p string) bool {
	if slices.Contains(a.ExcludePlatforms, p) {
		return false
	}
	if len(a.Platforms) > 0 {
		return slices.Contains(a.Platforms, p)
	}
	return a.PlatformGroup == "" || answer.InGroup(r.cat, p, a.PlatformGroup)
}
