package storage

import (
	"context"
	"errors"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/ledgerview"
	"github.com/labgpu/bot/internal/understand"
)

func init() {
	for _, name := range []string{understand.IntentStorageResize, understand.IntentStorageStop, understand.IntentStorageStart, understand.IntentStorageRemove} {
		answer.Register(answer.Intent{Name: name, Answer: storageChangeAnswer})
	}
}

// storageChangeAnswer answers "存储 3 扩容到 200G", "存储 3 已关机", "存储 3
// 开机" and "删除存储 3". The change is decided on the ledger as read and
// written only if the ledger still holds what was read
// (AppendStorageEventsIf); when another write came between, it is
// decided again on the new ledger (a remove and a resize of one disk at
// the same moment: the second sees the disk gone).
func storageChangeAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	if off := Off(a); off != nil {
		return a.Out(off)
	}
	if refusal, ok := changeRefusal(a); ok {
		if refusal.Why == ledgerview.UnchangedWhich {
			// Which disk: the lab's are listed to pick from.
			if _, disks, failed := labDisks(ctx, a); failed == nil {
				refusal.Disks = disks
			}
		}
		return a.Out(refusal)
	}
	for range ledgerTries {
		lab, events, err := a.Storage.Events(ctx, a.From)
		if err != nil {
			return a.Out(answer.StoreError(a.English, err))
		}
		disks, _ := ledger.DisksAt(events, a.Now())
		c, refused := decideChange(ctx, a, lab, disks)
		if refused != nil {
			return a.Out(refused)
		}
		err = a.Storage.Ledger.AppendStorageEventsIf(ctx, lab, len(events), []ledger.StorageEvent{c.Event})
		if errors.Is(err, ledger.ErrLedgerChanged) {
			continue
		}
		if err != nil {
			return a.Out(answer.StoreError(a.English, err))
		}
		return a.Out(changed(a, c))
	}
	return a.Out(unchanged(a, ledgerview.UnchangedBusy))
}

// unchanged is the answer of a change that changed nothing, and why.
func unchanged(a *answer.Ask, why string) ledgerview.Unchanged {
	return ledgerview.Unchanged{Lang: i18n.Of(a.English), Why: why, Disk: a.DiskRef}
}

// changeRefusal refuses a change the command itself rules out, before
// the ledger is read: two disks, no disk named, or a new size that is no
// disk size.
func changeRefusal(a *answer.Ask) (ledgerview.Unchanged, bool) {
	q := a.Query
	switch {
	case q.MoreDisks:
		return unchanged(a, ledgerview.UnchangedMoreDisks), true
	case q.DiskRef == "":
		u := unchanged(a, ledgerview.UnchangedWhich)
		u.Example = changeExample(a)
		return u, true
	case q.Intent != understand.IntentStorageResize || q.SizeText == "" && q.SizeGB > 0:
		return ledgerview.Unchanged{}, false
	}
	u := unchanged(a, ledgerview.UnchangedProblem)
	u.Problem = ledgerview.Problem{Kind: ledgerview.ProblemNewSize}
	if q.SizeText != "" || q.SizeGB < 0 {
		u.Problem = sizeProblem(q)
	}
	return u, true
}

// changeExample is the intent's own example as help shows it
// (configs/intents/*.yaml: Chinese first, then English); "" when it has
// none.
func changeExample(a *answer.Ask) string {
	d := a.Intents.Def(a.Intent)
	if d == nil || len(d.Help) == 0 {
		return ""
	}
	if a.English {
		for _, h := range d.Help {
			if !understand.HasCJK(h) {
				return h
			}
		}
	}
	return d.Help[0]
}

// decideChange decides the change the message asks for on disks: the
// event to write and the disk as it was, or the answer when there is
// none to make (no such disk, not the sender's, already in that state).
func decideChange(ctx context.Context, a *answer.Ask, lab string, disks []ledger.DiskState) (ledgerview.Changed, render.Payload) {
	disk := findDisk(disks, a.DiskRef)
	if disk == nil {
		return ledgerview.Changed{}, unchanged(a, ledgerview.UnchangedNoDisk)
	}
	if !a.From.OwnsDisk(disk.Owner) && !a.Storage.IsAdmin(ctx, a.From) {
		why := ledgerview.UnchangedNotOwner
		if disk.Owner == a.From.SenderID {
			why = ledgerview.UnchangedWeakOwner // a WeChat entry owned by a nickname: anyone can take one
		}
		u := unchanged(a, why)
		u.Disk, u.Owner = disk.Disk, *disk
		return ledgerview.Changed{}, u
	}
	e := ledger.StorageEvent{Time: a.Now(), Lab: lab, Owner: disk.Owner, OwnerName: disk.OwnerName, Platform: disk.Platform, Disk: disk.Disk}
	switch a.Intent {
	case understand.IntentStorageResize:
		e.Action, e.SizeGB = ledger.ActionResize, a.SizeGB
	case understand.IntentStorageStop:
		e.Action = ledger.ActionStop
	case understand.IntentStorageStart:
		e.Action = ledger.ActionStart
	default:
		e.Action = ledger.ActionRemove
	}
	if already := e.Action == ledger.ActionStop && disk.Stopped || e.Action == ledger.ActionStart && !disk.Stopped; already {
		u := unchanged(a, ledgerview.UnchangedAlreadyRunning)
		if disk.Stopped {
			u.Why = ledgerview.UnchangedAlreadyStopped
		}
		u.Disk = disk.Disk
		return ledgerview.Changed{}, u
	}
	return ledgerview.Changed{Lang: i18n.Of(a.English), Disk: *disk, Event: e}, nil
}

// changed is the answer to a change written to the ledger: for a resize
// what the disk costs now; for a stop the platform's release rules now
// running on it, from the same rules as the release-warning job (so the
// owner hears them at once), and what it costs stopped.
func changed(a *answer.Ask, c ledgerview.Changed) ledgerview.Changed {
	disk, e := c.Disk, c.Event
	switch e.Action {
	case ledger.ActionResize:
		c.Cost = diskCost(a, disk.Platform, e.SizeGB, disk.Stopped)
	case ledger.ActionStop:
		add := ledger.StorageEvent{Time: e.Time.Add(-time.Second), Lab: e.Lab, Owner: disk.Owner, OwnerName: disk.OwnerName,
			Platform: disk.Platform, Disk: disk.Disk, Action: ledger.ActionAdd, SizeGB: disk.SizeGB, Note: disk.Note}
		c.Risks, c.Now = ledger.ReleaseRisks([]ledger.StorageEvent{add, e}, a.Cat, e.Time), e.Time
		c.Cost = diskCost(a, disk.Platform, disk.SizeGB, true)
		if p, ok := a.Cat.Platform(disk.Platform); ok && p.Storage.BilledWhileStopped {
			c.BilledWhileStopped = true
		}
	}
	return c
}
