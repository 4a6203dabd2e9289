package plan_test

import (
	"math"
	"testing"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/plan"
)

func ptr(v float64) *float64 { return &v }

func fig(v float64) catalog.Figure {
	return catalog.Figure{Low: v, High: v, AsOf: "2026-08", Source: "test", Verified: true}
}

// The test market. Granularity 0 (exact) and no minimum keep the figures
// round.
//   - a: no-card mode 0.1 CNY/h, 50 GB disk free, then 0.01 CNY/GB-day;
//     RTX 4090 按量 2.0 CNY/GPU-h, 包周 250 CNY (break-even 250/2 = 125 h a week).
//   - b: no no-card mode, no free disk, 0.02 CNY/GB-day; 按量 2.4.
//   - c: no no-card mode, 50 GB free, 0.01 CNY/GB-day; 按量 1.9.
var (
	platA = plan.Platform{ID: "a", NoCard: ptr(0.1), DiskFreeGB: 50, DiskCNYPerGBDay: ptr(0.01)}
	platB = plan.Platform{ID: "b", DiskCNYPerGBDay: ptr(0.02)}
	platC = plan.Platform{ID: "c", DiskFreeGB: 50, DiskCNYPerGBDay: ptr(0.01)}
	aHour = plan.Price{Platform: "a", GPU: "RTX 4090", Mode: "hourly", CNY: fig(2.0)}
	aWeek = plan.Price{Platform: "a", GPU: "RTX 4090", Mode: "weekly", CNY: fig(250)}
	bHour = plan.Price{Platform: "b", GPU: "RTX 4090", Mode: "hourly", CNY: fig(2.4)}
	cHour = plan.Price{Platform: "c", GPU: "RTX 4090", Mode: "hourly", CNY: fig(1.9)}
)

// fakeRisk: on a, no 4090 is free in half the evening polls and in 5% of
// the daytime ones (28 days of history); b is unknown.
type fakeRisk struct{}

func (fakeRisk) NotAvailable(platform, gpu, window string) (plan.Risk, bool) {
	if platform != "a" {
		return plan.Risk{}, false
	}
	if window == plan.WindowEvening {
		return plan.Risk{P: 0.5, Days: 28, Polls: 4032}, true
	}
	return plan.Risk{P: 0.05, Days: 28, Polls: 4032}, true
}

func TestOptimize(t *testing.T) {
	tests := []struct {
		name   string
		prof   plan.Profile
		plats  []plan.Platform
		prices []plan.Price
		risk   plan.QueueRisk
		// want is the winner "platform/mode" and its cost in CNY; second
		// the runner-up's.
		want, second       string
		wantCNY, secondCNY float64
	}{
		// 按量 wins: 40 h a week for a week, 50 GB disk.
		//   a 按量: 40 h × 2.0 = 80 (disk within the 50 GB free)
		//   a 包周: 1 term × 250 = 250
		//   b 按量: 40 × 2.4 = 96 + disk 50 GB × 0.02 × 7 d = 7 → 103
		{name: "hourly wins", prof: plan.Profile{GPU: "RTX 4090", HoursPerWeek: 40, Weeks: 1, DiskGB: 50},
			plats: []plan.Platform{platA, platB}, prices: []plan.Price{aHour, aWeek, bHour},
			want: "a/hourly", wantCNY: 80, second: "b/hourly", secondCNY: 103},
		// 包周 wins: 140 h a week (above the 125 h break-even) for two weeks.
		//   a 包周: 2 terms × 250 = 500
		//   a 按量: 280 h × 2.0 = 560
		//   b 按量: 280 × 2.4 = 672 + 50 × 0.02 × 14 = 14 → 686
		{name: "weekly wins", prof: plan.Profile{GPU: "RTX 4090", HoursPerWeek: 140, Weeks: 2, DiskGB: 50},
			plats: []plan.Platform{platA, platB}, prices: []plan.Price{aHour, aWeek, bHour},
			want: "a/weekly", wantCNY: 500, second: "a/hourly", secondCNY: 560},
		// Without setup time c's lower price wins:
		//   c 按量: 40 × 1.9 = 76;  a 按量: 40 × 2.0 = 80
		{name: "no setup: cheaper card wins", prof: plan.Profile{GPU: "RTX 4090", HoursPerWeek: 40, Weeks: 1, DiskGB: 50},
			plats: []plan.Platform{platA, platC}, prices: []plan.Price{aHour, cHour},
			want: "c/hourly", wantCNY: 76, second: "a/hourly", secondCNY: 80},
		// Parking in no-card mode changes the winner: 20 h of setup.
		//   a 按量: 80 + 20 h × 0.1 (no-card) = 82
		//   c 按量: 76 + 20 h × 1.9 (on the GPU, no no-card mode) = 114
		{name: "no-card parking changes the winner", prof: plan.Profile{GPU: "RTX 4090", HoursPerWeek: 40, Weeks: 1, DiskGB: 50, SetupHours: 20},
			plats: []plan.Platform{platA, platC}, prices: []plan.Price{aHour, cHour},
			want: "a/hourly", wantCNY: 82, second: "c/hourly", secondCNY: 114},
		// Daytime, 120 h in a week, a's daytime risk 5%. The hours without a
		// card run at b, all in: (120 × 2.4 + disk 7) / 120 = 2.4583 a GPU-hour
		// against a's 240 / 120 = 2.0:
		//   a 按量: 240 + 0.05 × 120 × 0.4583 = 240 + 2.75 = 242.75
		//   a 包周: 250
		{name: "daytime: hourly despite a small queue risk", prof: plan.Profile{GPU: "RTX 4090", HoursPerWeek: 120, Weeks: 1, DiskGB: 50, Window: plan.WindowDay},
			plats: []plan.Platform{platA, platB}, prices: []plan.Price{aHour, aWeek, bHour}, risk: fakeRisk{},
			want: "a/hourly", wantCNY: 242.75, second: "a/weekly", secondCNY: 250},
		// The evening queue changes the winner: risk 50%.
		//   a 按量: 240 + 0.5 × 120 × 0.4583 = 240 + 27.5 = 267.5
		//   a 包周: 250 (the card is reserved: no queue)
		//   b 按量: 120 × 2.4 = 288 + 7 = 295 (risk unknown: none added)
		{name: "evening queue risk changes the winner", prof: plan.Profile{GPU: "RTX 4090", HoursPerWeek: 120, Weeks: 1, DiskGB: 50, Window: plan.WindowEvening},
			plats: []plan.Platform{platA, platB}, prices: []plan.Price{aHour, aWeek, bHour}, risk: fakeRisk{},
			want: "a/weekly", wantCNY: 250, second: "a/hourly", secondCNY: 267.5},
		// Two cards for 5 continuous days (120 h) with a 包日 of 40:
		//   a 包日: ceil(120/24) = 5 terms × 40 × 2 cards = 400
		//   a 按量: 120 × 2.0 × 2 = 480
		{name: "five days, two cards: daily", prof: plan.Profile{GPU: "RTX 4090", Count: 2, TotalHours: 120, Weeks: 5.0 / 7},
			plats: []plan.Platform{platA}, prices: []plan.Price{aHour, {Platform: "a", GPU: "RTX 4090", Mode: "daily", CNY: fig(40)}},
			want: "a/daily", wantCNY: 400, second: "a/hourly", secondCNY: 480},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := plan.Optimize(tt.prof, tt.plats, tt.prices, tt.risk)
			if len(res.Options) < 2 {
				t.Fatalf("options = %+v", res.Options)
			}
			for i, w := range []struct {
				id  string
				cny float64
			}{{tt.want, tt.wantCNY}, {tt.second, tt.secondCNY}} {
				o := res.Options[i]
				if o.Platform+"/"+o.Mode != w.id || math.Abs(o.Mid()-w.cny) > 0.01 {
					t.Errorf("option %d = %s/%s %.2f, want %s %.2f", i, o.Platform, o.Mode, o.Mid(), w.id, w.cny)
				}
			}
		})
	}
}

// everyRisk: every platform has a queue figure (the AutoDL/恒源云 case of
// "每天白天跑8小时4090，租两周": both known, 56% and 64%).
type everyRisk map[string]float64

func (r everyRisk) NotAvailable(platform, gpu, window string) (plan.Risk, bool) {
	p, ok := r[platform]
	return plan.Risk{P: p, Days: 14, Polls: 924}, ok
}

// The winner's own queue risk is priced into its row ("每天白天跑8小时
// 4090，租两周": AutoDL won with p = 0.56 and no queue cost, because the
// fallback was the next platform's bare list price, which was lower than
// AutoDL's own). The fallback is now the next platform all in (setup and
// disk included, as the table prices it), and every hourly option with a
// known risk carries it.
func TestQueueRiskOnEveryHourlyOption(t *testing.T) {
	prof := plan.Profile{GPU: "RTX 4090", HoursPerWeek: 56, Weeks: 2, DiskGB: 50, SetupHours: 4, Window: plan.WindowDay}
	platD := plan.Platform{ID: "d", DiskCNYPerGBDay: ptr(0.05)}
	dHour := plan.Price{Platform: "d", GPU: "RTX 4090", Mode: "hourly", CNY: fig(1.95)}
	// a all in: 112 × 2.0 + 4 × 0.1 = 224.4 (2.0036/GPU-h).
	// d all in: 112 × 1.95 + 4 × 1.95 + 50 × 0.05 × 14 = 218.4 + 7.8 + 35 = 261.2 (2.3321/GPU-h).
	// d's list price is below a's, but a is cheaper all in: a's queue is
	// 0.56 × 112 × (2.3321 − 2.0036) = 20.6; d's is 0 (moving to a costs
	// less), yet d still carries its risk.
	res := plan.Optimize(prof, []plan.Platform{platA, platD}, []plan.Price{aHour, dHour}, everyRisk{"a": 0.56, "d": 0.64})
	if len(res.Options) != 2 {
		t.Fatalf("options = %+v", res.Options)
	}
	a, d := res.Options[0], res.Options[1]
	if a.Platform != "a" || d.Platform != "d" {
		t.Fatalf("order = %s, %s", a.Platform, d.Platform)
	}
	if a.Risk == nil || a.Risk.P != 0.56 || math.Abs(a.QueueCNY-20.6) > 0.1 || math.Abs(a.Mid()-245.0) > 0.1 {
		t.Errorf("a = queue %.2f mid %.2f risk %+v, want 20.6 and 245.0 at p 0.56", a.QueueCNY, a.Mid(), a.Risk)
	}
	if d.Risk == nil || d.Risk.P != 0.64 || d.QueueCNY != 0 {
		t.Errorf("d = queue %.2f risk %+v, want 0 at p 0.64", d.QueueCNY, d.Risk)
	}
	if res.RiskUnknown {
		t.Error("RiskUnknown set though every platform has a figure")
	}
	// The queue is added to both ends of the range.
	if math.Abs(a.CostCNY[0]-a.CostCNY[1]) > 1e-9 {
		t.Errorf("a's range %v: a flat price gives one figure", a.CostCNY)
	}
}

// Evening work with no queue history: no number is invented, the answer
// cites the seeds' anecdote.
func TestUnknownRiskIsAnAnecdote(t *testing.T) {
	prof := plan.Profile{GPU: "RTX 4090", HoursPerWeek: 120, Weeks: 1, Window: plan.WindowEvening}
	res := plan.Optimize(prof, []plan.Platform{platA, platB}, []plan.Price{aHour, aWeek, bHour}, nil)
	if !res.QueueAnecdote {
		t.Error("QueueAnecdote not set for evening work without history")
	}
	for _, o := range res.Options {
		if o.Risk != nil || o.QueueCNY != 0 {
			t.Errorf("%s/%s: a queue figure without history: %+v", o.Platform, o.Mode, o)
		}
	}
	// 120 h × 2.0 = 240 < 250: without a risk figure 按量 stays cheapest.
	if o := res.Options[0]; o.Mode != "hourly" || o.Mid() != 240 {
		t.Errorf("winner = %+v", o)
	}
}

// An unknown disk price is left out of the cost and flagged, never zero.
func TestUnknownDiskIsFlagged(t *testing.T) {
	noDisk := plan.Platform{ID: "b"}
	res := plan.Optimize(plan.Profile{GPU: "RTX 4090", HoursPerWeek: 10, Weeks: 1, DiskGB: 100},
		[]plan.Platform{noDisk}, []plan.Price{bHour}, nil)
	if len(res.Options) != 1 || !res.Options[0].DiskUnknown || res.Options[0].Mid() != 24 {
		t.Errorf("options = %+v, want disk unknown and 10 × 2.4 = 24", res.Options)
	}
}

// Break-even: 包周 250 ÷ 2.0 = 125 h a week; a minimum of 1 h per start
// bills 5 starts of 0.5 h as 5 h.
func TestBreakEvenAndMinimum(t *testing.T) {
	res := plan.Optimize(plan.Profile{GPU: "RTX 4090", HoursPerWeek: 40, Weeks: 1}, []plan.Platform{platA}, []plan.Price{aHour, aWeek}, nil)
	if len(res.BreakEvens) != 1 || res.BreakEvens[0].HoursPerWeek != 125 {
		t.Errorf("break-evens = %+v", res.BreakEvens)
	}
	minHour := plan.Platform{ID: "a", MinimumHours: 1}
	// 2.5 h over 5 starts = 0.5 h each; billed 1 h each: 5 h × 2.0 = 10.
	res = plan.Optimize(plan.Profile{GPU: "RTX 4090", TotalHours: 2.5, Starts: 5}, []plan.Platform{minHour}, []plan.Price{aHour}, nil)
	if o := res.Options[0]; o.Mid() != 10 || o.MinimumCNY != 5 {
		t.Errorf("minimum: %+v", o)
	}
}

// The lab's own price replaces the catalog's and is marked.
func TestLabPriceWins(t *testing.T) {
	cat := loadCatalog(t)
	lab := plan.Price{Platform: "autodl", GPU: "RTX 4090", Mode: "weekly", CNY: catalog.Figure{Low: 260, High: 260, AsOf: "2026-09-01", Source: plan.LabSource("小王"), Verified: true}, SeenBy: "小王"}
	_, prices := plan.FromCatalog(cat, []plan.Price{lab})
	found := false
	for _, p := range prices {
		if p.Platform == "autodl" && p.GPU == "RTX 4090" && p.Mode == "weekly" {
			found = p.Lab && p.CNY.Low == 260
		}
	}
	if !found {
		t.Error("lab price missing or not marked")
	}
}
