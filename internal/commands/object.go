package commands

import (
	"context"
	"github.com/labgpu/bot/internal/commands/alerts"
	"slices"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/commands/storage"
)

// A destructive action that names no object ("删了吧", "把那块删掉",
// "delete that disk") is read against what the member has: the disks
// the member registered when the message names a disk, says a disk's
// removal verb ("那块删了吧") or continues a ledger answer, else the member's subscriptions ("别再@我了", "不用了谢谢"
// with none: the answer says there is none; never another member's disk,
// never a disk the message is not about). One thing to act on is named
// and asked first (never done on the bare verb); several are listed and
// the member asked which; the first is never taken.

// objectOf gives q, an unsubscribe or a disk removal without its object,
// the object the chat's state decides (ledger: the conversation's last
// answer was about the ledger); q unchanged for any other message.
func (r *Router) objectOf(ctx context.Context, q Query, msg chat.Message, ledgerAnswer bool) Query {
	if !objectless(q) || msg.ChatID == "" {
		return q
	}
	a := &answer.Ask{Query: q, From: askerOf(msg), Env: r.env}
	var disks []ledger.DiskState
	if storage.Off(a) == nil && (q.NamesDisks || ledgerAnswer || slices.Contains(q.Verbs, IntentStorageRemove)) {
		if _, events, err := a.Storage.Events(ctx, a.From); err == nil {
			all, _ := ledger.DisksAt(events, a.Now())
			for _, d := range all {
				if a.From.OwnsDisk(d.Owner) {
					disks = append(disks, d)
				}
			}
		}
	}
	subs, failed := alerts.Mine(ctx, a)
	if failed != nil {
		subs = nil
	}
	switch {
	case len(disks) == 0 && len(subs) == 0 && failed == nil && q.Intent == IntentUnsubscribe:
		// Nothing to stop: the answer says the member has no alerts.
		q.Intent, q.Verbs = IntentSubscriptions, nil
	case len(disks) > 0:
		q.Intent = diskAction(q)
		if d, ok := oneDisk(disks, q.SizeGB); ok {
			q.DiskRef, q.Verbs = d, nil // named, and asked first
		}
	case len(subs) == 1 && !q.NamesDisks:
		q.Intent, q.SubRef, q.Verbs = IntentUnsubscribe, "1", nil
	}
	return q
}

// diskAction is the ledger change an objectless stop or removal asks
// for: "那块停掉吧", "关掉它" shut the instance down (a stop), anything
// else takes the disk off the ledger.
func diskAction(q Query) string {
	if slices.Contains(q.Verbs, IntentStorageStop) && !slices.Contains(q.Verbs, IntentStorageRemove) {
		return IntentStorageStop
	}
	return IntentStorageRemove
}

// oneDisk is the disk a message means among the member's: the only one,
// or the only one of the size it names ("那个50G的").
func oneDisk(disks []ledger.DiskState, sizeGB float64) (string, bool) {
	if len(disks) == 1 {
		return disks[0].Disk, true
	}
	var found []string
	for _, d := range disks {
		if sizeGB > 0 && d.SizeGB == sizeGB {
			found = append(found, d.Disk)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return "", false
}

// objectless reports whether q removes something without saying what:
// an unsubscribe naming no subscription, card or alert word, or a disk
// removal naming no disk.
func objectless(q Query) bool {
	switch q.Intent {
	case IntentUnsubscribe:
		return !q.All && q.SubRef == "" && len(q.GPUs) == 0 && q.UnknownGPU == "" && !q.NamesAlerts
	case IntentStorageRemove:
		return q.DiskRef == "" && !q.MoreDisks && !q.NamesAlerts
	}
	return false
}
