// Package claim reads what a claim checked by intent factcheck says,
// beside its prices: the subjects it names and its figures (the words in
// configs/slots/advice.yaml, patterns claim_*). Package slots reads the
// claim's prices from it (Query.Claim, ClaimSlots); this package imports
// nothing of it.
package claim

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Claim is what a claim checked by intent factcheck says, in words
// ("文章说 AutoDL 数据盘免费", "听说关机 15 天会删数据", "4090 比 3090 快
// 1.5-2 倍"): the subjects it names and the figures that are no price
// (prices are the Query's PriceCNY and MaxPriceCNY). The words are in
// configs/slots/advice.yaml (patterns claim_*).
type Claim struct {
	// Disk: about a disk or storage; NoCard: about the no-GPU mode;
	// Spot: about spot instances; Free: says something is free; Delete:
	// says something is deleted or released.
	Disk, NoCard, Spot, Free, Delete bool
	// Days is a number of days it names ("15天"), when HasDays (0 when
	// the number does not read).
	Days    float64
	HasDays bool
	// Grain is the billing granularity it names ("按分钟" minute, "per
	// second"): second, minute or hour; "" when none.
	Grain string
	// TimesLow and TimesHigh are a speed ratio it names ("快 1.5-2 倍"
	// 1.5 and 2; one figure is both), when HasTimes.
	TimesLow, TimesHigh float64
	HasTimes            bool
	// PlanCNY is a plan's price the claim writes without a currency word
	// ("包月1200", "包月一万五"), CNY; HourlyCNY an hourly price written
	// so ("0.79/hr", "3.59 an hour"); 0 when none.
	PlanCNY, HourlyCNY float64
	// USD: the claim's prices are in US dollars (刀, $, 美元, USD).
	USD bool
	// PerGBMonth: its price is per GB per month ("一个G一个月"); Month:
	// per month for the whole size named ("20G一个月5块").
	PerGBMonth, Month bool
	// Stopped: it says something is billed while stopped ("停机了存储也
	// 收钱"); Dearer: that something costs more ("更贵", "双倍").
	Stopped, Dearer bool
	// VRAMGB is a card's memory the claim states ("3090的显存是48G"), GB;
	// 0 when none.
	VRAMGB float64
}

// The fact-check words (configs/slots/advice.yaml).
var (
	claimDisk   = words.NewExpr("advice.claim_disk")
	claimNoCard = words.NewExpr("advice.claim_no_card")
	claimDays   = words.NewExpr("advice.claim_days")
	claimDelete = words.NewExpr("advice.claim_delete")
	claimGrain  = words.NewExpr("advice.claim_grain")
	claimSpot   = words.NewExpr("advice.claim_spot")
	claimFree   = words.NewExpr("advice.claim_free")
	claimTimes  = words.NewExpr("advice.claim_times")
	claimFaster = words.NewExpr("advice.claim_faster")
	claimHours  = words.NewExpr("advice.claim_hours")
	claimPlan   = words.NewExpr("advice.claim_plan_price")
	claimHourly = words.NewExpr("advice.claim_bare_hourly")
	claimAfter  = words.NewExpr("advice.claim_hourly_after")
	claimBare   = words.NewExpr("advice.claim_bare_price")
	claimGBMon  = words.NewExpr("advice.claim_gb_month")
	claimMonth  = words.NewExpr("advice.claim_month")
	claimUSD    = words.NewExpr("advice.claim_usd")
	claimStop   = words.NewExpr("advice.claim_stopped")
	claimDearer = words.NewExpr("advice.claim_dearer")
	claimVRAM   = words.NewExpr("advice.claim_vram")
)

// Read reads a claim from folded text.
func Read(s string) *Claim {
	c := &Claim{Disk: claimDisk.MatchString(s), NoCard: claimNoCard.MatchString(s), Spot: claimSpot.MatchString(s),
		Free: claimFree.MatchString(s), Delete: claimDelete.MatchString(s)}
	if m := claimDays.FindStringSubmatch(s); m != nil {
		c.Days, _ = words.ParseNum(m[1])
		c.HasDays = true
	}
	if m := claimGrain.FindStringSubmatch(s); m != nil {
		c.Grain = words.Mapping("advice.grain_units")[m[1]] + m[2]
	}
	if m := claimHours.FindStringSubmatch(s); m != nil && !c.HasDays {
		h, _ := words.ParseNum(m[1])
		c.Days, c.HasDays = h/24, true
	}
	if m := claimPlan.FindStringSubmatch(s); m != nil {
		c.PlanCNY = bigNum(m[1])
	}
	if m := claimHourly.FindStringSubmatch(s); m != nil {
		c.HourlyCNY, _ = words.ParseNum(m[1])
	} else if m := claimAfter.FindStringSubmatch(s); m != nil {
		// "3090一小时1.5": the price after the hour.
		c.HourlyCNY, _ = words.ParseNum(m[1])
	} else if m := claimBare.FindStringSubmatch(s); m != nil && c.PlanCNY == 0 && !c.Disk {
		// "autodl的3090 1.32是真的吗": a card's price, per GPU-hour.
		c.HourlyCNY, _ = words.ParseNum(m[1])
	}
	c.USD = claimUSD.MatchString(s)
	c.PerGBMonth = claimGBMon.MatchString(s)
	c.Month = !c.PerGBMonth && claimMonth.MatchString(s)
	c.Stopped, c.Dearer = claimStop.MatchString(s), claimDearer.MatchString(s)
	if m := claimVRAM.FindStringSubmatch(s); m != nil {
		for _, g := range m[1:] {
			if g != "" {
				c.VRAMGB, _ = words.ParseNum(g)
				break
			}
		}
	}
	if m := claimTimes.FindStringSubmatchIndex(s); m != nil {
		c.TimesLow, _ = words.ParseNum(s[m[2]:m[3]])
		c.TimesHigh = c.TimesLow
		if m[4] >= 0 {
			c.TimesHigh, _ = words.ParseNum(s[m[4]:m[5]])
		}
		if claimFaster.MatchString(s[:m[0]]) && m[4] < 0 {
			// "快一倍": twice as fast; "快两倍": 2–3×.
			c.TimesLow, c.TimesHigh = max(c.TimesLow, 2), c.TimesLow+1
		}
		c.HasTimes = c.TimesLow > 0
	}
	return c
}

// bigNum reads a number that may count in 万 and 千 ("1200", "一万五"
// 15000, "两千" 2000, "1.5万"); 0 when it does not read.
func bigNum(s string) float64 {
	units := words.Numbers("advice.big_units")
	for _, word := range slices.SortedFunc(maps.Keys(units), func(a, b string) int { return cmp.Compare(units[b], units[a]) }) {
		u := struct {
			word string
			size float64
		}{word, units[word]}
		head, tail, ok := strings.Cut(s, u.word)
		if !ok {
			continue
		}
		n, ok := words.ParseNum(head)
		if head == "" {
			n, ok = 1, true
		}
		if !ok {
			return 0
		}
		v := n * u.size
		if tail != "" {
			t := bigNum(tail)
			if len([]rune(tail)) == 1 && t < 10 {
				// "一万五": the digit after 万 counts thousands.
				t *= u.size / 10
			}
			v += t
		}
		return v
	}
	n, _ := words.ParseNum(s)
	return n
}
