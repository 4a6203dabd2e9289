package ledger

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"time"
)

// The periods a digest charges in its one replay: its period (a week, or
// a scheduled digest's span) to AsOf, the span before it of the same
// length, the month to date, the ISO week of AsOf so far (the chart's
// last bar: the period itself for a week's digest), then the earlier weeks
// of the history, oldest first.
const (
	pWeek = iota
	pPrev
	pMonth
	pChart
	pHistory
	digestPeriods = pHistory + HistoryWeeks - 1
)

// What a disk did in the digest's periods (slotAcc.in bits).
const (
	inWeek = 1 << iota
	inPrev
	inMonth
	unpricedWeek
	unpricedMonth
)

// slotAcc is one disk's part of the digest: its cost this week and over
// last week's span, and the periods it was in.
type slotAcc struct {
	week, prev   float64 // CNY
	weekDays     float64 // days it existed this week
	weekBillable float64 // billable GB-days this week
	in           uint8
}

// digestBuild accumulates a digest while the ledger is replayed.
type digestBuild struct {
	periods [digestPeriods]period
	// spans are the periods in Unix nanoseconds (charge's arithmetic).
	spans [digestPeriods][2]int64
	// start is the earliest period's start.
	start  time.Time
	totals [digestPeriods]float64
	acc    []slotAcc
}

func newDigestBuild(from, to, asOf, monthStart time.Time, loc *time.Location, disks int) *digestBuild {
	b := &digestBuild{acc: make([]slotAcc, 0, disks)}
	b.periods[pWeek] = period{from, asOf}
	b.periods[pPrev] = period{spanBefore(from, from, to, loc), spanBefore(asOf, from, to, loc)}
	b.periods[pMonth] = period{monthStart, asOf}
	week := weekStart(asOf.Add(-time.Nanosecond), loc)
	b.periods[pChart] = period{week, asOf}
	for k := 0; k < HistoryWeeks-1; k++ {
		wf := week.AddDate(0, 0, -7*(HistoryWeeks-1-k))
		b.periods[pHistory+k] = period{wf, wf.AddDate(0, 0, 7)}
	}
	b.start = b.periods[pWeek].from
	for p, pr := range b.periods {
		b.spans[p] = [2]int64{pr.from.UnixNano(), pr.to.UnixNano()}
		if pr.from.Before(b.start) {
			b.start = pr.from
		}
	}
	return b
}

// spanBefore is t moved back by the length of [from, to): whole days in
// loc when both are midnights there (a week is 7 days whatever a clock
// change does), the duration otherwise.
func spanBefore(t, from, to time.Time, loc *time.Location) time.Time {
	f, e := from.In(loc), to.In(loc)
	if midnight(f) && midnight(e) {
		days := int(math.Round(time.Date(e.Year(), e.Month(), e.Day(), 0, 0, 0, 0, time.UTC).
			Sub(time.Date(f.Year(), f.Month(), f.Day(), 0, 0, 0, 0, time.UTC)).Hours() / 24))
		return t.AddDate(0, 0, -days)
	}
	return t.Add(-to.Sub(from))
}

func midnight(t time.Time) bool {
	return t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0
}

// weekStart is the Monday 00:00 in loc of t's ISO week.
func weekStart(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	day := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
	return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
}

// charge is the fold's segment: disk i spent [from, to) in its state s.
func (b *digestBuild) charge(i int, s *diskSlot, from, to time.Time) {
	for len(b.acc) <= i {
		b.acc = append(b.acc, slotAcc{})
	}
	a := &b.acc[i]
	if !to.After(b.start) {
		return
	}
	if from.Before(b.start) {
		from = b.start // also keeps a very old time's UnixNano in range
	}
	billable := s.rate.billable(s.SizeGB)
	f, t := from.UnixNano(), to.UnixNano()
	for p, span := range b.spans {
		lo, hi := max(f, span[0]), min(t, span[1])
		if lo >= hi {
			continue
		}
		days := float64(hi-lo) / float64(24*time.Hour)
		cny := 0.0
		if s.rate.Priced {
			cny = billable * days * s.rate.CNYPerGBDay
		}
		b.totals[p] += cny
		switch p {
		case pWeek:
			a.week += cny
			a.weekDays += days
			a.weekBillable += billable * days
			a.in |= inWeek
			if !s.rate.Priced {
				a.in |= unpricedWeek
			}
		case pPrev:
			a.prev += cny
			a.in |= inPrev
		case pMonth:
			a.in |= inMonth
			if !s.rate.Priced {
				a.in |= unpricedMonth
			}
		}
	}
}

// at is disk i's accumulator (zero when it was never charged).
func (b *digestBuild) at(i int) slotAcc {
	if i < len(b.acc) {
		return b.acc[i]
	}
	return slotAcc{}
}

// MoverMinCNY is the smallest change in a disk's weekly cost that makes it
// a mover: half a fen, the least that shows at two decimals.
const MoverMinCNY = 0.005

// week sets the totals, shares, movers and unpriced disks of the week.
func (b *digestBuild) week(d *Digest, slots []diskSlot) {
	d.TotalCNY, d.PreviousTotalCNY = b.totals[pWeek], b.totals[pPrev]
	members, platforms := map[string]float64{}, map[string]float64{}
	memberPlatforms := map[string]map[string]bool{}
	unpriced := map[string]bool{}
	for i := range slots {
		s, a := &slots[i], b.at(i)
		if a.in&(inWeek|inPrev) == 0 {
			continue
		}
		owner := ownerLabel(s.DiskState)
		if a.week > 0 {
			members[owner] += a.week
			platforms[s.Platform] += a.week
			if memberPlatforms[owner] == nil {
				memberPlatforms[owner] = map[string]bool{}
			}
			memberPlatforms[owner][s.Platform] = true
		}
		if a.in&unpricedWeek != 0 {
			unpriced[s.Platform] = true
			d.UnpricedDisks = append(d.UnpricedDisks, UnpricedDisk{Disk: s.Disk, Owner: owner, Platform: s.Platform, SizeGB: s.SizeGB,
				Days: a.weekDays, GBDays: a.weekBillable})
		}
		if math.Abs(a.week-a.prev) >= MoverMinCNY {
			d.Movers = append(d.Movers, Mover{Disk: s.Disk, Owner: owner, Platform: s.Platform, CNY: a.week, PreviousCNY: a.prev})
		}
	}
	d.DeltaCNY = d.TotalCNY - d.PreviousTotalCNY
	if d.PreviousTotalCNY > 0 {
		pct := d.DeltaCNY / d.PreviousTotalCNY * 100
		d.DeltaPct = &pct
	}
	d.Members = shares(members, d.TotalCNY)
	for i := range d.Members {
		d.Members[i].Platforms = sortedKeys(memberPlatforms[d.Members[i].Name])
	}
	d.Platforms = shares(platforms, d.TotalCNY)
	// Largest change first; ties in ledger order (sort is stable).
	sort.SliceStable(d.Movers, func(i, j int) bool {
		return math.Abs(d.Movers[i].CNY-d.Movers[i].PreviousCNY) > math.Abs(d.Movers[j].CNY-d.Movers[j].PreviousCNY)
	})
	if len(d.Movers) > MaxMovers {
		d.Movers = d.Movers[:MaxMovers]
	}
	slices.SortStableFunc(d.UnpricedDisks, func(x, y UnpricedDisk) int { return cmp.Compare(y.SizeGB*y.Days, x.SizeGB*x.Days) })
	d.Unpriced = sortedKeys(unpriced)
}

// MaxMovers is how many movers a digest keeps.
const MaxMovers = 5

// now sets what the disks existing at AsOf say: their count and size,
// the idle ones, and the month's forecast with them kept as they are.
func (b *digestBuild) now(d *Digest, slots []diskSlot, monthStart time.Time) {
	monthEnd := monthStart.AddDate(0, 1, 0)
	rest := 0.0
	if d.AsOf.Before(monthEnd) {
		rest = monthEnd.Sub(d.AsOf).Hours() / 24
	}
	d.Month = monthStart.Format("2006-01")
	d.MonthToDateCNY = b.totals[pMonth]
	d.ForecastCNY = d.MonthToDateCNY
	monthPlatforms, unpriced := map[string]bool{}, map[string]bool{}
	for _, p := range d.Unpriced {
		unpriced[p] = true
	}
	for i := range slots {
		s, a := &slots[i], b.at(i)
		if a.in&inMonth != 0 || s.live {
			monthPlatforms[s.Platform] = true
		}
		if a.in&unpricedMonth != 0 || s.live && !s.rate.Priced {
			d.MonthUnpriced++
			unpriced[s.Platform] = true
		}
		if !s.live {
			continue
		}
		d.Disks++
		d.SizeGB += s.SizeGB
		d.DailyCNY += s.rate.perDay(s.SizeGB)
		d.ForecastCNY += s.rate.perDay(s.SizeGB) * rest
		if idle, ok := idleDisk(s.DiskState, s.rate, d.AsOf); ok {
			d.Idle = append(d.Idle, idle)
		}
	}
	d.MonthPlatforms = sortedKeys(monthPlatforms)
	d.Unpriced = sortedKeys(unpriced)
	// Dearest first; unpriced ones after the priced, largest first.
	slices.SortStableFunc(d.Idle, func(x, y IdleDisk) int {
		if (x.MonthlyCNY == nil) != (y.MonthlyCNY == nil) {
			if x.MonthlyCNY == nil {
				return 1
			}
			return -1
		}
		if x.MonthlyCNY != nil && *x.MonthlyCNY != *y.MonthlyCNY {
			return cmp.Compare(*y.MonthlyCNY, *x.MonthlyCNY)
		}
		return cmp.Compare(y.SizeGB, x.SizeGB)
	})
}

// idleDisk is disk as an idle disk at t: stopped for IdleStoppedDays or
// unchanged for IdleUnchangedDays (ok false when it is neither).
func idleDisk(disk DiskState, r diskRate, t time.Time) (IdleDisk, bool) {
	days := t.Sub(disk.Since).Hours() / 24
	reason := ""
	switch {
	case disk.Stopped && days >= IdleStoppedDays:
		reason = "stopped"
	case days >= IdleUnchangedDays:
		reason = "unchanged"
	default:
		return IdleDisk{}, false
	}
	idle := IdleDisk{Disk: disk.Disk, Owner: ownerLabel(disk), Platform: disk.Platform, SizeGB: disk.SizeGB,
		Reason: reason, Days: math.Floor(days), Note: disk.Note}
	if r.Priced {
		monthly := r.perDay(disk.SizeGB) * 30
		idle.MonthlyCNY = &monthly
	}
	return idle, true
}

// history sets the weekly totals of the chart.
func (b *digestBuild) history(d *Digest, loc *time.Location) {
	for k := 0; k < HistoryWeeks-1; k++ {
		d.History = append(d.History, WeekTotal{Week: WeekOf(b.periods[pHistory+k].from, loc), CNY: b.totals[pHistory+k]})
	}
	d.History = append(d.History, WeekTotal{Week: WeekOf(b.periods[pChart].from, loc), CNY: b.totals[pChart]})
}

// sortedKeys are m's keys in order (nil for none).
func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
