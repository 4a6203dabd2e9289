package ledger

import (
	"fmt"
	"math"
	"time"
)

// diskKey names a disk in a ledger that may hold several labs.
type diskKey struct{ lab, disk string }

// diskRate is a disk's data disk price in one state (StoragePrice's
// answer): CNY per GB-day beyond FreeGB; Priced is false when the
// platform has no known price.
type diskRate struct {
	CNYPerGBDay, FreeGB float64
	Priced              bool
}

// perDay is what size GB cost a day at r (0 when unpriced).
func (r diskRate) perDay(sizeGB float64) float64 {
	if !r.Priced {
		return 0
	}
	return r.billable(sizeGB) * r.CNYPerGBDay
}

// billable is the part of size GB beyond the free GB.
func (r diskRate) billable(sizeGB float64) float64 { return math.Max(sizeGB-r.FreeGB, 0) }

// diskSlot is one disk's life in a replay: its state, whether it still
// exists, up to when it has been charged and its price in its current
// state. A removed disk keeps its slot and last state; an id added again
// after its removal gets a new slot.
type diskSlot struct {
	DiskState
	live  bool
	since time.Time
	rate  diskRate
}

// ledgerFold replays a ledger sorted by time in one pass: O(1) work per
// event (a map lookup and the caller's segment), whatever the number of
// live disks. The caller charges each segment, a stretch of time a disk
// spends in one state.
type ledgerFold struct {
	index map[diskKey]int
	slots []diskSlot
	price StoragePrice
	rates map[rateKey]diskRate
}

type rateKey struct {
	platform string
	stopped  bool
}

// newLedgerFold is a fold for a ledger of about disks disks (its adds),
// sized up front so that the replay does not regrow its tables.
func newLedgerFold(price StoragePrice, disks int) *ledgerFold {
	return &ledgerFold{index: make(map[diskKey]int, disks), slots: make([]diskSlot, 0, disks), price: price, rates: map[rateKey]diskRate{}}
}

// countAdds is how many events of sorted, up to t, add a disk.
func countAdds(sorted []StorageEvent, t time.Time) int {
	n := 0
	for i := range sorted {
		if sorted[i].Time.After(t) {
			break
		}
		if sorted[i].Action == ActionAdd {
			n++
		}
	}
	return n
}

// rate is price(platform, stopped), asked once per platform and state.
func (f *ledgerFold) rate(platform string, stopped bool) diskRate {
	k := rateKey{platform, stopped}
	r, ok := f.rates[k]
	if !ok {
		r.CNYPerGBDay, r.FreeGB, r.Priced = f.price(platform, stopped)
		f.rates[k] = r
	}
	return r
}

// segment is called for a disk's stretch [from, to) in its current state
// (slot i, before the event that ends the stretch is applied).
type segment func(i int, s *diskSlot, from, to time.Time)

// step folds one event (not earlier than the events before it): the
// disk's stretch up to the event goes to seg, then the event is applied
// as apply does. It returns the event's slot, or an error for an
// inconsistent event, which changes nothing (the ledger's rule: such an
// event is skipped, CheckLedger reports it).
func (f *ledgerFold) step(e StorageEvent, seg segment) (int, error) {
	if err := e.validate(); err != nil {
		return -1, err
	}
	k := diskKey{e.Lab, e.Disk}
	i, ok := f.index[k]
	if e.Action == ActionAdd {
		if ok {
			return -1, fmt.Errorf("disk %s is added twice (at %s)", e.Disk, e.Time.Format(time.RFC3339))
		}
		f.slots = append(f.slots, diskSlot{DiskState: DiskState{Lab: e.Lab, Disk: e.Disk, Owner: e.Owner, OwnerName: e.OwnerName,
			Platform: e.Platform, Note: e.Note, SizeGB: e.SizeGB, Since: e.Time, Added: e.Time}, live: true, since: e.Time, rate: f.rate(e.Platform, false)})
		f.index[k] = len(f.slots) - 1
		return len(f.slots) - 1, nil
	}
	if !ok {
		return -1, fmt.Errorf("disk %s: %s before it was added (at %s)", e.Disk, e.Action, e.Time.Format(time.RFC3339))
	}
	s := &f.slots[i]
	if e.Time.After(s.since) {
		seg(i, s, s.since, e.Time)
		s.since = e.Time
	}
	switch e.Action {
	case ActionResize:
		s.SizeGB = e.SizeGB
	case ActionStop, ActionStart:
		s.Stopped = e.Action == ActionStop
		s.rate = f.rate(s.Platform, s.Stopped)
	case ActionRemove:
		s.live = false
		delete(f.index, k)
		return i, nil
	}
	s.Since = e.Time
	return i, nil
}

// close charges every live disk's last stretch, up to end.
func (f *ledgerFold) close(end time.Time, seg segment) {
	for i := range f.slots {
		s := &f.slots[i]
		if s.live && end.After(s.since) {
			seg(i, s, s.since, end)
			s.since = end
		}
	}
}
