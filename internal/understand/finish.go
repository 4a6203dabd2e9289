package understand

import (
	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/textgate"
)

// reMine limits a storage list to the sender's own disks.
var reMine = textgate.MustCompile(`我的|我自己|我名下|我登记|我租的|\bmy\b|\bmine\b`)

// finish fills the chosen intent's own slots and drops slots that mean
// something else there.
func (u *Understander) finish(x *extraction, m *advice.Result) {
	q := x.Query()
	switch q.Intent {
	case IntentSubscribe:
		x.SubscribeSlots()
	case IntentUnsubscribe:
		x.UnsubscribeSlots()
	case IntentMute:
		x.MuteSlots()
	case IntentStorageAdd:
		q.Note = x.StorageNote()
		if len(q.Platforms) > 1 {
			q.Platforms = q.Platforms[:1]
		}
	case IntentStorageList:
		q.Mine = reMine.MatchString(x.Folded())
	case IntentHelp:
		q.Area = helpArea(x.Folded())
	case IntentAdvice:
		q.KB = m
		if m.Best != nil && m.Best.Topic.ID == q.Topic {
			q.Score = round2(m.Best.Score)
		} else {
			q.Score = q.Confidence
		}
	}
	if q.Intent != IntentEstimate && q.Intent != IntentAdvice && q.Model == "" {
		// A size outside an estimate is not a model size ("我在3B教室").
		q.SizeB, q.ParamsB = q.ParamsB, 0
	}
	if q.Intent != IntentEstimate && q.Intent != IntentAdvice {
		q.Workload = ""
	}
	switch q.Intent {
	case IntentStorageResize, IntentStorageStop, IntentStorageStart, IntentStorageRemove, IntentStorageAdd:
	default:
		if q.Intent != IntentStorageList {
			q.DiskRef = ""
		}
		if q.Intent != IntentAdvice && q.Intent != IntentFactCheck {
			q.SizeGB = 0
		}
	}
}
