package stock

import (
	"math"
	"regexp"
	"sort"
	"strings"
)

// autodlRegionNames maps AutoDL region signs of both namespaces, the
// developer API's ("westDC2") and the console's ("west-B"), to the region
// names the console shows. Source: stock-apis.md §1 (AutoDL ESD docs and
// the console's region list).
var autodlRegionNames = map[string]string{
	"westdc2": "西北企业区", "westdc3": "西北B区", "west-b": "西北B区", "west-c": "西北B区", "west-x": "西北企业区",
	"beijingdc1": "北京A区", "beijingdc2": "北京B区", "beijingdc3": "V100专区", "beijingdc4": "L20专区",
	"beijing-a": "北京A区", "beijing-b": "北京B区", "neimengdc1": "内蒙A区", "neimengdc3": "内蒙B区",
	"neimeng-a": "内蒙A区", "neimeng-b": "内蒙B区", "foshandc1": "佛山区", "chongqingdc1": "重庆A区", "yangzhoudc1": "3090专区",
}

// RegionName is the name people know a platform's region by: AutoDL's
// region signs become the console's names ("westDC2" → "西北企业区");
// anything else is returned trimmed.
func RegionName(platform, region string) string {
	region = strings.TrimSpace(region)
	if platform == autodlPlatform {
		if n, ok := autodlRegionNames[strings.ToLower(region)]; ok {
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
//     group, machine rows are summed (Free, Total) and priced at the
//     cheapest machine with a free GPU (the cheapest machine when none is
//     free), Machines counting them; a region aggregate is used only when
//     no machine row exists. Whatever is not used goes to Others.
//   - Offers without a region (a platform-wide count, a recording that
//     does not say which region it asked about, a stock level) go to the
//     Others of the first regional offer when there is one; otherwise one
//     of them is kept (a platform-wide figure first, then one with a price,
//     then one without caveats) and the rest go to its Others.
//
// The result keeps the order in which groups first appear. Offers with
// different Stale flags or sources are never folded together.
func Merge(offers []Offer) []Offer {
	type key struct {
		platform, gpu string
		source        Source
		stale         bool
	}
	var order []key
	groups := map[key][]Offer{}
	var out []Offer
	for _, o := range offers {
		if o.Source == SourceCatalog {
			out = append(out, o)
			continue
		}
		k := key{o.Platform, o.GPU, o.Source, o.Stale}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], o)
	}
	for _, k := range order {
		out = append(out, mergeGroup(groups[k])...)
	}
	return out
}

// mergeGroup merges the offers of one platform and GPU.
func mergeGroup(offers []Offer) []Offer {
	if len(offers) == 1 {
		o := offers[0]
		o.Region = RegionName(o.Platform, o.Region)
		return []Offer{o}
	}
	var regions []string
	byRegion := map[string][]Offer{}
	var loose []Offer
	for _, o := range offers {
		r := RegionName(o.Platform, o.Region)
		if r == "" {
			loose = append(loose, o)
			continue
		}
		o.Region = r
		if _, ok := byRegion[r]; !ok {
			regions = append(regions, r)
		}
		byRegion[r] = append(byRegion[r], o)
	}
	var out []Offer
	for _, r := range regions {
		out = append(out, mergeRegion(byRegion[r]))
	}
	if len(loose) == 0 {
		return out
	}
	if len(out) > 0 {
		// Figures that cannot be placed in a region stay beside the
		// regional rows: on the one a reader sees first.
		first := bestIndex(out)
		for _, o := range loose {
			out[first].Others = append(out[first].Others, figureOf(o))
		}
		return out
	}
	return []Offer{mergeLoose(loose)}
}

// mergeRegion merges one region's offers.
func mergeRegion(offers []Offer) Offer {
	var machines, rest []Offer
	for _, o := range offers {
		if o.Scope == ScopeMachine {
			machines = append(machines, o)
		} else {
			rest = append(rest, o)
		}
	}
	var kept Offer
	if len(machines) > 0 {
		kept = sumMachines(machines)
	} else {
		i := pickIndex(rest)
		kept = rest[i]
		rest = append(rest[:i:i], rest[i+1:]...)
	}
	for _, o := range rest {
		kept.Others = append(kept.Others, figureOf(o))
	}
	return kept
}

// mergeLoose keeps one of the offers without a region.
func mergeLoose(offers []Offer) Offer {
	var machines, rest []Offer
	for _, o := range offers {
		if o.Scope == ScopeMachine {
			machines = append(machines, o)
		} else {
			rest = append(rest, o)
		}
	}
	if len(machines) > 0 {
		// Machines of a platform that reports no regions (恒源云).
		rest = append(rest, sumMachines(machines))
	}
	i := pickIndex(rest)
	kept := rest[i]
	for j, o := range rest {
		if j != i {
			kept.Others = append(kept.Others, figureOf(o))
		}
	}
	return kept
}

// pickIndex chooses among figures of the same place: one covering the
// whole platform, then machine rows, then one with a price, with a count,
// with fewer caveats; the first on a tie.
func pickIndex(offers []Offer) int {
	score := func(o Offer) int {
		s := 0
		switch o.Scope {
		case ScopePlatform:
			s += 8
		case ScopeMachine:
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
	for i, o := range offers {
		if score(o) > score(offers[best]) {
			best = i
		}
	}
	return best
}

// sumMachines folds machine rows into one offer.
func sumMachines(machines []Offer) Offer {
	sort.SliceStable(machines, func(i, j int) bool {
		fi, fj := machines[i].State() == InStock, machines[j].State() == InStock
		if fi != fj {
			return fi
		}
		return priceKey(machines[i]) < priceKey(machines[j])
	})
	kept := machines[0]
	if len(machines) == 1 {
		kept.Machines = 1
		return kept
	}
	kept.Machines = len(machines)
	kept.Note = ""
	var free, total *int
	for _, m := range machines[1:] {
		for _, c := range m.Caveats {
			kept.Caveats = withCaveat(kept.Caveats, c)
		}
		if m.ObservedAt.Before(kept.ObservedAt) {
			kept.ObservedAt = m.ObservedAt
		}
	}
	for _, m := range machines {
		free = addCount(free, m.Free)
		total = addCount(total, m.Total)
	}
	kept.Free, kept.Total = free, total
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
	return Figure{Endpoint: o.Endpoint, Scope: o.Scope, Region: o.Region, Free: o.Free, Level: o.Level, CNYPerGPUHour: o.CNYPerGPUHour, Caveats: o.Caveats}
}

// Disagree reports whether another endpoint gave a different free count
// for this offer's place (its region, or the whole platform): the figures
// a reader should be told about.
func (o Offer) Disagree() bool {
	for _, f := range o.Others {
		if f.Free != nil && (o.Free == nil || *f.Free != *o.Free) {
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
