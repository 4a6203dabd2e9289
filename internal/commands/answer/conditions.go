package answer

import (
	"math"
	"slices"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/understand"
)

// Use is what an answer did with the Query's conditions of one kind
// (understand.Cond*, issue 28): applied them, or not and why. The router
// says in one line the applied ones the reply does not state itself and
// every one not used, with why (render.ConditionLine); a condition no
// Use names was not used by the answer.
type Use struct {
	Kind string
	// Applied: the answer used the condition; Said: its reply states it
	// already (the router's line leaves it out).
	Applied, Said bool
	// Why is why a condition was not used: a key under condition.why in
	// the message catalog (Why* below), with its values (a []string is
	// a list, joined in the reply's language).
	Why  string
	Args []any
}

// Reasons a condition was not used (keys under condition.why).
const (
	// WhyAnswer: this answer has nothing the condition could act on.
	WhyAnswer = "answer"
	// WhyNoRegions: no offer of the data has a region; WhyRegionNone: none
	// is in the region asked (Args: the regions the offers have, a list);
	// WhyListRegion: list prices have no region.
	WhyNoRegions  = "no_regions"
	WhyRegionNone = "region_none"
	WhyListRegion = "list_region"
	// WhyVRAMNamed: the cards named are outside the VRAM asked (Args: the
	// cards and their VRAM, a list).
	WhyVRAMNamed = "vram_named"
	// WhyHourly: the answer is a price per hour, not a total over a period
	// or budget.
	WhyHourly = "hourly"
	// WhyNow: the answer is about stock now, not a time of day or week.
	WhyNow = "now"
	// WhyNoCNY: the answer has no figure in CNY to convert.
	WhyNoCNY = "no_cny"
	// WhySubscribeRegion: a subscription filters by the region names the
	// platforms give.
	WhySubscribeRegion = "subscribe_region"
	// WhyNoPrice: the answer filters no price (a plan or estimate of a
	// job's whole cost).
	WhyNoPrice = "no_price"
	// WhyGroupCard: platforms in China and abroad are compared on a card,
	// and none was named (or neither group has its price).
	WhyGroupCard = "group_card"
)

// Applied is the Use of kinds applied and not stated by the reply.
func Applied(kinds ...string) []Use {
	out := make([]Use, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, Use{Kind: k, Applied: true})
	}
	return out
}

// Said is the Use of kinds applied and stated by the reply.
func Said(kinds ...string) []Use {
	out := Applied(kinds...)
	for i := range out {
		out[i].Said = true
	}
	return out
}

// NotUsed is the Use of a kind not used, and why (a Why* key).
func NotUsed(kind, why string, args ...any) Use { return Use{Kind: kind, Why: why, Args: args} }

// Uses collects what an answer did with each condition kind of q, in the
// order of q's conditions: add records one Use, and a kind q does not
// state is ignored (so an answer may record what it would do with any).
type Uses struct {
	q    *understand.Query
	list []Use
}

// UsesOf starts the Uses of an answer to q.
func UsesOf(q *understand.Query) *Uses { return &Uses{q: q} }

// Add records uses of kinds q states (a later use of a kind replaces an
// earlier one).
func (u *Uses) Add(uses ...Use) *Uses {
	for _, x := range uses {
		if !u.q.HasCondition(x.Kind) {
			continue
		}
		u.list = slices.DeleteFunc(u.list, func(y Use) bool { return y.Kind == x.Kind })
		u.list = append(u.list, x)
	}
	return u
}

// List is the uses recorded.
func (u *Uses) List() []Use { return u.list }

// InGroup reports whether a platform is in a group of platforms
// (understand.GroupDomestic, GroupOverseas; "" any): by its catalog
// country. A platform the catalog does not know is in no group.
func InGroup(cat *catalog.Catalog, platform, group string) bool {
	if group == "" {
		return true
	}
	p, ok := cat.Platform(platform)
	if !ok {
		return false
	}
	return p.Domestic() == (group == understand.GroupDomestic)
}

// VRAMOf is a card's VRAM in GB: a GPU id's, or for a family ("A100") the
// least and most of its members; ok is false when the catalog does not
// know it.
func VRAMOf(cat *catalog.Catalog, id string) (lo, hi float64, ok bool) {
	if g, found := cat.GPU(id); found {
		return g.MemoryGB, g.MemoryGB, true
	}
	lo, hi = math.Inf(1), 0
	for _, m := range cat.FamilyMembers(id) {
		if g, found := cat.GPU(m); found {
			lo, hi, ok = math.Min(lo, g.MemoryGB), math.Max(hi, g.MemoryGB), true
		}
	}
	return lo, hi, ok
}

// VRAMFits reports whether a card is within the question's VRAM floor
// and ceiling (every member of a family; a card the catalog does not
// know fits only when no VRAM is asked).
func VRAMFits(cat *catalog.Catalog, id string, q *understand.Query) bool {
	if q.VRAMMinGB == 0 && q.VRAMMaxGB == 0 {
		return true
	}
	lo, hi, ok := VRAMOf(cat, id)
	return ok && (q.VRAMMinGB == 0 || lo >= q.VRAMMinGB) && (q.VRAMMaxGB == 0 || hi <= q.VRAMMaxGB)
}

// VRAMCards are the catalog's cards within the question's VRAM floor and
// ceiling: those some platform lists a price for, in the catalog's order,
// then the others (live or recorded offers may have them).
func VRAMCards(cat *catalog.Catalog, q *understand.Query) []string {
	var out []string
	for i := range cat.Platforms {
		for _, pr := range cat.Platforms[i].Prices {
			if !slices.Contains(out, pr.GPU) && VRAMFits(cat, pr.GPU, q) {
				out = append(out, pr.GPU)
			}
		}
	}
	// Cards no list prices but live or recorded offers may have (an
	// H800 on AutoDL): after the priced ones.
	for _, g := range cat.GPUs {
		if !slices.Contains(out, g.ID) && VRAMFits(cat, g.ID, q) {
			out = append(out, g.ID)
		}
	}
	return out
}

// NarrowByVRAM applies the question's VRAM floor and ceiling to its cards:
// with no card named, every card within them that has a price (the Query's
// GPUs; NamedGPUs stay empty, the answer names the VRAM); with cards
// named, those within them. It returns the Use: not applied when no card
// named is within them (the cards are kept, and why names their VRAM).
func NarrowByVRAM(cat *catalog.Catalog, q *understand.Query) []Use {
	if q.VRAMMinGB == 0 && q.VRAMMaxGB == 0 {
		return nil
	}
	kinds := vramKinds(q)
	if len(q.GPUs) == 0 {
		q.GPUs = VRAMCards(cat, q)
		return Applied(kinds...)
	}
	kept := slices.DeleteFunc(slices.Clone(q.GPUs), func(id string) bool { return !VRAMFits(cat, id, q) })
	if len(kept) == 0 {
		var uses []Use
		for _, k := range kinds {
			uses = append(uses, NotUsed(k, WhyVRAMNamed, vramNames(cat, q.GPUs)))
		}
		return uses
	}
	q.GPUs = kept
	if q.GPU != "" && !slices.Contains(kept, q.GPU) && !q.GPUFamily {
		q.GPU = kept[0]
	}
	return Applied(kinds...)
}

// vramKinds are the VRAM condition kinds q states.
func vramKinds(q *understand.Query) []string {
	var out []string
	if q.VRAMMinGB > 0 {
		out = append(out, understand.CondVRAMMin)
	}
	if q.VRAMMaxGB > 0 {
		out = append(out, understand.CondVRAMMax)
	}
	return out
}

// vramNames names cards with their VRAM ("RTX 4090 24 GB"; a list the
// renderer joins in the reply's language).
func vramNames(cat *catalog.Catalog, ids []string) []string {
	var parts []string
	for _, id := range ids {
		if _, hi, ok := VRAMOf(cat, id); ok {
			parts = append(parts, id+" "+render.TrimF(hi)+" GB")
		}
	}
	return parts
}
