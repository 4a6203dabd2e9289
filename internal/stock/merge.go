package stock

import (
	"math"
	"regexp"
	"strings"
	"time"
)

// RegionName is the name people know a platform's region by: AutoDL's
// region signs of both namespaces, the developer API's ("westDC2") and
// the console's ("west-B"), become the console's names ("西北企业区",
// configs/apiwords.yaml); anything else is returned trimmed.
func RegionName(platform, region string) string {
	region = strings.TrimSpace(region)
	if platform == "autodl" {
		if n, ok := KnownRegion(platform, region); ok {
			return n
		}
	}
	return region
}

// Merge folds what several endpoints and machines say about one platform ×
// GPU × region into one offer a person could rent. Catalog offers pass
// through unchanged. For the others, per platform and GPU:
//
//   - Offers with a region are grouped by region name (RegionName). In a
//     group, machine rows (ScopeMachine, or no scope: a listed machine or
//     bundle) are summed (Free, Total) and priced at the cheapest machine
//     with a free GPU (the cheapest machine when none is free), Machines
//     counting them; a region aggregate is used only when no machine row
//     exists. Whatever is not used goes to Others.
//   - Offers without a region (a platform-wide count, a recording that
//     does not say which region it asked about, a stock level) go to the
//     Others of the first regional offer when there is one; otherwise one
//     of them is kept (a platform-wide figure first, then machines, then
//     one with a price, one without caveats) and the rest go to its Others.
//
// Of one endpoint's figures only the newest observation counts: an older
// recording of it (more than a minute older) is dropped.
//
// The result keeps the order in which groups first appear; the input is
// not changed. Offers of different sources, Stale flags or GPUs per rental
// unit (a 1-GPU and an 8-GPU bundle) are never folded together.
func Merge(offers []Offer) []Offer {
	type key struct {
		platform, gpu string
		source        Source
		stale         bool
		perInstance   int
	}
	var order []key
	groups := map[key][]int{}
	out := make([]Offer, 0, len(offers))
	newest := newestPerEndpoint(offers)
	for i := range offers {
		o := &offers[i]
		if o.Source == SourceCatalog {
			out = append(out, *o)
			continue
		}
		if t := newest[endpointKey{o.Platform, o.GPU, o.Source, o.Endpoint}]; t.Sub(o.ObservedAt) > time.Minute {
			// An older recording of the same endpoint: the newer one
			// replaces it (the same machines must not count twice).
			continue
		}
		k := key{o.Platform, o.GPU, o.Source, o.Stale, o.GPUsPerInstance}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		out = mergeGroup(out, offers, groups[k])
	}
	return out
}

// endpointKey is one endpoint's figures for a platform and GPU.
type endpointKey struct {
	platform, gpu string
	source        Source
	endpoint      string
}

// newestPerEndpoint is the latest observation time of each endpoint's
// figures (the zero time, unknown, counts as oldest).
func newestPerEndpoint(offers []Offer) map[endpointKey]time.Time {
	newest := map[endpointKey]time.Time{}
	for i := range offers {
		o := &offers[i]
		k := endpointKey{o.Platform, o.GPU, o.Source, o.Endpoint}
		if t, ok := newest[k]; !ok || o.ObservedAt.After(t) {
			newest[k] = o.ObservedAt
		}
	}
	return newest
}

// mergeGroup appends to out the merged offers of one platform and GPU
// (offers[ids]).
func mergeGroup(out, offers []Offer, ids []int) []Offer {
	if len(ids) == 1 {
		o := offers[ids[0]]
		o.Region = RegionName(o.Platform, o.Region)
		return append(out, o)
	}
	var regions []string
	byRegion := map[string][]int{}
	var loose []int
	for _, i := range ids {
		r := RegionName(offers[i].Platform, offers[i].Region)
		if r == "" {
			loose = append(loose, i)
			continue
		}
		if _, ok := byRegion[r]; !ok {
			regions = append(regions, r)
		}
		byRegion[r] = append(byRegion[r], i)
	}
	start := len(out)
	for _, r := range regions {
		o := pickOrSum(offers, byRegion[r], false)
		o.Region = r
		out = append(out, o)
	}
	if len(loose) == 0 {
		return out
	}
	if len(out) > start {
		// Figures that cannot be placed in a region stay beside the
		// regional rows: on the one a reader sees first.
		first := start + bestIndex(out[start:])
		for _, i := range loose {
			out[first].Others = append(out[first].Others, figureOf(offers[i]))
		}
		return out
	}
	return append(out, pickOrSum(offers, loose, true))
}

// isMachine reports whether an offer is one rentable machine or bundle.
func isMachine(o *Offer) bool { return o.Scope == ScopeMachine || o.Scope == "" }

// pickOrSum merges the offers of one place (offers[ids]): machine rows
// summed (sumMachines); the others kept beside them in Others, or, without
// machine rows, the best of them kept (pickIndex; wholePlatform prefers a
// figure covering every region) and the rest in its Others.
func pickOrSum(offers []Offer, ids []int, wholePlatform bool) Offer {
	var machines, rest []int
	for _, i := range ids {
		if isMachine(&offers[i]) {
			machines = append(machines, i)
		} else {
			rest = append(rest, i)
		}
	}
	var kept Offer
	switch {
	case len(machines) > 0 && !(wholePlatform && hasScope(offers, rest, ScopePlatform)):
		kept = sumMachines(offers, machines)
	default:
		rest = ids
		best := pickIndex(offers, rest)
		kept = offers[rest[best]]
		rest = append(rest[:best:best], rest[best+1:]...)
		machines = nil
	}
	kept.Others = append([]Figure(nil), kept.Others...)
	for _, i := range rest {
		kept.Others = append(kept.Others, figureOf(offers[i]))
	}
	return kept
}

func hasScope(offers []Offer, ids []int, s Scope) bool {
	for _, i := range ids {
		if offers[i].Scope == s {
			return true
		}
	}
	return false
}

// pickIndex chooses among figures of the same place: one covering the
// whole platform, then machine rows, then one with a price, with a count,
// with fewer caveats; the first on a tie. It returns a position in ids.
func pickIndex(offers []Offer, ids []int) int {
	score := func(o *Offer) int {
		s := 0
		switch {
		case o.Scope == ScopePlatform:
			s += 8
		case isMachine(o):
			s += 4
		}
		if o.HasPrice() {
			s += 2
		}
		if o.Free != nil && o.Level == "" {
			s++
		}
		return s*4 - min(len(o.Caveats), 3)
	}
	best := 0
	for j, i := range ids {
		si, sb := score(&offers[i]), score(&offers[ids[best]])
		if si > sb || si == sb && priceKey(offers[i]) < priceKey(offers[ids[best]]) {
			best = j
		}
	}
	return best
}

// sumMachines folds machine rows (offers[ids]) into one offer: the
// cheapest machine with a free GPU (else the cheapest), with the summed
// counts, every machine's caveats and the oldest observation time.
func sumMachines(offers []Offer, ids []int) Offer {
	best := ids[0]
	for _, i := range ids[1:] {
		o, b := &offers[i], &offers[best]
		if fi, fb := o.State() == InStock, b.State() == InStock; fi != fb {
			if fi {
				best = i
			}
			continue
		}
		if priceKey(*o) < priceKey(*b) {
			best = i
		}
	}
	kept := offers[best]
	kept.Machines = len(ids)
	if len(ids) == 1 {
		return kept
	}
	kept.Note = ""
	kept.Caveats = append([]Caveat(nil), kept.Caveats...)
	var free, total *int
	for _, i := range ids {
		m := &offers[i]
		for _, c := range m.Caveats {
			kept.Caveats = withCaveat(kept.Caveats, c)
		}
		if m.ObservedAt.Before(kept.ObservedAt) {
			kept.ObservedAt = m.ObservedAt
		}
		free = addCount(free, m.Free)
		total = addCount(total, m.Total)
	}
	kept.Free, kept.Total = free, total
	for _, i := range ids {
		if p := offers[i].CNYPerGPUHour; p != kept.CNYPerGPUHour && offers[i].HasPrice() {
			kept.PriceFrom = true
		}
	}
	return kept
}

func addCount(sum, n *int) *int {
	if n == nil {
		return sum
	}
	if sum == nil {
		return IntPtr(*n)
	}
	return IntPtr(*sum + *n)
}

func priceKey(o Offer) float64 {
	if o.HasPrice() {
		return o.CNYPerGPUHour
	}
	return math.Inf(1)
}

// bestIndex is the offer a reader sees first: in stock, then cheapest.
func bestIndex(offers []Offer) int {
	best := 0
	for i, o := range offers {
		b := offers[best]
		if (o.State() == InStock) != (b.State() == InStock) {
			if o.State() == InStock {
				best = i
			}
			continue
		}
		if priceKey(o) < priceKey(b) {
			best = i
		}
	}
	return best
}

func figureOf(o Offer) Figure {
	return Figure{Endpoint: o.Endpoint, Scope: o.Scope, Region: RegionName(o.Platform, o.Region), Free: o.Free, Level: o.Level, CNYPerGPUHour: o.CNYPerGPUHour, Caveats: o.Caveats}
}

// Disagree reports whether another endpoint gave a different free count
// for the same place: the same region (or both the whole platform) and
// both counts, not levels. A platform-wide 215 beside one region's 2 is
// not a disagreement (see Differs).
func (o Offer) Disagree() bool {
	for _, f := range o.Others {
		if f.Level != "" || o.Level != "" || f.Free == nil || o.Free == nil || f.Region == "" && f.Scope != ScopePlatform {
			continue
		}
		samePlace := f.Region == o.Region && (f.Scope == ScopePlatform) == (o.Scope == ScopePlatform)
		if samePlace && *f.Free != *o.Free {
			return true
		}
	}
	return false
}

// Differs reports whether another endpoint gave a different free count
// for the platform and GPU at all, comparable or not: answers list them
// so a reader sees every figure.
func (o Offer) Differs() bool {
	for _, f := range o.Others {
		if f.Level == "" && f.Free != nil && (o.Free == nil || *f.Free != *o.Free) {
			return true
		}
	}
	return false
}

// rePlaceholder finds the words API documentation uses for example rows.
var rePlaceholder = regexp.MustCompile(`(?i)(^|[^a-z])(example|sample|placeholder|dummy|lorem|your[_ -]?gpu)([^a-z]|$)`)

// Placeholder reports whether an offer is an example row from API
// documentation (Lambda's "Example GPU (40 GB SXM4)", instance
// "gpu_8x_example"), not a card anyone can rent. Catalog offers never are.
func Placeholder(o Offer) bool {
	if o.Source == SourceCatalog {
		return false
	}
	return rePlaceholder.MatchString(o.RawGPU) || rePlaceholder.MatchString(o.GPU) || strings.EqualFold(strings.TrimSpace(o.RawGPU), "string")
}
