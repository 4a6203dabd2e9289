// Package money reads the money amounts students write ("1块5", "两块五",
// "5毛", "$0.35", "2 bucks"; configs/slots/money.yaml): their values and
// whether they are in US dollars. Package slots reads from them the
// prices and ceilings of a question; this package imports nothing of it.
package money

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
	// reRangeTo joins the two ends of a price range ("1块5到2块").
	reRangeTo = words.NewExpr("money.range_to")
	// kuaiWords end an amount that may count cards ("两块4090"); oneWords
	// one that may be "per" ("5毛一小时").
	kuaiWords = words.NewWords("money.kuai")
	oneWords  = words.NewWords("money.one")
)

// yuanJiao is "1块5" = 1.5: yuan and a tenth digit.
func yuanJiao(yuan, jiao string) (float64, bool) {
	a, ok1 := words.ParseNum(yuan)
	b, ok2 := words.ParseNum(jiao)
	return a + b/10, ok1 && ok2 && b < 10
}

// Amount is a money amount found: where it is, its value as written
// (in its currency) and whether it is in US dollars.
type Amount struct {
	Start, End int
	Value      float64
	USD        bool
}

// Amounts finds the money amounts in s, longest first where they overlap;
// orig is s before names were blanked (same offsets).
func Amounts(s, orig string) []Amount {
	var found []Amount
	res := reAmounts.All()
	for i, rule := range amountRules {
		for _, loc := range res[i].FindAllStringSubmatchIndex(s, -1) {
			m := words.Submatches(s, loc)
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
			found = append(found, Amount{loc[0], loc[1], v, rule.usd != nil && rule.usd(m)})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].Start != found[j].Start {
			return found[i].Start < found[j].Start
		}
		return found[i].End > found[j].End
	})
	var out []Amount
	for _, a := range found {
		if len(out) > 0 && a.Start < out[len(out)-1].End {
			continue
		}
		out = append(out, a)
	}
	return out
}
