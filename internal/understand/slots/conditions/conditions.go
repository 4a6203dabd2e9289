// Package conditions reads the conditions a question states on what it
// asks (issue 28): a VRAM floor or ceiling, the rental period, a region,
// a group of platforms, a budget, an hourly ceiling over several cards
// read per card or in total, the currency, the schedule. Package slots
// calls Read after the intent scorer with what its other extractors read
// (Asked) and embeds the result (Stated) in its Query; this package
// imports nothing of it.
package conditions

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand/slots/when"
	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Condition kinds (Condition.Kind): what a question limits its answer to.
const (
	// CondVRAMMin and CondVRAMMax: a VRAM floor or ceiling per card
	// (Query.VRAMMinGB, VRAMMaxGB; Value the GB).
	CondVRAMMin = "vram_min"
	CondVRAMMax = "vram_max"
	// CondPeriod: how long the rental runs (Query.PeriodDays; Value the
	// days).
	CondPeriod = "period"
	// CondRegion: where the machines are (Query.Region; Name the region).
	CondRegion = "region"
	// CondPlatformGroup: platforms in China or outside it
	// (Query.PlatformGroup; Name GroupDomestic or GroupOverseas).
	CondPlatformGroup = "platform_group"
	// CondPriceTotal: an hourly price ceiling for several cards together,
	// read per card (Query.PriceTotalCNY, MaxPriceCNY; Value the total,
	// Count the cards); CondPricePerCard: one read per card as written
	// (Value the ceiling, Count the cards).
	CondPriceTotal   = "price_total"
	CondPricePerCard = "price_per_card"
	// CondBudget: a budget for everything asked (Query.BudgetTotalCNY;
	// Value CNY): Name CurrencyUSD when it was said in US dollars, Count
	// the cards when it was said per card (Value is then all of them).
	CondBudget = "budget"
	// CondCurrency: amounts in, or answers asked in, another currency
	// than CNY (Query.Currency; Name "USD", Value the rate the catalog
	// converts at, CNY per unit).
	CondCurrency = "currency"
	// CondSchedule: when the work runs (Query.Schedule; Name one of the
	// Schedule* values, one condition per value).
	CondSchedule = "schedule"
)

// Platform groups (Query.PlatformGroup). GroupBoth is a platform_group
// condition's name when the question compares the two ("海外平台和国内的
// 4090差多少钱"): the Query's PlatformGroup then stays empty (no filter).
const (
	GroupDomestic = "domestic"
	GroupOverseas = "overseas"
	GroupBoth     = "both"
)

// Schedules (Query.Schedule): parts of the day and of the week the work
// runs in.
const (
	ScheduleEvenings = "evenings"
	ScheduleNights   = "nights"
	ScheduleDaytime  = "daytime"
	ScheduleWeekdays = "weekdays"
	ScheduleWeekends = "weekends"
)

// CurrencyUSD is the one other currency read (Query.Currency).
const CurrencyUSD = "USD"

// Condition is one condition a question states: its kind, the words as
// written (folded: lower case, half-width) and where they are in the
// folded question (byte offsets [start, end)), and what it means: a
// number (GB, days, CNY, a rate) and a name (a region, a group, a
// currency, a schedule), and for a price over several cards their count.
type Condition struct {
	Kind  string  `json:"kind"`
	Text  string  `json:"text"`
	Span  [2]int  `json:"span"`
	Value float64 `json:"value,omitempty"`
	Name  string  `json:"name,omitempty"`
	Count int     `json:"count,omitempty"`
}

// Stated are the conditions a question states and their values (the
// typed fields); package slots's Query embeds them.
type Stated struct {
	// Region is a region the question limits offers to: a subscription's
	// as its finisher reads it ("西北", "quebec"), else a region of
	// configs/slots/conditions.yaml (maps.regions: "华东", "美国",
	// "sweden", "us-east"; InRegion says whether an offer is in it).
	Region string `json:"region,omitempty"`

	// Conditions are the conditions the question states on what it asks
	// (issue 28), each with its kind, its words and its
	// meaning, in the order written; the typed fields below hold their
	// values (Region above, MaxPriceCNY for a total over several cards).
	// Every answer applies each one or says in one line what it did not
	// use and why.
	Conditions []Condition `json:"conditions,omitempty"`
	// VRAMMinGB and VRAMMaxGB are a VRAM floor and ceiling per card, GB
	// ("显存要40G以上的" 40, "不超过24G的卡" 24).
	VRAMMinGB float64 `json:"vram_min_gb,omitempty"`
	VRAMMaxGB float64 `json:"vram_max_gb,omitempty"`
	// PeriodDays is how long the member will rent or run, in days ("挂两
	// 周" 14, "一个月下来" 30, "for a weekend" 2): the cost is over that
	// period, in the billing mode cheapest for it.
	PeriodDays float64 `json:"period_days,omitempty"`
	// PlatformGroup limits the platforms to those run from China
	// (GroupDomestic: "国内平台", "only chinese platforms") or outside it
	// (GroupOverseas: "海外的", "境外", "overseas only").
	PlatformGroup string `json:"platform_group,omitempty"`
	// Currency is "USD" when the member wrote an amount in US dollars ("0.4
	// 刀", "$500") or asks for them ("多少刀", "in USD"); amounts are still
	// read into the *CNY fields at the catalog's rate (fx_usd_cny).
	Currency string `json:"currency,omitempty"`
	// BudgetTotalCNY is a budget for everything asked (all cards, the whole
	// period), CNY ("预算3000", "一共就2000块", "$500 total").
	BudgetTotalCNY float64 `json:"budget_total_cny,omitempty"`
	// PriceTotalCNY is an hourly price ceiling stated for all GPUCount
	// cards together ("两张4090 总共一小时4块以内": 4); MaxPriceCNY holds it
	// per card (2).
	PriceTotalCNY float64 `json:"price_total_cny,omitempty"`
	// Schedule is when the work runs: ScheduleEvenings, ScheduleNights,
	// ScheduleDaytime, ScheduleWeekdays, ScheduleWeekends ("白天上课晚上才
	// 跑": evenings; "周一到周五白天跑": weekdays, daytime).
	Schedule []string `json:"schedule,omitempty"`
	// ScheduleAlso is a schedule added to Schedule by a follow-up ("只有
	// 晚上跑" then "周末也跑": the evenings and the weekends): its hours
	// add to Schedule's, the overlap counted once.
	ScheduleAlso []string `json:"schedule_also,omitempty"`
	// Runs is how many times the job is run ("一个月跑10次", "10 runs a
	// month"): its cost and hours count that many times.
	Runs int `json:"runs,omitempty"`
	// RunsPerWeek is how often the job runs a week ("每周跑一次", "twice
	// a week"): Runs over the period (four weeks when none is said), times
	// the members when each runs it (the finisher's; see Weeks).
	RunsPerWeek float64 `json:"runs_per_week,omitempty"`
	// Weeks is the weeks RunsPerWeek was counted over; WeeksAssumed: none
	// was said (four, a month).
	Weeks        float64 `json:"weeks,omitempty"`
	WeeksAssumed bool    `json:"weeks_assumed,omitempty"`
}

// Asked is what the other slot extractors read before the conditions
// that the conditions read: the cards and platforms named, the billing
// mode, the span of the usage profile and where it was said, where an
// amount in US dollars was, the catalog; and what a condition may change
// (a budget or a ceiling is no stated price, a count of cards).
type Asked struct {
	GPUs, Platforms         []string
	UnknownGPU, BillingMode string
	SpanDays                float64
	SpanAt, USDAt           []int
	Cat                     *catalog.Catalog
	PriceCNY, MaxPriceCNY   float64
	PriceUnit               string
	GPUCount                int
}

// reader reads one question's conditions: s is the folded question.
type reader struct {
	*Stated
	*Asked
	s string
	// budgetPerCard: the budget read was said per card ("每张预算1000").
	budgetPerCard bool
}

// Read reads the conditions a question states into st: s is the folded
// question and t the same with the names found blanked (same byte
// offsets; a GPU name as "§"); a is what the other extractors read, and
// holds on return what the conditions changed of it. The conditions are
// in the order written.
func Read(st *Stated, a *Asked, s, t string) {
	x := &reader{Stated: st, Asked: a, s: s}
	readVRAM(x, t)
	readPeriod(x, t)
	readRegion(x, t)
	readGroup(x, t)
	readBudget(x, t)
	readHourlyCeiling(x, t)
	readCardCount(x, t)
	readBudgetPerCard(x)
	readCardTotal(x, t)
	readCurrency(x, t)
	readSchedule(x, t)
	readRuns(x, t)
	sort.SliceStable(x.Conditions, func(i, j int) bool { return x.Conditions[i].Span[0] < x.Conditions[j].Span[0] })
}

// Condition is the first condition of a kind the question states.
func (q *Stated) Condition(kind string) (Condition, bool) {
	for _, c := range q.Conditions {
		if c.Kind == kind {
			return c, true
		}
	}
	return Condition{}, false
}

// HasCondition reports whether the question states a condition of kind.
func (q *Stated) HasCondition(kind string) bool {
	_, ok := q.Condition(kind)
	return ok
}

// ConditionKinds are the kinds of the conditions stated, each once, in
// the order written.
func (q *Stated) ConditionKinds() []string {
	var out []string
	for _, c := range q.Conditions {
		if !slices.Contains(out, c.Kind) {
			out = append(out, c.Kind)
		}
	}
	return out
}

// DropCondition forgets the conditions of a kind (a finisher that reads
// the words otherwise).
func (q *Stated) DropCondition(kind string) {
	q.Conditions = slices.DeleteFunc(q.Conditions, func(c Condition) bool { return c.Kind == kind })
}

// The conditions' words (configs/slots/conditions.yaml).
var (
	reVRAMSize      = words.NewExpr("conditions.vram_size")
	reVRAMBefore    = words.NewExpr("conditions.vram_before")
	reVRAMAfter     = words.NewExpr("conditions.vram_after")
	reVRAMCard      = words.NewExpr("conditions.vram_card_after")
	reVRAMCardJob   = words.NewExpr("conditions.vram_card_job")
	reFloorBefore   = words.NewExpr("conditions.floor_before")
	reFloorAfter    = words.NewExpr("conditions.floor_after")
	reVCeilBefore   = words.NewExpr("conditions.ceil_before")
	reVCeilAfter    = words.NewExpr("conditions.ceil_after")
	reNotVRAMAfter  = words.NewExpr("conditions.not_vram_after")
	reNotVRAMBefore = words.NewExpr("conditions.not_vram_before")
	reVRAMFitAsk    = words.NewExpr("conditions.vram_fit_question")
	reStorageWords  = words.NewExpr("conditions.storage_words")
	rePeriodBefore  = words.NewExpr("conditions.period_before")
	rePeriodAfter   = words.NewExpr("conditions.period_after")
	rePeriodPast    = words.NewExpr("conditions.period_past")
	rePeriodCost    = words.NewExpr("conditions.period_cost_after")
	rePeriodWeekend = words.NewExpr("conditions.period_weekend")
	reRuns          = words.NewExpr("conditions.runs")
	reRunsWeek      = words.NewExpr("conditions.runs_week")
	reGroup         = words.NewExpr("conditions.platform_group")
	reGroupNot      = words.NewExpr("conditions.group_not")
	reGroupPair     = words.NewExpr("conditions.group_pair")
	reRegionWord    = words.NewExpr("conditions.region_word")
	reRegionZone    = words.NewExpr("conditions.region_zone")
	reCardCount     = words.NewExprs("conditions.card_count", 3)
	reCurrencyWord  = words.NewExpr("conditions.currency_word")
	reRegionContext = words.NewExpr("conditions.region_context")
	reBudgetBefore  = words.NewExpr("conditions.budget_before")
	reBudgetAfter   = words.NewExpr("conditions.budget_after")
	reBudgetHourly  = words.NewExpr("conditions.budget_hourly")
	reBudgetEnough  = words.NewExpr("conditions.budget_enough")
	reEnoughAfter   = words.NewExpr("conditions.budget_enough_not_after")
	reHourlyCeiling = words.NewExpr("conditions.hourly_ceiling")
	reTotalWords    = words.NewExpr("conditions.total_words")
	rePerCardWords  = words.NewExpr("conditions.per_card_words")
	reCurrencyUSD   = words.NewExpr("conditions.currency_usd")
	reScheduleAll   = words.NewExpr("conditions.schedule_all_day")
	// The other extractors' words the conditions read too: a span in
	// English, a count's unit, the 一 of "一小时", US dollars.
	reSpanEnglish  = words.NewExpr("usage.span_english")
	reCountUnit    = words.NewExpr("money.count_unit")
	reUnitAfterOne = words.NewExpr("money.unit_after_one")
	reUSD          = words.NewExpr("money.usd")
	scheduleExprs  = []struct {
		name string
		re   *words.Expr
	}{
		{ScheduleEvenings, words.NewExpr("conditions.schedule_evenings")},
		{ScheduleNights, words.NewExpr("conditions.schedule_nights")},
		{ScheduleDaytime, words.NewExpr("conditions.schedule_daytime")},
		{ScheduleWeekdays, words.NewExpr("conditions.schedule_weekdays")},
		{ScheduleWeekends, words.NewExpr("conditions.schedule_weekends")},
	}
)

// VRAM sizes read as a card's memory, GB: smaller or larger ones are
// something else (a dataset, a disk, all the cards together).
const (
	minVRAMGB = 4
	maxVRAMGB = 200
)

// minBudgetCNY is the smallest amount read as a budget for a whole job:
// less is a price per hour.
const minBudgetCNY = 20

// add records a condition read at [a, b) of the folded question.
func (x *reader) add(c Condition, a, b int) {
	c.Span = [2]int{a, b}
	c.Text = strings.TrimSpace(x.s[a:b])
	x.Conditions = append(x.Conditions, c)
}

// before is at most n bytes of t before i, cut at a rune start.
func before(t string, i, n int) string {
	s := t[max(0, i-n):i]
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	return s
}

// readVRAM reads a VRAM floor or ceiling: a size in GB with a VRAM word
// ("显存", "vram") or, where the message says nothing of storage, a
// floor or ceiling word alone ("40G以上", "48GB+", "24G以内"), and not a
// disk's, memory's or dataset's size.
func readVRAM(x *reader, t string) {
	q := x
	storage := reStorageWords.MatchString(t)
	for _, loc := range reVRAMSize.FindAllStringSubmatchIndex(t, -1) {
		v, ok := words.ParseNum(t[loc[2]:loc[3]])
		if !ok || v < minVRAMGB || v > maxVRAMGB {
			continue
		}
		pre, after, end := before(t, loc[0], 40), t[loc[1]:], loc[1]
		if reNotVRAMAfter.MatchString(after) || reNotVRAMBefore.MatchString(pre) {
			continue
		}
		named := reVRAMBefore.MatchString(pre)
		if m := reVRAMAfter.FindStringIndex(after); m != nil {
			named, after, end = true, after[m[1]:], end+m[1]
		}
		if !named && storage || reVRAMFitAsk.MatchString(after) {
			continue
		}
		start := loc[0]
		switch {
		case reVCeilBefore.MatchString(pre) || reVCeilAfter.MatchString(after):
			if q.VRAMMaxGB == 0 {
				q.VRAMMaxGB = v
				x.add(Condition{Kind: CondVRAMMax, Value: v}, start, end)
			}
		case reFloorBefore.MatchString(pre) || reFloorAfter.MatchString(after) || reVRAMCard.MatchString(t[loc[1]:]) && !reVRAMCardJob.MatchString(t):
			// ("便宜的48g卡": a card of that memory, or more.)
			if q.VRAMMinGB == 0 {
				q.VRAMMinGB = v
				x.add(Condition{Kind: CondVRAMMin, Value: v}, start, end)
			}
		default:
			continue
		}
	}
}

// readPeriod reads the rental period: the span of the usage profile
// (Query.SpanDays) when it is said as one, with a verb of renting or
// running before it or a cost after it ("挂两周", "租三天", "一个月下来",
// "两周多少钱", "for 10 days"), not a billing mode's unit ("3090 一天多少
// 钱") or a past span ("训练了三天"); or a weekend ("for a weekend": 2
// days).
func readPeriod(x *reader, t string) {
	q := x
	if at := x.SpanAt; at != nil && q.SpanDays > 0 {
		d := q.SpanDays
		pre := before(t, at[0], 24)
		if rePeriodPast.MatchString(pre) {
			return // "训练了三天" is past, "第二天" a day
		}
		unit := d == 1 || d == 7 || d == 30
		english := reSpanEnglish.MatchString(t[at[0]:at[1]]) // "for a week"
		if english || rePeriodBefore.MatchString(pre) || rePeriodAfter.MatchString(t[at[1]:]) || !unit && rePeriodCost.MatchString(t[at[1]:]) {
			q.PeriodDays = d
			x.add(Condition{Kind: CondPeriod, Value: d}, at[0], at[1])
			return
		}
	}
	if loc := rePeriodWeekend.FindStringIndex(t); loc != nil && q.SpanDays == 0 {
		q.PeriodDays = 2
		x.add(Condition{Kind: CondPeriod, Value: 2}, loc[0], loc[1])
	}
}

// readRegion reads where the machines should be: a zone of AutoDL's kind
// ("西北b区"), a region after its word ("地区:西北"), or a region of the
// data (maps.regions, the longest found) in a message about cards or
// machines.
func readRegion(x *reader, t string) {
	q := x
	if q.Region != "" {
		return
	}
	if m := reRegionZone.FindStringIndex(t); m != nil {
		q.Region = t[m[0]:m[1]]
		x.add(Condition{Kind: CondRegion, Name: q.Region}, m[0], m[1])
		return
	}
	if m := reRegionWord.FindStringSubmatchIndex(t); m != nil {
		q.Region = t[m[2]:m[3]]
		x.add(Condition{Kind: CondRegion, Name: q.Region}, m[0], m[1])
		return
	}
	if len(q.GPUs) == 0 && len(q.Platforms) == 0 && q.UnknownGPU == "" && !reRegionContext.MatchString(t) {
		return
	}
	if name, a, b, ok := regionIn(t); ok {
		q.Region = name
		x.add(Condition{Kind: CondRegion, Name: name}, a, b)
	}
}

// regionIn is the longest region word of maps.regions in t (an ASCII
// word only as a whole word), the region it names and where.
func regionIn(t string) (name string, a, b int, ok bool) {
	best := ""
	for w := range regionWords() {
		i := wordIndex(t, w)
		// The longest, then the first, then the least: the same answer
		// whatever the map's order.
		if i < 0 || len(w) < len(best) || len(w) == len(best) && (i > a || i == a && w > best) {
			continue
		}
		best, a, b = w, i, i+len(w)
	}
	if best == "" {
		return "", 0, 0, false
	}
	return regionWords()[best], a, b, true
}

// wordIndex is where w is in t, as a whole word when it starts or ends
// with an ASCII letter or digit; -1 when it is not.
func wordIndex(t, w string) int {
	for from := 0; from < len(t); {
		i := strings.Index(t[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		j := i + len(w)
		if (i == 0 || !asciiWord(t[i-1]) || !asciiWord(w[0])) && (j == len(t) || !asciiWord(t[j]) || !asciiWord(w[len(w)-1])) {
			return i
		}
		from = i + 1
	}
	return -1
}

func asciiWord(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' }

// regionWords are maps.regions: a region as written → the region.
var regionWords = sync.OnceValue(func() map[string]string { return words.Mapping("conditions.regions") })

// regionOffers are maps.region_offers compiled: a region → what an
// offer's region in it holds.
var regionOffers = sync.OnceValue(func() map[string]*textgate.Regexp {
	out := map[string]*textgate.Regexp{}
	for k, p := range words.Mapping("conditions.region_offers") {
		out[k] = textgate.Lazy(p)
	}
	return out
})

// InRegion reports whether an offer's region (as the platform names it:
// "西北B区", "Quebec, CA") is in the region a question asked for
// (Query.Region): the region's words in the data (maps.region_offers),
// else the offer's region holding it. An offer without a region is in
// none.
func InRegion(region, offer string) bool {
	r, o := strings.ToLower(strings.TrimSpace(region)), strings.ToLower(strings.TrimSpace(offer))
	switch {
	case r == "":
		return true
	case o == "":
		return false
	}
	if re, ok := regionOffers()[r]; ok {
		return re.MatchString(o)
	}
	return strings.Contains(o, r)
}

// readGroup reads a group of platforms: domestic or overseas, a group
// ruled out ("不想用境外的") meaning the other; the two compared ("国内和海外
// 平台哪个划算") are a condition of both, and no filter; both named
// otherwise, none.
func readGroup(x *reader, t string) {
	if m := reGroupPair.FindStringIndex(t); m != nil {
		x.add(Condition{Kind: CondPlatformGroup, Name: GroupBoth}, m[0], m[1])
		return
	}
	found := map[string][2]int{}
	for _, m := range reGroup.FindAllStringSubmatchIndex(t, -1) {
		g := ""
		for i := 1; 2*i < len(m); i++ {
			if m[2*i] >= 0 {
				g = GroupDomestic
				if i%2 == 0 {
					g = GroupOverseas
				}
				break
			}
		}
		if g == "" {
			continue
		}
		if reGroupNot.MatchString(before(t, m[0], 16)) {
			g = otherGroup(g)
		}
		end := m[1]
		if i := strings.Index(t[m[0]:m[1]], "§"); i >= 0 {
			end = m[0] + i // "海外的§": the words, not the card
		}
		if _, dup := found[g]; !dup {
			found[g] = [2]int{m[0], end}
		}
	}
	if len(found) != 1 {
		return
	}
	for g, at := range found {
		x.PlatformGroup = g
		x.add(Condition{Kind: CondPlatformGroup, Name: g}, at[0], at[1])
	}
}

func otherGroup(g string) string {
	if g == GroupDomestic {
		return GroupOverseas
	}
	return GroupDomestic
}

// readBudget reads a total budget ("预算3000", "总预算500", "一共就2000块",
// "budget is $500 total", "800 yuan total"): not an hourly price ("预算一
// 小时3块"), a count ("一共2张") or less than minBudgetCNY. A price the
// money rules read from the same amount is no price.
// reAmountUnit is an amount ending in a multiplier ("1万", "2.5k").
var reAmountUnit = words.NewExpr("conditions.amount_unit")

// amount is an amount as written: a number, optionally ending in one of
// the multipliers counts and sizes take (numbers.multipliers: "1万"
// 10000, "一万" 10000, "2.5k" 2500).
func amount(s string) (float64, bool) {
	if m := reAmountUnit.FindStringSubmatch(s); m != nil {
		f, okF := words.Number("numbers.multipliers", m[2])
		v, ok := words.ParseNum(m[1])
		return v * f, ok && okF
	}
	return words.ParseNum(strings.TrimSpace(s))
}

func readBudget(x *reader, t string) {
	q := x
	about := q.BillingMode != "" || len(q.GPUs) > 0 // an amount alone is a budget only about cards or a plan
	for _, re := range []*words.Expr{reBudgetBefore, reBudgetAfter, reBudgetEnough} {
		for _, m := range re.FindAllStringSubmatchIndex(t, -1) {
			if re == reBudgetEnough && (!about || m[2] < 0 && m[6] < 0 && reEnoughAfter.MatchString(before(t, m[0]+1, 16))) {
				continue
			}
			numEnd := m[5]
			if m[6] >= 0 {
				numEnd = m[7]
			}
			after := t[numEnd:]
			if reBudgetHourly.MatchString(after) || m[6] < 0 && (reCountUnit.MatchString(t[m[5]:]) || reUnitAfterOne.MatchString(t[m[5]:])) {
				continue
			}
			v, ok := amount(t[m[4]:m[5]])
			if !ok {
				continue
			}
			usd := m[2] >= 0 && t[m[2]:m[3]] == "$" || m[6] >= 0 && reUSD.MatchString(t[m[6]:m[7]])
			if usd && x.Cat.FXUSDCNY > 0 {
				v *= x.Cat.FXUSDCNY
				if x.USDAt == nil {
					x.USDAt = []int{m[2], numEnd}
					if m[2] < 0 {
						x.USDAt[0] = m[4]
					}
				}
			}
			if v < minBudgetCNY {
				continue
			}
			q.BudgetTotalCNY = words.Round4(v)
			c := Condition{Kind: CondBudget, Value: q.BudgetTotalCNY}
			if usd && x.Cat.FXUSDCNY > 0 {
				c.Name = CurrencyUSD
			}
			x.add(c, m[0], numEnd)
			// "每张预算1000", "每张卡预算100", "预算每张1000", "$100 per card".
			x.budgetPerCard = rePerCardWords.MatchString(before(t, m[0], 12)) ||
				rePerCardWords.MatchString(t[m[0]:m[4]]) || rePerCardWords.MatchString(firstBytes(t[numEnd:], 12))
			if math.Abs(q.PriceCNY-q.BudgetTotalCNY) < 1e-6 {
				q.PriceCNY, q.PriceUnit = 0, ""
			}
			if math.Abs(q.MaxPriceCNY-q.BudgetTotalCNY) < 1e-6 {
				q.MaxPriceCNY = 0
			}
			return
		}
	}
}

// readBudgetPerCard makes a budget said per card ("两张3090包月 每张预算
// 1000": 2000 in all) the budget of all the cards counted, its condition
// counting them (Count).
func readBudgetPerCard(x *reader) {
	q := x
	n := q.GPUCount
	if !x.budgetPerCard || n < 2 || q.BudgetTotalCNY <= 0 {
		return
	}
	q.BudgetTotalCNY = words.Round4(q.BudgetTotalCNY * float64(n))
	for i := range q.Conditions {
		if c := &q.Conditions[i]; c.Kind == CondBudget {
			c.Value, c.Count = q.BudgetTotalCNY, n
		}
	}
}

// firstBytes is at most n bytes of s from its start, cut at a rune start.
func firstBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// readHourlyCeiling reads an hourly ceiling the money rules left without
// a currency or a ceiling word ("一小时200以内", "预算一小时25以内", "预算一
// 小时3块"): a budget or ceiling word before the hour, or a ceiling word
// after the amount.
func readHourlyCeiling(x *reader, t string) {
	q := x
	if q.MaxPriceCNY > 0 {
		return
	}
	m := reHourlyCeiling.FindStringSubmatchIndex(t)
	if m == nil {
		return
	}
	if m[2] < 0 && strings.TrimSpace(t[m[4]:m[5]]) == "" && m[8] < 0 {
		return
	}
	v, ok := words.ParseNum(t[m[6]:m[7]])
	if !ok || v <= 0 || v >= 1000 {
		return
	}
	q.MaxPriceCNY = v
	if math.Abs(q.PriceCNY-v) < 1e-6 {
		q.PriceCNY, q.PriceUnit = 0, ""
	}
}

// readCardCount reads a count of cards no other rule read, which a
// ceiling over several cards needs ("华东 40G以上 两张 一小时总共12以内").
func readCardCount(x *reader, t string) {
	if x.GPUCount > 0 {
		return
	}
	for _, re := range reCardCount.All() {
		if m := re.FindStringSubmatch(t); m != nil {
			if v, ok := words.ParseNum(m[1]); ok && v >= 2 {
				x.GPUCount = int(v)
				return
			}
		}
	}
}

// readCardTotal says whether an hourly ceiling over several cards is per
// card or their total: per card with a per-card word ("每张", "each"),
// their total with a total word ("两张4090 总共一小时4块以内": 2 a card) or
// neither ("两张A100 一小时12块": 6 a card; "8卡H100 一小时200以内": 25),
// unless no card asked lists that cheap ("四张4090 2块以内": 2 a card).
func readCardTotal(x *reader, t string) {
	q := x
	n := q.GPUCount
	if n < 2 || q.MaxPriceCNY <= 0 {
		return
	}
	per := rePerCardWords.FindStringIndex(t)
	total := reTotalWords.FindStringIndex(t)
	low := x.lowestListPrice()
	if per == nil && (total != nil || !(low > 0 && q.MaxPriceCNY/float64(n) < low)) {
		q.PriceTotalCNY = q.MaxPriceCNY
		q.MaxPriceCNY = words.Round4(q.MaxPriceCNY / float64(n))
		x.addNear(Condition{Kind: CondPriceTotal, Value: q.PriceTotalCNY, Count: n}, total)
		return
	}
	x.addNear(Condition{Kind: CondPricePerCard, Value: q.MaxPriceCNY, Count: n}, per)
}

// addNear records a condition at loc, or at the start of the question
// when its words are nowhere in particular.
func (x *reader) addNear(c Condition, loc []int) {
	if loc == nil || loc[1] <= loc[0] {
		loc = []int{0, 0}
	}
	x.add(c, loc[0], loc[1])
}

// lowestListPrice is the lowest list price (CNY per GPU-hour) of the
// cards asked on any platform, 0 when none is known.
func (x *reader) lowestListPrice() float64 {
	low := 0.0
	for i := range x.Cat.Platforms {
		for _, pr := range x.Cat.Platforms[i].Prices {
			if slices.Contains(x.GPUs, pr.GPU) && pr.CNYPerHour.Low > 0 && (low == 0 || pr.CNYPerHour.Low < low) {
				low = pr.CNYPerHour.Low
			}
		}
	}
	return low
}

// readCurrency reads the currency: an amount written in US dollars, or
// the answer asked in them ("多少刀", "in USD"), at the catalog's rate.
func readCurrency(x *reader, t string) {
	at := x.USDAt
	if at == nil && reCurrencyWord.MatchString(t) {
		at = reCurrencyUSD.FindStringIndex(t)
	}
	if at == nil {
		return
	}
	x.Currency = CurrencyUSD
	x.add(Condition{Kind: CondCurrency, Name: CurrencyUSD, Value: x.Cat.FXUSDCNY}, at[0], at[1])
}

// readSchedule reads when the work runs: parts of the day (evenings,
// nights, daytime; a daily clock range by its hours) unless the cards
// run the whole day, and parts of the week (weekdays; weekends, unless
// said as the days off: "周末不跑").
func readSchedule(x *reader, t string) {
	allDay := reScheduleAll.MatchString(t)
	weekdays := false
	for _, s := range scheduleExprs {
		dayPart := s.name == ScheduleEvenings || s.name == ScheduleNights || s.name == ScheduleDaytime
		if dayPart && allDay || s.name == ScheduleWeekends && weekdays {
			continue
		}
		loc := s.re.FindStringIndex(t)
		if loc == nil && dayPart {
			loc = clockSchedule(t, s.name)
		}
		if loc == nil {
			continue
		}
		weekdays = weekdays || s.name == ScheduleWeekdays
		if s.name == ScheduleEvenings && slices.Contains(x.Schedule, ScheduleNights) || s.name == ScheduleNights && slices.Contains(x.Schedule, ScheduleEvenings) {
			continue
		}
		x.Schedule = append(x.Schedule, s.name)
		x.add(Condition{Kind: CondSchedule, Name: s.name}, loc[0], loc[1])
	}
}

// clockSchedule is where a daily clock range of the schedule's part of
// the day is in t (nil: none): nights cross midnight, evenings start at
// 17 or later and end by midnight, daytime lies between 5 and 19.
func clockSchedule(t, name string) []int {
	loc, from, to, ok := when.ClockSpan(t)
	if loc == nil || !ok {
		return nil
	}
	var fits bool
	switch name {
	case ScheduleNights:
		fits = to < from && to <= 12
	case ScheduleEvenings:
		fits = from >= 17 && (to > from || to == 0)
	case ScheduleDaytime:
		fits = from >= 5 && to > from && to <= 19
	}
	if !fits {
		return nil
	}
	return loc
}

// Runs read as a job's repetitions: fewer is one run, more a count of
// something else.
const (
	minRuns = 2
	maxRuns = 1000
)

// readRunsWeek reads how often a week the job runs ("每周跑一次", "每周两
// 次", "once a week", "twice a week", "every week"): group 1 the count
// (none: once), 2 "twice", 3 an English count.
func readRunsWeek(x *reader, t string) {
	m := reRunsWeek.FindStringSubmatch(t)
	if m == nil {
		return
	}
	v := 1.0
	if m[2] != "" {
		v = 2 // "twice"
	}
	if n, ok := words.ParseNum(m[1]); ok && n >= 1 && n <= 50 {
		v = n
	}
	if n, ok := words.Number("numbers.english", m[3]); ok {
		v = n
	} else if n, ok := words.ParseNum(m[3]); ok && n >= 1 && n <= 50 {
		v = n
	}
	x.RunsPerWeek = v
}

// readRuns reads how many times the job is run ("跑10次", "10 runs",
// "run it 5 times"): the first number of conditions.runs' groups.
func readRuns(x *reader, t string) {
	readRunsWeek(x, t)
	if x.RunsPerWeek > 0 {
		return
	}
	m := reRuns.FindStringSubmatchIndex(t)
	if m == nil {
		return
	}
	for g := 1; 2*g+1 < len(m); g++ {
		if m[2*g] < 0 {
			continue
		}
		v, ok := words.ParseNum(t[m[2*g]:m[2*g+1]])
		if ok && v >= minRuns && v <= maxRuns && v == float64(int(v)) {
			x.Runs = int(v)
		}
		return
	}
}
