package slots

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/understand/slots/conditions"
)

// conditionsOf reads a question's slots and then its conditions, as the
// pipeline does.
func conditionsOf(t *testing.T, cat *catalog.Catalog, text string) *Query {
	t.Helper()
	x := Extract(cat, text, false)
	x.ConditionSlots()
	return x.Query()
}

// TestConditions: the conditions students state, each read into its field
// and recorded with its kind and words; questions that state none record
// none.
func TestConditions(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		vramMin, vramMax, period, budget, maxPrice, total float64
		region, group, currency                           string
		schedule                                          []string
		kinds                                             []string
	}
	for _, c := range []struct {
		text string
		w    want
	}{
		// VRAM floors and ceilings, not a card's name, a disk or memory.
		{"显存至少24G的卡有哪些", want{vramMin: 24, kinds: []string{conditions.CondVRAMMin}}},
		{"要48G显存的 哪里能租", want{vramMin: 48, kinds: []string{conditions.CondVRAMMin}}},
		{"cards with 40GB+ of vram please", want{vramMin: 40, kinds: []string{conditions.CondVRAMMin}}},
		{"显存别超过16G 便宜就行", want{vramMax: 16, kinds: []string{conditions.CondVRAMMax}}},
		{"最多24G的卡 找便宜的", want{vramMax: 24, kinds: []string{conditions.CondVRAMMax}}},
		{"A100 80G 有货吗", want{}},
		{"4090 24G显存跑13B够吗", want{}},
		{"数据盘100G以上要多少钱", want{}},
		{"16号盘改成 40g 就行", want{}},
		{"内存64G以上的机器", want{}},
		// Rental periods: a span said as one, not a billing mode's unit.
		{"A6000 租十天多少钱", want{period: 10, kinds: []string{conditions.CondPeriod}}},
		{"H800 一个月下来多少钱", want{period: 30, kinds: []string{conditions.CondPeriod}}},
		{"3090 一天多少钱", want{}},
		{"need an L40S for 5 days", want{period: 5, kinds: []string{conditions.CondPeriod}}},
		{"4090 over a weekend, cost?", want{period: 2, kinds: []string{conditions.CondPeriod}}},
		// Regions, only about machines.
		{"上海有没有3090", want{region: "上海", kinds: []string{conditions.CondRegion}}},
		{"in japan, any H100 machines?", want{region: "japan", kinds: []string{conditions.CondRegion}}},
		{"北京a区的4090", want{region: "北京a区", kinds: []string{conditions.CondRegion}}},
		{"我在北京 想问问论文怎么写", want{}},
		{"西北的呢", want{region: "西北", kinds: []string{conditions.CondRegion}}},
		{"海外的呢", want{group: conditions.GroupOverseas, kinds: []string{conditions.CondPlatformGroup}}},
		// Platform groups, a group ruled out, both (a comparison).
		{"国内平台的A100有吗", want{group: conditions.GroupDomestic, kinds: []string{conditions.CondPlatformGroup}}},
		{"不要国内的 H100", want{group: conditions.GroupOverseas, kinds: []string{conditions.CondPlatformGroup}}},
		{"international providers only, A100", want{group: conditions.GroupOverseas, kinds: []string{conditions.CondPlatformGroup}}},
		{"国内和海外平台哪个划算", want{kinds: []string{conditions.CondPlatformGroup}}},
		{"国内访问huggingface很慢", want{}},
		// Budgets, a total over several cards, a ceiling per card.
		{"预算5000 想租A100", want{budget: 5000, kinds: []string{conditions.CondBudget}}},
		{"我们一共有1500块钱 租3090", want{budget: 1500, kinds: []string{conditions.CondBudget}}},
		{"3090 预算一小时2块", want{maxPrice: 2}},
		{"两张3090 一共一小时3块以内", want{maxPrice: 1.5, total: 3, kinds: []string{conditions.CondPriceTotal}}},
		{"四张4090 每张2块以内", want{maxPrice: 2, kinds: []string{conditions.CondPricePerCard}}},
		{"四张4090 一小时2块以内", want{maxPrice: 2, kinds: []string{conditions.CondPricePerCard}}},
		{"两张A100 一小时12块能搞定吗", want{maxPrice: 6, total: 12, kinds: []string{conditions.CondPriceTotal}}},
		{"一共2张4090", want{}},
		// Currencies, written or asked for.
		{"3090 0.3刀以下有吗", want{maxPrice: 2.16, currency: conditions.CurrencyUSD, kinds: []string{conditions.CondCurrency}}},
		{"lambda的H100多少美元", want{currency: conditions.CurrencyUSD, kinds: []string{conditions.CondCurrency}}},
		{"美元是多少", want{currency: conditions.CurrencyUSD, kinds: []string{conditions.CondCurrency}}},
		{"500 yuan for a week of 4090 time, enough?", want{period: 7, kinds: []string{conditions.CondPeriod}}},
		// Schedules.
		{"下班后晚上才跑 3090", want{schedule: []string{conditions.ScheduleEvenings}, kinds: []string{conditions.CondSchedule}}},
		{"4090 只在周末用", want{schedule: []string{conditions.ScheduleWeekends}, kinds: []string{conditions.CondSchedule}}},
		{"周末不跑 A100 每天8小时", want{schedule: []string{conditions.ScheduleWeekdays}, kinds: []string{conditions.CondSchedule}}},
		{"每天晚上11点到第二天早上7点跑4090", want{schedule: []string{conditions.ScheduleNights}, kinds: []string{conditions.CondSchedule}}},
		{"白天晚上都跑 全天不关机", want{}},
		{"7B LoRA 要多少钱", want{}},
	} {
		q := conditionsOf(t, cat, c.text)
		got := want{vramMin: q.VRAMMinGB, vramMax: q.VRAMMaxGB, period: q.PeriodDays, budget: q.BudgetTotalCNY, maxPrice: q.MaxPriceCNY,
			total: q.PriceTotalCNY, region: q.Region, group: q.PlatformGroup, currency: q.Currency, schedule: q.Schedule, kinds: q.ConditionKinds()}
		if !sameWant(got.vramMin, c.w.vramMin) || !sameWant(got.vramMax, c.w.vramMax) || !sameWant(got.period, c.w.period) ||
			!sameWant(got.budget, c.w.budget) || !sameWant(got.maxPrice, c.w.maxPrice) || !sameWant(got.total, c.w.total) ||
			got.region != c.w.region || got.group != c.w.group || got.currency != c.w.currency ||
			!slices.Equal(got.schedule, c.w.schedule) || !slices.Equal(got.kinds, c.w.kinds) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.text, got, c.w)
		}
		for _, cd := range q.Conditions {
			if cd.Span[1] > len(x(t, cat, c.text)) || cd.Span[0] > cd.Span[1] {
				t.Errorf("%q: condition %s has span %v", c.text, cd.Kind, cd.Span)
			}
		}
	}
}

func x(t *testing.T, cat *catalog.Catalog, text string) string {
	t.Helper()
	return Extract(cat, text, false).Folded()
}

func sameWant(a, b float64) bool { return math.Abs(a-b) < 0.01 }

// TestConditionsLeaveOtherSlots: a VRAM size is no disk size, a budget no
// price; the disk of a plan question stays its disk.
func TestConditionsLeaveOtherSlots(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	x48 := Extract(cat, "48G显存的卡 包月多少", false)
	x48.ConditionSlots()
	x48.VRAMNotDisk()
	if q := x48.Query(); q.SizeGB != 0 || q.VRAMMinGB != 48 {
		t.Errorf("VRAM read as a disk: size %v, vram %v", q.SizeGB, q.VRAMMinGB)
	}
	if q := conditionsOf(t, cat, "4090 每周跑40小时 数据盘200G"); q.SizeGB != 200 || q.VRAMMinGB != 0 {
		t.Errorf("a disk read as VRAM: size %v, vram %v", q.SizeGB, q.VRAMMinGB)
	}
	if q := conditionsOf(t, cat, "预算2000块 A100 跑一周"); q.PriceCNY != 0 || q.BudgetTotalCNY != 2000 {
		t.Errorf("a budget read as a price: price %v, budget %v", q.PriceCNY, q.BudgetTotalCNY)
	}
}

// TestInRegion: offers' regions as the platforms name them.
func TestInRegion(t *testing.T) {
	for _, c := range []struct {
		region, offer string
		in            bool
	}{
		{"华东", "西北B区", false},
		{"西北", "西北B区", true},
		{"西北b区", "西北B区", true},
		{"西北b区", "西北企业区", false},
		{"sweden", "Sweden, SE", true},
		{"europe", "Sweden, SE", true},
		{"europe", "Quebec, CA", false},
		{"canada", "Quebec, CA", true},
		{"美国", "Quebec, CA", false},
		{"美国", "Texas, US", true},
		{"美国", "", false},
		{"", "", true},
	} {
		if got := conditions.InRegion(c.region, c.offer); got != c.in {
			t.Errorf("InRegion(%q, %q) = %v, want %v", c.region, c.offer, got, c.in)
		}
	}
}

// FuzzConditions: no text makes the conditions panic, and every span is
// inside the question.
func FuzzConditions(f *testing.F) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"显存要40G以上的 国内平台 预算3000 挂两周 晚上才跑", "2x 48GB cards in europe under $3/hr total", "§§ 国内§", "预算$", "海外的"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x := Extract(cat, s, false)
		x.ConditionSlots()
		for _, c := range x.Query().Conditions {
			if c.Span[0] < 0 || c.Span[1] > len(x.Folded()) || c.Span[0] > c.Span[1] || !strings.Contains(x.Folded(), c.Text) {
				t.Fatalf("%q: condition %+v outside %q", s, c, x.Folded())
			}
		}
	})
}

// TestBudgetSaid: a budget said per card is all the cards' (its condition
// counting them), one said in US dollars is converted and named so, and
// neither is read where the words are about something else.
func TestBudgetSaid(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	fx := cat.FXUSDCNY
	for _, c := range []struct {
		text   string
		budget float64
		cards  int
		name   string
	}{
		{"两张3090包月 每张预算1000够吗", 2000, 2, ""},
		{"4张4090跑3天 每张卡预算100够吗", 400, 4, ""},
		{"两张4090 预算每张500 能跑多少小时", 1000, 2, ""},
		{"budget $100 per card for two 4090s, how many hours", 200 * fx, 2, conditions.CurrencyUSD},
		{"两张3090包月 预算2000够吗", 2000, 0, ""},
		{"每张预算1000够吗 3090包月", 1000, 0, ""}, // one card: per card is all
		{"两张3090包月 1500够吗", 1500, 0, ""},   // an amount asked whether enough
		{"$200 enough for a 4090 monthly?", 200 * fx, 0, conditions.CurrencyUSD},
		{"4090包月 预算100刀够吗", 100 * fx, 0, conditions.CurrencyUSD},
		{"预算$500 7B LoRA 够吗", 500 * fx, 0, conditions.CurrencyUSD},
		{"预算3000 四张4090 每张2块以内", 3000, 0, ""}, // the per-card words are the ceiling's
	} {
		q := conditionsOf(t, cat, c.text)
		b, ok := q.Condition(conditions.CondBudget)
		if !ok || !sameWant(q.BudgetTotalCNY, c.budget) || !sameWant(b.Value, c.budget) || b.Count != c.cards || b.Name != c.name {
			t.Errorf("%q: budget %v, condition %+v (found %v); want %v for %d cards, name %q", c.text, q.BudgetTotalCNY, b, ok, c.budget, c.cards, c.name)
		}
	}
}

// TestNoBudgetSaid: amounts that are no budget.
func TestNoBudgetSaid(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"4090 batch 32够吗", "seq 4096够吗 4090", "7B 够吗", "3090 一小时3块够吗", "100够吗"} {
		if q := conditionsOf(t, cat, text); q.BudgetTotalCNY > 0 || q.HasCondition(conditions.CondBudget) {
			t.Errorf("%q: budget %v read", text, q.BudgetTotalCNY)
		}
	}
}
