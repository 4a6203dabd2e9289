// Package ledger is the lab's storage ledger: storage events and the disks
// they describe (ledger.go), the ledger as CSV (ledgercsv.go), what the
// disks cost over a period and the digest of it (digest.go,
// digestbuild.go, replay.go), when a platform releases a stopped disk
// (release.go) and the monthly budgets (BudgetCrossed, MonthToDate).
//
// Units: sizes in GB, money in CNY, disk prices in CNY per GB-day.
package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"time"
)

// StorageAction is what a ledger event does to a disk.
type StorageAction string

// The ledger's actions (the CSV's action column).
const (
	ActionAdd    StorageAction = "add"    // a disk is registered, running
	ActionResize StorageAction = "resize" // SizeGB is the new size
	ActionStop   StorageAction = "stop"   // its instance is shut down
	ActionStart  StorageAction = "start"  // its instance runs again
	ActionRemove StorageAction = "remove" // the disk is deleted
)

// StorageEvent is one entry of a lab's storage ledger. The ledger keeps
// events, not states, so any past week can be recomputed.
type StorageEvent struct {
	Time  time.Time
	Lab   string // the lab (a chat key by default)
	Owner string // who holds the disk (the sender's id)
	// OwnerName is the owner's display name when known (answers show it).
	OwnerName string `json:",omitempty"`
	Platform  string // catalog platform id
	Disk      string // the disk's id within the lab
	Action    StorageAction
	SizeGB    float64 // GB = 1e9 bytes; for add and resize
	Note      string
}

// DiskState is a disk as the ledger knows it at an instant.
type DiskState struct {
	Lab, Disk, Owner, OwnerName, Platform, Note string
	SizeGB                                      float64
	Stopped                                     bool
	// Since is when the disk was last added, resized, stopped or started.
	Since time.Time
	// Added is when the disk was registered.
	Added time.Time
}

// StoragePrice returns the data disk price of a platform in CNY per
// GB-day and the free GB per disk; ok is false when no price is known.
// stopped asks for the price while the instance is shut down (0 on
// platforms that do not bill stopped disks).
type StoragePrice func(platform string, stopped bool) (cnyPerGBDay, freeGB float64, ok bool)

// DiskCost is one disk's storage cost over a period.
type DiskCost struct {
	DiskState
	// GBDays is the billable size (beyond the free part) integrated over
	// the time the disk existed in the period, in GB-days.
	GBDays float64
	// CNY is GBDays at the platform's price.
	CNY float64
	// Priced is false when the platform has no known price (CNY is 0).
	Priced bool
}

// ErrLedgerChanged is a conditional append's refusal (the stores'
// AppendStorageEventsIf): the lab's ledger no longer holds the events the
// caller read, so nothing was written; read again and decide again.
var ErrLedgerChanged = errors.New("the lab's ledger changed meanwhile; nothing was written")

// maxDiskDigits bounds a disk number: at most 15 digits (exact in a
// float64, so Redis's Lua allocates the same numbers as Go).
const maxDiskDigits = 15

// DiskNumber reads a disk id that is a number ("12", "007"): only ASCII
// digits, at most 15 of them. Other ids ("ssd-1", "+3", "1e3") are no
// number.
func DiskNumber(id string) (int64, bool) {
	if id == "" || len(id) > maxDiskDigits {
		return 0, false
	}
	var n int64
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// NextDiskID is the number a new disk of a lab gets: one more than the
// largest DiskNumber any event of the lab's ledger names, so the number
// of a removed disk is never given again and imported numbers count. The
// stores call it inside the write that appends the disk's add, so two
// registrations never get the same number.
func NextDiskID(events []StorageEvent) string {
	var top int64
	for _, e := range events {
		if n, ok := DiskNumber(e.Disk); ok && n > top {
			top = n
		}
	}
	return strconv.FormatInt(top+1, 10)
}

// validate checks one event.
func (e StorageEvent) validate() error {
	switch e.Action {
	case ActionAdd, ActionResize:
		if !(e.SizeGB > 0) || e.SizeGB > 1e6 {
			return fmt.Errorf("disk %s: size %v GB is not between 0 and 1,000,000", e.Disk, e.SizeGB)
		}
	case ActionStop, ActionStart, ActionRemove:
	default:
		return fmt.Errorf("disk %s: unknown action %q (add, resize, stop, start, remove)", e.Disk, e.Action)
	}
	if e.Disk == "" || e.Lab == "" {
		return fmt.Errorf("event at %s: lab and disk are required", e.Time.Format(time.RFC3339))
	}
	if e.Time.IsZero() {
		return fmt.Errorf("disk %s: the event has no time", e.Disk)
	}
	return nil
}

// sortEvents orders events by time, keeping the input order of ties. A
// ledger already in order (the stores keep it so) is returned as it is,
// without a copy; the result is never to be modified. Otherwise the
// events are sorted by index (time, then position) and copied once, so a
// sort never moves the events themselves around.
func sortEvents(events []StorageEvent) []StorageEvent {
	if slices.IsSortedFunc(events, func(a, b StorageEvent) int { return a.Time.Compare(b.Time) }) {
		return events
	}
	idx := make([]int, len(events))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := events[a].Time.Compare(events[b].Time); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := make([]StorageEvent, len(events))
	for i, j := range idx {
		out[i] = events[j]
	}
	return out
}

// apply folds one event into the disks of a lab. Events for an unknown
// disk (other than add) and adds of an existing disk are errors.
func apply(disks map[string]*DiskState, e StorageEvent) error {
	if err := e.validate(); err != nil {
		return err
	}
	key := e.Lab + "\x00" + e.Disk
	d, ok := disks[key]
	if e.Action == ActionAdd {
		if ok {
			return fmt.Errorf("disk %s is added twice (at %s)", e.Disk, e.Time.Format(time.RFC3339))
		}
		disks[key] = &DiskState{Lab: e.Lab, Disk: e.Disk, Owner: e.Owner, OwnerName: e.OwnerName, Platform: e.Platform, Note: e.Note,
			SizeGB: e.SizeGB, Since: e.Time, Added: e.Time}
		return nil
	}
	if !ok {
		return fmt.Errorf("disk %s: %s before it was added (at %s)", e.Disk, e.Action, e.Time.Format(time.RFC3339))
	}
	switch e.Action {
	case ActionResize:
		d.SizeGB = e.SizeGB
	case ActionStop:
		d.Stopped = true
	case ActionStart:
		d.Stopped = false
	case ActionRemove:
		delete(disks, key)
		return nil
	}
	d.Since = e.Time
	return nil
}

// DisksAt returns the disks that exist at t (events at t included),
// sorted by lab and disk id. Inconsistent events (a second add of a disk,
// a change of a disk that does not exist, a bad size) are skipped, so a
// race between two chats never makes a lab's ledger unreadable;
// CheckLedger lists them. The error is always nil (kept for callers).
func DisksAt(events []StorageEvent, t time.Time) ([]DiskState, error) {
	return disksAt(sortEvents(events), t), nil
}

// disksAt is DisksAt over events sorted by time.
func disksAt(sorted []StorageEvent, t time.Time) []DiskState {
	disks := map[string]*DiskState{}
	for _, e := range sorted {
		if e.Time.After(t) {
			break
		}
		_ = apply(disks, e) // an inconsistent event is skipped (CheckLedger reports it)
	}
	return sortedDisks(disks)
}

func sortedDisks(m map[string]*DiskState) []DiskState {
	out := make([]DiskState, 0, len(m))
	for _, d := range m {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Lab != out[j].Lab {
			return out[i].Lab < out[j].Lab
		}
		return out[i].Disk < out[j].Disk
	})
	return out
}

// CheckLedger returns one error per inconsistent event, in time order
// (the events DisksAt and StorageCost skip).
func CheckLedger(events []StorageEvent) []error {
	return checkSorted(sortEvents(events))
}

// checkSorted is CheckLedger over events sorted by time.
func checkSorted(sorted []StorageEvent) []error {
	disks := map[string]*DiskState{}
	var out []error
	for _, e := range sorted {
		if err := apply(disks, e); err != nil {
			out = append(out, err)
		}
	}
	return out
}

// StorageCost integrates each disk's billable GB-days over [from, to) and
// prices them: a disk costs (size − free GB, at least 0) × days × the
// price for its running or stopped state, continuously (platforms that
// bill per started day or hour cost up to one unit more; the seeds'
// platforms bill disks per hour or finer). Disks removed before from or
// added at or after to are left out; a disk that existed in part of the
// period appears with its state at the end of its time in it.
func StorageCost(events []StorageEvent, from, to time.Time, price StoragePrice) ([]DiskCost, error) {
	costs, err := storageCosts(sortEvents(events), []period{{from, to}}, price)
	if err != nil {
		return nil, err
	}
	return costs[0], nil
}

// period is [from, to).
type period struct{ from, to time.Time }

// storageCosts is StorageCost for several periods at once, in one replay
// of the ledger (sorted by time): each disk is charged when its state
// changes and at the end, for the part of each period it overlaps, so the
// work is the events plus the disks, not events × disks × periods.
func storageCosts(sorted []StorageEvent, periods []period, price StoragePrice) ([][]DiskCost, error) {
	end := time.Time{}
	for _, p := range periods {
		if !p.from.Before(p.to) {
			return nil, fmt.Errorf("storage cost: the period %s – %s is empty", p.from.Format(time.RFC3339), p.to.Format(time.RFC3339))
		}
		if p.to.After(end) {
			end = p.to
		}
	}
	r := costReplay{periods: periods, price: price, disks: map[string]*DiskState{}, since: map[string]time.Time{}, acc: make([]map[string]*DiskCost, len(periods))}
	for i := range r.acc {
		r.acc[i] = map[string]*DiskCost{}
	}
	for _, e := range sorted {
		if !e.Time.Before(end) {
			break
		}
		r.event(e)
	}
	for k := range r.disks {
		r.charge(k, end)
	}
	out := make([][]DiskCost, len(periods))
	for i, acc := range r.acc {
		out[i] = make([]DiskCost, 0, len(acc))
		for _, c := range acc {
			out[i] = append(out[i], *c)
		}
		sort.Slice(out[i], func(a, b int) bool {
			if out[i][a].Lab != out[i][b].Lab {
				return out[i][a].Lab < out[i][b].Lab
			}
			return out[i][a].Disk < out[i][b].Disk
		})
	}
	return out, nil
}

// costReplay is the state of storageCosts' replay: the disks, when each
// was last charged to, and each period's costs by disk.
type costReplay struct {
	periods []period
	price   StoragePrice
	disks   map[string]*DiskState
	since   map[string]time.Time
	acc     []map[string]*DiskCost
}

// event charges the event's disk up to the event, then applies it.
func (r *costReplay) event(e StorageEvent) {
	key := e.Lab + "\x00" + e.Disk
	if _, ok := r.disks[key]; ok {
		r.charge(key, e.Time)
	}
	if e.Action == ActionRemove {
		if d, ok := r.disks[key]; ok {
			for i, acc := range r.acc {
				// Its state at the removal, in the periods it falls in
				// (an earlier period keeps the state at its own end).
				if c := acc[key]; c != nil && e.Time.Before(r.periods[i].to) {
					c.DiskState = *d
				}
			}
		}
	}
	if err := apply(r.disks, e); err != nil {
		return // an inconsistent event is skipped (CheckLedger reports it)
	}
	d, ok := r.disks[key]
	if !ok {
		delete(r.since, key)
		return
	}
	r.since[key] = e.Time
	for i, p := range r.periods {
		if !e.Time.Before(p.from) && e.Time.Before(p.to) {
			c := r.acc[i][key]
			if c == nil {
				c = &DiskCost{}
				r.acc[i][key] = c
			}
			c.DiskState = *d
		}
	}
}

// charge accrues disk key's cost from when it was last charged to t, in
// its current state, within each period.
func (r *costReplay) charge(key string, t time.Time) {
	d := r.disks[key]
	t0 := r.since[key]
	r.since[key] = t
	perDay, free, ok := r.price(d.Platform, d.Stopped)
	billable := math.Max(d.SizeGB-free, 0)
	for i, p := range r.periods {
		a, b := t0, t
		if a.Before(p.from) {
			a = p.from
		}
		if b.After(p.to) {
			b = p.to
		}
		if !a.Before(b) {
			continue
		}
		c := r.acc[i][key]
		if c == nil {
			c = &DiskCost{}
			r.acc[i][key] = c
		}
		c.DiskState = *d
		days := b.Sub(a).Hours() / 24
		c.GBDays += billable * days
		if ok {
			c.Priced = true
			c.CNY += billable * days * perDay
		}
	}
}

var isoWeekRE = regexp.MustCompile(`^(\d{4})-W(\d{2})$`)

// ISOWeek returns the ISO 8601 week "2026-W48" in loc as [Monday 00:00,
// next Monday 00:00). Errors name the bad text.
func ISOWeek(s string, loc *time.Location) (from, to time.Time, err error) {
	m := isoWeekRE.FindStringSubmatch(s)
	if m == nil {
		return from, to, fmt.Errorf("week %q: want YYYY-Www, e.g. 2026-W48", s)
	}
	year, _ := strconv.Atoi(m[1])
	week, _ := strconv.Atoi(m[2])
	// January 4th is always in week 1.
	jan4 := time.Date(year, 1, 4, 0, 0, 0, 0, loc)
	monday1 := jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7))
	from = monday1.AddDate(0, 0, 7*(week-1))
	if y, w := from.ISOWeek(); week < 1 || y != year || w != week {
		return time.Time{}, time.Time{}, fmt.Errorf("week %q: %d has no week %d", s, year, week)
	}
	return from, from.AddDate(0, 0, 7), nil
}

// WeekOf returns the ISO week containing t in loc, as "2026-W48".
func WeekOf(t time.Time, loc *time.Location) string {
	y, w := t.In(loc).ISOWeek()
	return fmt.Sprintf("%04d-W%02d", y, w)
}
