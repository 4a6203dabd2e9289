package slots

import (
	"github.com/labgpu/bot/internal/understand/slots/money"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// The money words the prices read (configs/slots/money.yaml; the
// amounts are package money's).
var (
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
	// reBareCeilingAfter is one said after: "1.5以下".
	reBareCeilingAfter = words.NewExpr("money.bare_ceiling_after")
	// reBarePerHour is a price per hour without a currency ("1.5一小时").
	reBarePerHour = words.NewExpr("money.bare_per_hour")
	// reCountUnit follows a number that is a count, not a price.
	reCountUnit = words.NewExpr("money.count_unit")
	// monthUnits are per_unit's per-month units.
	monthUnits = words.NewWords("money.month_units")
)

// extractMoney fills MaxPriceCNY (an amount with a ceiling word) or
// PriceCNY and PriceUnit (an amount stated as a fact).
func extractMoney(x *Extraction) {
	q := x.q
	for _, a := range money.Amounts(x.rest, x.s) {
		end := a.End
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
		v := a.Value
		if a.USD && x.cat.FXUSDCNY > 0 {
			v *= x.cat.FXUSDCNY
		}
		if a.USD && x.usdAt == nil {
			x.usdAt = []int{a.Start, end}
		}
		before := x.rest[:a.Start]
		// The top of a range ("1块5到2块的4090") is a ceiling too.
		ceil := reCeilBefore.MatchString(before) || reCeilAfter.MatchString(x.rest[end:]) || reRangeTo.MatchString(before) && q.PriceCNY > 0
		switch {
		case ceil && q.MaxPriceCNY == 0 && v < 1000 && unit != "gb_day" && unit != "gb_month":
			q.MaxPriceCNY = words.Round4(v)
			if reRangeTo.MatchString(before) {
				// The range's low end was no stated price.
				q.PriceCNY, q.PriceUnit = 0, ""
			}
		case ceil && q.MaxPriceCNY == 0 && (unit != "" || q.PriceCNY > 0):
		case q.PriceCNY == 0:
			// "is that under $500?": an amount in all (no price an
			// hour), stated as a fact.
			q.PriceCNY, q.PriceUnit = words.Round4(v), unit
		default:
			continue
		}
		x.use(a.Start, end, phMoney)
	}
	if q.MaxPriceCNY > 0 {
		return
	}
	if loc := reBarePerHour.FindStringSubmatchIndex(x.rest); loc != nil && q.PriceCNY == 0 {
		// "1.5一小时的4090还有吗": a price per hour said bare.
		if v, ok := words.ParseNum(x.rest[loc[2]:loc[3]]); ok && v > 0 {
			q.PriceCNY, q.PriceUnit = v, "hour"
			x.use(loc[2], loc[1], phMoney)
			return
		}
	}
	// "低于2.5" without a currency; "少于5万条" is a count.
	if loc := reBareCeiling.FindStringSubmatchIndex(x.rest); loc != nil && !reCountUnit.MatchString(x.rest[loc[3]:]) {
		if v, ok := words.ParseNum(x.rest[loc[2]:loc[3]]); ok && v > 0 && v < 1000 {
			q.MaxPriceCNY = v
			x.use(loc[0], loc[1], phMoney)
			return
		}
	}
	// "有1.5以下的卡吗": a price under a ceiling, its currency left out
	// (two digits at most: a card or a size has its own unit).
	if loc := reBareCeilingAfter.FindStringSubmatchIndex(x.rest); loc != nil {
		if v, ok := words.ParseNum(x.rest[loc[2]:loc[3]]); ok && v > 0 && v <= 50 {
			q.MaxPriceCNY = v
			x.use(loc[2], loc[1], phMoney)
		}
	}
}

// reBudgetEach says a budget is each member's ("每人每月预算800");
// reHoursAsked asks the hours a budget buys (configs/slots/money.yaml).
var (
	reBudgetEach = words.NewExpr("money.budget_each")
	reHoursAsked = words.NewExpr("money.hours_asked")
)

// BudgetEach reports whether a folded text says its budget is each
// member's ("三个学生每人每月预算800").
func BudgetEach(folded string) bool { return reBudgetEach.MatchString(folded) }

// HoursAsked reports whether a folded text asks how many hours
// ("够跑多少小时", "how many hours").
func HoursAsked(folded string) bool { return reHoursAsked.MatchString(folded) }
