package ledger_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/catalog"
)

func releaseCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// t0 is when the test disks are stopped (Shanghai 10:00).
var t0 = time.Date(2026, 5, 4, 2, 0, 0, 0, time.UTC)

// stoppedLedger adds disk "1" on platform with note a day before t0 and
// stops it at t0.
func stoppedLedger(platform, note string) []ledger.StorageEvent {
	return []ledger.StorageEvent{
		{Time: t0.Add(-24 * time.Hour), Lab: "lab", Owner: "ou_a", Platform: platform, Disk: "1", Action: ledger.ActionAdd, SizeGB: 100, Note: note},
		{Time: t0, Lab: "lab", Owner: "ou_a", Platform: platform, Disk: "1", Action: ledger.ActionStop},
	}
}

type riskRow struct {
	rule string
	loss time.Duration // after t0
}

func risksOf(rs []ledger.AtRisk) []riskRow {
	out := []riskRow{}
	for _, r := range rs {
		out = append(out, riskRow{r.RuleID, r.Loss.Sub(t0)})
	}
	return out
}

// TestReleaseRisks: which stopped disks each platform's rules put at
// risk, and when they are lost.
func TestReleaseRisks(t *testing.T) {
	cat := releaseCatalog(t)
	day := 24 * time.Hour
	cases := []struct {
		name, platform, note string
		want                 []riskRow
	}{
		{"AutoDL data disk: released 15 days after the stop", "autodl", "实验数据", []riskRow{{"instance-15d", 15 * day}}},
		{"AutoDL file storage survives", "autodl", "autodl-fs 脚本", []riskRow{}},
		{"AutoDL note as the ledger keeps it (platform read out)", "autodl", "-fs 脚本", []riskRow{}},
		{"恒源云 disk of unknown place: /hy-tmp in 24 h, instance in 10 days", "hengyuan", "数据集", []riskRow{{"scratch-1d", day}, {"instance-10d", 10 * day}}},
		{"恒源云 /hy-tmp: emptied in 24 h, nothing left after", "hengyuan", "/hy-tmp 数据集", []riskRow{{"scratch-1d", day}}},
		{"恒源云 /hy-nas survives", "hengyuan", "hy-nas 权重", []riskRow{}},
		{"恒源云 cloud storage survives", "hengyuan", "云存储 备份", []riskRow{}},
		{"秘塔智算: data disk may go at shutdown (seed only)", "mita", "", []riskRow{{"instance-0d", 0}}},
		{"矩池云 has no known rule", "matpool", "", []riskRow{}},
		{"揽睿星舟's rule is about billing, not deletion", "lanrui", "", []riskRow{}},
		{"a platform the catalog does not know", "nowhere", "", []riskRow{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := risksOf(ledger.ReleaseRisks(stoppedLedger(c.platform, c.note), cat, t0.Add(time.Hour)))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("risks = %v, want %v", got, c.want)
			}
		})
	}
}

// TestReleaseRisksClock: the clock starts at the first stop; a start ends
// it; a resize or a second stop does not move it; a removed disk is gone.
func TestReleaseRisksClock(t *testing.T) {
	cat := releaseCatalog(t)
	base := stoppedLedger("autodl", "")
	ev := func(d time.Duration, a ledger.StorageAction) ledger.StorageEvent {
		return ledger.StorageEvent{Time: t0.Add(d), Lab: "lab", Owner: "ou_a", Platform: "autodl", Disk: "1", Action: a, SizeGB: 200}
	}
	cases := []struct {
		name  string
		extra []ledger.StorageEvent
		want  []riskRow
	}{
		{"stopped", nil, []riskRow{{"instance-15d", 15 * 24 * time.Hour}}},
		{"resized while stopped", []ledger.StorageEvent{ev(time.Hour, ledger.ActionResize)}, []riskRow{{"instance-15d", 15 * 24 * time.Hour}}},
		{"stopped twice", []ledger.StorageEvent{ev(2*time.Hour, ledger.ActionStop)}, []riskRow{{"instance-15d", 15 * 24 * time.Hour}}},
		{"started again", []ledger.StorageEvent{ev(time.Hour, ledger.ActionStart)}, []riskRow{}},
		{"started and stopped again", []ledger.StorageEvent{ev(time.Hour, ledger.ActionStart), ev(48*time.Hour, ledger.ActionStop)}, []riskRow{{"instance-15d", 17 * 24 * time.Hour}}},
		{"removed", []ledger.StorageEvent{ev(time.Hour, ledger.ActionRemove)}, []riskRow{}},
		{"a stop after now does not count yet", []ledger.StorageEvent{ev(time.Hour, ledger.ActionStart), ev(100*24*time.Hour, ledger.ActionStop)}, []riskRow{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := risksOf(ledger.ReleaseRisks(append(append([]ledger.StorageEvent{}, base...), c.extra...), cat, t0.Add(72*time.Hour)))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("risks = %v, want %v", got, c.want)
			}
		})
	}
}

// TestReleaseSoon: the digest's section leaves out losses already past
// and keeps rules that apply at shutdown; soonest first.
func TestReleaseSoon(t *testing.T) {
	cat := releaseCatalog(t)
	var ev []ledger.StorageEvent
	for i, p := range []string{"autodl", "hengyuan", "mita", "matpool"} {
		for _, e := range stoppedLedger(p, "") {
			e.Disk = fmt.Sprint(i + 1)
			ev = append(ev, e)
		}
	}
	now := t0.Add(3 * 24 * time.Hour) // 恒源云's /hy-tmp is gone by now
	var got []string
	for _, r := range ledger.ReleaseSoon(ev, cat, now) {
		got = append(got, r.Platform+"/"+r.RuleID)
	}
	want := []string{"mita/instance-0d", "hengyuan/instance-10d", "autodl/instance-15d"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReleaseSoon = %v, want %v", got, want)
	}
	all := ledger.ReleaseRisks(ev, cat, now)
	if len(all) != 4 || !all[1].Gone(now) || all[1].RuleID != "scratch-1d" {
		t.Errorf("ReleaseRisks keeps the past /hy-tmp loss as gone: %+v", all)
	}
}

// firing walks the clock from an hour before t0 to 20 days after in
// steps, claims each warning's latest threshold once (as the job does)
// and returns "day+hour rule thresholds-due" for every claim.
func firing(t *testing.T, ev []ledger.StorageEvent, pol ledger.ReleasePolicy, step time.Duration) []string {
	t.Helper()
	cat := releaseCatalog(t)
	claimed := map[string]bool{}
	var out []string
	for now := t0.Add(-time.Hour); now.Before(t0.Add(20 * 24 * time.Hour)); now = now.Add(step) {
		for _, w := range ledger.DueWarnings(ledger.ReleaseRisks(ev, cat, now), pol, now) {
			k := w.Disk + "/" + w.RuleID + "/" + w.Threshold()
			if claimed[k] {
				continue
			}
			claimed[k] = true
			h := now.Sub(t0)
			out = append(out, fmt.Sprintf("d%d+%dh %s %s", int(h.Hours())/24, int(h.Hours())%24, w.RuleID, strings.Join(w.Due, ",")))
		}
	}
	return out
}

// TestDueWarningsFireOnce: with a fake clock stepping by the hour, every
// threshold fires exactly once, at its time: 3 days and 1 day before a
// release, right after a stop for a disk wiped within a day, never for a
// platform without rules.
func TestDueWarningsFireOnce(t *testing.T) {
	def := ledger.DefaultReleasePolicy()
	cases := []struct {
		name, platform, note string
		pol                  ledger.ReleasePolicy
		want                 []string
	}{
		{"AutoDL 15-day release", "autodl", "", def, []string{"d12+0h instance-15d 72h", "d14+0h instance-15d 72h,24h"}},
		{"恒源云 disk of unknown place: 24 h /hy-tmp at the stop, then the 10-day release", "hengyuan", "", def,
			[]string{"d0+0h scratch-1d 72h,24h,stop", "d7+0h instance-10d 72h", "d9+0h instance-10d 72h,24h"}},
		{"恒源云 /hy-tmp: only the stop warning", "hengyuan", "hy-tmp", def, []string{"d0+0h scratch-1d 72h,24h,stop"}},
		{"恒源云 /hy-nas: nothing", "hengyuan", "hy-nas", def, nil},
		{"秘塔智算: right after the stop", "mita", "", def, []string{"d0+0h instance-0d stop"}},
		{"矩池云: never", "matpool", "", def, nil},
		{"no stop warning when turned off", "mita", "", ledger.ReleasePolicy{Before: def.Before}, nil},
		{"one threshold of 2 days", "autodl", "", ledger.ReleasePolicy{Before: []time.Duration{48 * time.Hour}}, []string{"d13+0h instance-15d 48h"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := firing(t, stoppedLedger(c.platform, c.note), c.pol, time.Hour)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("fired\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

// TestDueWarningsLate: a check that comes late (the bot was down) sends
// what is still ahead in one message, and nothing once the loss passed.
func TestDueWarningsLate(t *testing.T) {
	cat := releaseCatalog(t)
	def := ledger.DefaultReleasePolicy()
	cases := []struct {
		name     string
		platform string
		at       time.Duration // after t0
		want     []string
	}{
		{"AutoDL seen first 14.5 days after the stop", "autodl", 14*24*time.Hour + 12*time.Hour, []string{"72h", "24h"}},
		{"AutoDL after the release", "autodl", 15*24*time.Hour + time.Minute, nil},
		{"AutoDL 11 days after the stop", "autodl", 11 * 24 * time.Hour, nil},
		{"秘塔智算 a day and a minute after the stop", "mita", 24*time.Hour + time.Minute, nil},
		{"恒源云 /hy-tmp 23 h after the stop", "hengyuan", 23 * time.Hour, []string{"72h", "24h", "stop"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			now := t0.Add(c.at)
			var got []string
			for _, w := range ledger.DueWarnings(ledger.ReleaseRisks(stoppedLedger(c.platform, "hy-tmp"), cat, now), def, now) {
				got = append(got, w.Due...)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("due = %q, want %q", got, c.want)
			}
		})
	}
}

// TestThresholdName names thresholds in hours.
func TestThresholdName(t *testing.T) {
	for d, want := range map[time.Duration]string{72 * time.Hour: "72h", 24 * time.Hour: "24h", 90 * time.Minute: "1.5h"} {
		if got := ledger.ThresholdName(d); got != want {
			t.Errorf("ThresholdName(%v) = %q, want %q", d, got, want)
		}
	}
}

// BenchmarkReleaseRisks: the release check over a ledger of n events
// (disks added, stopped, started and removed across the 5 platforms with
// and without rules), as the job runs it every 10 minutes over all labs.
func BenchmarkReleaseRisks(b *testing.B) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		b.Fatal(err)
	}
	platforms := []string{"autodl", "hengyuan", "mita", "matpool", "lanrui"}
	actions := []ledger.StorageAction{ledger.ActionStop, ledger.ActionStart, ledger.ActionStop, ledger.ActionRemove}
	for _, n := range []int{1000, 10000, 100000} {
		var ev []ledger.StorageEvent
		at := t0.Add(-time.Duration(n) * time.Minute)
		for i := 0; len(ev) < n; i++ {
			d := fmt.Sprint(i)
			p := platforms[i%len(platforms)]
			ev = append(ev, ledger.StorageEvent{Time: at, Lab: fmt.Sprintf("lab%d", i%20), Owner: fmt.Sprintf("m%d", i%200), Platform: p, Disk: d, Action: ledger.ActionAdd, SizeGB: 100})
			for k := 0; k < i%5 && len(ev) < n; k++ {
				at = at.Add(time.Minute)
				ev = append(ev, ledger.StorageEvent{Time: at, Lab: fmt.Sprintf("lab%d", i%20), Owner: fmt.Sprintf("m%d", i%200), Platform: p, Disk: d, Action: actions[k%len(actions)]})
			}
			at = at.Add(time.Minute)
		}
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				risks := ledger.ReleaseRisks(ev, cat, t0)
				_ = ledger.DueWarnings(risks, ledger.DefaultReleasePolicy(), t0)
			}
		})
	}
}
