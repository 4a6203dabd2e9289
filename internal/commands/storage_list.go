package commands

import (
	"context"
	"math"

	"github.com/labgpu/bot/internal/billing/ledger"

	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/ledgerview"
)

func init() { answer.Register(answer.Intent{Name: IntentStorageList, Answer: storageListAnswer}) }

// storageListAnswer answers "存储列表" and "我的存储" (Mine): the lab's
// disks now by number, with what each costs per 30 days and the total.
// The admin commands ride on the same intent ("绑定管理员", "管理员列表",
// "解除管理员 …": storage_admin.go).
func storageListAnswer(ctx context.Context, a *answer.Ask) answer.Out {
	if off := storageOff(a); off != nil {
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
	for _, d := range disks {
		if a.Mine && d.Owner != a.From.SenderID || p.Asked != nil && p.Asked.Found > 0 && !diskMatches(d, p.Asked) {
			continue
		}
		row := ledgerview.ListDisk{DiskState: d, Days: int(now.Sub(d.Since).Hours() / 24), Yours: d.Owner == a.From.SenderID && d.Owner != ""}
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
	return a.Out(p)
}

// askedDisk is the disk a question about registering one named ("do we
// still have that 500G disk on hengyuan?": read as storage_add, asked
// about): nil for a plain list.
func askedDisk(a *answer.Ask) *ledgerview.ListAsked {
	if a.AskedAbout != IntentStorageAdd || a.Platform == "" && a.SizeGB <= 0 {
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
