package frame

import (
	"slices"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/understand"
)

// The member's alert follow-ups: what the last alert answer (an alert
// set, a mute, the alerts listed) lets a short message do outright.

// CardAlert reads "有了告诉我", "tell me when it is" after an answer
// about a card (stock, prices, when it is free …): a subscription to that
// card, on the platforms, price cap and region the answer was about —
// the member asked for it outright; false when q names a card of its own
// or does not point at the last answer, or the frame has no card.
func CardAlert(f *Frame, q Query) (Query, bool) {
	// Only a request that points at the last answer's card ("有了告诉我",
	// "tell me when it is") takes it; "帮我开个有货提醒" names no card and
	// is asked which one (never an alert on a card the member did not say).
	if f == nil || len(q.GPUs) > 0 || q.UnknownGPU != "" || !q.AlertAsk {
		return q, false
	}
	p := f.Query.Restore()
	if len(p.GPUs) == 0 || len(p.NamedGPUs) == 0 || !Editable(p) {
		// Cards the answer chose by memory ("which 24GB card is
		// cheapest"): "it" names none of them for sure; asked which.
		return q, false
	}
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives = understand.IntentSubscribe, "", 1, nil
	m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = p.GPU, p.GPUs, p.NamedGPUs, p.GPUFamily
	if len(q.Platforms) == 0 {
		m.Platform, m.Platforms = p.Platform, p.Platforms
	}
	if len(q.Platforms) == 0 && q.PlatformGroup == "" {
		// "only domestic" said before: the alert is for those platforms.
		m.PlatformGroup = p.PlatformGroup
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
	m.English = Language(p, q)
	return m, true
}

// ListedCancel reads "删掉它", "取消这个", "remove it" right after the
// member's alerts were listed and there was one (a, the listing's Query,
// holds its id): that subscription is cancelled, as said (the cancel verb
// and a clear referent); false for anything else.
func ListedCancel(a, q Query) (Query, bool) {
	if a.Intent != understand.IntentSubscriptions || a.SubRef == "" || !q.Referent || !slices.Contains(q.Verbs, understand.IntentUnsubscribe) {
		return q, false
	}
	return cancelRef(a, a.SubRef, q)
}

// SetCancel reads "取消这个", "cancel that one" right after the bot set
// an alert for the member (a, that answer's Query; f holds its id): that
// subscription is cancelled, as said (the cancel verb and a clear
// referent); false for anything else.
func SetCancel(f *Frame, a, q Query) (Query, bool) {
	if f == nil || f.DidSub == "" || a.Intent != understand.IntentSubscribe || !q.Referent || !q.CancelWord {
		return q, false
	}
	return cancelRef(a, f.DidSub, q)
}

// cancelRef is q as the cancellation of the subscription ref.
func cancelRef(a Query, ref string, q Query) (Query, bool) {
	if !AsksUnsubscribe(q) || len(q.GPUs) > 0 || q.UnknownGPU != "" || q.All {
		return q, false
	}
	m := unsubscribeOf(a, q)
	m.SubRef = ref
	return m, true
}

// unsubscribeOf is q as a cancellation said outright (the verb its
// reading needs), in the language of the alert answer a it follows.
func unsubscribeOf(a, q Query) Query {
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives = understand.IntentUnsubscribe, "", 1, nil
	m.Verbs = []string{understand.IntentUnsubscribe}
	m.English = Language(a, q)
	return m
}

// ListedCancelAll reads "全部取消", "都删了" right after the member's
// alerts were listed: all of them are cancelled, as said (the cancel
// verb and "all"); false for anything else.
func ListedCancelAll(a, q Query) (Query, bool) {
	if a.Intent != understand.IntentSubscriptions || !q.SaysAll || !slices.Contains(q.Verbs, understand.IntentUnsubscribe) {
		return q, false
	}
	if len(q.GPUs) > 0 || q.UnknownGPU != "" || q.SubRef != "" || len(q.Platforms) > 0 || q.Topic != "" || !ReadsUnsubscribe(q) {
		return q, false
	}
	m := unsubscribeOf(a, q)
	m.All = true
	return m, true
}

// ReadsUnsubscribe reports whether q reads as a cancellation, or has it
// next after a reading that acts on nothing ("全部取消" read as "详情").
func ReadsUnsubscribe(q Query) bool {
	if AsksUnsubscribe(q) {
		return true
	}
	if q.Intent != understand.IntentMore && q.Intent != understand.IntentChitChat && q.Intent != understand.IntentUnknown {
		return false
	}
	return len(q.Alternatives) > 0 && q.Alternatives[0].Intent == understand.IntentUnsubscribe
}

// AsksUnsubscribe reports whether q reads as a cancellation, or is unsure
// with one among its two likeliest readings.
func AsksUnsubscribe(q Query) bool {
	if q.Intent == understand.IntentClarify {
		for i, alt := range q.Alternatives {
			if i < 2 && alt.Intent == understand.IntentUnsubscribe {
				return true
			}
		}
	}
	return q.Intent == understand.IntentUnsubscribe
}

// AlertEdit reads "改成1块8", "换成runpod", "change it to runpod" right
// after the bot set an alert for the member (a, that answer's Query; f
// the member's frame, which holds its id): the alert with the price
// ceiling, platforms or card said, replacing the one just set in one
// step (the member said the change outright; "also under $0.30" adds
// the cap). False for anything else:
// "runpod呢" only asks.
func AlertEdit(f *Frame, a, q Query) (Query, bool) {
	if f == nil || f.DidSub == "" || a.Intent != understand.IntentSubscribe || len(a.GPUs) == 0 || !q.EditVerb && !q.FollowAlso {
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
		// "also A100" is one more alert (AlertFollow).
		return q, false
	}
	if price == 0 && len(q.Platforms) == 0 && len(q.GPUs) == 0 && q.PlatformGroup == "" && q.Region == "" && q.MinFree == 0 ||
		HasJob(q) || q.YesNo != nil || q.UnknownGPU != "" {
		return q, false
	}
	m := a
	m.Topic, m.Confidence, m.Alternatives = "", 1, nil
	m.Verbs, m.SubRef = []string{understand.IntentSubscribe}, f.DidSub
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
	m.English = Language(a, q)
	return m, true
}

// MuteEdit reads "actually make it 9pm", "改成2小时" right after the bot
// muted the chat (a, that answer's Query): the mute with the new end, in
// one step (the member said the change outright, of the mute just set).
func MuteEdit(a, q Query) (Query, bool) {
	if a.Intent != understand.IntentMute || !q.EditVerb || q.MuteMinutes <= 0 && q.MuteUntil == "" || len(q.GPUs) > 0 || HasJob(q) {
		return q, false
	}
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives, m.Verbs = understand.IntentMute, "", 1, nil, []string{understand.IntentMute}
	m.MuteEdit = true
	m.English = Language(a, q)
	return m, true
}

// The Explain values of "海外的也算吗" after an alert was set: whether it
// covers the platforms asked (AlertCovers).
const (
	ExplainCoversAny  = "alerts.covers_any"
	ExplainCoversSome = "alerts.covers_some"
	ExplainCoversNot  = "alerts.covers_not"
)

// AlertCovers answers "海外的也算吗", "runpod的也算吗", "does it cover
// overseas platforms?" right after an alert was set (a, its Query): yes
// or no first, then the member's alerts; nothing changes. False when q
// names a card, a price, a job, says a verb or an edit ("改成runpod").
func AlertCovers(cat *catalog.Catalog, a, q Query) (Query, bool) {
	if a.Intent != understand.IntentSubscribe || len(a.GPUs) == 0 || q.PlatformGroup == "" && len(q.Platforms) == 0 {
		return q, false
	}
	if len(q.GPUs) > 0 || len(q.Verbs) > 0 || q.EditVerb || q.FollowAddOne || HasJob(q) || q.MaxPriceCNY > 0 || q.PriceCNY > 0 {
		return q, false
	}
	m := q
	m.Intent, m.Topic, m.Confidence, m.Alternatives = understand.IntentSubscriptions, "", 1, nil
	m.Explain = coverage(cat, a, q)
	m.Platform, m.Platforms, m.PlatformGroup = "", nil, ""
	m.English = Language(a, q)
	return m, true
}

// coverage is whether alert a watches the platforms q names or the
// group it says: any platform, some of them, or none.
func coverage(cat *catalog.Catalog, a, q Query) string {
	if len(a.Platforms) == 0 && a.PlatformGroup == "" && len(a.ExcludePlatforms) == 0 {
		return ExplainCoversAny
	}
	asked := q.Platforms
	if len(asked) == 0 {
		for _, p := range cat.Platforms {
			if answer.InGroup(cat, p.ID, q.PlatformGroup) {
				asked = append(asked, p.ID)
			}
		}
	}
	for _, p := range asked {
		if watches(cat, a, p) {
			return ExplainCoversSome
		}
	}
	return ExplainCoversNot
}

// watches reports whether alert a looks at platform p.
func watches(cat *catalog.Catalog, a Query, p string) bool {
	if slices.Contains(a.ExcludePlatforms, p) {
		return false
	}
	if len(a.Platforms) > 0 {
		return slices.Contains(a.Platforms, p)
	}
	return a.PlatformGroup == "" || answer.InGroup(cat, p, a.PlatformGroup)
}

// MuteEnd reads "那现在几点结束", "when does it end?" right after the bot
// muted the chat (a, that answer's Query): the chat's alerts and mute
// state, the mute first; nothing changes.
func MuteEnd(a, q Query) (Query, bool) {
	if a.Intent != understand.IntentMute || !q.MuteEndAsk || len(q.Verbs) > 0 || HasSubject(q) {
		return q, false
	}
	m := Query{Intent: understand.IntentSubscriptions, Confidence: 1, AboutMute: true, Asked: q.Asked}
	m.English = Language(a, q)
	return m, true
}
