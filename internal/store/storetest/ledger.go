package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
)

// Registrations is how many disks ConcurrentRegistrations registers at
// once.
const Registrations = 16

// ledgerAt is when the ledger tests' events happen.
var ledgerAt = time.Date(2026, 11, 23, 9, 30, 0, 0, time.FixedZone("CST", 8*3600))

// flatPrice prices every platform's disks at 0.01 CNY per GB-day, 50 GB
// free.
func flatPrice(string, bool) (float64, float64, bool) { return 0.01, 50, true }

// DiskNumbers checks AddStorageDisk's numbers on one lab: 1, 2, … from an
// empty ledger; after the largest number any event names, imported ones
// included ("41", "007" as 7), never a removed disk's number again, ids
// that are no number ("ssd-9", "+50", "1e3") not counted; labs apart.
func DiskNumbers(t *testing.T, s LedgerStore) {
	t.Helper()
	ctx := context.Background()
	lab, other := "feishu/"+unique(t, "oc"), "feishu/"+unique(t, "oc")
	add := func(lab, want string) {
		t.Helper()
		e := ledger.StorageEvent{Time: ledgerAt, Lab: lab, Owner: "ou_a", Platform: "autodl", Disk: "999", Action: ledger.ActionAdd, SizeGB: 80}
		id, err := s.AddStorageDisk(ctx, e)
		if err != nil || id != want {
			t.Fatalf("AddStorageDisk on %s = %q, %v; want %q", lab, id, err, want)
		}
	}
	add(lab, "1")
	add(lab, "2")
	add(other, "1")
	ev := func(disk string, a ledger.StorageAction) ledger.StorageEvent {
		return ledger.StorageEvent{Time: ledgerAt, Lab: lab, Owner: "ou_b", Platform: "autodl", Disk: disk, Action: a, SizeGB: 10}
	}
	if err := s.AppendStorageEvents(ctx, []ledger.StorageEvent{ev("ssd-9", ledger.ActionAdd), ev("+50", ledger.ActionAdd), ev("1e3", ledger.ActionAdd), ev("007", ledger.ActionAdd)}); err != nil {
		t.Fatal(err)
	}
	add(lab, "8")
	if err := s.AppendStorageEvents(ctx, []ledger.StorageEvent{ev("41", ledger.ActionAdd), ev("41", ledger.ActionRemove)}); err != nil {
		t.Fatal(err)
	}
	add(lab, "42")
	add(other, "2")
	got, err := s.StorageEvents(ctx, lab)
	if err != nil {
		t.Fatal(err)
	}
	last := got[len(got)-1]
	if last.Disk != "42" || last.Owner != "ou_a" || last.SizeGB != 80 || last.Action != ledger.ActionAdd || !last.Time.Equal(ledgerAt) || last.Lab != lab {
		t.Errorf("the last add reads back as %+v", last)
	}
	if _, err := s.AddStorageDisk(ctx, ledger.StorageEvent{Time: ledgerAt, Lab: lab, Disk: "1", Action: ledger.ActionStop}); err == nil {
		t.Error("AddStorageDisk took a stop")
	}
	if _, err := s.AddStorageDisk(ctx, ledger.StorageEvent{Time: ledgerAt, Disk: "1", Action: ledger.ActionAdd, SizeGB: 1}); err == nil {
		t.Error("AddStorageDisk took an event without a lab")
	}
}

// ConcurrentRegistrations registers Registrations disks in one lab at the
// same moment, spread over stores (one store, or several replicas over
// one shared server): each gets a number of its own, and the ledger lists
// and prices them all.
func ConcurrentRegistrations(t *testing.T, stores ...LedgerStore) {
	t.Helper()
	ctx := context.Background()
	lab := "feishu/" + unique(t, "oc")
	ids := make([]string, Registrations)
	won := Race(t, Registrations, "register", func(i int) (bool, error) {
		e := ledger.StorageEvent{Time: ledgerAt, Lab: lab, Owner: fmt.Sprintf("ou_%02d", i), Platform: "autodl", Action: ledger.ActionAdd, SizeGB: 80,
			Note: fmt.Sprintf("member %02d", i)}
		id, err := stores[i%len(stores)].AddStorageDisk(ctx, e)
		ids[i] = id
		return err == nil, err
	})
	if won != Registrations {
		t.Fatalf("%d of %d registrations succeeded", won, Registrations)
	}
	owner := map[string]int{}
	for i, id := range ids {
		if j, dup := owner[id]; dup {
			t.Errorf("disk %q given to member %d and member %d", id, j, i)
		}
		owner[id] = i
	}
	for si, s := range stores {
		events, err := s.StorageEvents(ctx, lab)
		if err != nil {
			t.Fatal(err)
		}
		if errs := ledger.CheckLedger(events); len(errs) > 0 {
			t.Errorf("store %d: the ledger is inconsistent: %v", si, errs)
		}
		disks, _ := ledger.DisksAt(events, ledgerAt)
		if len(disks) != Registrations {
			t.Errorf("store %d lists %d disks, want %d", si, len(disks), Registrations)
		}
		for _, d := range disks {
			if i, ok := owner[d.Disk]; !ok || d.Owner != fmt.Sprintf("ou_%02d", i) || d.Note != fmt.Sprintf("member %02d", i) {
				t.Errorf("store %d: disk %s is %s's (%q), want the member it was given to", si, d.Disk, d.Owner, d.Note)
			}
		}
		costs, err := ledger.StorageCost(events, ledgerAt, ledgerAt.Add(24*time.Hour), flatPrice)
		if err != nil {
			t.Fatal(err)
		}
		total := 0.0
		for _, c := range costs {
			if !c.Priced {
				t.Errorf("store %d: disk %s is not priced", si, c.Disk)
			}
			total += c.CNY
		}
		// Each: (80 − 50 free) × 0.01 = 0.30 a day.
		if len(costs) != Registrations || math.Abs(total-0.30*Registrations) > 1e-9 {
			t.Errorf("store %d prices %d disks at %.4f a day, want %d at %.2f", si, len(costs), total, Registrations, 0.30*Registrations)
		}
	}
}

// ConditionalAppend checks AppendStorageEventsIf over stores (one store,
// or replicas over one server): it appends when the ledger holds the
// number of events the caller read and refuses with
// ledger.ErrLedgerChanged, writing nothing, when it does not; of writers
// that read the same ledger at once, exactly one appends.
func ConditionalAppend(t *testing.T, stores ...LedgerStore) {
	t.Helper()
	ctx := context.Background()
	lab := "feishu/" + unique(t, "oc")
	s := stores[0]
	ev := func(disk string, a ledger.StorageAction) ledger.StorageEvent {
		return ledger.StorageEvent{Time: ledgerAt, Lab: lab, Owner: "ou_a", Platform: "autodl", Disk: disk, Action: a, SizeGB: 80}
	}
	if err := s.AppendStorageEventsIf(ctx, lab, 0, []ledger.StorageEvent{ev("a", ledger.ActionAdd)}); err != nil {
		t.Fatalf("append to an empty ledger: %v", err)
	}
	for _, have := range []int{0, 2, -1} {
		if err := s.AppendStorageEventsIf(ctx, lab, have, []ledger.StorageEvent{ev("b", ledger.ActionAdd)}); !errors.Is(err, ledger.ErrLedgerChanged) {
			t.Errorf("append at %d events to a ledger of 1: %v, want ErrLedgerChanged", have, err)
		}
	}
	if err := s.AppendStorageEventsIf(ctx, lab, 1, []ledger.StorageEvent{ev("c", ledger.ActionAdd), ev("other", ledger.ActionAdd)}); err != nil {
		t.Fatalf("append at the right count: %v", err)
	}
	if got, _ := s.StorageEvents(ctx, lab); len(got) != 3 || got[1].Disk != "c" || got[2].Disk != "other" {
		t.Fatalf("ledger after the appends: %+v", got)
	}
	wrong := ev("x", ledger.ActionAdd)
	wrong.Lab = "feishu/" + unique(t, "elsewhere")
	if err := s.AppendStorageEventsIf(ctx, lab, 3, []ledger.StorageEvent{ev("y", ledger.ActionAdd), wrong}); err == nil {
		t.Error("an append to one lab took an event of another")
	}
	if got, _ := s.StorageEvents(ctx, lab); len(got) != 3 {
		t.Errorf("a refused append wrote %d events", len(got)-3)
	}

	// Writers that all read 3 events: one appends, the rest are told.
	const n = 12
	var mu sync.Mutex
	var changed int
	won := Race(t, n, "conditional append", func(i int) (bool, error) {
		err := stores[i%len(stores)].AppendStorageEventsIf(ctx, lab, 3, []ledger.StorageEvent{ev(fmt.Sprintf("r%d", i), ledger.ActionAdd)})
		if errors.Is(err, ledger.ErrLedgerChanged) {
			mu.Lock()
			changed++
			mu.Unlock()
			return false, nil
		}
		return err == nil, err
	})
	if won != 1 || changed != n-1 {
		t.Errorf("%d of %d writers appended and %d were told the ledger changed; want 1 and %d", won, n, changed, n-1)
	}
	if got, _ := s.StorageEvents(ctx, lab); len(got) != 4 {
		t.Errorf("ledger holds %d events after the race, want 4", len(got))
	}
}
