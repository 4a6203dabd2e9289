// Package ledgertest holds storage ledgers for tests and benchmarks: a
// churning ledger of any size and a realistic lab's six weeks.
package ledgertest

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
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

// labCSV is six weeks of a lab of 8 members on AutoDL, 恒源云 and
// 秘塔智算 (2026-W43 to W48): disks registered, grown, stopped for weeks,
// started again and deleted, as members do; its last line, on 揽睿星舟,
// is LabUnpriced's.
//
//go:embed testdata/lab.csv
var labCSV string

// labStory is labCSV's events, the last one (揽睿星舟's) apart.
func labStory() (story []ledger.StorageEvent, unpriced ledger.StorageEvent) {
	recs, err := csv.NewReader(strings.NewReader(labCSV)).ReadAll()
	if err != nil {
		panic(fmt.Sprintf("ledgertest: testdata/lab.csv: %v", err))
	}
	owners := map[string]ledger.StorageEvent{}
	for _, r := range recs[1:] {
		at, err := time.ParseInLocation("2006-01-02 15:04", r[0], Shanghai)
		gb, gerr := strconv.ParseFloat(r[6], 64)
		if err != nil || gerr != nil {
			panic(fmt.Sprintf("ledgertest: testdata/lab.csv: %q: %v %v", r, err, gerr))
		}
		e := ledger.StorageEvent{Time: at, Lab: LabChat, Owner: r[2], OwnerName: r[3], Platform: r[4], Disk: r[1],
			Action: ledger.StorageAction(r[5]), SizeGB: gb, Note: r[7]}
		if e.Action == ledger.ActionAdd {
			owners[e.Disk] = e
		} else {
			e.Platform = owners[e.Disk].Platform
		}
		story = append(story, e)
	}
	return story[:len(story)-1], story[len(story)-1]
}

// Lab is a realistic lab's ledger (LabChat): 8 members, AutoDL, 恒源云 and
// 秘塔智算, six weeks up to LabWeek, in time order.
func Lab() []ledger.StorageEvent {
	story, _ := labStory()
	return story
}

// LabUnpriced is Lab with one more disk on 揽睿星舟, a platform without a
// data disk price: 黄涛's 200 GB from Friday 2026-11-20.
func LabUnpriced() []ledger.StorageEvent {
	events, e := labStory()
	i := 0
	for i < len(events) && events[i].Time.Before(e.Time) {
		i++
	}
	return append(events[:i:i], append([]ledger.StorageEvent{e}, events[i:]...)...)
}
