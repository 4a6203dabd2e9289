package ledger

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/labgpu/bot/internal/catalog"
)

// ReleasePolicy is when release warnings fire (config
// storage.release_warnings).
type ReleasePolicy struct {
	// Before are how long before a loss its owner is warned (default
	// 72 h and 24 h).
	Before []time.Duration
	// AfterStop: a disk its platform deletes within this long of a stop
	// is also warned right after the stop (default 24 h; 0 turns that
	// warning off).
	AfterStop time.Duration
}

// DefaultReleasePolicy warns 3 days and 1 day before a loss, and right
// after a stop when the loss comes within a day.
func DefaultReleasePolicy() ReleasePolicy {
	return ReleasePolicy{Before: []time.Duration{72 * time.Hour, 24 * time.Hour}, AfterStop: 24 * time.Hour}
}

// ThresholdStop names the warning right after a stop (Warning.Due).
const ThresholdStop = "stop"

// AtRisk is a disk of the ledger that a platform's retention rule will
// delete (or, for a rule that applies at shutdown, may have deleted).
type AtRisk struct {
	DiskState
	// StoppedAt is when the ledger says the disk's instance was shut down:
	// the rule's clock start (a resize while stopped does not move it). It
	// is when a member said so, which may be later than the shutdown.
	StoppedAt time.Time
	// Loss is when the rule deletes the disk: StoppedAt plus the rule's
	// days (StoppedAt itself for a rule that applies at shutdown).
	Loss time.Time
	// Rule is the platform's rule; RuleID names it within the platform
	// ("scratch-1d", "instance-15d"), for claims.
	Rule   catalog.Retention
	RuleID string
	// Kind is what the disk's note says it is: catalog.DiskScratch, or
	// catalog.DiskUnknown (a disk of the instance, place not said).
	Kind string
}

// AtShutdown reports whether the rule applies at the shutdown itself (the
// data may already be gone).
func (r AtRisk) AtShutdown() bool { return r.Rule.Days == 0 }

// Gone reports whether the loss time of a timed rule has passed at now:
// the platform has (by its rule) deleted the disk.
func (r AtRisk) Gone(now time.Time) bool { return !r.AtShutdown() && !r.Loss.After(now) }

// ReleaseRisks lists the disks of events that platforms' retention rules
// put at risk at now: each disk stopped at now, on a platform with timed
// rules (catalog.Retention.Timed), once per rule that deletes it, sorted
// by loss time, then lab and disk. Rules apply in order of their days; a
// disk is past further rules once one deleted all of it (the whole
// instance, or the scratch disk for a disk on it). A disk whose note
// names persistent storage (autodl-fs, /hy-nas) and every disk on a
// platform without timed rules give none. Losses already past are listed
// too (Gone). Inconsistent events are skipped, as in DisksAt.
func ReleaseRisks(events []StorageEvent, cat *catalog.Catalog, now time.Time) []AtRisk {
	var out []AtRisk
	for _, s := range stoppedDisks(sortEvents(events), now) {
		p, ok := cat.Platform(s.disk.Platform)
		if !ok {
			continue
		}
		out = append(out, diskRisks(p, s.disk, s.at)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.Loss.Equal(b.Loss) {
			return a.Loss.Before(b.Loss)
		}
		if a.Lab != b.Lab {
			return a.Lab < b.Lab
		}
		return a.Disk < b.Disk
	})
	return out
}

// ReleaseSoon is the digest's "即将被释放": ReleaseRisks without the
// losses already past at now, soonest first.
func ReleaseSoon(events []StorageEvent, cat *catalog.Catalog, now time.Time) []AtRisk {
	var out []AtRisk
	for _, r := range ReleaseRisks(events, cat, now) {
		if !r.Gone(now) {
			out = append(out, r)
		}
	}
	return out
}

// diskRisks are the timed rules of p that delete disk d, stopped at, by
// their days. A scratch rule deletes a disk noted as on the scratch disk,
// and may delete one whose place the note does not say (its data may be
// there), which goes on to the later rules; an instance rule deletes
// every disk of the instance.
func diskRisks(p *catalog.Platform, d DiskState, at time.Time) []AtRisk {
	kind := p.DiskKind(d.Note)
	if kind == catalog.DiskPersistent {
		return nil
	}
	rules := make([]catalog.Retention, 0, len(p.Retention))
	for _, r := range p.Retention {
		if r.Timed() {
			rules = append(rules, r)
		}
	}
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].Days < rules[j].Days })
	var out []AtRisk
	for _, r := range rules {
		out = append(out, AtRisk{DiskState: d, StoppedAt: at, Loss: at.Add(r.After()), Rule: r,
			RuleID: r.Wipes + "-" + strconv.FormatFloat(r.Days, 'g', -1, 64) + "d", Kind: kind})
		if r.Wipes == catalog.WipesInstance || kind == catalog.DiskScratch {
			break // nothing of the disk is left for a later rule
		}
	}
	return out
}

// stopped is a disk stopped at a time.
type stopped struct {
	disk DiskState
	at   time.Time
}

// stoppedDisks replays sorted events up to t and returns the disks
// stopped at t with the time of the stop that began it (a second stop
// or a resize while stopped does not move it), by lab and disk.
func stoppedDisks(sorted []StorageEvent, t time.Time) []stopped {
	disks := map[string]*DiskState{}
	since := map[string]time.Time{}
	for _, e := range sorted {
		if e.Time.After(t) {
			break
		}
		key := e.Lab + "\x00" + e.Disk
		wasStopped := disks[key] != nil && disks[key].Stopped
		if apply(disks, e) != nil {
			continue // an inconsistent event is skipped (CheckLedger reports it)
		}
		if d := disks[key]; d != nil && d.Stopped && !wasStopped {
			since[key] = e.Time
		}
	}
	var out []stopped
	for _, d := range sortedDisks(disks) {
		if d.Stopped {
			out = append(out, stopped{d, since[d.Lab+"\x00"+d.Disk]})
		}
	}
	return out
}

// Warning is a release warning due now: the disk at risk and the
// thresholds reached and not yet past (ThresholdStop, or hours before the
// loss: "72h", "24h"), in the order they were reached, the latest last
// (at the same time, ThresholdStop last).
type Warning struct {
	AtRisk
	Due []string
}

// Threshold is the warning's latest threshold: the one a message is sent
// for, once. The earlier ones are in it (reached together, as when a
// check comes late) or were sent before, and they never become the
// latest again, so one claim per message keeps replicas from splitting
// it.
func (w Warning) Threshold() string { return w.Due[len(w.Due)-1] }

// DueWarnings are the warnings of risks due at now under pol. A threshold
// "Nh" is due from N hours before the loss (from the stop when that is
// later) until the loss; ThresholdStop, for a rule that deletes within
// pol.AfterStop of the stop, from the stop until the loss or, for a rule
// that applies at shutdown, until pol.AfterStop after it. Nothing is due
// for a loss already past.
func DueWarnings(risks []AtRisk, pol ReleasePolicy, now time.Time) []Warning {
	type due struct {
		name string
		at   time.Time
	}
	var out []Warning
	for _, r := range risks {
		var ds []due
		for _, b := range pol.Before {
			from := laterOf(r.StoppedAt, r.Loss.Add(-b))
			if !now.Before(from) && now.Before(r.Loss) {
				ds = append(ds, due{ThresholdName(b), from})
			}
		}
		if pol.AfterStop > 0 && r.Rule.After() <= pol.AfterStop && !now.Before(r.StoppedAt) && now.Before(laterOf(r.Loss, r.StoppedAt.Add(pol.AfterStop))) {
			ds = append(ds, due{ThresholdStop, r.StoppedAt})
		}
		if len(ds) == 0 {
			continue
		}
		sort.SliceStable(ds, func(i, j int) bool { return ds[i].at.Before(ds[j].at) })
		w := Warning{AtRisk: r}
		for _, d := range ds {
			w.Due = append(w.Due, d.name)
		}
		out = append(out, w)
	}
	return out
}

// ThresholdName names a threshold of b before a loss ("72h", "1.5h").
func ThresholdName(b time.Duration) string {
	return fmt.Sprintf("%sh", strconv.FormatFloat(b.Hours(), 'g', -1, 64))
}

func laterOf(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
