package storage

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/ledgerview"
	"github.com/labgpu/bot/internal/understand"
)

func init() {
	answer.Register(answer.Intent{Name: understand.IntentStorageList, Answer: storageListAnswer})
}

// storageListAnswer answers "存储列表" and "我的存储" (Mine): the lab's
// disks now by number, with what each costs per 30 days and the total.
// The admin commands ride on the same intent ("绑定管理员", "管理员列表",
// "解除管理员 …": storage_admin.go).
func storageListAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	if off := Off(a); off != nil {
		return a.Out(off)
	}
	if a.AdminCommand != "" {
		return a.Out(storageAdminAnswer(ctx, a))
	}
	_, disks, failed := labDisks(ctx, a)
	if failed != nil {
		return a.Out(failed)
	}
	now := a.Now()
	p := ledgerview.List{Lang: i18n.Of(a.English), Mine: a.Mine, AsOf: now}
	sortDisks(disks)
	if asked := askedDisk(a); asked != nil {
		p.Asked = asked
		for _, d := range disks {
			if diskMatches(d, asked) {
				asked.Found++
			}
		}
	}
	p.Focus = a.DiskRef
	p.Yearly = a.BillingMode == "yearly"
	p.AskTotal = a.LedgerPick == "total" && a.DiskRef == ""
	if a.LedgerPick == "stopped" && a.DiskRef == "" {
		// "停机的那块呢": the disk stopped longest.
		p.AskStopped = true
		var since time.Time
		for _, d := range disks {
			if d.Stopped && (!a.Mine || d.Owner == a.From.SenderID) && (p.Focus == "" || d.Since.Before(since)) {
				p.Focus, since = d.Disk, d.Since
			}
		}
	}
	for _, d := range disks {
		if a.Mine && d.Owner != a.From.SenderID || p.Asked != nil && p.Asked.Found > 0 && !diskMatches(d, p.Asked) {
			continue
		}
		row := ledgerview.ListDisk{DiskState: d, Days: int(now.Sub(d.Since).Hours() / 24), Yours: d.Owner == a.From.SenderID && d.Owner != "",
			NoteOwner: understand.NoteOwner(d.Note)}
		perDay, free, ok := a.Storage.Price(d.Platform, d.Stopped)
		if !ok {
			p.Unpriced++
		} else {
			m := max(d.SizeGB-free, 0) * perDay * 30
			p.Total += m
			row.Monthly = &m
			if d.Disk == p.Focus && a.FollowSizeGB > 0 {
				// "200G 一个月多少钱" after the disk's answer: at that size.
				p.At, p.AtMonthly = a.FollowSizeGB, max(a.FollowSizeGB-free, 0)*perDay*30
			}
			if perDay > 0 && diskPriceUnverified(a, d.Platform) {
				// A seed-only price, and the total it goes into.
				row.Marked, p.Marked = true, true
			}
		}
		p.Disks = append(p.Disks, row)
	}
	ledgerAdvice(a, &p)
	return a.Out(p)
}

// ledgerAdvice sets what p answers beyond the list: which disks to drop
// for a budget (or, asked whether it is over, that first), which could be
// deleted, each member's share, or the Focus disk's state or backup.
func ledgerAdvice(a *answer.Ask, p *ledgerview.List) {
	switch {
	case a.LedgerBudget > 0:
		p.Focus, p.AskTotal, p.AskStopped = "", false, false
		p.Budget = budgetAdvice(p.Disks, p.Total, a.LedgerBudget)
		p.Budget.AskOver = a.LedgerPick == "over"
	case a.LedgerPick == "drop":
		p.Focus, p.AskTotal, p.AskStopped = "", false, false
		p.Idle = idleAdvice(p.Disks)
	case a.LedgerPick == "per_owner":
		p.Focus, p.AskTotal, p.AskStopped, p.PerOwner = "", false, false, true
	case a.LedgerPick == "backup" || a.LedgerPick == "state":
		p.AskDisk = a.LedgerPick
	}
}

// idleDays is how long a running disk stays unchanged before it counts
// as idle (the digest's rule).
const idleDays = 30

// stoppedRank orders stopped disks first.
func stoppedRank(d ledgerview.ListDisk) int {
	if d.Stopped {
		return 0
	}
	return 1
}

// idleAdvice is which disks could be deleted ("哪块盘可以删"): the stopped
// ones, stopped longest first, then those unchanged for idleDays, with
// what deleting them saves a month. Nothing is removed: it is advice.
func idleAdvice(disks []ledgerview.ListDisk) *ledgerview.ListIdle {
	idle := &ledgerview.ListIdle{}
	var picked []ledgerview.ListDisk
	for _, d := range disks {
		if d.Stopped || d.Days >= idleDays {
			picked = append(picked, d)
		}
	}
	slices.SortStableFunc(picked, func(x, y ledgerview.ListDisk) int {
		if x.Stopped != y.Stopped {
			return cmp.Compare(stoppedRank(x), stoppedRank(y))
		}
		return cmp.Compare(y.Days, x.Days)
	})
	for _, d := range picked {
		idle.Drop = append(idle.Drop, d.Disk)
		if d.Monthly != nil {
			idle.Saving += *d.Monthly
		}
	}
	return idle
}

// budgetAdvice picks the disks to drop to get the monthly total under
// budget: the fewest disks; among as few, the ones stopped longest
// (most stopped days in all), then the least money dropped (the most
// kept). Nothing is removed: it is advice. Unpriced disks are never
// picked. Over maxBudgetDisks priced disks, the pick is greedy: stopped
// longest first, then the most expensive.
func budgetAdvice(disks []ledgerview.ListDisk, total, budget float64) *ledgerview.ListBudget {
	b := &ledgerview.ListBudget{Budget: budget, Total: total, After: total}
	if total <= budget {
		return b
	}
	var priced []ledgerview.ListDisk
	for _, d := range disks {
		if d.Monthly != nil && *d.Monthly > 0 {
			priced = append(priced, d)
		}
	}
	stoppedDays := func(d ledgerview.ListDisk) int {
		if d.Stopped {
			return d.Days + 1 // a disk stopped today still counts as stopped
		}
		return 0
	}
	if len(priced) > maxBudgetDisks {
		slices.SortStableFunc(priced, func(x, y ledgerview.ListDisk) int {
			if c := cmp.Compare(stoppedDays(y), stoppedDays(x)); c != 0 {
				return c
			}
			return cmp.Compare(*y.Monthly, *x.Monthly)
		})
		for _, d := range priced {
			if b.After <= budget {
				break
			}
			b.After -= *d.Monthly
			b.Drop = append(b.Drop, d.Disk)
		}
		return b
	}
	best, bestN, bestDays, bestCut := -1, 0, 0, 0.0
	for set := 1; set < 1<<len(priced); set++ {
		n, days, cut := 0, 0, 0.0
		for i, d := range priced {
			if set&(1<<i) != 0 {
				n, days, cut = n+1, days+stoppedDays(d), cut+*d.Monthly
			}
		}
		if total-cut > budget+1e-9 {
			continue
		}
		if best < 0 || n < bestN || n == bestN && (days > bestDays || days == bestDays && cut < bestCut) {
			best, bestN, bestDays, bestCut = set, n, days, cut
		}
	}
	if best < 0 {
		return b // unpriced disks alone keep it over: nothing priced to drop
	}
	for i, d := range priced {
		if best&(1<<i) != 0 {
			b.Drop = append(b.Drop, d.Disk)
		}
	}
	b.After = total - bestCut
	return b
}

// maxBudgetDisks is how many priced disks the budget advice tries every
// combination of.
const maxBudgetDisks = 16

// askedDisk is the disk a question about registering one named ("do we
// still have that 500G disk on hengyuan?": read as storage_add, asked
// about): nil for a plain list.
func askedDisk(a *answer.Ask) *ledgerview.ListAsked {
	if a.AskedAbout != understand.IntentStorageAdd || a.Platform == "" && a.SizeGB <= 0 {
		return nil
	}
	return &ledgerview.ListAsked{Platform: a.Platform, SizeGB: a.SizeGB}
}

// diskMatches reports whether d is the disk asked about (its platform,
// and its size within 5%).
func diskMatches(d ledger.DiskState, asked *ledgerview.ListAsked) bool {
	if asked.Platform != "" && d.Platform != asked.Platform {
		return false
	}
	return asked.SizeGB <= 0 || math.Abs(d.SizeGB-asked.SizeGB) <= asked.SizeGB*0.05
}
