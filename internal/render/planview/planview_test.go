package planview_test

import (
	"strings"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/planview"
)

func fig(v float64) catalog.Figure {
	return catalog.Figure{Low: v, High: v, AsOf: "2026", Source: "test", Verified: true}
}

func opt(platform, mode string, cny float64) plan.Option {
	return plan.Option{Platform: platform, GPU: "RTX 4090", Mode: mode, CostCNY: [2]float64{cny, cny}, GPUCNY: cny,
		Price: plan.Price{Platform: platform, GPU: "RTX 4090", Mode: mode, CNY: fig(cny)}}
}

// plans is the optimizer's answer over res with every price's source
// "src".
func plans(res plan.Result, as planview.Assumed, en bool) planview.Plans {
	p := planview.Plans{Result: res, Assumed: as, Lang: i18n.Of(en), RulesSource: "src"}
	for range res.Options {
		p.Sources = append(p.Sources, "src")
	}
	return p
}

func reply(t *testing.T, res plan.Result, en bool) chat.Reply {
	t.Helper()
	return plans(res, planview.Assumed{}, en).Reply(renderer(t))
}

func renderer(t *testing.T) *render.Renderer {
	t.Helper()
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return &render.Renderer{Cat: cat}
}

func text(r chat.Reply) string {
	return r.Title + "\n" + strings.Join(r.Lines, "\n") + "\n" + strings.Join(r.Notes, "\n")
}

// Issue: "每天白天跑8小时4090，租两周，按量还是包周" recommended AutoDL 按量
// with no queue cost and said "约 64% 的时候没卡" without naming a platform
// (64% was 恒源云's). Each risk is named by its platform, the winner's
// first, and says whether it is priced in.
func TestQueueNoteNamesThePlatform(t *testing.T) {
	autodl := opt("autodl", "hourly", 226)
	autodl.QueueCNY, autodl.Risk = 8, &plan.Risk{P: 0.56, Days: 14, Polls: 924}
	heng := opt("hengyuan", "hourly", 232)
	heng.Risk = &plan.Risk{P: 0.64, Days: 14, Polls: 924}
	res := plan.Result{Profile: plan.Profile{GPU: "RTX 4090", HoursPerWeek: 56, Weeks: 2, Window: plan.WindowDay},
		Options: []plan.Option{autodl, heng, opt("matpool", "hourly", 400)}}
	for _, c := range []struct {
		en        bool
		want, not []string
	}{
		{false, []string{"AutoDL 这个时段约 56% 的时候没卡，已按下一家按量价计入（排队 8 元）", "恒源云 这个时段约 64% 的时候没卡（换别家不会更贵，未加钱"}, []string{"过去 14 天这个时段"}},
		{true, []string{"AutoDL had no card 56% of the time at these hours, priced in", "(last 14 days)"}, []string{"no card 14%"}},
	} {
		got := text(reply(t, res, c.en))
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("en=%v: missing %q in\n%s", c.en, w, got)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("en=%v: %q in\n%s", c.en, w, got)
			}
		}
		if i, j := strings.Index(got, "AutoDL"), strings.Index(got, "56%"); c.en == false && (i < 0 || j < i) {
			t.Errorf("the winner's risk is not named first:\n%s", got)
		}
	}
}

// Issue: "连续训练5天不停，租3090" said "Featurize 包日要每天约 19 小时以上
// 才比按量划算" with no Featurize 包日 row in the table. A break-even is
// spoken of only for a plan the short table shows.
func TestBreakEvenOnlyForShownPlans(t *testing.T) {
	prof := plan.Profile{GPU: "RTX 4090", TotalHours: 120, Weeks: 5.0 / 7, Starts: 1}
	rows := []plan.Option{opt("autodl", "hourly", 159), opt("lanrui", "hourly", 220), opt("matpool", "hourly", 240),
		opt("autodl", "weekly", 275), opt("hengyuan", "hourly", 319), opt("featurize", "daily", 330)}
	be := plan.BreakEven{Platform: "featurize", GPU: "RTX 4090", Mode: "daily", HoursPerTerm: 19, HoursPerWeek: 133, Verified: true}
	res := plan.Result{Profile: prof, Options: rows, BreakEvens: []plan.BreakEven{be}}
	if got := reply(t, res, false).Title; strings.Contains(got, "Featurize") || strings.Contains(got, "划算") {
		t.Errorf("break-even of a plan not in the table: %s", got)
	}
	// The same plan among the rows shown: the sentence is back.
	res.Options = append([]plan.Option{rows[5]}, rows[:4]...)
	if got := reply(t, res, false).Title; !strings.Contains(got, "Featurize 包日") || !strings.Contains(got, "19 小时以上") {
		t.Errorf("break-even of a shown plan missing: %s", got)
	}
}

// Only a total ("一共跑50小时的4090"): no fraction of a week, the span said
// as the hours back to back, and said to be assumed.
func TestRunThroughSpan(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	res := plan.Result{Profile: plan.Profile{GPU: "RTX 4090", TotalHours: 50, Weeks: 50.0 / 168, DiskGB: 50, SetupHours: 1},
		Options: []plan.Option{opt("autodl", "hourly", 98)}}
	r := plans(res, planview.Assumed{Span: true, RunThrough: true}, false).Reply(&render.Renderer{Cat: cat})
	got := text(r)
	if strings.Contains(got, "0.3 周") || !strings.Contains(r.Title, "共 50 小时（连续跑约 2 天）") || !strings.Contains(got, "连续跑约 2 天（没说多久跑完）") {
		t.Errorf("run-through span:\n%s", got)
	}
}

// "每晚4个小时3090，租一个月": 包月 is mentioned but far dearer than 按量, so
// it is below the short table; one line gives its total, how much more it
// costs and the hours a month it needs to pay off.
func TestHiddenModeLine(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	monthly := opt("autodl", "monthly", 800)
	monthly.Price.CNY = catalog.Figure{Low: 700, High: 900, AsOf: "2025", Source: "seed"}
	monthly.CostCNY = [2]float64{700, 900}
	rows := []plan.Option{opt("autodl", "hourly", 159), opt("lanrui", "hourly", 240), opt("matpool", "hourly", 270),
		opt("hengyuan", "hourly", 361), opt("featurize", "hourly", 707), monthly}
	be := plan.BreakEven{Platform: "autodl", GPU: "RTX 3090", Mode: "monthly", HoursPerTerm: 606, Verified: false}
	res := plan.Result{Profile: plan.Profile{GPU: "RTX 3090", HoursPerWeek: 28, Weeks: 30.0 / 7}, Options: rows, BreakEvens: []plan.BreakEven{be}}
	for _, c := range []struct {
		mentioned string
		en        bool
		want      string
	}{
		{"monthly", false, "AutoDL 包月：这个用量约 700-900* 元，比最省的多约 641 元；每月跑到约 606 小时以上才比按量省。"},
		{"monthly", true, "AutoDL monthly: about 700-900* CNY for this use, about 641 CNY more than the cheapest; it beats pay-as-you-go above about 606 h a month."},
		{"", false, ""},
		{"weekly", false, ""}, // no weekly price: nothing invented
	} {
		r := plans(res, planview.Assumed{Mentioned: c.mentioned}, c.en).Reply(&render.Renderer{Cat: cat})
		got := strings.Join(r.Lines, "\n")
		if got != c.want {
			t.Errorf("mentioned %q en=%v: lines %q, want %q", c.mentioned, c.en, got, c.want)
		}
	}
}

// "配环境要一天左右，之后跑3天4090，无卡模式能省多少": a stated setup time is
// answered with what no-card mode saves on it, for the cheapest shown
// platform that has one (here the second row).
func TestNoCardSavingLine(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	noCard := opt("autodl", "hourly", 89)
	noCard.Price.CNY = fig(1.95)
	noCard.NoCard, noCard.SetupCNY = true, 2.4 // 24 h × 0.1 CNY/h
	res := plan.Result{Profile: plan.Profile{GPU: "RTX 4090", TotalHours: 72, Weeks: 3.0 / 7, SetupHours: 24, Count: 1},
		Options: []plan.Option{opt("hengyuan", "hourly", 85), noCard}}
	r := plans(res, planview.Assumed{SetupStated: true}, false).Reply(&render.Renderer{Cat: cat})
	// With the card on: 24 h × 1.95 = 46.8; saved 46.8 − 2.4 = 44.4.
	want := "无卡模式：AutoDL 配环境 24 小时约 2 元，开着卡要约 47 元，省约 44 元（已按无卡计入）。"
	if got := strings.Join(r.Notes, "\n"); !strings.Contains(got, want) || strings.Contains(got, "配环境/传数据 24 小时") {
		t.Errorf("notes:\n%s\nwant %q and no assumed setup", got, want)
	}
	res.Options = res.Options[:1]
	r = plans(res, planview.Assumed{SetupStated: true}, false).Reply(&render.Renderer{Cat: cat})
	if got := strings.Join(r.Notes, "\n"); !strings.Contains(got, "都没有查到无卡模式") {
		t.Errorf("no platform with no-card mode:\n%s", got)
	}
}
