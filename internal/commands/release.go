package commands

import (
	"context"

	"github.com/labgpu/bot/internal/billing/ledger"
)

// storageRiskAnswer handles "哪些盘快被释放了": the lab's stopped disks
// that their platforms' retention rules will release or wipe
// (billing.ReleaseRisks), or only the asker's ("我的盘会不会被清空").
func (r *Router) storageRiskAnswer(ctx context.Context, res *Result) {
	if r.storageOff(res) {
		return
	}
	_, events, err := r.labEvents(ctx, res.msg)
	if err != nil {
		res.Reply = storeError(res.English, err)
		return
	}
	now := r.now()
	risks := ledger.ReleaseRisks(events, r.cat, now)
	if res.Mine {
		mine := risks[:0]
		for _, a := range risks {
			if a.Owner == res.msg.SenderID {
				mine = append(mine, a)
			}
		}
		risks = mine
	}
	res.Risks = risks
	res.Reply = r.rd.ReleaseList(risks, now, res.English)
}
