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

// alertFollow reads "有了告诉我", "tell me when it is" after an answer
// about a card (stock, prices, when it is free …): a subscription to that
// card, on the platforms, price cap and region the answer was about —
// the member asked for it outright; false when q names a card of its own
// or does not point at the last answer, or the frame has no card.
func alertFollow(f *Frame, q Query) (Query, bool) {
	// Only a request that points at the last answer's card ("有了告诉我",
	// "tell me when it is") takes it; "帮我开个有货提醒" names no card and
	// is asked which one (never an alert on a card the member did not say).
	if f == nil || len(q.GPUs) > 0 || q.UnknownGPU != "" || !q.AlertAsk {
		return q, false
	}
	p := f.Query.Restore()
	if len(p.GPUs) == 0 || !frame.Editable(p) {
		return q, false
	}
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives = IntentSubscribe, "", 1, nil
	m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = p.GPU, p.GPUs, p.NamedGPUs, p.GPUFamily
	if len(q.Platforms) == 0 {
		m.Platform, m.Platforms = p.Platform, p.Platforms
	}
	if q.MaxPriceCNY == 0 {
		m.MaxPriceCNY = p.MaxPriceCNY
	}
	if q.Region == "" {
		m.Region = p.Region
	}
	if len(q.ExcludePlatforms) == 0 {
		m.ExcludePlatforms = p.ExcludePlatforms
	}
	m.English = frame.Language(p, q)
	return m, true
}

// onlyListed is the id of the one subscription a listing showed ("" when
// it showed none or several).
func onlyListed(res Result) string {
	if p, ok := res.Payload.(alertview.Subscriptions); ok && len(p.Subscriptions) == 1 {
		return p.Subscriptions[0].ID
	}
	return ""
}

// listedCancel reads "删掉它", "取消这个", "remove it" right after the
// member's alerts were listed and there was one (a, the listing's Query,
// holds its id): that subscription is cancelled, as said (the cancel verb
// and a clear referent); false for anything else.
func listedCancel(a, q Query) (Query, bool) {
	if a.Intent != IntentSubscriptions || a.SubRef == "" || !q.Referent || !slices.Contains(q.Verbs, IntentUnsubscribe) {
		return q, false
	}
	return cancelRef(a, a.SubRef, q)
}

// setCancel reads "取消这个", "cancel that one" right after the bot set
// an alert for the member (a, that answer's Query; f holds its id): that
// subscription is cancelled, as said (the cancel verb and a clear
// referent); false for anything else.
func setCancel(f *Frame, a, q Query) (Query, bool) {
	if f == nil || f.DidSub == "" || a.Intent != IntentSubscribe || !q.Referent || !q.CancelWord {
		return q, false
	}
	return cancelRef(a, f.DidSub, q)
}

// cancelRef is q as the cancellation of the subscription ref.
func cancelRef(a Query, ref string, q Query) (Query, bool) {
	if !asksUnsubscribe(q) || len(q.GPUs) > 0 || q.UnknownGPU != "" || q.All {
		return q, false
	}
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives = IntentUnsubscribe, "", 1, nil
	m.SubRef, m.Verbs = ref, []string{IntentUnsubscribe}
	m.English = frame.Language(a, q)
	return m, true
}

// listedCancelAll reads "全部取消", "都删了" right after the member's
// alerts were listed: all of them are cancelled, as said (the cancel
// verb and "all"); false for anything else.
func listedCancelAll(a, q Query) (Query, bool) {
	if a.Intent != IntentSubscriptions || !q.SaysAll || !slices.Contains(q.Verbs, IntentUnsubscribe) {
		return q, false
	}
	if len(q.GPUs) > 0 || q.UnknownGPU != "" || q.SubRef != "" || len(q.Platforms) > 0 || q.Topic != "" || !readsUnsubscribe(q) {
		return q, false
	}
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives = IntentUnsubscribe, "", 1, nil
	m.All, m.Verbs = true, []string{IntentUnsubscribe}
	m.English = frame.Language(a, q)
	return m, true
}

// readsUnsubscribe reports whether q reads as a cancellation, or has it
// next after a reading that acts on nothing ("全部取消" read as "详情").
func readsUnsubscribe(q Query) bool {
	if asksUnsubscribe(q) {
		return true
	}
	if q.Intent != IntentMore && q.Intent != IntentChitChat && q.Intent != IntentUnknown {
		return false
	}
	return len(q.Alternatives) > 0 && q.Alternatives[0].Intent == IntentUnsubscribe
}

// asksUnsubscribe reports whether q reads as a cancellation, or is unsure
// with one among its two likeliest readings.
func asksUnsubscribe(q Query) bool {
	if q.Intent == IntentClarify {
		for i, alt := range q.Alternatives {
			if i < 2 && alt.Intent == IntentUnsubscribe {
				return true
			}
		}
	}
	return q.Intent == IntentUnsubscribe
}

// alertEdit reads "改成1块8", "换成runpod", "change it to runpod" right
// after the bot set an alert for the member (a, that answer's Query; f
// the member's frame, which holds its id): the alert with the price
// ceiling, platforms or card said, replacing the one just set in one
// step (the member said the change outright; "also under $0.30" adds
// the cap). False for anything else:
// "runpod呢" only asks.
func alertEdit(f *Frame, a, q Query) (Query, bool) {
	if f == nil || f.DidSub == "" || a.Intent != IntentSubscribe || len(a.GPUs) == 0 || !q.EditVerb && !q.FollowAlso {
		return q, false
	}
	price := q.MaxPriceCNY
	if price == 0 && (q.PriceUnit == "" || q.PriceUnit == "hour") {
		price = q.PriceCNY
	}
	if price == 0 && q.EditVerb && a.MaxPriceCNY > 0 && q.BareAmount > 0 {
		// "make it 5" after "under 6 yuan": the new cap.
		price = q.BareAmount
	}
	if !q.EditVerb && (price == 0 || len(q.Platforms) > 0 || len(q.GPUs) > 0) {
		// "also under $0.30": a price cap added to the alert just set;
		// "also A100" is one more alert (frame.AlertFollow).
		return q, false
	}
	if price == 0 && len(q.Platforms) == 0 && len(q.GPUs) == 0 && q.PlatformGroup == "" && q.Region == "" && q.MinFree == 0 ||
		frame.HasJob(q) || q.YesNo != nil || q.UnknownGPU != "" {
		return q, false
	}
	m := a
	m.Topic, m.Confidence, m.Alternatives = "", 1, nil
	m.Verbs, m.SubRef = []string{IntentSubscribe}, f.DidSub
	if price > 0 {
		m.MaxPriceCNY = price
	}
	switch {
	case len(q.Platforms) > 0:
		m.Platform, m.Platforms, m.ExcludePlatforms, m.PlatformGroup = q.Platform, q.Platforms, nil, ""
	case q.PlatformGroup != "":
		// "只要国内的": the platforms of that group.
		m.Platform, m.Platforms, m.PlatformGroup = "", nil, q.PlatformGroup
		m.Conditions = append(slices.Clone(m.Conditions), q.Conditions...)
	}
	if q.Region != "" {
		m.Region = q.Region
		m.Conditions = append(slices.Clone(m.Conditions), q.Conditions...)
	}
	if q.MinFree > 0 {
		m.MinFree = q.MinFree
	}
	if len(q.GPUs) > 0 {
		m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily
	}
	m.English = frame.Language(a, q)
	return m, true
}

// muteEdit reads "actually make it 9pm", "改成2小时" right after the bot
// muted the chat (a, that answer's Query): the mute with the new end, in
// one step (the member said the change outright, of the mute just set).
func muteEdit(a, q Query) (Query, bool) {
	if a.Intent != IntentMute || !q.EditVerb || q.MuteMinutes <= 0 && q.MuteUntil == "" || len(q.GPUs) > 0 || frame.HasJob(q) {
		return q, false
	}
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives, m.Verbs = IntentMute, "", 1, nil, []string{IntentMute}
	m.MuteEdit = true
	m.English = frame.Language(a, q)
	return m, true
}
