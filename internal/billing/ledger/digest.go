package ledger

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/i18n"
)

// CatalogStoragePrice prices data disks from the catalog (the midpoint of
// each platform's data disk CNY per GB-day, its free GB per disk, and 0
// while stopped on platforms that do not bill stopped disks), with
// per-lab overrides in CNY per GB-day (config storage.prices) taking
// precedence. Platforms without a figure are unpriced.
func CatalogStoragePrice(cat *catalog.Catalog, overrides map[string]float64) StoragePrice {
	return func(platform string, stopped bool) (float64, float64, bool) {
		p, ok := cat.Platform(platform)
		if !ok {
			// A ledger imported before names were checked may hold "矩池云".
			if id, found := cat.PlatformID(platform); found {
				platform = id
				p, ok = cat.Platform(id)
			}
		}
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
	// Platforms are the platforms of a member's priced disks (the prices
	// its CNY rests on); empty for a platform's share.
	Platforms []string `json:"platforms,omitempty"`
}

// Mover is a disk whose weekly cost changed most against the week before
// (by MoverMinCNY or more: an unchanged disk is never a mover).
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
	// deleted); nil when its platform has no price.
	MonthlyCNY *float64 `json:"monthly_saving_cny"`
	Note       string   `json:"note,omitempty"`
}

// UnpricedDisk is a disk of the week whose platform has no data disk
// price (neither in the catalog nor in config storage.prices): its cost
// is unknown and left out of the totals.
type UnpricedDisk struct {
	Disk     string `json:"disk"`
	Owner    string `json:"owner"`
	Platform string `json:"platform"`
	// SizeGB is its size at the end of its time in the week (GB = 1e9
	// bytes); Days how long it existed in the week; GBDays its size
	// beyond the platform's free GB integrated over that time.
	SizeGB float64 `json:"size_gb"`
	Days   float64 `json:"days"`
	GBDays float64 `json:"gb_days"`
}

// Digest is a lab's storage spend for one ISO week. CNY figures leave out
// the unpriced disks (UnpricedDisks, MonthUnpriced): with any of them a
// figure is a lower bound.
type Digest struct {
	Lab              string    `json:"lab"`
	Week             string    `json:"week"`
	From             time.Time `json:"from"`
	To               time.Time `json:"to"`
	TotalCNY         float64   `json:"total_cny"`
	PreviousTotalCNY float64   `json:"previous_total_cny"`
	DeltaCNY         float64   `json:"delta_cny"`
	// DeltaPct is the change in percent; nil when last week was 0.
	DeltaPct *float64 `json:"delta_pct"`
	// Members and Platforms are the shares of the week's spend, dearest
	// first; members or platforms that cost nothing are left out.
	Members   []Share `json:"members"`
	Platforms []Share `json:"platforms"`
	// Movers are the MaxMovers disks whose cost changed most.
	Movers []Mover `json:"movers"`
	// Idle are all the idle disks at AsOf, dearest first.
	Idle []IdleDisk `json:"idle"`
	// UnpricedDisks are the week's disks without a price, largest first.
	UnpricedDisks []UnpricedDisk `json:"unpriced_disks"`
	// ReleaseSoon are the stopped disks a platform's rule will wipe, or
	// by its rule already has (AtRisk.Gone), soonest first (ReleaseRisks
	// at ReleaseAsOf; the caller fills it, as it holds the catalog).
	ReleaseSoon []AtRisk `json:"release_soon,omitempty"`
	// ReleaseAsOf is the instant ReleaseSoon was worked out at (now, even
	// for a past week's digest).
	ReleaseAsOf time.Time `json:"release_as_of,omitzero"`
	// MonthToDateCNY is the spend from the 1st of the month of the week's
	// end (or of now, for the current week) up to then; ForecastCNY adds
	// the disks as they are then until the month's end.
	MonthToDateCNY float64 `json:"month_to_date_cny"`
	ForecastCNY    float64 `json:"month_forecast_cny"`
	Month          string  `json:"month"`
	// MonthPlatforms are the platforms of the disks in the month to date
	// or the forecast; MonthUnpriced counts those disks without a price.
	MonthPlatforms []string `json:"month_platforms,omitempty"`
	MonthUnpriced  int      `json:"month_unpriced_disks,omitempty"`
	// Unpriced lists the platforms with disks in the digest but no known
	// price.
	Unpriced []string `json:"unpriced,omitempty"`
	// Disks and SizeGB are the disks existing at AsOf, and their GB;
	// DailyCNY is what they cost a day as they are then (the unpriced ones
	// left out).
	Disks    int     `json:"disks"`
	SizeGB   float64 `json:"size_gb"`
	DailyCNY float64 `json:"daily_cny"`
	// FirstEntry and LastEntry are the oldest and the newest ledger event
	// up to AsOf (zero when there is none): how much history there is and
	// how fresh it is.
	FirstEntry time.Time `json:"first_entry"`
	LastEntry  time.Time `json:"last_entry"`
	// AsOf is the instant the figures run to (the week's end, or now for
	// the current week).
	AsOf time.Time `json:"as_of"`
	// History is the spend of the last HistoryWeeks weeks, oldest first,
	// ending with this one.
	History []WeekTotal `json:"history"`
	// Skipped counts the inconsistent ledger events up to AsOf that were
	// left out (CheckLedger).
	Skipped int `json:"skipped_events,omitempty"`
	// Prices are the data disk prices used, per platform in the digest
	// (set by PriceNotes).
	Prices []PriceNote `json:"prices"`
}

// PriceNote says which data disk price a digest used for a platform and
// where it comes from.
type PriceNote struct {
	Platform string `json:"platform"`
	// Priced is false when the platform has no price (CNYPerGBDay is then
	// 0 and means nothing).
	Priced      bool    `json:"priced"`
	CNYPerGBDay float64 `json:"cny_per_gb_day"`
	FreeGB      float64 `json:"free_gb"`
	// AsOf and Source are the catalog figure's; Override is true for a
	// price from config storage.prices. Verified is false for a catalog
	// figure only the seed articles give (answers mark it "*").
	AsOf     string `json:"as_of,omitempty"`
	Source   string `json:"source,omitempty"`
	Override bool   `json:"override,omitempty"`
	Verified bool   `json:"verified"`
}

// PriceConfigKey is the config key that sets a platform's data disk price
// in CNY per GB-day (config storage.prices).
func PriceConfigKey(platform string) string { return "storage.prices." + platform }

// PriceNotes fills d.Prices for the platforms in d (the week's, the
// month's, the idle and unpriced disks'), from the catalog and the
// overrides as CatalogStoragePrice prices them: the week's platforms
// dearest first, then the others by id.
func PriceNotes(d *Digest, cat *catalog.Catalog, overrides map[string]float64) {
	d.Prices = []PriceNote{}
	for _, id := range d.platformIDs() {
		n := PriceNote{Platform: id}
		if p, ok := cat.Platform(id); ok {
			n.FreeGB = p.Storage.DataDiskFreeGB
			if f := p.Storage.DataDiskCNYPerGBDay; f != nil {
				n.Priced, n.CNYPerGBDay, n.AsOf, n.Source, n.Verified = true, f.Mid(), f.AsOf, f.Source, f.Verified
			}
		}
		if v, ok := overrides[id]; ok {
			n.Priced, n.CNYPerGBDay, n.Override, n.AsOf, n.Source, n.Verified = true, v, true, "", "config storage.prices", true
		}
		d.Prices = append(d.Prices, n)
	}
}

// platformIDs are the platforms d mentions: the week's shares first, then
// the others by id.
func (d *Digest) platformIDs() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range d.Platforms {
		seen[s.Name] = true
		out = append(out, s.Name)
	}
	rest := map[string]bool{}
	add := func(id string) {
		if !seen[id] {
			rest[id] = true
		}
	}
	for _, id := range d.MonthPlatforms {
		add(id)
	}
	for _, id := range d.Unpriced {
		add(id)
	}
	for _, i := range d.Idle {
		add(i.Platform)
	}
	for _, m := range d.Movers {
		add(m.Platform)
	}
	return append(out, sortedKeys(rest)...)
}

// Unverified reports whether d prices platform with a figure only the
// seed articles give (PriceNotes must have run).
func (d *Digest) Unverified(platform string) bool {
	for _, p := range d.Prices {
		if p.Platform == platform {
			return p.Priced && !p.Verified
		}
	}
	return false
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
// Sunday). Errors come from a bad week or a week not yet begun.
//
// The ledger is replayed once (sorted by time, without a copy when it is
// already in order) and every period the digest needs is charged in that
// replay, one segment per event: the work grows with the events and the
// disks, never with their product.
func BuildDigest(events []StorageEvent, lab, week string, loc *time.Location, price StoragePrice, now time.Time) (Digest, error) {
	from, to, err := ISOWeek(week, loc)
	if err != nil {
		return Digest{}, err
	}
	d, err := buildDigest(events, lab, week, from, to, loc, price, now)
	if err != nil {
		return d, fmt.Errorf("week %s has not started yet", week)
	}
	return d, nil
}

// BuildPeriodDigest is BuildDigest over any period [from, to) (a
// scheduled digest's, jobs.NextPeriod): Week is the ISO week when the
// period is one, "" otherwise; the previous figures are the span of the
// same length before (whole days when the period's ends are midnights in
// loc); the chart's weeks end with the ISO week of the period's end.
func BuildPeriodDigest(events []StorageEvent, lab string, from, to time.Time, loc *time.Location, price StoragePrice, now time.Time) (Digest, error) {
	if !to.After(from) {
		return Digest{}, fmt.Errorf("digest period %v – %v is empty", from, to)
	}
	week := WeekOf(from, loc)
	if f, t, err := ISOWeek(week, loc); err != nil || !f.Equal(from) || !t.Equal(to) {
		week = ""
	}
	d, err := buildDigest(events, lab, week, from.In(loc), to.In(loc), loc, price, now)
	if err != nil {
		return d, fmt.Errorf("digest period from %v has not started yet", from)
	}
	return d, nil
}

// errNotStarted: the period begins after now.
var errNotStarted = errors.New("not started yet")

// buildDigest is the digest of [from, to) labelled week.
func buildDigest(events []StorageEvent, lab, week string, from, to time.Time, loc *time.Location, price StoragePrice, now time.Time) (Digest, error) {
	d := Digest{Lab: lab, Week: week, From: from, To: to, AsOf: to, Movers: []Mover{}, Idle: []IdleDisk{}, UnpricedDisks: []UnpricedDisk{}}
	if now.Before(to) {
		d.AsOf = now
	}
	if !d.AsOf.After(from) {
		return d, errNotStarted
	}
	asOfLocal := d.AsOf.Add(-time.Nanosecond).In(loc)
	monthStart := time.Date(asOfLocal.Year(), asOfLocal.Month(), 1, 0, 0, 0, 0, loc)
	sorted := sortEvents(events)
	disks := countAdds(sorted, d.AsOf)
	b := newDigestBuild(from, to, d.AsOf, monthStart, loc, disks)
	fold := newLedgerFold(price, disks)
	for _, e := range sorted {
		if e.Time.After(d.AsOf) {
			break
		}
		if !e.Time.IsZero() {
			if d.FirstEntry.IsZero() {
				d.FirstEntry = e.Time
			}
			d.LastEntry = e.Time
		}
		if _, err := fold.step(e, b.charge); err != nil {
			d.Skipped++ // an inconsistent event is left out (CheckLedger reports it)
		}
	}
	fold.close(d.AsOf, b.charge)
	b.week(&d, fold.slots)
	b.now(&d, fold.slots, monthStart)
	b.history(&d, loc)
	return d, nil
}

// shares are m's entries above 0 as shares of total, dearest first.
func shares(m map[string]float64, total float64) []Share {
	out := make([]Share, 0, len(m))
	for k, v := range m {
		if !(v > 0) {
			continue
		}
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
	return i18n.ZH.T("ledger.member", string(r))
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
// (and shares to 0.0001, days and GB-days to 0.01), for output without
// float noise such as 6.2250000000000005.
func (d Digest) Rounded() Digest {
	r := func(v float64) float64 { return math.Round(v*1e4) / 1e4 }
	out := d
	out.TotalCNY, out.PreviousTotalCNY, out.DeltaCNY = r(d.TotalCNY), r(d.PreviousTotalCNY), r(d.DeltaCNY)
	out.MonthToDateCNY, out.ForecastCNY = r(d.MonthToDateCNY), r(d.ForecastCNY)
	out.SizeGB, out.DailyCNY = r(d.SizeGB), r(d.DailyCNY)
	if d.DeltaPct != nil {
		p := math.Round(*d.DeltaPct*100) / 100
		out.DeltaPct = &p
	}
	share := func(in []Share) []Share {
		o := make([]Share, len(in))
		for i, s := range in {
			o[i] = Share{Name: s.Name, CNY: r(s.CNY), Share: r(s.Share), Platforms: s.Platforms}
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
		if m := out.Idle[i].MonthlyCNY; m != nil {
			v := r(*m)
			out.Idle[i].MonthlyCNY = &v
		}
	}
	out.UnpricedDisks = append([]UnpricedDisk{}, d.UnpricedDisks...)
	for i := range out.UnpricedDisks {
		u := &out.UnpricedDisks[i]
		u.Days, u.GBDays = math.Round(u.Days*100)/100, math.Round(u.GBDays*100)/100
	}
	out.History = append([]WeekTotal{}, d.History...)
	for i := range out.History {
		out.History[i].CNY = r(out.History[i].CNY)
	}
	return out
}
