package plan

import (
	"math"
	"sort"

	"github.com/labgpu/bot/internal/catalog"
)

// Option is one platform × mode priced for a profile. Costs are CNY for
// the whole span and all cards; CostCNY is [low, high] from the price's
// range, the parts are at the price's midpoint.
type Option struct {
	Platform string     `json:"platform"`
	GPU      string     `json:"gpu"`
	Mode     string     `json:"mode"`
	CostCNY  [2]float64 `json:"cost_cny"`
	// GPUCNY is the card time (terms × term price, or hours × price);
	// MinimumCNY the minimum and rounding billed per start; SetupCNY the
	// setup hours (no-card mode or GPU); DiskCNY the data disk beyond the
	// free part over the span; QueueCNY what the hours a card is not
	// available cost more at the next platform.
	GPUCNY     float64 `json:"gpu_cny"`
	MinimumCNY float64 `json:"minimum_cny,omitempty"`
	SetupCNY   float64 `json:"setup_cny,omitempty"`
	DiskCNY    float64 `json:"disk_cny,omitempty"`
	QueueCNY   float64 `json:"queue_cny,omitempty"`
	// Terms is the number of terms bought (plans); NoCard is set when
	// setup ran in no-card mode.
	Terms  int  `json:"terms,omitempty"`
	NoCard bool `json:"no_card_setup,omitempty"`
	// DiskUnknown: the disk beyond the free part has no known price, so
	// the cost leaves it out (it is not zero).
	DiskUnknown bool `json:"disk_unknown,omitempty"`
	// Risk is the queue risk applied (nil: unknown or a reserved plan).
	Risk *Risk `json:"queue_risk,omitempty"`
	// Price is the price used, with its source and date.
	Price Price `json:"price"`
}

// Mid is the midpoint of the option's cost.
func (o Option) Mid() float64 { return (o.CostCNY[0] + o.CostCNY[1]) / 2 }

// BreakEven is where a plan starts to pay off against pay-as-you-go on
// the same platform and GPU: HoursPerTerm hours per term (term price ÷
// hourly price, at midpoints), HoursPerWeek the same per week.
type BreakEven struct {
	Platform     string  `json:"platform"`
	GPU          string  `json:"gpu"`
	Mode         string  `json:"mode"`
	HoursPerTerm float64 `json:"hours_per_term"`
	HoursPerWeek float64 `json:"hours_per_week"`
	// Verified is false when the plan price is seed-only (未核实).
	Verified bool `json:"verified"`
}

// Result is the optimizer's answer: the profile, the options cheapest
// first (by midpoint), the break-even points and whether the queue risk
// was unknown for evening work (answers then cite the seeds' anecdote,
// labelled, and no number).
type Result struct {
	Profile       Profile     `json:"profile"`
	Options       []Option    `json:"options"`
	BreakEvens    []BreakEven `json:"break_evens,omitempty"`
	RiskUnknown   bool        `json:"queue_risk_unknown,omitempty"`
	QueueAnecdote bool        `json:"queue_anecdote,omitempty"`
}

// Optimize prices every price of the profile's GPU on a known platform
// and ranks them. risk may be nil.
func Optimize(p Profile, plats []Platform, prices []Price, risk QueueRisk) Result {
	if p.Count < 1 {
		p.Count = 1
	}
	res := Result{Profile: p}
	byID := map[string]Platform{}
	for _, pl := range plats {
		byID[pl.ID] = pl
	}
	for _, pr := range prices {
		pl, ok := byID[pr.Platform]
		if !ok || pr.GPU != p.GPU || !(p.Hours() > 0) {
			continue
		}
		if o, ok := price(p, pl, pr); ok {
			res.Options = append(res.Options, o)
		}
	}
	// The queue risk of every pay-as-you-go option, priced against the
	// others as they stand before any queue cost.
	base := append([]Option(nil), res.Options...)
	for i := range res.Options {
		o := &res.Options[i]
		if o.Mode != "hourly" || risk == nil {
			continue
		}
		r, ok := risk.NotAvailable(o.Platform, o.GPU, p.Window)
		if !ok {
			res.RiskUnknown = true
			continue
		}
		o.Risk = &r
		o.QueueCNY = queue(p, *o, base, r)
		o.CostCNY[0] += o.QueueCNY
		o.CostCNY[1] += o.QueueCNY
	}
	sort.SliceStable(res.Options, func(i, j int) bool { return res.Options[i].Mid() < res.Options[j].Mid() })
	res.BreakEvens = breakEvens(p.GPU, prices)
	res.QueueAnecdote = p.Window == WindowEvening && (risk == nil || res.RiskUnknown)
	return res
}

// price prices one platform × mode for the profile; ok is false when the
// mode cannot serve it.
func price(p Profile, pl Platform, pr Price) (Option, bool) {
	o := Option{Platform: pr.Platform, GPU: pr.GPU, Mode: pr.Mode, Price: pr}
	n, h := float64(p.Count), p.Hours()
	mid := pr.CNY.Mid()
	var extra float64 // cost that does not scale with the price's range
	switch term := catalog.TermHours(pr.Mode); {
	case pr.Mode == "hourly" || pr.Mode == "spot":
		o.GPUCNY = n * h * mid
		o.MinimumCNY = n * perStart(p, pl) * mid
		o.SetupCNY, o.NoCard = setup(p, pl, mid)
		if o.NoCard {
			extra = o.SetupCNY
		}
	case term > 0:
		o.Terms = int(math.Ceil(p.SpanHours()/term - 1e-9))
		o.GPUCNY = n * float64(o.Terms) * mid
	default:
		return o, false
	}
	o.DiskCNY, o.DiskUnknown = disk(p, pl)
	// The cost's range: every price-proportional part at the low and high
	// price, plus the parts that are not (disk, no-card setup; the queue
	// is added by Optimize).
	scale := func(v float64) float64 {
		if mid == 0 {
			return 0
		}
		return (o.GPUCNY + o.MinimumCNY + o.SetupCNY - extra) * v / mid
	}
	fixed := o.DiskCNY + extra
	o.CostCNY = [2]float64{scale(pr.CNY.Low) + fixed, scale(pr.CNY.High) + fixed}
	return o, true
}

// perStart is the GPU hours per card billed beyond the run itself: the
// minimum per start beyond a session's length, and half the granularity
// per start on average.
func perStart(p Profile, pl Platform) float64 {
	starts := float64(max(p.Starts, 1))
	session := p.Hours() / starts
	return starts * (math.Max(0, pl.MinimumHours-session) + pl.GranularityHours/2)
}

// setup prices the setup hours: in no-card mode where there is one (one
// instance, CNY per hour), else on the cards at the GPU price.
func setup(p Profile, pl Platform, gpuPrice float64) (float64, bool) {
	if p.SetupHours <= 0 {
		return 0, false
	}
	if pl.NoCard != nil {
		return p.SetupHours * *pl.NoCard, true
	}
	return p.SetupHours * float64(p.Count) * gpuPrice, false
}

// disk is the data disk beyond the free part over the whole span (plans
// and stopped instances keep it); unknown when the price is.
func disk(p Profile, pl Platform) (float64, bool) {
	gb := p.DiskGB - pl.DiskFreeGB
	if gb <= 0 {
		return 0, false
	}
	if pl.DiskCNYPerGBDay == nil {
		return 0, true
	}
	return gb * *pl.DiskCNYPerGBDay * p.SpanHours() / 24, false
}

// queue is what the wanted hours without a free card cost more when they
// run pay-as-you-go at the cheapest other platform with the GPU, all in
// (its whole cost per GPU-hour, setup and disk included, the way the
// table prices it): P × hours × cards × (fallback − own, both all in).
// Reserved plans need no card at start, so only hourly pays it; without
// another platform to fall back on it is 0 (the answer says so).
func queue(p Profile, o Option, base []Option, r Risk) float64 {
	gpuHours := p.Hours() * float64(max(p.Count, 1))
	if gpuHours <= 0 {
		return 0
	}
	fallback := math.Inf(1)
	for _, b := range base {
		if b.Mode == "hourly" && b.Platform != o.Platform && b.GPU == o.GPU {
			fallback = math.Min(fallback, b.Mid()/gpuHours)
		}
	}
	if math.IsInf(fallback, 1) {
		return 0
	}
	return r.P * gpuHours * math.Max(0, fallback-o.Mid()/gpuHours)
}

// breakEvens are, per platform with both an hourly price and a plan for
// the GPU, the hours per term above which the plan is cheaper.
func breakEvens(gpu string, prices []Price) []BreakEven {
	hourly := map[string]float64{}
	for _, pr := range prices {
		if pr.GPU == gpu && pr.Mode == "hourly" && pr.CNY.Mid() > 0 {
			hourly[pr.Platform] = pr.CNY.Mid()
		}
	}
	var out []BreakEven
	for _, pr := range prices {
		term := catalog.TermHours(pr.Mode)
		h, ok := hourly[pr.Platform]
		if pr.GPU != gpu || term == 0 || !ok {
			continue
		}
		per := pr.CNY.Mid() / h
		out = append(out, BreakEven{Platform: pr.Platform, GPU: gpu, Mode: pr.Mode, HoursPerTerm: per, HoursPerWeek: per * 168 / term,
			Verified: pr.Lab || pr.CNY.Verified})
	}
	return out
}
