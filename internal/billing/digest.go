package billing

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
)

// CatalogStoragePrice prices data disks from the catalog (the midpoint of
// each platform's data disk CNY per GB-day, its free GB per disk, and 0
// while stopped on platforms that do not bill stopped disks), with
// per-lab overrides in CNY per GB-day (config storage.prices) taking
// precedence. Platforms without a figure are unpriced.
func CatalogStoragePrice(cat *catalog.Catalog, overrides map[string]float64) StoragePrice {
	return func(platform string, stopped bool) (float64, float64, bool) {
		p, ok := cat.Platform(platform)
		free := 0.0
		billedStopped := true
		var price float64
		priced := false
		if ok {
			free = p.Storage.DataDiskFreeGB
			billedStopped = p.Storage.BilledWhileStopped
			if f := p.Storage.DataDiskCNYPerGBDay; f != nil {
				price, priced = f.Mid(), true
			}
		}
		if v, ok := overrides[platform]; ok {
			price, priced = v, true
		}
		if stopped && !billedStopped {
			price = 0
		}
		return price, free, priced
	}
}

// Share is one member's or platform's part of a week's spend.
type Share struct {
	Name string  `json:"name"`
	CNY  float64 `json:"cny"`
	// Share is CNY over the week's total (0–1; 0 when the total is 0).
	Share float64 `json:"share"`
}

// Mover is a disk whose weekly cost changed most against the week before.
type Mover struct {
	Disk        string  `json:"disk"`
	Owner       string  `json:"owner"`
	Platform    string  `json:"platform"`
	CNY         float64 `json:"cny"`
	PreviousCNY float64 `json:"previous_cny"`
}

// IdleDisk is a disk worth deleting or moving.
type IdleDisk struct {
	Disk     string  `json:"disk"`
	Owner    string  `json:"owner"`
	Platform string  `json:"platform"`
	SizeGB   float64 `json:"size_gb"`
	// Reason is "stopped" (instance stopped 7 days or more) or "unchanged"
	// (no change for 30 days or more).
	Reason string `json:"reason"`
	// Days is how long it has been stopped or unchanged.
	Days float64 `json:"days"`
	// MonthlyCNY is what it costs per 30 days as it is (the saving if
	// deleted).
	MonthlyCNY float64 `json:"monthly_saving_cny"`
	Note       string  `json:"note,omitempty"`
}

// Digest is a lab's storage spend for one ISO week.
type Digest struct {
	Lab              string    `json:"lab"`
	Week             string    `json:"week"`
	From             time.Time `json:"from"`
	To               time.Time `json:"to"`
	TotalCNY         float64   `json:"total_cny"`
	PreviousTotalCNY float64   `json:"previous_total_cny"`
	DeltaCNY         float64   `json:"delta_cny"`
	// DeltaPct is the change in percent; nil when last week was 0.
	DeltaPct  *float64   `json:"delta_pct"`
	Members   []Share    `json:"members"`
	Platforms []Share    `json:"platforms"`
	Movers    []Mover    `json:"movers"`
	Idle      []IdleDisk `json:"idle"`
	// MonthToDateCNY is the spend from the 1st of the month of the week's
	// end (or of now, for the current week) up to then; ForecastCNY adds
	// the disks as they are then until the month's end.
	MonthToDateCNY float64 `json:"month_to_date_cny"`
	ForecastCNY    float64 `json:"month_forecast_cny"`
	Month          string  `json:"month"`
	// Unpriced lists platforms with disks but no known price.
	Unpriced []string `json:"unpriced,omitempty"`
	// LastEntry is the newest ledger event (zero when there is none): how
	// fresh the data is.
	LastEntry time.Time `json:"last_entry"`
	// AsOf is the instant the figures run to (the week's end, or now for
	// the current week).
	AsOf time.Time `json:"as_of"`
	// History is the spend of the last HistoryWeeks weeks, oldest first,
	// ending with this one.
	History []WeekTotal `json:"history"`
	// Skipped counts inconsistent ledger events left out (CheckLedger).
	Skipped int `json:"skipped_events,omitempty"`
	// Prices are the data disk prices used, per platform in the digest
	// (set by PriceNotes).
	Prices []PriceNote `json:"prices"`
}

// PriceNote says which data disk price a digest used for a platform and
// where it comes from.
type PriceNote struct {
	Platform    string  `json:"platform"`
	CNYPerGBDay float64 `json:"cny_per_gb_day"`
	FreeGB      float64 `json:"free_gb"`
	// AsOf and Source are the catalog figure's; Override is true for a
	// price from config storage.prices.
	AsOf     string `json:"as_of,omitempty"`
	Source   string `json:"source,omitempty"`
	Override bool   `json:"override,omitempty"`
}

// PriceNotes fills d.Prices for the platforms in d from the catalog and
// the overrides (as CatalogStoragePrice prices them).
func PriceNotes(d *Digest, cat *catalog.Catalog, overrides map[string]float64) {
	d.Prices = []PriceNote{}
	for _, sh := range d.Platforms {
		n := PriceNote{Platform: sh.Name}
		if p, ok := cat.Platform(sh.Name); ok {
			n.FreeGB = p.Storage.DataDiskFreeGB
			if f := p.Storage.DataDiskCNYPerGBDay; f != nil {
				n.CNYPerGBDay, n.AsOf, n.Source = f.Mid(), f.AsOf, f.Source
			}
		}
		if v, ok := overrides[sh.Name]; ok {
			n.CNYPerGBDay, n.Override, n.AsOf, n.Source = v, true, "", "config storage.prices"
		}
		d.Prices = append(d.Prices, n)
	}
}

// WeekTotal is one week's storage spend.
type WeekTotal struct {
	Week string  `json:"week"`
	CNY  float64 `json:"cny"`
}

// HistoryWeeks is how many weeks the digest's chart shows.
const HistoryWeeks = 8

// IdleStoppedDays and IdleUnchangedDays are the idle thresholds.
const (
	IdleStoppedDays   = 7
	IdleUnchangedDays = 30
)

// BuildDigest computes the digest of week ("2026-W48", in loc) from a
// lab's ledger. now bounds the current week (figures run to now, not to
// Sunday). Errors come from a bad week or a bad ledger.
func BuildDigest(events []StorageEvent, lab, week string, loc *time.Location, price StoragePrice, now time.Time) (Digest, error) {
	from, to, err := ISOWeek(week, loc)
	if err != nil {
		return Digest{}, err
	}
	d := Digest{Lab: lab, Week: week, From: from, To: to, AsOf: to, Movers: []Mover{}, Idle: []IdleDisk{}}
	if now.Before(to) {
		d.AsOf = now
	}
	if !d.AsOf.After(from) {
		return d, fmt.Errorf("week %s has not started yet", week)
	}
	// One sorted copy and one replay for every period the digest needs.
	sorted := sortEvents(events)
	asOfLocal := d.AsOf.Add(-time.Nanosecond).In(loc)
	monthStart := time.Date(asOfLocal.Year(), asOfLocal.Month(), 1, 0, 0, 0, 0, loc)
	// Periods: this week, last week over the same span (all of it for a
	// finished week, the same days and hours so far for the current one),
	// the month to date, then the earlier weeks of the history.
	periods := []period{{from, d.AsOf}, {from.AddDate(0, 0, -7), d.AsOf.AddDate(0, 0, -7)}, {monthStart, d.AsOf}}
	for i := HistoryWeeks - 1; i >= 1; i-- {
		wf := from.AddDate(0, 0, -7*i)
		periods = append(periods, period{wf, wf.AddDate(0, 0, 7)})
	}
	costs, err := storageCosts(sorted, periods, price)
	if err != nil {
		return d, err
	}
	d.Skipped = len(checkSorted(sorted))
	d.addWeek(costs[0], costs[1])
	disks := disksAt(sorted, d.AsOf)
	d.addIdle(disks, price)
	d.addMonth(costs[2], disks, monthStart, price)
	for i := HistoryWeeks - 1; i >= 0; i-- {
		wk := WeekTotal{Week: WeekOf(from.AddDate(0, 0, -7*i), loc), CNY: d.TotalCNY}
		if i > 0 {
			wk.CNY = sumCNY(costs[3+HistoryWeeks-1-i])
		}
		d.History = append(d.History, wk)
	}
	for _, e := range events {
		if e.Time.After(d.LastEntry) && !e.Time.After(d.AsOf) {
			d.LastEntry = e.Time
		}
	}
	return d, nil
}

// sumCNY is the total of costs.
func sumCNY(costs []DiskCost) float64 {
	total := 0.0
	for _, c := range costs {
		total += c.CNY
	}
	return total
}

// addWeek sets the week's totals, shares and movers from this week's and
// last week's costs.
func (d *Digest) addWeek(cur, prev []DiskCost) {
	members, platforms := map[string]float64{}, map[string]float64{}
	prevByDisk := map[string]DiskCost{}
	unpriced := map[string]bool{}
	for _, c := range prev {
		d.PreviousTotalCNY += c.CNY
		prevByDisk[c.Disk] = c
	}
	curByDisk := map[string]bool{}
	for _, c := range cur {
		d.TotalCNY += c.CNY
		members[ownerLabel(c.DiskState)] += c.CNY
		platforms[c.Platform] += c.CNY
		if !c.Priced {
			unpriced[c.Platform] = true
		}
		curByDisk[c.Disk] = true
		d.Movers = append(d.Movers, Mover{Disk: c.Disk, Owner: ownerLabel(c.DiskState), Platform: c.Platform, CNY: c.CNY, PreviousCNY: prevByDisk[c.Disk].CNY})
	}
	for _, c := range prev {
		if !curByDisk[c.Disk] {
			d.Movers = append(d.Movers, Mover{Disk: c.Disk, Owner: ownerLabel(c.DiskState), Platform: c.Platform, PreviousCNY: c.CNY})
		}
	}
	d.DeltaCNY = d.TotalCNY - d.PreviousTotalCNY
	if d.PreviousTotalCNY > 0 {
		pct := d.DeltaCNY / d.PreviousTotalCNY * 100
		d.DeltaPct = &pct
	}
	d.Members = shares(members, d.TotalCNY)
	d.Platforms = shares(platforms, d.TotalCNY)
	sort.SliceStable(d.Movers, func(i, j int) bool {
		return math.Abs(d.Movers[i].CNY-d.Movers[i].PreviousCNY) > math.Abs(d.Movers[j].CNY-d.Movers[j].PreviousCNY)
	})
	for len(d.Movers) > 0 && d.Movers[len(d.Movers)-1].CNY == d.Movers[len(d.Movers)-1].PreviousCNY {
		d.Movers = d.Movers[:len(d.Movers)-1]
	}
	if len(d.Movers) > 3 {
		d.Movers = d.Movers[:3]
	}
	for p := range unpriced {
		d.Unpriced = append(d.Unpriced, p)
	}
	sort.Strings(d.Unpriced)
}

// addIdle lists the disks idle at AsOf: stopped for IdleStoppedDays or
// unchanged for IdleUnchangedDays, dearest first.
func (d *Digest) addIdle(disks []DiskState, price StoragePrice) {
	for _, disk := range disks {
		days := d.AsOf.Sub(disk.Since).Hours() / 24
		reason := ""
		switch {
		case disk.Stopped && days >= IdleStoppedDays:
			reason = "stopped"
		case days >= IdleUnchangedDays:
			reason = "unchanged"
		default:
			continue
		}
		perDay, free, _ := price(disk.Platform, disk.Stopped)
		d.Idle = append(d.Idle, IdleDisk{Disk: disk.Disk, Owner: ownerLabel(disk), Platform: disk.Platform, SizeGB: disk.SizeGB,
			Reason: reason, Days: math.Floor(days), MonthlyCNY: math.Max(disk.SizeGB-free, 0) * 30 * perDay, Note: disk.Note})
	}
	sort.SliceStable(d.Idle, func(i, j int) bool { return d.Idle[i].MonthlyCNY > d.Idle[j].MonthlyCNY })
}

// addMonth sets the month to date and the forecast to the month's end
// (today's disks kept as they are).
func (d *Digest) addMonth(mtd []DiskCost, disks []DiskState, monthStart time.Time, price StoragePrice) {
	monthEnd := monthStart.AddDate(0, 1, 0)
	d.Month = monthStart.Format("2006-01")
	d.MonthToDateCNY = sumCNY(mtd)
	d.ForecastCNY = d.MonthToDateCNY
	if d.AsOf.Before(monthEnd) {
		rest := monthEnd.Sub(d.AsOf).Hours() / 24
		for _, disk := range disks {
			perDay, free, _ := price(disk.Platform, disk.Stopped)
			d.ForecastCNY += math.Max(disk.SizeGB-free, 0) * rest * perDay
		}
	}
}

// ownerLabel is how answers name a disk's owner: the display name when
// known, else "成员" and the id's last four characters (a raw open_id is
// never shown).
func ownerLabel(d DiskState) string {
	if d.OwnerName != "" {
		return d.OwnerName
	}
	return MemberLabel(d.Owner)
}

// MemberLabel names a member whose display name is unknown: a chat
// platform's opaque id (Feishu "ou_…", a WeChat "@…" user name, anything
// over 20 characters) becomes "成员" and its last four characters; a short
// id someone chose ("alice" in an imported ledger) is kept.
func MemberLabel(id string) string {
	r := []rune(id)
	if !strings.HasPrefix(id, "ou_") && !strings.HasPrefix(id, "on_") && !strings.HasPrefix(id, "@") && len(r) <= 20 {
		return id
	}
	if len(r) > 4 {
		r = r[len(r)-4:]
	}
	return "成员" + string(r)
}

func shares(m map[string]float64, total float64) []Share {
	out := make([]Share, 0, len(m))
	for k, v := range m {
		s := Share{Name: k, CNY: v}
		if total > 0 {
			s.Share = v / total
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CNY != out[j].CNY {
			return out[i].CNY > out[j].CNY
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// BudgetThresholds are the shares of a monthly budget that are announced.
var BudgetThresholds = []int{50, 80, 100}

// BudgetCrossed returns the thresholds (percent) that spend has reached
// against a monthly budget, lowest first; none when the budget is not
// positive.
func BudgetCrossed(spendCNY, budgetCNY float64) []int {
	var out []int
	if !(budgetCNY > 0) {
		return nil
	}
	for _, p := range BudgetThresholds {
		if spendCNY >= budgetCNY*float64(p)/100 {
			out = append(out, p)
		}
	}
	return out
}

// MonthToDate is a lab's storage spend from the 1st of now's month (in
// loc) to now, in CNY.
func MonthToDate(events []StorageEvent, now time.Time, loc *time.Location, price StoragePrice) (float64, error) {
	l := now.In(loc)
	start := time.Date(l.Year(), l.Month(), 1, 0, 0, 0, 0, loc)
	if !start.Before(now) {
		return 0, nil
	}
	costs, err := StorageCost(events, start, now, price)
	if err != nil {
		return 0, err
	}
	total := 0.0
	for _, c := range costs {
		total += c.CNY
	}
	return total, nil
}

// Rounded returns a copy of d with every CNY figure rounded to 0.0001 CNY
// (and shares to 0.0001), for output without float noise such as
// 6.2250000000000005.
func (d Digest) Rounded() Digest {
	r := func(v float64) float64 { return math.Round(v*1e4) / 1e4 }
	out := d
	out.TotalCNY, out.PreviousTotalCNY, out.DeltaCNY = r(d.TotalCNY), r(d.PreviousTotalCNY), r(d.DeltaCNY)
	out.MonthToDateCNY, out.ForecastCNY = r(d.MonthToDateCNY), r(d.ForecastCNY)
	if d.DeltaPct != nil {
		p := math.Round(*d.DeltaPct*100) / 100
		out.DeltaPct = &p
	}
	share := func(in []Share) []Share {
		o := make([]Share, len(in))
		for i, s := range in {
			o[i] = Share{Name: s.Name, CNY: r(s.CNY), Share: r(s.Share)}
		}
		return o
	}
	out.Members, out.Platforms = share(d.Members), share(d.Platforms)
	out.Movers = append([]Mover{}, d.Movers...)
	for i := range out.Movers {
		out.Movers[i].CNY, out.Movers[i].PreviousCNY = r(out.Movers[i].CNY), r(out.Movers[i].PreviousCNY)
	}
	out.Idle = append([]IdleDisk{}, d.Idle...)
	for i := range out.Idle {
		out.Idle[i].MonthlyCNY = r(out.Idle[i].MonthlyCNY)
	}
	out.History = append([]WeekTotal{}, d.History...)
	for i := range out.History {
		out.History[i].CNY = r(out.History[i].CNY)
	}
	return out
}
