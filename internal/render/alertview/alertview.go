// Package alertview renders the answers of the stock alert intents: a
// subscription made (and where stock stands for it now), the member's
// subscriptions, their cancellation, and the chat's mute.
package alertview

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
)

// Off: stock alerts are not enabled where the question came from.
type Off struct {
	Lang i18n.Lang `json:"-"`
}

// Reply says so.
func (o Off) Reply(*render.Renderer) chat.Reply { return chat.Reply{Title: o.Lang.T("subscribe.off")} }

// WhichGPU asks which card a subscription is for, or says the card named
// (UnknownGPU) is not in the catalog. Its JSON carries the question.
type WhichGPU struct {
	Lang       i18n.Lang `json:"-"`
	UnknownGPU string    `json:"-"`
}

// Question is the ask-back, as the reply's title says it.
func (w WhichGPU) Question() string {
	if w.UnknownGPU != "" {
		return w.Lang.T("subscribe.unknown_gpu", w.UnknownGPU)
	}
	return w.Lang.T("subscribe.which_gpu")
}

// Reply asks.
func (w WhichGPU) Reply(*render.Renderer) chat.Reply { return chat.Reply{Title: w.Question()} }

// MarshalJSON is {"question": …}.
func (w WhichGPU) MarshalJSON() ([]byte, error) { return questionJSON(w.Question()) }

// questionJSON is an ask-back as JSON answers carry it.
func questionJSON(q string) ([]byte, error) {
	return json.Marshal(struct {
		Question string `json:"question"`
	}{q})
}

// Subscribed is a subscription just made and where stock stands for it
// now: in stock (the best offer, or that the poll's alert is on its
// way), sold out or not known, with the history's wait when there is
// one; how alerts come and how to stop them.
type Subscribed struct {
	Lang         i18n.Lang          `json:"-"`
	Subscription stock.Subscription `json:"subscription"`
	// Problems and UnknownGPU are what the question held that was not
	// used (render.ProblemLines).
	Problems   []string `json:"-"`
	UnknownGPU string   `json:"-"`
	// State is the stock for the subscription now. In stock, Announced
	// says a poll claimed the first alert first (it is on its way), else
	// Offer is the best offer, observed at Now's reckoning.
	State     stock.Available `json:"-"`
	Announced bool            `json:"-"`
	Offer     stock.Offer     `json:"-"`
	Now       time.Time       `json:"-"`
	// RecordErr is the store's failure to record the offer as announced
	// (nil when recorded).
	RecordErr *render.StoreError `json:"-"`
	// Wait is the availability history's line on how long such a card
	// usually takes to come free ("" when none).
	Wait string `json:"-"`
	// Cooldown is the least time between two alerts of a subscription;
	// Asker the member to @mention.
	Cooldown time.Duration `json:"-"`
	Asker    string        `json:"-"`
	// Replaced is the subscription this one replaced ("改成1块8" right
	// after it was set; nil: none), cancelled in the same step.
	Replaced *stock.Subscription `json:"-"`
}

// title names the subscription, and the one it replaced.
func (s Subscribed) title(rd *render.Renderer) string {
	en := s.Lang.English()
	if s.Replaced != nil {
		return s.Lang.T("subscribe.replaced", rd.Describe(s.Subscription, en), rd.Describe(*s.Replaced, en))
	}
	return s.Lang.T("subscribe.done", rd.Describe(s.Subscription, en))
}

// Reply is the subscription in one line, the stock now, then how it
// works.
func (s Subscribed) Reply(rd *render.Renderer) chat.Reply {
	l, en := s.Lang, s.Lang.English()
	rep := chat.Reply{Title: s.title(rd)}
	rep.Lines = append(rep.Lines, render.ProblemLines(s.Problems, s.UnknownGPU, en)...)
	switch s.State {
	case stock.InStock:
		if s.Announced {
			rep.Lines = append(rep.Lines, l.T("subscribe.on_its_way"))
			break
		}
		o := s.Offer
		age := l.T("meta.time_unknown")
		if !o.ObservedAt.IsZero() {
			age = render.Age(s.Now.Sub(o.ObservedAt), en)
		}
		key := "subscribe.in_stock"
		if o.Source != stock.SourceLive {
			key = "subscribe.in_replay"
		}
		rep.Lines = append(rep.Lines, l.T(key, rd.PlatformName(o.Platform, en), o.GPU, rd.PriceText(o, en), render.FreeText(o, en),
			render.SourceLabel(string(o.Source), en), age))
		rep.Notes = append(rep.Notes, rd.Legend([]render.OfferRow{render.RowOf(o)}, en)...)
		if s.RecordErr != nil {
			rep.Notes = append(rep.Notes, s.RecordErr.Reply(rd).Title)
		}
	case stock.SoldOut:
		rep.Lines = append(rep.Lines, l.T("subscribe.sold_out"))
	default:
		rep.Lines = append(rep.Lines, l.T("subscribe.cannot_tell"))
	}
	if s.State != stock.InStock && s.Wait != "" {
		rep.Lines = append(rep.Lines, s.Wait)
	}
	card := strings.TrimPrefix(strings.TrimPrefix(s.Subscription.GPUs[0], "RTX "), "GTX ")
	rep.Notes = append(rep.Notes, l.T("subscribe.how", Duration(s.Cooldown, l), card))
	rep.Mentions = []string{s.Asker}
	return rep
}

// Already: the member has a subscription with these conditions.
type Already struct {
	Lang         i18n.Lang          `json:"-"`
	Subscription stock.Subscription `json:"subscription"`
}

// Reply names it.
func (a Already) Reply(rd *render.Renderer) chat.Reply {
	return chat.Reply{Title: a.Lang.T("subscribe.already", rd.Describe(a.Subscription, a.Lang.English()))}
}

// TooMany: the member has Have subscriptions in the chat, the most
// allowed (Max).
type TooMany struct {
	Lang      i18n.Lang `json:"-"`
	Have, Max int       `json:"-"`
}

// Reply says to cancel some.
func (t TooMany) Reply(*render.Renderer) chat.Reply {
	return chat.Reply{Title: t.Lang.T("subscribe.too_many", t.Have, t.Max)}
}

// Subscriptions are the member's subscriptions in the chat, oldest
// first, numbered as "取消订阅 1" takes them, and the chat's mute.
type Subscriptions struct {
	Lang          i18n.Lang            `json:"-"`
	Subscriptions []stock.Subscription `json:"subscriptions,omitempty"`
	// MutedUntil is when the chat's mute ends (zero: not muted).
	MutedUntil time.Time `json:"-"`
	// AskedMute: the question was about the mute ("现在静音了吗"); the
	// reply says first whether the chat is muted.
	AskedMute bool `json:"-"`
}

// Reply lists them (a question about the mute: its state first).
func (s Subscriptions) Reply(rd *render.Renderer) chat.Reply {
	l := s.Lang
	if s.AskedMute {
		return s.muteFirst(rd)
	}
	if len(s.Subscriptions) == 0 {
		return chat.Reply{Title: l.T("subscribe.list.none")}
	}
	rep := chat.Reply{Title: l.T("subscribe.list.title", len(s.Subscriptions)), Lines: Lines(rd, s.Subscriptions, l.English())}
	if !s.MutedUntil.IsZero() {
		rep.Notes = append(rep.Notes, l.T("subscribe.list.muted", rd.Clock.Minute(s.MutedUntil)))
	}
	rep.Notes = append(rep.Notes, l.T("subscribe.list.cancel_hint"))
	return rep
}

// muteFirst answers a question about the mute: whether the chat is
// muted and until when, then the member's subscriptions.
func (s Subscriptions) muteFirst(rd *render.Renderer) chat.Reply {
	l := s.Lang
	rep := chat.Reply{Title: l.T("subscribe.list.not_muted")}
	if !s.MutedUntil.IsZero() {
		rep.Title = l.T("subscribe.list.muted_now", rd.Clock.Minute(s.MutedUntil))
	}
	if len(s.Subscriptions) == 0 {
		rep.Lines = []string{l.T("subscribe.list.none")}
		return rep
	}
	rep.Lines = append([]string{l.T("subscribe.list.title", len(s.Subscriptions))}, Lines(rd, s.Subscriptions, l.English())...)
	return rep
}

// WhichToCancel asks which subscription to cancel. Its JSON carries the
// question.
type WhichToCancel struct {
	Lang i18n.Lang `json:"-"`
}

// Question is the ask-back.
func (w WhichToCancel) Question() string { return w.Lang.T("subscribe.cancel.which") }

// Reply asks.
func (w WhichToCancel) Reply(*render.Renderer) chat.Reply { return chat.Reply{Title: w.Question()} }

// MarshalJSON is {"question": …}.
func (w WhichToCancel) MarshalJSON() ([]byte, error) { return questionJSON(w.Question()) }

// Cancelled are the subscriptions a cancellation removed; none matched
// when Cancelled is empty, and Mine are then the member's (listed).
type Cancelled struct {
	Lang      i18n.Lang            `json:"-"`
	Cancelled []stock.Subscription `json:"-"`
	Mine      []stock.Subscription `json:"-"`
}

// Reply names what was cancelled, or what there is.
func (c Cancelled) Reply(rd *render.Renderer) chat.Reply {
	l, en := c.Lang, c.Lang.English()
	if len(c.Cancelled) == 0 {
		rep := chat.Reply{Title: l.T("subscribe.cancel.none")}
		if len(c.Mine) > 0 {
			rep.Lines = Lines(rd, c.Mine, en)
		}
		return rep
	}
	return chat.Reply{Title: l.T("subscribe.cancel.done", len(c.Cancelled)), Lines: Lines(rd, c.Cancelled, en)}
}

// Muted is the chat's mute set (Until, Minutes long) or lifted (zero
// Until).
type Muted struct {
	Lang    i18n.Lang `json:"-"`
	Until   time.Time `json:"-"`
	Minutes int       `json:"-"`
	// Longer: the chat was already muted past the end asked for (Until is
	// that end, kept; Minutes the length asked for).
	Longer bool `json:"-"`
	// Problems are what the question held that was not used.
	Problems   []string `json:"-"`
	UnknownGPU string   `json:"-"`
}

// Reply says until when, or that alerts are back.
func (m Muted) Reply(rd *render.Renderer) chat.Reply {
	l := m.Lang
	rep := chat.Reply{Title: l.T("subscribe.mute.off")}
	switch {
	case m.Longer:
		rep.Title = l.T("subscribe.mute.longer", rd.Clock.Minute(m.Until), Duration(time.Duration(m.Minutes)*time.Minute, l))
	case !m.Until.IsZero():
		rep.Title = l.T("subscribe.mute.until", rd.Clock.Minute(m.Until), Duration(time.Duration(m.Minutes)*time.Minute, l))
	}
	rep.Lines = append(rep.Lines, render.ProblemLines(m.Problems, m.UnknownGPU, l.English())...)
	return rep
}

// Lines are subscriptions numbered from 1, each in one line.
func Lines(rd *render.Renderer, subs []stock.Subscription, en bool) []string {
	var out []string
	for i, s := range subs {
		out = append(out, fmt.Sprintf("%d. %s", i+1, rd.Describe(s, en)))
	}
	return out
}

// Duration is a cooldown or a mute's length: whole days, hours, hours
// and minutes, minutes or seconds.
func Duration(d time.Duration, l i18n.Lang) string {
	switch {
	case d >= 24*time.Hour && d%(24*time.Hour) == 0:
		return l.T("subscribe.duration.days", int(d.Hours()/24))
	case d >= time.Hour && d%time.Hour == 0:
		return l.T("subscribe.duration.hours", int(d.Hours()))
	case d >= time.Hour:
		return l.T("subscribe.duration.hours_minutes", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return l.T("subscribe.duration.minutes", int(d.Minutes()))
	}
	return l.T("subscribe.duration.seconds", int(d.Seconds()))
}
