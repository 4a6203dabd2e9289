// Package storage answers the storage ledger's intents: a disk registered
// (storage_add), the lab's disks listed with what they cost and a budget's
// advice (storage_list, with the admin commands said to it), a disk
// resized, stopped, started or removed (storage_resize, _stop, _start,
// _remove), the stopped disks at risk (storage_risk) and the ledger's
// digest and its switch (digest, digest_on, digest_off). Each registers
// itself and answers from the Ask alone, the ledger's state and stores
// being the Env's (answer.Storage). Follow reads a message after a ledger
// answer as its follow-up (the router's conversation calls it; Frames are
// the answers it continues).
package storage

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/ledgerview"
	"github.com/labgpu/bot/internal/understand"
)

// ledgerTries is how often a change is decided again when another
// write to the lab's ledger came between its read and its write.
const ledgerTries = 8

// Off is the answer when the ledger is not enabled (nil when it
// is).
func Off(a *answer.Ask) render.Payload {
	if a.Storage.On() {
		return nil
	}
	return ledgerview.Off{Lang: i18n.Of(a.English)}
}

// diskCost is what a data disk of sizeGB on platform costs, running or
// stopped, as the ledger prices it (ledgerview.DiskCost).
func diskCost(a *answer.Ask, platform string, sizeGB float64, stopped bool) ledgerview.DiskCost {
	perDay, free, ok := a.Storage.Price(platform, stopped)
	if !ok {
		return ledgerview.DiskCost{}
	}
	c := ledgerview.DiskCost{Priced: true, PerDay: perDay, FreeGB: free, BillableGB: max(sizeGB-free, 0), Unverified: diskPriceUnverified(a, platform)}
	p, known := a.Cat.Platform(platform)
	if known && stopped && perDay == 0 && !p.Storage.BilledWhileStopped {
		c.FreeWhileStopped = true
	}
	if _, over := a.Storage.Overrides[platform]; over {
		c.Override = true
	} else if known && p.Storage.DataDiskCNYPerGBDay != nil {
		c.Cite = answer.Cite(a.Cat, platform, *p.Storage.DataDiskCNYPerGBDay, a.English)
	}
	return c
}

// diskPriceUnverified reports whether the data disk price the ledger uses
// for platform is one only the seed articles give (no lab override, a
// catalog figure not verified): answers mark it with render.MarkUnverified.
func diskPriceUnverified(a *answer.Ask, platform string) bool {
	if _, ok := a.Storage.Overrides[platform]; ok {
		return false
	}
	p, ok := a.Cat.Platform(platform)
	return ok && p.Storage.DataDiskCNYPerGBDay != nil && !p.Storage.DataDiskCNYPerGBDay.Verified
}

// sizeProblem names a size that is no disk size, as the asker wrote it.
func sizeProblem(q understand.Query) ledgerview.Problem {
	text := q.SizeText
	if text == "" {
		text = ledgerview.GBText(q.SizeGB)
	}
	return ledgerview.Problem{Kind: ledgerview.ProblemSize, Size: text, TooLarge: q.SizeGB > understand.MaxDiskGB}
}

// sortDisks orders disks by number ("#2" before "#10"), ids that are no
// number after.
func sortDisks(disks []ledger.DiskState) {
	slices.SortStableFunc(disks, func(a, b ledger.DiskState) int {
		an, aErr := strconv.Atoi(a.Disk)
		bn, bErr := strconv.Atoi(b.Disk)
		switch {
		case aErr == nil && bErr == nil:
			return cmp.Compare(an, bn)
		case aErr == nil:
			return -1
		case bErr == nil:
			return 1
		}
		return strings.Compare(a.Disk, b.Disk)
	})
}

// findDisk is the disk a command names: its id as listed (ids an
// imported ledger gave are matched without regard to case), or nil.
func findDisk(disks []ledger.DiskState, ref string) *ledger.DiskState {
	for i := range disks {
		if strings.EqualFold(disks[i].Disk, ref) {
			return &disks[i]
		}
	}
	return nil
}

// labDisks are the asker's lab and its disks now, or the answer when the
// store fails. (DisksAt skips inconsistent events and never fails.)
func labDisks(ctx context.Context, a *answer.Ask) (string, []ledger.DiskState, render.Payload) {
	lab, events, err := a.Storage.Events(ctx, a.From)
	if err != nil {
		return "", nil, answer.StoreError(a.English, err)
	}
	disks, _ := ledger.DisksAt(events, a.Now())
	return lab, disks, nil
}
