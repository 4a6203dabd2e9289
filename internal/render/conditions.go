package render

import (
	"fmt"
	"strings"

	"github.com/labgpu/bot/internal/i18n"
)

// Condition is a condition the question stated (issue 28: a VRAM floor,
// a rental period, a region …) as the answer used it: its kind, its words
// and meaning as the Query read them, and whether the answer applied it
// (Said: and its reply states it) or not, and why (a key under
// condition.why, with its values; a []string value is a list). The
// router's one line about them is ConditionLine's.
type Condition struct {
	Kind    string  `json:"kind"`
	Text    string  `json:"text"`
	Value   float64 `json:"value,omitempty"`
	Name    string  `json:"name,omitempty"`
	Count   int     `json:"count,omitempty"`
	Applied bool    `json:"applied"`
	Said    bool    `json:"-"`
	Why     string  `json:"why,omitempty"`
	WhyArgs []any   `json:"-"`
}

// conditionNames name a condition of each kind (its values follow).
var conditionNames = map[string]string{
	"vram_min":       "condition.name.vram_min",
	"vram_max":       "condition.name.vram_max",
	"period":         "condition.name.period",
	"region":         "condition.name.region",
	"price_total":    "condition.name.price_total",
	"price_per_card": "condition.name.price_per_card",
	"budget":         "condition.name.budget",
	"currency":       "condition.name.currency",
}

// nameKeys name the conditions that are one of a few values: platform
// groups and schedules.
var nameKeys = map[string]string{
	"domestic": "condition.name.domestic",
	"overseas": "condition.name.overseas",
	"both":     "condition.name.both_groups",
	"evenings": "condition.name.evenings",
	"nights":   "condition.name.nights",
	"daytime":  "condition.name.daytime",
	"weekdays": "condition.name.weekdays",
	"weekends": "condition.name.weekends",
}

// whyKeys are the reasons a condition was not used.
var whyKeys = map[string]string{
	"answer":           "condition.why.answer",
	"no_regions":       "condition.why.no_regions",
	"region_none":      "condition.why.region_none",
	"list_region":      "condition.why.list_region",
	"vram_named":       "condition.why.vram_named",
	"hourly":           "condition.why.hourly",
	"now":              "condition.why.now",
	"no_cny":           "condition.why.no_cny",
	"subscribe_region": "condition.why.subscribe_region",
	"no_price":         "condition.why.no_price",
	"group_card":       "condition.why.group_card",
}

// ConditionLine is the one line about the question's conditions: the
// applied ones the reply does not state ("已按显存 ≥40 GB、国内平台。") and
// every one not used, with why ("没按地区“华东”：这份数据没有地区。"), those
// with the same reason together; "" when there is nothing to say.
func ConditionLine(l i18n.Lang, conds []Condition) string {
	var applied []string
	type reason struct {
		why   string
		names []string
	}
	var notUsed []reason
	for _, c := range conds {
		name := ConditionName(l, c)
		switch {
		case c.Applied && !c.Said:
			applied = appendNew(applied, name)
		case !c.Applied:
			why := l.T(whyKey(c.Why), listArgs(l, c.WhyArgs)...)
			i := 0
			for i < len(notUsed) && notUsed[i].why != why {
				i++
			}
			if i == len(notUsed) {
				notUsed = append(notUsed, reason{why: why})
			}
			notUsed[i].names = appendNew(notUsed[i].names, name)
		}
	}
	var parts []string
	if len(applied) > 0 {
		parts = append(parts, l.T("condition.applied", strings.Join(applied, l.T("list.sep"))))
	}
	for _, r := range notUsed {
		parts = append(parts, l.T("condition.not_used", strings.Join(r.names, l.T("list.sep")), r.why))
	}
	return strings.Join(parts, l.T("condition.sep"))
}

// GroupName is a platform group's name ("domestic" → 国内平台); "" for an
// unknown group.
func GroupName(l i18n.Lang, group string) string {
	if k, ok := nameKeys[group]; ok {
		return l.T(k)
	}
	return ""
}

// ConditionName names one condition in l ("显存 ≥40 GB", "国内平台", "租 14
// 天", "地区“华东”").
func ConditionName(l i18n.Lang, c Condition) string {
	if k, ok := nameKeys[c.Name]; ok {
		return l.T(k)
	}
	switch c.Kind {
	case "region":
		return l.T(conditionNames[c.Kind], c.Name)
	case "price_total":
		return l.T(conditionNames[c.Kind], TrimF(c.Value/float64(max(c.Count, 1))), c.Count, TrimF(c.Value))
	case "schedule", "platform_group":
		return c.Text
	}
	if k, ok := conditionNames[c.Kind]; ok {
		return l.T(k, TrimF(c.Value))
	}
	return c.Text
}

// whyKey is the catalog key of a reason, the generic one for an unknown
// reason.
func whyKey(why string) string {
	if k, ok := whyKeys[why]; ok {
		return k
	}
	return whyKeys["answer"]
}

// listArgs joins the list values of a reason in l.
func listArgs(l i18n.Lang, args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if xs, ok := a.([]string); ok {
			a = strings.Join(xs, l.T("list.sep"))
		}
		out[i] = a
	}
	return out
}

func appendNew(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// maxUSDRows is how many offers a line of prices in US dollars names.
const maxUSDRows = 3

// USDLine is the first offers' prices per GPU-hour in US dollars at the
// catalog's rate ("折合美元（1 USD = 7.20 元）：AutoDL RTX 4090 0.30、RunPod
// RTX 4090 0.34-0.74。"), for a question asked in dollars; "" when no
// offer has a price or the catalog has no rate.
func (r *Renderer) USDLine(rows []OfferRow, en bool) string {
	fx := r.Cat.FXUSDCNY
	if fx <= 0 {
		return ""
	}
	var parts []string
	for _, row := range rows {
		low, high := row.ListPriceCNY, row.ListPriceHighCNY
		if row.PriceCNY != nil {
			low, high = *row.PriceCNY, row.PriceHighCNY
		}
		if low <= 0 {
			continue
		}
		s := fmt.Sprintf("%s %s %.2f", r.PlatformName(row.Platform, en), row.GPU, low/fx)
		if high > low {
			s += fmt.Sprintf("-%.2f", high/fx)
		}
		if parts = append(parts, s); len(parts) == maxUSDRows {
			break
		}
	}
	if len(parts) == 0 {
		return ""
	}
	l := i18n.Of(en)
	return l.T("offers.usd_line", fx, strings.Join(parts, l.T("list.sep")))
}
