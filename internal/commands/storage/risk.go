package storage

import (
	"context"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/ledgerview"
	"github.com/labgpu/bot/internal/understand"
)

func init() {
	answer.Register(answer.Intent{Name: understand.IntentStorageRisk, Answer: storageRiskAnswer})
}

// storageRiskAnswer answers "哪些盘快被释放了": the lab's stopped disks
// that their platforms' retention rules will release or wipe
// (ledger.ReleaseRisks), or only the asker's ("我的盘会不会被清空").
func storageRiskAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	if off := Off(a); off != nil {
		return a.Out(off)
	}
	_, events, err := a.Storage.Events(ctx, a.From)
	if err != nil {
		return a.Out(answer.StoreError(a.English, err))
	}
	now := a.Now()
	risks := ledger.ReleaseRisks(events, a.Cat, now)
	if a.Mine {
		mine := risks[:0]
		for _, r := range risks {
			if r.Owner == a.From.SenderID {
				mine = append(mine, r)
			}
		}
		risks = mine
	}
	return a.Out(ledgerview.Risks{Lang: i18n.Of(a.English), Risks: risks, Now: now})
}
