package slots

import (
	"sort"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Money amounts as students write them (folded text), in
// configs/slots/money.yaml's order. Each rule gives the amount's value
// from its groups.
var amountRules = []struct {
	value func(m []string) (float64, bool)
	usd   func(m []string) bool
}{
	// "一块二毛五", "1块2毛5分": yuan, jiao and fen.
	{value: func(m []string) (float64, bool) {
		v, ok := yuanJiao(m[1], m[2])
		f, ok2 := words.ParseNum(m[3])
		return v + f/100, ok && ok2
	}},
	// "八毛五", "5毛5": jiao and fen.
	{value: func(m []string) (float64, bool) {
		j, ok := words.ParseNum(m[1])
		f, ok2 := words.ParseNum(m[2])
		return j/10 + f/100, ok && ok2
	}},
	// "1块5", "两块五", "1元5角", "一块五毛钱": yuan and a tenth digit.
	{value: func(m []string) (float64, bool) { return yuanJiao(m[1], m[2]) }},
	// "块半", "一块半", "两块半".
	{value: func(m []string) (float64, bool) {
		if m[1] == "" {
			return 1.5, true
		}
		v, ok := words.ParseNum(m[1])
		return v + 0.5, ok
	}},
	// "5毛", "八毛钱", "3角".
	{value: func(m []string) (float64, bool) { v, ok := words.ParseNum(m[1]); return v / 10, ok }},
	// "¥1.5", "$0.35".
	{value: func(m []string) (float64, bool) { return words.ParseNum(m[2]) },
		usd: func(m []string) bool { return m[1] == "$" }},
	// "1.5元", "两块", "3 rmb", "2 bucks", "0.4 usd".
	{value: func(m []string) (float64, bool) { return words.ParseNum(m[1]) },
		usd: func(m []string) bool { return reUSD.MatchString(m[2]) }},
}

var (
	// reAmounts are the amount rules' patterns.
	reAmounts = words.NewExprs("money.amounts", 7)
	// reUSD marks an amount in US dollars.
	reUSD = words.NewExpr("money.usd")
	// reAfterKuai follows "块" when it counts cards or disks ("两块4090",
	// "一块盘"), not money.
	reAfterKuai = words.NewExpr("money.after_kuai")
	// reUnitAfterOne follows the 一 of "一小时", "一个小时", "一天": after
	// a price that 一 means "per", not one more digit.
	reUnitAfterOne = words.NewExpr("money.unit_after_one")
	// rePerUnit is the unit after a price: per hour, per GB-day, per
	// GB-month.
	rePerUnit = words.NewExpr("money.per_unit")
	// reCeilBefore and reCeilAfter make an amount a ceiling: "低于2块",
	// "降到1块5", "2块5以内", "under $2".
	reCeilBefore = words.NewExpr("money.ceil_before")
	reCeilAfter  = words.NewExpr("money.ceil_after")
	// reRangeTo joins the two ends of a price range ("1块5到2块").
	reRangeTo = words.NewExpr("money.range_to")
	// reBareCeiling is a ceiling without a currency: "低于2.5".
	reBareCeiling = words.NewExpr("money.bare_ceiling")
	// reCountUnit follows a number that is a count, not a price.
	reCountUnit = words.NewExpr("money.count_unit")
	// kuaiWords end an amount that may count cards ("两块4090"); oneWords
	// one that may be "per" ("5毛一小时"); monthUnits are per_unit's
	// per-month units.
	kuaiWords  = words.NewWords("money.kuai")
	oneWords   = words.NewWords("money.one")
	monthUnits = words.NewWords("money.month_units")
)

// yuanJiao is "1块5" = 1.5: yuan and a tenth digit.
func yuanJiao(yuan, jiao string) (float64, bool) {
	a, ok1 := words.ParseNum(yuan)
	b, ok2 := words.ParseNum(jiao)
	return a + b/10, ok1 && ok2 && b < 10
}

type amount struct {
	start, end int
	value      float64
	usd        bool
}

// amounts finds the money amounts in s, longest first where they overlap;
// orig is s before names were blanked (same offsets).
func amounts(s, orig string) []amount {
	var found []amount
	res := reAmounts.All()
	for i, rule := range amountRules {
		for _, loc := range res[i].FindAllStringSubmatchIndex(s, -1) {
			m := submatches(s, loc)
			v, ok := rule.value(m)
			if !ok || v <= 0 {
				continue
			}
			if words.EndsWithAny(m[0], kuaiWords.List()) && reAfterKuai.MatchString(orig[loc[1]:]) && !reRangeTo.MatchString(s[:loc[0]]) {
				continue // "两块4090" counts cards
			}
			if words.EndsWithAny(m[0], oneWords.List()) && reUnitAfterOne.MatchString(s[loc[1]:]) {
				continue // "5毛一小时": the 一 is "per", a shorter rule reads "5毛"
			}
			found = append(found, amount{loc[0], loc[1], v, rule.usd != nil && rule.usd(m)})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].start != found[j].start {
			return found[i].start < found[j].start
		}
		return found[i].end > found[j].end
	})
	var out []amount
	for _, a := range found {
		if len(out) > 0 && a.start < out[len(out)-1].end {
			continue
		}
		out = append(out, a)
	}
	return out
}

func submatches(s string, loc []int) []string {
	m := make([]string, len(loc)/2)
	for i := range m {
		if loc[2*i] >= 0 {
			m[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return m
}

// extractMoney fills MaxPriceCNY (an amount with a ceiling word) or
// PriceCNY and PriceUnit (an amount stated as a fact).
func extractMoney(x *Extraction) {
	q := x.q
	for _, a := range amounts(x.rest, x.s) {
		end := a.end
		unit := ""
		if m := rePerUnit.FindStringSubmatchIndex(x.rest[end:]); m != nil {
			switch {
			case m[2] >= 0:
				unit = "hour"
			case monthUnits.Has(x.rest[end+m[4] : end+m[5]]):
				unit = "gb_month"
			default:
				unit = "gb_day"
			}
			end += m[1]
		}
		v := a.value
		if a.usd && x.cat.FXUSDCNY > 0 {
			v *= x.cat.FXUSDCNY
		}
		if a.usd && x.usdAt == nil {
			x.usdAt = []int{a.start, end}
		}
		before := x.rest[:a.start]
		// The top of a range ("1块5到2块的4090") is a ceiling too.
		ceil := reCeilBefore.MatchString(before) || reCeilAfter.MatchString(x.rest[end:]) || reRangeTo.MatchString(before) && q.PriceCNY > 0
		switch {
		case ceil && q.MaxPriceCNY == 0 && v < 1000 && unit != "gb_day" && unit != "gb_month":
			q.MaxPriceCNY = words.Round4(v)
			if reRangeTo.MatchString(before) {
				// The range's low end was no stated price.
				q.PriceCNY, q.PriceUnit = 0, ""
			}
		case ceil && q.MaxPriceCNY == 0:
		case q.PriceCNY == 0:
			q.PriceCNY, q.PriceUnit = words.Round4(v), unit
		default:
			continue
		}
		x.use(a.start, end, phMoney)
	}
	if q.MaxPriceCNY > 0 {
		return
	}
	// "低于2.5" without a currency; "少于5万条" is a count.
	if loc := reBareCeiling.FindStringSubmatchIndex(x.rest); loc != nil && !reCountUnit.MatchString(x.rest[loc[3]:]) {
		if v, ok := words.ParseNum(x.rest[loc[2]:loc[3]]); ok && v > 0 && v < 1000 {
			q.MaxPriceCNY = v
			x.use(loc[0], loc[1], phMoney)
		}
	}
}
