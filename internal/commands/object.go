package commands

import (
	"context"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
)

// A destructive action that names no object ("删了吧", "把那块删掉",
// "delete that disk") is read against what the member has: the storage
// ledger's disks when the message names a disk or the member has no
// subscription, else the member's subscriptions. One thing to act on is
// named and asked first (never done on the bare verb); several are
// listed and the member asked which; the first is never taken.

// objectOf gives q, an unsubscribe or a disk removal without its object,
// the object the chat's state decides; q unchanged for any other
// message.
func (r *Router) objectOf(ctx context.Context, q Query, msg chat.Message) Query {
	if !objectless(q) || msg.ChatID == "" {
		return q
	}
	a := &answer.Ask{Query: q, From: askerOf(msg), Env: r.env}
	var disks []ledger.DiskState
	if storageOff(a) == nil {
		if _, events, err := a.Storage.Events(ctx, a.From); err == nil {
			disks, _ = ledger.DisksAt(events, a.Now())
		}
	}
	subs, failed := mySubscriptions(ctx, a)
	if failed != nil {
		subs = nil
	}
	switch {
	case len(disks) > 0 && (q.NamesDisks || len(subs) == 0):
		q.Intent = IntentStorageRemove
		if len(disks) == 1 {
			q.DiskRef, q.Verbs = disks[0].Disk, nil // named, and asked first
		}
	case len(subs) == 1 && !q.NamesDisks:
		q.Intent, q.SubRef, q.Verbs = IntentUnsubscribe, "1", nil
	}
	return q
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
