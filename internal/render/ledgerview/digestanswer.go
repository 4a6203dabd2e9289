package ledgerview

import (
	"strings"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// DigestAnswer answers "本周存储花费": the digest of the week asked
// (Digest), its JSON form rounded to the fen (Rounded). A month question
// ("这个月存储花了多少") has the month first (MonthFirst): this month
// to date, or, Past, last month's whole total (LastMonth, when it could
// be summed).
type DigestAnswer struct {
	Lang       i18n.Lang     `json:"-"`
	Digest     ledger.Digest `json:"-"`
	Rounded    ledger.Digest `json:"digest"`
	MonthFirst bool          `json:"-"`
	Past       bool          `json:"-"`
	LastMonth  *MonthTotal   `json:"-"`
}

// MonthTotal is a month's storage spend ("2026-10", CNY).
type MonthTotal struct {
	Month string
	CNY   float64
}

// Reply is the digest (Digest), or for a month question the month's
// spend first and the week after.
func (a DigestAnswer) Reply(rd *render.Renderer) chat.Reply {
	rep := Digest(a.Digest, a.Lang.English(), rd.PlatformName)
	if !a.MonthFirst {
		return rep
	}
	return a.monthFirst(rep)
}

// monthFirst puts the month's spend before a digest: this month to date
// and its forecast, or last month's whole total (a month that is over
// has no forecast); marked when a seed-only price is in it.
func (a DigestAnswer) monthFirst(rep chat.Reply) chat.Reply {
	l, d := a.Lang, a.Digest
	mark := ""
	for _, p := range d.MonthPlatforms {
		if d.Unverified(p) {
			mark = "*"
		}
	}
	month := l.T("digest.month.this", d.Month, d.MonthToDateCNY, mark, d.ForecastCNY, mark)
	if a.Past && a.LastMonth != nil {
		month = l.T("digest.month.last", a.LastMonth.Month, a.LastMonth.CNY, mark)
	}
	var lines []string
	for _, line := range rep.Lines {
		if !strings.Contains(line, d.Month) {
			lines = append(lines, line)
		}
	}
	week := l.T("digest.month.this_week", rep.Title)
	if a.Past {
		week = l.T("digest.month.last_week", rep.Title)
	}
	rep.Lines = append([]string{week}, lines...)
	rep.Title = month
	return rep
}

// NoDigest: the digest could not be made (a week that is no ISO week).
type NoDigest struct {
	Lang i18n.Lang `json:"-"`
	Err  string    `json:"-"`
}

// Reply says why.
func (n NoDigest) Reply(*render.Renderer) chat.Reply {
	return chat.Reply{Title: n.Lang.T("digest.none", n.Err)}
}

// DigestSwitch: the weekly digest turned on or off for the chat.
type DigestSwitch struct {
	Lang i18n.Lang `json:"-"`
	On   bool      `json:"-"`
}

// Reply says what now happens.
func (s DigestSwitch) Reply(*render.Renderer) chat.Reply {
	l := s.Lang
	if s.On {
		return chat.Reply{Title: l.T("digest.on"), Notes: []string{l.T("digest.on_hint")}}
	}
	return chat.Reply{Title: l.T("digest.off")}
}

// DigestInfo answers a question about the weekly digest ("周报是每周几发的",
// "is the digest on here?"): when it is sent and whether this chat gets
// it (On nil: not known); nothing changes. Asked: the question was
// whether it is on, and the reply says that first; Weekday and Clock are
// when the schedule posts it (Weekday -1: not known).
type DigestInfo struct {
	Lang    i18n.Lang `json:"-"`
	On      *bool     `json:"on,omitempty"`
	Asked   bool      `json:"-"`
	Weekday int       `json:"-"`
	Clock   string    `json:"-"`
	// Schedule is the config's storage.digest_schedule, said first when
	// the question asked to move the digest (ScheduleAsked).
	Schedule      string `json:"-"`
	ScheduleAsked bool   `json:"-"`
}

// Reply says whether it is on here (when asked), when the digest goes
// out and how to switch it.
func (s DigestInfo) Reply(*render.Renderer) chat.Reply {
	l := s.Lang
	when := l.T("digest.info")
	if s.Weekday >= 0 && s.Clock != "" {
		when = l.T("digest.info_at", l.L("digest.weekdays")[s.Weekday%7], s.Clock)
	}
	note := l.T("digest.info_unknown")
	switch {
	case s.On == nil:
	case *s.On:
		note = l.T("digest.info_on")
	default:
		note = l.T("digest.info_off")
	}
	if s.Asked && s.On != nil {
		verdict := l.T("digest.info_no")
		if *s.On {
			verdict = l.T("digest.info_yes")
		}
		return chat.Reply{Title: verdict + when, Notes: []string{note}}
	}
	if s.ScheduleAsked {
		lead := l.T("digest.info_schedule_default")
		if s.Schedule != "" {
			lead = l.T("digest.info_schedule", s.Schedule)
		}
		return chat.Reply{Title: lead, Lines: []string{when}, Notes: []string{note}}
	}
	return chat.Reply{Title: when, Notes: []string{note}}
}
