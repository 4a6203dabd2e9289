package commands

import (
	"context"
	"github.com/labgpu/bot/internal/commands/alerts"
	"slices"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/alertview"
	"github.com/labgpu/bot/internal/render/ledgerview"
	"github.com/labgpu/bot/internal/render/metaview"
	"github.com/labgpu/bot/internal/understand"
)

// Actions only when asked: an intent that changes state (its definition
// has verbs: mute, unsubscribe, the storage ledger's changes, the digest
// switch) is done only when the message has one of its verbs and the
// reading is sure (understand.ActionFloor). Otherwise the bot asks what
// it would do ("要把本群提醒静音 1 小时吗？回“确认”") and does nothing; the
// sender's "确认" within FrameTTL does it (the action waits under the
// sender's pending key), anything else drops it.

// asksFirst reports whether q is an action the message did not clearly
// ask for.
func (r *Router) asksFirst(q Query) bool {
	if !r.in.Def(q.Intent).Action() {
		return false
	}
	return !slices.Contains(q.Verbs, q.Intent) || q.Confidence < understand.ActionFloor || r.longWeekMute(q)
}

// longWeekMute reports whether q mutes to a day read from words about the
// week for longer than longWeekMute allows ("mute for the weekend" said on
// a Tuesday mutes until Monday): said back, with its end, before it is
// done.
func (r *Router) longWeekMute(q Query) bool {
	if q.Intent != IntentMute || !q.MuteWeekWords || q.MuteUntil == "" {
		return false
	}
	now := r.now()
	end := understand.MuteEnd(now, r.rd.Clock.Location(), q.MuteUntil, q.MuteTomorrow, q.MuteWeekday)
	return end.Sub(now) > maxWeekWordsMute
}

// maxWeekWordsMute is the longest mute read from words about the week
// that is done without asking (a weekend's, said on Friday or Saturday).
const maxWeekWordsMute = 72 * time.Hour

// confirmIntent answers an action asked first with the question.
func (r *Router) confirmIntent(name string) answer.Intent {
	return answer.Intent{Name: name, Answer: r.confirmAnswer}
}

// confirmAnswer asks whether to do the action a.Query reads as.
func (r *Router) confirmAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	l := i18n.Of(a.English)
	p := metaview.Confirm{Lang: l, Do: r.describeAction(a, l)}
	if a.Intent == IntentMute {
		p.Lines = r.muteLines(ctx, a, l)
	}
	return a.Out(p)
}

// describeAction says what the action would do, as a clause.
func (r *Router) describeAction(a *answer.Ask, l i18n.Lang) string {
	q := a.Query
	switch q.Intent {
	case IntentMute:
		return describeMute(q, l)
	case IntentUnsubscribe:
		switch {
		case q.All:
			return l.T("router.confirm.unsubscribe_all")
		case len(q.NamedGPUs) > 0:
			return l.T("router.confirm.unsubscribe_gpus", strings.Join(q.NamedGPUs, l.T("router.frame.join")))
		case q.SubRef != "":
			return l.T("router.confirm.unsubscribe_ref", q.SubRef)
		}
		return l.T("router.confirm.unsubscribe")
	case IntentSubscribe:
		if len(q.GPUs) > 0 {
			return l.T("router.confirm.subscribe_gpus", strings.Join(q.GPUs, l.T("router.frame.join")))
		}
		return l.T("router.confirm.subscribe")
	case IntentStorageAdd:
		if q.Platform == "" || q.SizeGB <= 0 {
			return l.T("router.confirm.storage_add_any")
		}
		return l.T("router.confirm.storage_add", r.rd.PlatformName(q.Platform, a.English), ledgerview.GBText(q.SizeGB))
	case IntentDigestOn:
		return l.T("router.confirm.digest_on")
	case IntentDigestOff:
		return l.T("router.confirm.digest_off")
	}
	return describeDiskChange(q, l)
}

// describeMute says what a mute or an unmute would do.
func describeMute(q Query, l i18n.Lang) string {
	switch {
	case q.MuteUntil != "":
		day := ""
		switch {
		case q.MuteWeekday > 0:
			day = understand.WeekdayName(q.MuteWeekday, l.English()) + " "
		case q.MuteTomorrow:
			day = l.T("router.confirm.tomorrow")
		}
		return l.T("router.confirm.mute_until", day+q.MuteUntil)
	case q.MuteMinutes > 0:
		return l.T("router.confirm.mute", alertview.Duration(time.Duration(q.MuteMinutes)*time.Minute, l))
	}
	return l.T("router.confirm.unmute")
}

// describeDiskChange says what a change to a registered disk would do.
func describeDiskChange(q Query, l i18n.Lang) string {
	if q.DiskRef == "" {
		return l.T("router.confirm.storage_which")
	}
	switch q.Intent {
	case IntentStorageResize:
		return l.T("router.confirm.storage_resize", q.DiskRef, ledgerview.GBText(q.SizeGB))
	case IntentStorageStop:
		return l.T("router.confirm.storage_stop", q.DiskRef)
	case IntentStorageStart:
		return l.T("router.confirm.storage_start", q.DiskRef)
	}
	return l.T("router.confirm.storage_remove", q.DiskRef)
}

// muteLines are what a mute asked first says besides: what muting does,
// and until when the chat is muted already.
func (r *Router) muteLines(ctx context.Context, a *answer.Ask, l i18n.Lang) []string {
	var lines []string
	if a.MuteMinutes > 0 || a.MuteUntil != "" {
		lines = append(lines, l.T("router.confirm.mute_note"))
	}
	if alerts.Off(a) {
		return lines
	}
	if until, err := a.Alerts.Log.MutedUntil(ctx, a.From.ChatKey()); err == nil && a.Now().Before(until) {
		lines = append(lines, l.T("router.confirm.muted_now", r.rd.Clock.Minute(until)))
	}
	return lines
}

// explainLine says what an action would mean, for a question about it
// ("取消订阅会怎样"): the reply's first line, before the state it is about.
func explainLine(action string, l i18n.Lang) string {
	if key, ok := explainKeys[action]; ok {
		return l.T(key)
	}
	return ""
}

// explainKeys are the catalog's explanation of each action.
var explainKeys = map[string]string{
	IntentMute: "explain.mute", IntentSubscribe: "explain.subscribe", IntentUnsubscribe: "explain.unsubscribe",
	IntentDigestOn: "explain.digest_on", IntentDigestOff: "explain.digest_off",
	IntentStorageAdd: "explain.storage_add", IntentStorageRemove: "explain.storage_remove",
	IntentStorageStop: "explain.storage_stop", IntentStorageStart: "explain.storage_start",
	IntentStorageResize: "explain.storage_resize",
}

// withLead puts line first in rep, its title after it.
func withLead(rep chat.Reply, line string) chat.Reply {
	if line == "" {
		return rep
	}
	lead := func(r chat.Reply) chat.Reply {
		if r.Title != "" {
			r.Lines = append([]string{r.Title}, r.Lines...)
		}
		r.Title = line
		return r
	}
	if rep.Full != nil {
		full := lead(*rep.Full)
		rep.Full = &full
	}
	return lead(rep)
}
