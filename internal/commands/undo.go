package commands

import (
	"github.com/labgpu/bot/internal/commands/frame"
	"github.com/labgpu/bot/internal/commands/storage"
	"github.com/labgpu/bot/internal/render/alertview"
	"github.com/labgpu/bot/internal/understand"
	"slices"
)

// undo reads "算了 不要了", "撤销", "nvm, don't" (Query.Undo): right after
// the bot added a subscription for the member, that subscription is
// cancelled (the member said so outright; the answer names it); after
// an answer that changed nothing, nothing changes and the bot says so
// ("好，不动。"), never asking which subscription to cancel; an action
// asked back is dropped the same way. After a ledger answer the ledger's
// own follow-ups read it (false) when they take it; one they do not
// ("算了不用" after the digest's state) changes nothing either.
func undo(c *conversation, q Query) (Query, bool) {
	f := c.member
	if f != nil && f.DidSub != "" && c.pending == nil {
		m := q
		m.Intent, m.Topic, m.Confidence, m.Alternatives = IntentUnsubscribe, "", 1, nil
		m.SubRef, m.All, m.Verbs = f.DidSub, false, []string{IntentUnsubscribe}
		if !q.UndoSure {
			// "不用了谢谢" may only decline more help: asked first.
			m.Verbs = nil
		}
		m.GPU, m.GPUs, m.Platforms, m.Platform = "", nil, nil, ""
		// The cards it was for name it when the bot asks first (the id
		// is no name a member knows).
		m.NamedGPUs = slices.Clone(f.DidSubGPUs)
		m.English = frame.Language(f.Query.Restore(), q)
		if en, ok := f.Language(f.LangAt, FrameTTL); ok && !q.English {
			m.English = en
		}
		return m, true
	}
	if c.pending == nil && c.frame != nil && storage.Frames[c.frame.Query.Intent] {
		if _, ok := storage.Follow(c.frame, q); ok {
			return q, false
		}
	}
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives, m.Verbs = IntentChitChat, "", 1, nil, nil
	m.SmallTalk = understand.SmallTalkDecline
	return m, true
}

// askedOfAlert reports whether res answered a question about the alert
// the bot just set for the member (f's, "海外的也算吗", "does that include
// vast?"): an answer about alerts that changed none and lists that one
// alone, so that an edit or a cancel next still means it.
func askedOfAlert(f Frame, res Result) bool {
	if f.DidSub == "" || f.Alert == nil || f.Alert.Intent != IntentSubscribe || res.Intent != IntentSubscriptions || res.Confirm {
		return false
	}
	return onlyListed(res) == f.DidSub
}

// didSubscription is the id and cards of the subscription an answer
// added ("" when it added none).
func didSubscription(res Result) (string, []string) {
	if p, ok := res.Payload.(alertview.Subscribed); ok {
		return p.Subscription.ID, p.Subscription.GPUs
	}
	return "", nil
}

// onlyListed is the id of the one subscription a listing showed ("" when
// it showed none or several).
func onlyListed(res Result) string {
	if p, ok := res.Payload.(alertview.Subscriptions); ok && len(p.Subscriptions) == 1 {
		return p.Subscriptions[0].ID
	}
	return ""
}
