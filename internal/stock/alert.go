package stock

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"
)

// Policy is how alerts are decided. Defaults: DefaultPolicy.
type Policy struct {
	// Debounce is how many polls in a row a state must hold before it
	// counts (1 = act on the first poll).
	Debounce int
	// Cooldown is the least time between two alerts of one subscription.
	Cooldown time.Duration
	// MinDrop is the fraction a price must fall below the last notified
	// price to be worth a second alert while stock stays available.
	MinDrop float64
	// SoldOutAgain sends a message when stock that was announced is gone
	// (off by default: users complain about "resolved" noise,
	// prometheus/alertmanager#964).
	SoldOutAgain bool
}

// DefaultPolicy: debounce 1 poll, cooldown 30 min, a 5% drop, no sold-out
// message.
func DefaultPolicy() Policy {
	return Policy{Debounce: 1, Cooldown: 30 * time.Minute, MinDrop: 0.05}
}

// Reason says why an alert is sent.
type Reason string

const (
	// ReasonAvailable: stock came back (sold out or unknown → available,
	// or a price fell under the subscription's ceiling).
	ReasonAvailable Reason = "available"
	// ReasonPriceDrop: still available, at a price below the last
	// notified one.
	ReasonPriceDrop Reason = "price_drop"
	// ReasonSoldOut: announced stock is gone (only with SoldOutAgain).
	ReasonSoldOut Reason = "sold_out"
)

// Observation is a subscription's state in one poll.
type Observation struct {
	// State is InStock when some offer satisfies the subscription; SoldOut
	// when every provider that could have one answered and none does;
	// Unknown otherwise (a provider failed, or its stock is unknown).
	State Available
	// Offers are the satisfying offers, cheapest first (at most 3), when
	// set directly; Observe leaves them in the index (see List).
	Offers []Offer

	ix   *Index
	hits [maxAlertOffers]int32
	n    int
}

// List returns the satisfying offers, cheapest first (at most 3).
func (o Observation) List() []Offer {
	if o.Offers != nil || o.ix == nil {
		return o.Offers
	}
	out := make([]Offer, o.n)
	for k := 0; k < o.n; k++ {
		out[k] = o.ix.offers[o.hits[k]].o
	}
	return out
}

// BestPrice is the cheapest satisfying price, 0 when none has a price.
func (o Observation) BestPrice() float64 {
	if o.Offers == nil && o.ix != nil {
		if o.n > 0 && o.ix.offers[o.hits[0]].o.HasPrice() {
			return o.ix.offers[o.hits[0]].price
		}
		return 0
	}
	for _, of := range o.Offers {
		if of.HasPrice() {
			return of.CNYPerGPUHour
		}
	}
	return 0
}

// Decision is the outcome of Decide.
type Decision struct {
	Notify bool
	Reason Reason
	// Held says why a change was not sent yet: "debounce", "cooldown",
	// "no further drop"; empty when nothing changed.
	Held string
}

// Decide is the alert decision for one subscription: a pure function of the
// last notification record, the current observation and the time. It
// returns the decision and the record to store.
//
//   - Unknown never fires and never clears: the record is returned as is.
//   - Available fires when the subscription is not active (first time, or
//     stock was gone), the state has held for Debounce polls and the
//     cooldown since the last alert has passed; a held alert fires on a
//     later poll once it may.
//   - While active, a price below the last notified price by MinDrop fires
//     a price-drop alert, again only after the cooldown.
//   - Sold out for Debounce polls clears Active (and sends a message only
//     with SoldOutAgain).
func Decide(rec NotifyRecord, obs Observation, now time.Time, p Policy) (Decision, NotifyRecord) {
	if p.Debounce < 1 {
		p.Debounce = 1
	}
	next := rec
	switch obs.State {
	case InStock:
		if rec.Observed == InStock {
			// The streak only counts up to the debounce window, so a
			// steady state leaves the record unchanged (no store write).
			next.Streak = min(rec.Streak+1, p.Debounce)
		} else {
			next.Observed, next.Streak = InStock, 1
		}
		if next.Streak < p.Debounce {
			return Decision{Held: "debounce"}, next
		}
		cooling := !rec.NotifiedAt.IsZero() && now.Sub(rec.NotifiedAt) < p.Cooldown
		price := obs.BestPrice()
		if !rec.Active {
			if cooling {
				return Decision{Held: "cooldown"}, next
			}
			next.Active, next.NotifiedAt, next.NotifiedPrice, next.Seq = true, now, price, rec.Seq+1
			return Decision{Notify: true, Reason: ReasonAvailable}, next
		}
		if price > 0 && rec.NotifiedPrice > 0 && price < rec.NotifiedPrice*(1-p.MinDrop)-1e-9 {
			if cooling {
				return Decision{Held: "cooldown"}, next
			}
			next.NotifiedAt, next.NotifiedPrice, next.Seq = now, price, rec.Seq+1
			return Decision{Notify: true, Reason: ReasonPriceDrop}, next
		}
		return Decision{}, next
	case SoldOut:
		if rec.Observed == SoldOut {
			next.Streak = min(rec.Streak+1, p.Debounce)
		} else {
			next.Observed, next.Streak = SoldOut, 1
		}
		if next.Streak < p.Debounce || !rec.Active {
			return Decision{}, next
		}
		next.Active = false
		if p.SoldOutAgain {
			next.Seq = rec.Seq + 1
			return Decision{Notify: true, Reason: ReasonSoldOut}, next
		}
		return Decision{}, next
	}
	return Decision{}, rec
}

// Index groups a snapshot's observed offers for matching many
// subscriptions: by GPU and by (GPU, platform), each cheapest first.
// Catalog list prices are left out (they say nothing about stock).
type Index struct {
	offers []indexed
	byGPU  map[string][]int32
	byPlat map[[2]string][]int32
	// unknown lists, per GPU, the platforms with unknown or stale stock.
	unknown map[string][]string
	// covered holds platforms some provider answered for in this poll.
	covered map[string]bool
	// failed holds platforms whose provider failed with nothing to show;
	// allFailed is set when a multi-platform source (replay) failed.
	failed    map[string]bool
	allFailed bool
	// gpuUnjudged and platUnjudged sum up their lists' unjudged offers.
	gpuUnjudged  map[string]unjudged
	platUnjudged map[[2]string]unjudged
	// order is the offers by price, a buffer kept for the next reset.
	order []priced
}

// priced is an offer's price and position in Index.offers.
type priced struct {
	price float64
	i     int32
}

type indexed struct {
	o      Offer
	region string // lower case
	price  float64
	free   int // -1 unknown
	level  bool
}

// MaxAlertAge is the oldest a stock figure may be (at the snapshot's
// time) and still fire or clear an alert: a day-old recording is not news.
const MaxAlertAge = 24 * time.Hour

// NewIndex builds the index of a snapshot.
func NewIndex(s Snapshot) *Index {
	ix := &Index{}
	ix.reset(s)
	return ix
}

// reset rebuilds the index for a snapshot, reusing its lists and maps
// (an Alerter keeps one index from poll to poll).
func (ix *Index) reset(s Snapshot) {
	if ix.byGPU == nil {
		ix.byGPU, ix.byPlat, ix.unknown = map[string][]int32{}, map[[2]string][]int32{}, map[string][]string{}
		ix.failed, ix.covered = map[string]bool{}, map[string]bool{}
		ix.gpuUnjudged, ix.platUnjudged = map[string]unjudged{}, map[[2]string]unjudged{}
	}
	for k, l := range ix.byGPU {
		ix.byGPU[k] = l[:0]
	}
	for k, l := range ix.byPlat {
		ix.byPlat[k] = l[:0]
	}
	for k, l := range ix.unknown {
		ix.unknown[k] = l[:0]
	}
	clear(ix.failed)
	clear(ix.covered)
	ix.allFailed = false
	n := 0
	for _, ps := range s.Providers {
		n += len(ps.Offers)
	}
	clear(ix.offers)
	ix.offers = slices.Grow(ix.offers[:0], n)
	for _, ps := range s.Providers {
		ix.addProvider(s, ps)
	}
	ix.sortLists()
}

// addProvider indexes one provider's part of a snapshot.
func (ix *Index) addProvider(s Snapshot, ps ProviderSnapshot) {
	if ps.Provider == string(SourceCatalog) {
		return
	}
	if ps.Status == StatusError || ps.Status == StatusStale {
		if ps.Provider == string(SourceReplay) {
			ix.allFailed = true
		}
		ix.failed[ps.Provider] = true
	}
	if ps.Status == StatusOK && ps.Provider != string(SourceReplay) && !containsString(ps.FailedPlatforms, ps.Provider) {
		ix.covered[ps.Provider] = true
	}
	for _, p := range ps.FailedPlatforms {
		ix.failed[p] = true
	}
	for _, o := range ps.Offers {
		if o.Source == SourceCatalog {
			continue
		}
		in := indexed{o: o, region: strings.ToLower(o.Region), price: math.Inf(1), free: -1}
		if o.HasPrice() {
			in.price = o.CNYPerGPUHour
		}
		// A recording of unknown time, or any figure older than
		// MaxAlertAge, is not news: its stock counts as unknown, so it
		// never fires (or clears) an alert.
		untimed := o.Source == SourceReplay && o.ObservedAt.IsZero()
		old := !s.TakenAt.IsZero() && !o.ObservedAt.IsZero() && s.TakenAt.Sub(o.ObservedAt) > MaxAlertAge
		if o.Free != nil && !o.Stale && !untimed && !old {
			in.free = *o.Free
			in.level = o.FreeIsLevel
		}
		if in.free < 0 {
			if !containsString(ix.unknown[o.GPU], o.Platform) {
				ix.unknown[o.GPU] = append(ix.unknown[o.GPU], o.Platform)
			}
		} else if ps.Status == StatusOK {
			ix.covered[o.Platform] = true
		}
		ix.offers = append(ix.offers, in)
	}
}

// sortLists fills the lists cheapest first: the offers are sorted once
// (equal prices in snapshot order) and appended in that order;
// the lists a reused index no longer needs are dropped (an empty list and
// a missing one match alike).
func (ix *Index) sortLists() {
	ix.order = ix.order[:0]
	for i := range ix.offers {
		ix.order = append(ix.order, priced{ix.offers[i].price, int32(i)})
	}
	slices.SortFunc(ix.order, func(a, b priced) int {
		if a.price != b.price {
			return cmp.Compare(a.price, b.price)
		}
		return cmp.Compare(a.i, b.i) // equal prices in snapshot order
	})
	clear(ix.gpuUnjudged)
	clear(ix.platUnjudged)
	for _, p := range ix.order {
		in := &ix.offers[p.i]
		o := &in.o
		ix.byGPU[o.GPU] = append(ix.byGPU[o.GPU], p.i)
		k := [2]string{o.GPU, o.Platform}
		ix.byPlat[k] = append(ix.byPlat[k], p.i)
		if u := in.unjudged(); u != 0 {
			ix.gpuUnjudged[o.GPU] |= u
			ix.platUnjudged[k] |= u
		}
	}
	for k, l := range ix.byGPU {
		if len(l) == 0 {
			delete(ix.byGPU, k)
		}
	}
	for k, l := range ix.byPlat {
		if len(l) == 0 {
			delete(ix.byPlat, k)
		}
	}
	for k, l := range ix.unknown {
		if len(l) == 0 {
			delete(ix.unknown, k)
		}
	}
}

// scan appends to hits up to maxAlertOffers satisfying offers of a
// price-sorted list.
func (ix *Index) scan(l []int32, maxPrice float64, minFree int, region string, exclude []string, hits []int32) []int32 {
	n := 0
	for _, i := range l {
		in := &ix.offers[i]
		if maxPrice > 0 && in.price > maxPrice+1e-9 {
			break // sorted by price: nothing cheaper follows
		}
		if in.free < minFree || minFree > 1 && in.level || region != "" && !strings.Contains(in.region, region) || len(exclude) > 0 && containsString(exclude, in.o.Platform) {
			continue
		}
		if len(hits) == cap(hits) {
			break
		}
		hits = append(hits, i)
		if n++; n >= maxAlertOffers {
			break
		}
	}
	return hits
}

// undecided reports whether some offer of the subscription's GPUs and
// platforms is in stock but cannot be judged: no price under a ceiling, no
// region under a region filter, or a stock level under "at least N".
func (ix *Index) undecided(s *Subscription, minFree int, region string) bool {
	var want unjudged
	if s.MaxPriceCNY > 0 {
		want |= unpriced
	}
	if region != "" {
		want |= unplaced
	}
	if minFree > 1 {
		want |= leveled
	}
	check := func(l []int32, f unjudged) bool {
		if len(s.ExcludePlatforms) == 0 {
			return f&want != 0 // the list's summary says it
		}
		for _, i := range l {
			in := &ix.offers[i]
			if in.free >= 1 && !containsString(s.ExcludePlatforms, in.o.Platform) && in.unjudged()&want != 0 {
				return true
			}
		}
		return false
	}
	for _, g := range s.GPUs {
		if len(s.Platforms) == 0 {
			if check(ix.byGPU[g], ix.gpuUnjudged[g]) {
				return true
			}
			continue
		}
		for _, p := range s.Platforms {
			k := [2]string{g, p}
			if check(ix.byPlat[k], ix.platUnjudged[k]) {
				return true
			}
		}
	}
	return false
}

// unjudged says what an in-stock offer's source leaves unsaid: its price,
// its region, or an exact count (a stock level).
type unjudged uint8

const (
	unpriced unjudged = 1 << iota
	unplaced
	leveled
)

// unjudged is what an in-stock offer leaves unsaid (none when not in
// stock).
func (in *indexed) unjudged() unjudged {
	var u unjudged
	if in.free < 1 {
		return 0
	}
	if math.IsInf(in.price, 1) {
		u |= unpriced
	}
	if in.region == "" {
		u |= unplaced
	}
	if in.level {
		u |= leveled
	}
	return u
}

// maxAlertOffers is how many offers an alert lists.
const maxAlertOffers = 3

// Observe evaluates one subscription against the index.
func (ix *Index) Observe(s Subscription) Observation { return ix.observe(&s) }

// observe is Observe without copying the subscription.
func (ix *Index) observe(s *Subscription) Observation {
	var obs Observation
	minFree := s.MinFreeOrDefault()
	region := strings.ToLower(s.Region)
	var found [16]int32
	hits := found[:0]
	for _, g := range s.GPUs {
		if len(s.Platforms) == 0 {
			hits = ix.scan(ix.byGPU[g], s.MaxPriceCNY, minFree, region, s.ExcludePlatforms, hits)
			continue
		}
		for _, p := range s.Platforms {
			hits = ix.scan(ix.byPlat[[2]string{g, p}], s.MaxPriceCNY, minFree, region, s.ExcludePlatforms, hits)
		}
	}
	if len(hits) > 0 {
		// Insertion sort: a handful of hits, cheapest first.
		for a := 1; a < len(hits); a++ {
			for b := a; b > 0 && ix.offers[hits[b]].price < ix.offers[hits[b-1]].price; b-- {
				hits[b], hits[b-1] = hits[b-1], hits[b]
			}
		}
		obs.ix = ix
		obs.n = copy(obs.hits[:], hits)
		obs.State = InStock
		return obs
	}
	// Nothing satisfies it. That is "sold out" only when every platform
	// that could have answered did, and no wanted offer was left out only
	// for what its source does not say (its price, region, or an exact
	// count behind a stock level); otherwise the state is unknown, which
	// never fires or clears an alert.
	obs.State = Unknown
	if ix.allFailed || ix.undecided(s, minFree, region) {
		return obs
	}
	for _, g := range s.GPUs {
		for _, p := range ix.unknown[g] {
			if (len(s.Platforms) == 0 || containsString(s.Platforms, p)) && !containsString(s.ExcludePlatforms, p) {
				return obs
			}
		}
	}
	if len(s.Platforms) == 0 {
		if len(ix.failed) > 0 || len(ix.covered) == 0 {
			return obs
		}
		obs.State = SoldOut
		return obs
	}
	for _, p := range s.Platforms {
		if ix.failed[p] || !ix.covered[p] {
			return obs
		}
	}
	obs.State = SoldOut
	return obs
}
