package storage

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/ledgerview"
	"github.com/labgpu/bot/internal/understand"
)

func init() {
	answer.Register(answer.Intent{Name: understand.IntentDigest, Answer: digestAnswer})
	answer.Register(answer.Intent{Name: understand.IntentDigestOn, Answer: digestSwitchAnswer})
	answer.Register(answer.Intent{Name: understand.IntentDigestOff, Answer: digestSwitchAnswer})
}

// digestAnswer answers "本周存储花费", "存储周报 2026-W47", "上周存储花了多少"
// and the month ("这个月存储花了多少": the month first, the week after):
// the digest of the lab's ledger, with the disks about to be released.
func digestAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	if off := Off(a); off != nil {
		return a.Out(off)
	}
	l := i18n.Of(a.English)
	if a.AskedAbout == understand.IntentDigestOn || a.AskedAbout == understand.IntentDigestOff || a.StateAsk == "digest" || a.Explain != "" {
		p := ledgerview.DigestInfo{Lang: l, On: digestOn(ctx, a), Asked: a.StateAsk == "digest", Weekday: -1}
		p.Weekday, p.Clock = weeklyAt(a.Storage.DigestSchedule)
		p.Schedule, p.ScheduleAsked = a.Storage.DigestSchedule, a.Explain == understand.ExplainDigestSchedule
		return a.Out(p)
	}
	lab, events, err := a.Storage.Events(ctx, a.From)
	if err != nil {
		return a.Out(answer.StoreError(a.English, err))
	}
	now, loc := a.Now(), a.Rd.Clock.Location()
	d, err := ledger.BuildDigest(events, lab, digestWeek(a, now.In(loc), loc), loc, a.Storage.Price, now)
	if err != nil {
		return a.Out(ledgerview.NoDigest{Lang: l, Err: err.Error()})
	}
	ledger.PriceNotes(&d, a.Cat, a.Storage.Overrides)
	d.ReleaseSoon, d.ReleaseAsOf = ledger.ReleaseRisks(events, a.Cat, now), now
	p := ledgerview.DigestAnswer{Lang: l, Digest: d, Rounded: d.Rounded(),
		MonthFirst: a.Period == understand.PeriodThisMonth || a.Period == understand.PeriodLastMonth, Past: a.Period == understand.PeriodLastMonth}
	if p.Past {
		// A month that is over: its whole total, no forecast.
		now := now.In(loc)
		end := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc).Add(-time.Nanosecond)
		if total, err := ledger.MonthToDate(events, end, loc, a.Storage.Price); err == nil {
			p.LastMonth = &ledgerview.MonthTotal{Month: end.Format("2006-01"), CNY: total}
		}
	}
	return a.Out(p)
}

// digestChats is a ledger that lists the chats the digest goes to (both
// stores).
type digestChats interface {
	DigestChats(ctx context.Context) ([]string, error)
}

// digestOn reports whether the asker's chat gets the weekly digest (nil
// when the store cannot say).
func digestOn(ctx context.Context, a *answer.Ask) *bool {
	dc, ok := a.Storage.Ledger.(digestChats)
	if !ok {
		return nil
	}
	chats, err := dc.DigestChats(ctx)
	if err != nil {
		return nil
	}
	on := slices.Contains(chats, a.From.ChatKey())
	return &on
}

// digestWeek is the ISO week a digest question asks about: the week it
// names ("2026-W47"; "W47" in the current year), last week, the week
// holding the end of last month, or the current week.
func digestWeek(a *answer.Ask, now time.Time, loc *time.Location) string {
	switch {
	case strings.HasPrefix(a.Week, "-W") || strings.HasPrefix(a.Week, "W"):
		return fmt.Sprintf("%d-W%s", now.Year(), strings.TrimLeft(a.Week, "-W"))
	case a.Week != "":
		return a.Week
	case a.Period == understand.PeriodLastWeek:
		return ledger.WeekOf(now.AddDate(0, 0, -7), loc)
	case a.Period == understand.PeriodLastMonth:
		// The last week that lies wholly in last month: its digest's
		// month-to-date is last month's.
		first := time.Date(now.Year(), now.Month(), 1, 12, 0, 0, 0, loc)
		return ledger.WeekOf(first.AddDate(0, 0, -7), loc)
	}
	return ledger.WeekOf(now, loc)
}

// digestSwitchAnswer answers "开启周报" and "关闭周报" for the asker's
// chat.
func digestSwitchAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	if off := Off(a); off != nil {
		return a.Out(off)
	}
	on := a.Intent == understand.IntentDigestOn
	if err := a.Storage.Ledger.SetDigestChat(ctx, a.From.ChatKey(), on); err != nil {
		return a.Out(answer.StoreError(a.English, err))
	}
	return a.Out(ledgerview.DigestSwitch{Lang: i18n.Of(a.English), On: on})
}

// weeklyAt reads a weekly cron spec ("0 9 * * 1": minute, hour, any
// day, any month, one weekday) as its weekday (0 Sunday) and clock time;
// -1 and "" for any other spec.
func weeklyAt(spec string) (int, string) {
	f := strings.Fields(spec)
	if len(f) != 5 || f[2] != "*" || f[3] != "*" {
		return -1, ""
	}
	m, errM := strconv.Atoi(f[0])
	h, errH := strconv.Atoi(f[1])
	d, errD := strconv.Atoi(f[4])
	if errM != nil || errH != nil || errD != nil || m < 0 || m > 59 || h < 0 || h > 23 || d < 0 || d > 7 {
		return -1, ""
	}
	return d % 7, fmt.Sprintf("%d:%02d", h, m)
}
