package advice

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/adviceview"
	"github.com/labgpu/bot/internal/understand"
)

func init() { answer.Register(answer.Intent{Name: understand.IntentFactCheck, Answer: FactCheck}) }

// FactCheck answers "文章说…是真的吗", "听说…", "is it true that…": the
// claim (Query.Claim, the prices and names) in its own terms — a plan's
// price against plan prices, a month's disk for its size against the
// per-day price times it, dollars as dollars — against the sourced
// figure and, for a card's hourly price, the live or recorded offers,
// yes, no or partly, with the value, its date and its source.
func FactCheck(ctx context.Context, a *answer.Ask) answer.Out {
	q := a.Query
	cl := understand.Claim{}
	if q.Claim != nil {
		cl = *q.Claim
	}
	ck := checker{a}
	var c *adviceview.CheckRow
	switch {
	case cl.Free && cl.Disk && q.Platform != "":
		c = ck.freeDisk(q)
	case len(q.NamedGPUs) >= 2 && cl.HasTimes:
		c = ck.speed(q, cl.TimesLow, cl.TimesHigh)
	case cl.VRAMGB > 0 && len(q.GPUs) > 0:
		c = ck.vram(q, cl.VRAMGB)
	case cl.NoCard:
		c = ck.platformFigure(q, "no_card_price", func(p *catalog.Platform) *catalog.Figure { return p.Storage.NoCard.CNYPerHour })
	case cl.HasDays && cl.Delete:
		c = ck.retention(q, cl.Days)
	case cl.Grain != "":
		c = ck.granularity(q, cl.Grain)
	case cl.Spot:
		c = ck.spot(q)
	case cl.Stopped && q.Platform != "":
		c = ck.stoppedBilling(q)
	case q.PriceCNY > 0 && planMode(q.BillingMode) && (q.ModeNamed || cl.PlanCNY > 0):
		c = ck.planPrice(q)
	case q.PriceCNY > 0 && q.PriceUnit == "month" && q.SizeGB > 0:
		c = ck.diskMonth(q)
	case q.PriceCNY > 0 && (cl.Disk || q.PriceUnit == "gb_day" || q.PriceUnit == "gb_month"):
		c = ck.platformFigure(q, "disk_price", func(p *catalog.Platform) *catalog.Figure { return p.Storage.DataDiskCNYPerGBDay })
	case (q.PriceCNY > 0 || q.MaxPriceCNY > 0) && len(q.GPUs) > 0:
		c = ck.gpuPrice(ctx, q, cl.USD)
	}
	if c == nil {
		c = &adviceview.CheckRow{Claim: "other", Verdict: adviceview.VerdictUnknown}
	}
	if c.OffBy == 0 {
		c.OffBy = offBy(c)
	}
	return answer.Out{Payload: adviceview.Check{Lang: i18n.Of(q.English), Check: c, PerMonth: q.PriceUnit == "gb_month"}, Query: q}
}

// planMode reports whether mode is a plan with a term (包天 … 包年).
func planMode(mode string) bool { return catalog.TermHours(mode) > 0 && mode != understand.ModeSpot }

// checker checks claims against the catalog of an Ask.
type checker struct{ *answer.Ask }

// judge compares a claimed value with a sourced range: within 5% of it
// is right, within 15% partly right, further is wrong.
func judge(claimed, low, high float64) string {
	switch {
	case claimed >= low*0.95 && claimed <= high*1.05:
		return adviceview.VerdictYes
	case claimed >= low*0.85 && claimed <= high*1.15:
		return adviceview.VerdictPartly
	}
	return adviceview.VerdictNo
}

// platform is the platform a claim is about (the first named).
func (r checker) platform(q understand.Query) (*catalog.Platform, bool) {
	if q.Platform == "" {
		return nil, false
	}
	return r.Cat.Platform(q.Platform)
}

// cite names a figure's source for the asker.
func (r checker) cite(platform string, f catalog.Figure) string {
	return answer.Cite(r.Cat, platform, f, r.English)
}

// platformFigure checks a price against a platform figure (data disk per
// GB-day, no-GPU mode per hour); a claim per GB-month is turned into per
// GB-day (÷ 30).
func (r checker) platformFigure(q understand.Query, claim string, figure func(*catalog.Platform) *catalog.Figure) *adviceview.CheckRow {
	p, ok := r.platform(q)
	if !ok || q.PriceCNY == 0 {
		return nil
	}
	c := &adviceview.CheckRow{Claim: claim, Platform: p.ID, Verdict: adviceview.VerdictUnknown}
	v := q.PriceCNY
	if q.PriceUnit == "gb_month" {
		v /= 30
	}
	// Four decimals: a price per GB-day is a few fen or less.
	c.Claimed = strconv.FormatFloat(understand.Round4(v), 'f', -1, 64)
	f := figure(p)
	if f == nil {
		return c
	}
	c.Actual, c.Source = render.FigureText(*f), r.cite(p.ID, *f)
	c.Verdict = judge(v, f.Low, f.High)
	return c
}

// retention checks "关机 N 天会删数据" against the platform's rules.
func (r checker) retention(q understand.Query, days float64) *adviceview.CheckRow {
	p, ok := r.platform(q)
	if !ok {
		return nil
	}
	c := &adviceview.CheckRow{Claim: "retention_days", Platform: p.ID, Claimed: trimF4(days), Verdict: adviceview.VerdictNo}
	for _, rt := range p.Retention {
		if rt.Days == 0 {
			continue
		}
		if c.Actual == "" || math.Abs(rt.Days-days) < math.Abs(mustNum(c.Actual)-days) {
			c.Actual = trimF4(rt.Days)
			c.Source = r.cite(p.ID, catalog.Figure{Source: rt.Source, Verified: true})
			c.Rule = rt.Text.Pick(r.English)
		}
	}
	switch {
	case c.Actual == "":
		c.Verdict = adviceview.VerdictUnknown
	case mustNum(c.Actual) == days:
		c.Verdict = adviceview.VerdictYes
	}
	return c
}

func mustNum(s string) float64 { v, _ := understand.ParseNum(s); return v }

// granularity checks "按分钟计费" against the platform's billing.
func (r checker) granularity(q understand.Query, claimed string) *adviceview.CheckRow {
	p, ok := r.platform(q)
	if !ok || p.Billing.Granularity == "" {
		return nil
	}
	c := &adviceview.CheckRow{Claim: "granularity", Platform: p.ID, Claimed: claimed, Actual: p.Billing.Granularity,
		Source: r.cite(p.ID, catalog.Figure{Source: p.Billing.Source, AsOf: p.Billing.AsOf, Verified: true}), Verdict: adviceview.VerdictNo}
	if claimed == p.Billing.Granularity {
		c.Verdict = adviceview.VerdictYes
	}
	return c
}

// spot checks whether a platform has spot instances.
func (r checker) spot(q understand.Query) *adviceview.CheckRow {
	p, ok := r.platform(q)
	if !ok {
		return nil
	}
	c := &adviceview.CheckRow{Claim: "spot", Platform: p.ID, Claimed: "spot", Actual: "none", Verdict: adviceview.VerdictNo,
		Source: r.cite(p.ID, catalog.Figure{Source: p.Billing.Source, AsOf: p.Billing.AsOf, Verified: true})}
	if slices.Contains(p.Billing.Modes, understand.ModeSpot) {
		c.Actual, c.Verdict = "spot", adviceview.VerdictYes
	}
	return c
}

// freeDisk checks "数据盘免费（50G）": the free part of the data disk (GB)
// and what the rest costs.
func (r checker) freeDisk(q understand.Query) *adviceview.CheckRow {
	p, ok := r.platform(q)
	if !ok {
		return nil
	}
	st := p.Storage
	c := &adviceview.CheckRow{Claim: "free_disk", Platform: p.ID, Actual: trimF4(st.DataDiskFreeGB), Claimed: "free", Verdict: adviceview.VerdictNo,
		Source: r.cite(p.ID, catalog.Figure{Source: p.Billing.Source, AsOf: p.Billing.AsOf, Verified: true})}
	if f := st.DataDiskCNYPerGBDay; f != nil {
		c.Source = r.cite(p.ID, *f)
	}
	switch {
	case q.SizeGB > 0:
		c.Claimed = trimF4(q.SizeGB)
		c.Verdict = judge(q.SizeGB, st.DataDiskFreeGB, st.DataDiskFreeGB)
	case st.DataDiskFreeGB > 0:
		// "数据盘免费": only a part is.
		c.Verdict = adviceview.VerdictPartly
	}
	return c
}

// speed checks "4090 比 3090 快 1.5–2 倍" (lo–hi) against the cards' BF16
// tensor TFLOPS.
func (r checker) speed(q understand.Query, lo, hi float64) *adviceview.CheckRow {
	a, okA := r.Cat.GPU(r.Representative(q.NamedGPUs[0]))
	b, okB := r.Cat.GPU(r.Representative(q.NamedGPUs[1]))
	if !okA || !okB {
		return nil
	}
	ratio := math.Max(a.TensorTFLOPS, b.TensorTFLOPS) / math.Min(a.TensorTFLOPS, b.TensorTFLOPS)
	c := &adviceview.CheckRow{Claim: "speed", GPU: a.ID + " / " + b.ID, Claimed: trimF4(lo), Actual: fmt.Sprintf("%.1f", ratio),
		Source: i18n.Of(q.English).T("factcheck.speed_source")}
	if hi > lo {
		c.Claimed += "-" + trimF4(hi)
	}
	c.Verdict = judge(ratio, lo, hi)
	if t := r.trainingSpeed(q, a.ID, b.ID, lo, hi, ratio); t != nil {
		return t
	}
	return c
}

// speedJob is the job a speed claim is checked on: a 7B QLoRA at seq
// 2048, batch 4 (it fits 24 GB cards), as the card comparison does.
var speedJob = estimator.Job{ParamsB: 7, Method: estimator.MethodQLoRA, Bits: 4, SeqLen: 2048, Batch: 4}

// trainingSpeed checks "a 比 b 快 lo–hi 倍" against the estimator's
// training speed of a over b (its range from the measured throughputs it
// rests on), the spec ratio named beside it; nil when either card has no
// speed.
func (r checker) trainingSpeed(q understand.Query, a, b string, lo, hi, spec float64) *adviceview.CheckRow {
	est := &estimator.Estimator{Cat: r.Cat}
	ta, errA := est.Throughput(speedJob, a)
	tb, errB := est.Throughput(speedJob, b)
	if errA != nil || errB != nil || !(ta.Low > 0 && tb.Low > 0 && ta.High > 0 && tb.High > 0) {
		return nil
	}
	mlo, mhi := math.Min(ta.Low/tb.Low, ta.High/tb.High), math.Max(ta.Low/tb.Low, ta.High/tb.High)
	actual := fmt.Sprintf("%.1f", mlo)
	if fmt.Sprintf("%.1f", mhi) != actual {
		actual += "-" + fmt.Sprintf("%.1f", mhi)
	}
	c := &adviceview.CheckRow{Claim: "speed_train", GPU: a + " / " + b, Claimed: trimF4(lo), Actual: actual,
		Source: i18n.Of(q.English).T("factcheck.speed_train_source", spec), OffBy: -1}
	if hi > lo {
		c.Claimed += "-" + trimF4(hi)
	}
	switch {
	case lo >= mlo*0.9 && hi <= mhi*1.1:
		c.Verdict = adviceview.VerdictYes
	case hi >= mlo*0.85 && lo <= mhi*1.15:
		c.Verdict = adviceview.VerdictPartly
	default:
		c.Verdict = adviceview.VerdictNo
	}
	return c
}

func trimF4(x float64) string { return render.TrimF(understand.Round4(x)) }

// offBy is how many times a claim is off a numeric figure (0 when either
// is no number).
func offBy(c *adviceview.CheckRow) float64 {
	claimed, ok1 := understand.ParseNum(c.Claimed)
	lo, hi := rangeOf(c.Actual)
	if !ok1 || lo <= 0 || claimed <= 0 {
		return 0
	}
	if claimed > hi {
		return claimed / hi
	}
	return lo / claimed
}

// rangeOf reads "0.0066-0.01" or "5".
func rangeOf(s string) (float64, float64) {
	var lo, hi float64
	if n, _ := fmt.Sscanf(s, "%g-%g", &lo, &hi); n == 2 {
		return lo, hi
	}
	v, _ := understand.ParseNum(s)
	return v, v
}
