// Package ledgertest holds storage ledgers for tests and benchmarks: a
// churning ledger of any size and a realistic lab's six weeks.
package ledgertest

import (
	"fmt"
	"math/rand"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
)

// ChurnMembers is how many members ChurnLedger's lab has.
const ChurnMembers = 200

// ChurnEnd is the instant ChurnLedger's events run up to: Monday
// 2026-11-30 00:00 UTC, the end of ISO week 2026-W48.
var ChurnEnd = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// churnPlatforms are the platforms of ChurnLedger's disks: three with
// verified catalog prices, 秘塔智算 (a seed-only price) and 揽睿星舟 (no
// price), in the proportions of the list.
var churnPlatforms = []string{"autodl", "autodl", "autodl", "hengyuan", "hengyuan", "matpool", "matpool", "mita", "lanrui"}

// ChurnLedger is lab "nlp"'s ledger of n events, in time order, spread
// evenly over the 52 weeks before ChurnEnd: ChurnMembers members add disks
// (25% of events), resize (25%), stop or start (36%) and remove (14%)
// them, so that about 0.11·n disks exist at the end (11,000 of 100,000)
// and the disks turn over as the ledger grows. Disk ids are never reused
// and every event is consistent. Seeded: the same n gives the same
// ledger.
func ChurnLedger(n int) []ledger.StorageEvent {
	rng := rand.New(rand.NewSource(17))
	span := 52 * 7 * 24 * time.Hour
	start := ChurnEnd.Add(-span)
	step := span / time.Duration(n+1)
	type disk struct {
		id, owner, platform string
		stopped             bool
	}
	var live []disk
	out := make([]ledger.StorageEvent, 0, n)
	next := 0
	for i := 0; i < n; i++ {
		at := start.Add(step * time.Duration(i+1))
		r := rng.Intn(100)
		if r < 25 || len(live) == 0 {
			next++
			d := disk{id: fmt.Sprint(next), owner: fmt.Sprintf("ou_%03d", rng.Intn(ChurnMembers)), platform: churnPlatforms[rng.Intn(len(churnPlatforms))]}
			live = append(live, d)
			out = append(out, ledger.StorageEvent{Time: at, Lab: "nlp", Owner: d.owner, OwnerName: "member" + d.owner[3:], Platform: d.platform,
				Disk: d.id, Action: ledger.ActionAdd, SizeGB: float64(20 + 20*rng.Intn(50))})
			continue
		}
		k := rng.Intn(len(live))
		d := &live[k]
		e := ledger.StorageEvent{Time: at, Lab: "nlp", Owner: d.owner, Platform: d.platform, Disk: d.id}
		switch {
		case r < 50:
			e.Action, e.SizeGB = ledger.ActionResize, float64(20+20*rng.Intn(50))
		case r < 86 && !d.stopped:
			e.Action, d.stopped = ledger.ActionStop, true
		case r < 86:
			e.Action, d.stopped = ledger.ActionStart, false
		default:
			e.Action = ledger.ActionRemove
			live[k] = live[len(live)-1]
			live = live[:len(live)-1]
		}
		out = append(out, e)
	}
	return out
}

// ChurnPrice prices ChurnLedger's platforms as the catalog does (AutoDL
// 0.0083 CNY per GB-day beyond 50 GB, 恒源云 0.0168, 矩池云 0.0167 beyond
// 5 GB, 秘塔智算 1 and free while stopped); 揽睿星舟 has no price.
func ChurnPrice(platform string, stopped bool) (cnyPerGBDay, freeGB float64, ok bool) {
	switch platform {
	case "autodl":
		return 0.0083, 50, true
	case "hengyuan":
		return 0.0168, 0, true
	case "matpool":
		return 0.0167, 5, true
	case "mita":
		if stopped {
			return 0, 0, true
		}
		return 1, 0, true
	}
	return 0, 0, false
}

// LabChat is Lab's lab: a Feishu group.
const LabChat = "feishu/oc_lab"

// LabWeek is the week Lab's digest is about, and LabNow the Monday
// morning it is posted (Asia/Shanghai).
const LabWeek = "2026-W48"

// Shanghai is the lab's time zone.
var Shanghai = func() *time.Location {
	l, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		return time.FixedZone("CST", 8*3600)
	}
	return l
}()

// LabNow is Monday 2026-11-30 09:00 in Shanghai, when LabWeek's digest
// is posted.
var LabNow = time.Date(2026, 11, 30, 9, 0, 0, 0, Shanghai)

// labEvent is one line of Lab's story.
type labEvent struct {
	at, disk, owner, name, platform string
	action                          ledger.StorageAction
	gb                              float64
	note                            string
}

// labStory is six weeks of a lab of 8 members on AutoDL, 恒源云 and
// 秘塔智算 (2026-W43 to W48): disks registered, grown, stopped for weeks,
// started again and deleted, as members do.
var labStory = []labEvent{
	{"2026-10-19 10:00", "1", "ou_zw01", "张伟", "autodl", ledger.ActionAdd, 200, "LLaMA 权重"},
	{"2026-10-19 14:30", "2", "ou_ln02", "李娜", "autodl", ledger.ActionAdd, 100, "ImageNet 子集"},
	{"2026-10-20 09:15", "3", "ou_ly03", "刘洋", "hengyuan", ledger.ActionAdd, 50, "实验日志"},
	{"2026-10-21 20:40", "4", "ou_cj04", "陈静", "autodl", ledger.ActionAdd, 300, "检测模型"},
	{"2026-10-22 11:00", "5", "ou_yf05", "杨帆", "mita", ledger.ActionAdd, 10, "比赛数据"},
	{"2026-10-26 16:20", "1", "ou_zw01", "", "", ledger.ActionResize, 300, ""},
	{"2026-10-27 10:05", "6", "ou_zm06", "赵敏", "hengyuan", ledger.ActionAdd, 80, "语音数据"},
	{"2026-10-28 22:10", "2", "ou_ln02", "", "", ledger.ActionStop, 0, ""},
	{"2026-10-29 13:30", "7", "ou_ht07", "黄涛", "autodl", ledger.ActionAdd, 150, "对比实验"},
	{"2026-11-02 09:00", "8", "ou_zt08", "周婷", "autodl", ledger.ActionAdd, 60, "毕设"},
	{"2026-11-03 18:45", "5", "ou_yf05", "", "", ledger.ActionStop, 0, ""},
	{"2026-11-04 15:00", "3", "ou_ly03", "", "", ledger.ActionResize, 120, ""},
	{"2026-11-05 23:30", "4", "ou_cj04", "", "", ledger.ActionStop, 0, ""},
	{"2026-11-09 10:10", "2", "ou_ln02", "", "", ledger.ActionStart, 0, ""},
	{"2026-11-10 17:00", "7", "ou_ht07", "", "", ledger.ActionRemove, 0, ""},
	{"2026-11-11 21:00", "6", "ou_zm06", "", "", ledger.ActionStop, 0, ""},
	{"2026-11-12 14:00", "9", "ou_zt08", "周婷", "hengyuan", ledger.ActionAdd, 40, "论文图表"},
	{"2026-11-16 09:30", "5", "ou_yf05", "", "", ledger.ActionStart, 0, ""},
	{"2026-11-17 11:00", "10", "ou_zw01", "张伟", "autodl", ledger.ActionAdd, 500, "预训练语料"},
	{"2026-11-18 19:20", "2", "ou_ln02", "", "", ledger.ActionStop, 0, ""},
	{"2026-11-23 10:00", "10", "ou_zw01", "", "", ledger.ActionResize, 800, ""},
	{"2026-11-24 16:00", "3", "ou_ly03", "", "", ledger.ActionRemove, 0, ""},
	{"2026-11-25 09:40", "11", "ou_yf05", "杨帆", "mita", ledger.ActionAdd, 20, "复现实验"},
	{"2026-11-26 20:00", "8", "ou_zt08", "", "", ledger.ActionRemove, 0, ""},
	{"2026-11-27 15:30", "5", "ou_yf05", "", "", ledger.ActionStop, 0, ""},
	{"2026-11-28 10:00", "12", "ou_ht07", "黄涛", "autodl", ledger.ActionAdd, 100, "消融实验"},
}

// Lab is a realistic lab's ledger (LabChat): 8 members, AutoDL, 恒源云 and
// 秘塔智算, six weeks up to LabWeek, in time order.
func Lab() []ledger.StorageEvent {
	owners := map[string]ledger.StorageEvent{}
	out := make([]ledger.StorageEvent, 0, len(labStory))
	for _, l := range labStory {
		at, err := time.ParseInLocation("2006-01-02 15:04", l.at, Shanghai)
		if err != nil {
			panic(err)
		}
		e := ledger.StorageEvent{Time: at, Lab: LabChat, Owner: l.owner, OwnerName: l.name, Platform: l.platform, Disk: l.disk, Action: l.action, SizeGB: l.gb, Note: l.note}
		if l.action == ledger.ActionAdd {
			owners[l.disk] = e
		} else {
			e.Platform = owners[l.disk].Platform
		}
		out = append(out, e)
	}
	return out
}

// LabUnpriced is Lab with one more disk on 揽睿星舟, a platform without a
// data disk price: 黄涛's 200 GB from Friday 2026-11-20.
func LabUnpriced() []ledger.StorageEvent {
	at := time.Date(2026, 11, 20, 14, 0, 0, 0, Shanghai)
	events := Lab()
	i := 0
	for i < len(events) && events[i].Time.Before(at) {
		i++
	}
	e := ledger.StorageEvent{Time: at, Lab: LabChat, Owner: "ou_ht07", OwnerName: "黄涛", Platform: "lanrui", Disk: "13", Action: ledger.ActionAdd, SizeGB: 200, Note: "多模态数据"}
	return append(events[:i:i], append([]ledger.StorageEvent{e}, events[i:]...)...)
}
