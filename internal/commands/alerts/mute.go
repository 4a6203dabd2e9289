package alerts

import (
	"context"
	"time"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/alertview"
	"github.com/labgpu/bot/internal/understand"
)

func init() { answer.Register(answer.Intent{Name: understand.IntentMute, Answer: muteAnswer}) }

// maxMute is the longest a chat's alerts are muted.
const maxMute = 7 * 24 * time.Hour

// muteAnswer answers "静音 2小时", "免打扰到明早" (at most a week) and
// "取消静音" (MuteMinutes 0) for the asker's chat.
func muteAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	l := i18n.Of(a.English)
	if Off(a) {
		return a.Out(alertview.Off{Lang: l})
	}
	now := a.Now()
	var until time.Time
	switch {
	case a.MuteUntil != "":
		until = understand.MuteEnd(now, a.Rd.Clock.Location(), a.MuteUntil, a.MuteTomorrow, a.MuteWeekday)
		a.MuteMinutes = int(until.Sub(now).Round(time.Minute).Minutes())
		if a.MuteMinutes > int(maxMute/time.Minute) {
			a.MuteMinutes = int(maxMute / time.Minute)
			until = now.Add(maxMute)
		}
	case a.MuteMinutes > 0:
		until = now.Add(time.Duration(a.MuteMinutes) * time.Minute)
	}
	if !until.IsZero() {
		// A mute never shortens a longer one (a "确认" of an hour asked
		// before, while the chat is muted for three): the longer is kept,
		// unless it changes the mute just set ("actually make it 2h").
		if cur, err := a.Alerts.Log.MutedUntil(ctx, a.From.ChatKey()); err == nil && cur.After(until) && !a.MuteEdit {
			return a.Out(alertview.Muted{Lang: l, Until: cur, Minutes: a.MuteMinutes, Longer: true, Problems: a.Problems, UnknownGPU: a.UnknownGPU})
		}
	}
	if err := a.Alerts.Log.SetMute(ctx, a.From.ChatKey(), until); err != nil {
		return a.Out(answer.StoreError(a.English, err))
	}
	return a.Out(alertview.Muted{Lang: l, Until: until, Minutes: a.MuteMinutes, Problems: a.Problems, UnknownGPU: a.UnknownGPU})
}
