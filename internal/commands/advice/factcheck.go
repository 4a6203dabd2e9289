package advice

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/textgate"
	"github.com/labgpu/bot/internal/understand"
)

// CheckResult is a fact check (intent factcheck): the kind of claim, the
// verdict (yes, no, partly, unknown), the value claimed and the sourced
// value with its source as a reader would name it.
type CheckResult struct {
	Claim    string `json:"claim"`
	Verdict  string `json:"verdict"`
	Platform string `json:"platform,omitempty"`
	GPU      string `json:"gpu,omitempty"`
	Claimed  string `json:"claimed,omitempty"`
	Actual   string `json:"actual,omitempty"`
	Source   string `json:"source,omitempty"`
}

// Verdicts.
const (
	VerdictYes     = "yes"
	VerdictNo      = "no"
	VerdictPartly  = "partly"
	VerdictUnknown = "unknown"
)

var (
	reClaimDisk   = textgate.MustCompile(`数据盘|存储|硬盘|网盘|云盘|disk|storage|volume|/gb|每gb`)
	reClaimNoCard = textgate.MustCompile(`无卡`)
	reClaimDays   = textgate.MustCompile(`(\d+|[一二两三四五六七八九十]+)\s*(?:天|days?)`)
	reClaimDelete = textgate.MustCompile(`删|释放|清空|清除|回收|没了|丢|delete|wipe|release|gone|lost`)
	reClaimGrain  = textgate.MustCompile(`按\s*(秒|分钟|分|小时)|(?:per|by the)\s+(second|minute|hour)`)
	reClaimSpot   = textgate.MustCompile(`竞价|抢占|spot|interruptible`)
	reClaimFree   = textgate.MustCompile(`免费|不要钱|不收费|\bfree\b`)
	reClaimTimes  = textgate.MustCompile(`(\d+(?:\.\d+)?)\s*(?:(?:到|-|~|至)\s*(\d+(?:\.\d+)?))?\s*(?:倍|x\b|times)`)
)

// FactCheck answers "文章说…是真的吗", "听说…", "is it true that…":
// the claim against the sourced figure, yes, no or partly, with the value,
// its date and its source.
func (r *Answers) FactCheck(_ context.Context, res *Result) {
	q := res.Query
	en := q.English
	s := catalog.Fold(q.Asked)
	var c *CheckResult
	switch {
	case reClaimFree.MatchString(s) && reClaimDisk.MatchString(s) && q.Platform != "":
		c = r.checkFreeDisk(q)
	case len(q.NamedGPUs) >= 2 && reClaimTimes.MatchString(s):
		c = r.checkSpeed(q, s)
	case reClaimNoCard.MatchString(s):
		c = r.checkPlatformFigure(q, "no_card_price", func(p *catalog.Platform) *catalog.Figure { return p.Storage.NoCard.CNYPerHour })
	case reClaimDays.MatchString(s) && reClaimDelete.MatchString(s):
		c = r.checkRetention(q, s)
	case reClaimGrain.MatchString(s):
		c = r.checkGranularity(q, s)
	case reClaimSpot.MatchString(s):
		c = r.checkSpot(q)
	case q.PriceCNY > 0 && (reClaimDisk.MatchString(s) || q.PriceUnit == "gb_day" || q.PriceUnit == "gb_month"):
		c = r.checkPlatformFigure(q, "disk_price", func(p *catalog.Platform) *catalog.Figure { return p.Storage.DataDiskCNYPerGBDay })
	case (q.PriceCNY > 0 || q.MaxPriceCNY > 0) && len(q.GPUs) > 0:
		c = r.checkGPUPrice(q)
	}
	if c == nil {
		c = &CheckResult{Claim: "other", Verdict: VerdictUnknown}
	}
	res.Check = c
	res.Reply = r.renderCheck(c, q, en)
}

// judge compares a claimed value with a sourced range: within 5% of it
// is right, within 15% partly right, further is wrong.
func judge(claimed, low, high float64) string {
	switch {
	case claimed >= low*0.95 && claimed <= high*1.05:
		return VerdictYes
	case claimed >= low*0.85 && claimed <= high*1.15:
		return VerdictPartly
	}
	return VerdictNo
}

// claimPlatform is the platform a claim is about (the first named).
func (r *Answers) claimPlatform(q understand.Query) (*catalog.Platform, bool) {
	if q.Platform == "" {
		return nil, false
	}
	return r.Cat.Platform(q.Platform)
}

// checkPlatformFigure checks a price against a platform figure (data
// disk per GB-day, no-GPU mode per hour); a claim per GB-month is turned
// into per GB-day (÷ 30).
func (r *Answers) checkPlatformFigure(q understand.Query, claim string, figure func(*catalog.Platform) *catalog.Figure) *CheckResult {
	p, ok := r.claimPlatform(q)
	if !ok || q.PriceCNY == 0 {
		return nil
	}
	c := &CheckResult{Claim: claim, Platform: p.ID, Verdict: VerdictUnknown}
	v := q.PriceCNY
	if q.PriceUnit == "gb_month" {
		v /= 30
	}
	c.Claimed = trimF4(v)
	f := figure(p)
	if f == nil {
		return c
	}
	c.Actual, c.Source = render.FigureText(*f), answer.Cite(r.Cat, p.ID, *f, q.English)
	c.Verdict = judge(v, f.Low, f.High)
	return c
}

// checkGPUPrice checks an hourly price: on the named platform, or against
// the lowest list price anywhere.
func (r *Answers) checkGPUPrice(q understand.Query) *CheckResult {
	v := q.PriceCNY
	if v == 0 {
		v = q.MaxPriceCNY
	}
	c := &CheckResult{Claim: "gpu_price", GPU: q.GPUs[0], Claimed: trimF4(v), Verdict: VerdictUnknown}
	var best *catalog.Figure
	for i := range r.Cat.Platforms {
		p := &r.Cat.Platforms[i]
		if q.Platform != "" && p.ID != q.Platform {
			continue
		}
		for _, pr := range p.Prices {
			if !slices.Contains(q.GPUs, pr.GPU) || best != nil && pr.CNYPerHour.Low >= best.Low {
				continue
			}
			f := pr.CNYPerHour
			best, c.Platform, c.GPU = &f, p.ID, pr.GPU
		}
	}
	if best == nil {
		return c
	}
	c.Actual, c.Source = render.FigureText(*best), answer.Cite(r.Cat, c.Platform, *best, q.English)
	c.Verdict = judge(v, best.Low, best.High)
	return c
}

// checkRetention checks "关机 N 天会删数据" against the platform's rules.
func (r *Answers) checkRetention(q understand.Query, s string) *CheckResult {
	p, ok := r.claimPlatform(q)
	if !ok {
		return nil
	}
	m := reClaimDays.FindStringSubmatch(s)
	days, _ := understand.ParseNum(m[1])
	c := &CheckResult{Claim: "retention_days", Platform: p.ID, Claimed: trimF4(days), Verdict: VerdictNo}
	for _, rt := range p.Retention {
		if rt.Days == 0 {
			continue
		}
		if c.Actual == "" || math.Abs(rt.Days-days) < math.Abs(mustNum(c.Actual)-days) {
			c.Actual = trimF4(rt.Days)
			c.Source = answer.Cite(r.Cat, p.ID, catalog.Figure{Source: rt.Source, Verified: true}, q.English)
		}
	}
	switch {
	case c.Actual == "":
		c.Verdict = VerdictUnknown
	case mustNum(c.Actual) == days:
		c.Verdict = VerdictYes
	}
	return c
}

func mustNum(s string) float64 { v, _ := understand.ParseNum(s); return v }

// checkGranularity checks "按分钟计费" against the platform's billing.
func (r *Answers) checkGranularity(q understand.Query, s string) *CheckResult {
	p, ok := r.claimPlatform(q)
	if !ok || p.Billing.Granularity == "" {
		return nil
	}
	m := reClaimGrain.FindStringSubmatch(s)
	claimed := map[string]string{"秒": "second", "分钟": "minute", "分": "minute", "小时": "hour"}[m[1]] + m[2]
	c := &CheckResult{Claim: "granularity", Platform: p.ID, Claimed: claimed, Actual: p.Billing.Granularity,
		Source: answer.Cite(r.Cat, p.ID, catalog.Figure{Source: p.Billing.Source, AsOf: p.Billing.AsOf, Verified: true}, q.English), Verdict: VerdictNo}
	if claimed == p.Billing.Granularity {
		c.Verdict = VerdictYes
	}
	return c
}

// checkSpot checks whether a platform has spot instances.
func (r *Answers) checkSpot(q understand.Query) *CheckResult {
	p, ok := r.claimPlatform(q)
	if !ok {
		return nil
	}
	c := &CheckResult{Claim: "spot", Platform: p.ID, Claimed: "spot", Actual: "none", Verdict: VerdictNo,
		Source: answer.Cite(r.Cat, p.ID, catalog.Figure{Source: p.Billing.Source, AsOf: p.Billing.AsOf, Verified: true}, q.English)}
	if slices.Contains(p.Billing.Modes, understand.ModeSpot) {
		c.Actual, c.Verdict = "spot", VerdictYes
	}
	return c
}

// checkFreeDisk checks "数据盘免费（50G）": the free part of the data disk
// (GB) and what the rest costs.
func (r *Answers) checkFreeDisk(q understand.Query) *CheckResult {
	p, ok := r.claimPlatform(q)
	if !ok {
		return nil
	}
	st := p.Storage
	c := &CheckResult{Claim: "free_disk", Platform: p.ID, Actual: trimF4(st.DataDiskFreeGB), Claimed: "free", Verdict: VerdictNo,
		Source: answer.Cite(r.Cat, p.ID, catalog.Figure{Source: p.Billing.Source, AsOf: p.Billing.AsOf, Verified: true}, q.English)}
	if f := st.DataDiskCNYPerGBDay; f != nil {
		c.Source = answer.Cite(r.Cat, p.ID, *f, q.English)
	}
	switch {
	case q.SizeGB > 0:
		c.Claimed = trimF4(q.SizeGB)
		c.Verdict = judge(q.SizeGB, st.DataDiskFreeGB, st.DataDiskFreeGB)
	case st.DataDiskFreeGB > 0:
		// "数据盘免费": only a part is.
		c.Verdict = VerdictPartly
	}
	return c
}

// checkSpeed checks "4090 比 3090 快 1.5–2 倍" against the cards' BF16
// tensor TFLOPS.
func (r *Answers) checkSpeed(q understand.Query, s string) *CheckResult {
	a, okA := r.Cat.GPU(r.Representative(q.NamedGPUs[0]))
	b, okB := r.Cat.GPU(r.Representative(q.NamedGPUs[1]))
	if !okA || !okB {
		return nil
	}
	m := reClaimTimes.FindStringSubmatch(s)
	lo, _ := understand.ParseNum(m[1])
	hi := lo
	if m[2] != "" {
		hi, _ = understand.ParseNum(m[2])
	}
	ratio := math.Max(a.TensorTFLOPS, b.TensorTFLOPS) / math.Min(a.TensorTFLOPS, b.TensorTFLOPS)
	c := &CheckResult{Claim: "speed", GPU: a.ID + " / " + b.ID, Claimed: trimF4(lo), Actual: fmt.Sprintf("%.1f", ratio),
		Source: answer.Pick(q.English, "厂商标称 BF16 算力", "vendor BF16 tensor specs")}
	if hi > lo {
		c.Claimed += "-" + trimF4(hi)
	}
	c.Verdict = judge(ratio, lo, hi)
	return c
}

func trimF4(x float64) string { return render.TrimF(understand.Round4(x)) }

// renderCheck writes the verdict first: yes, no or partly, the value, its
// date and source.
func (r *Answers) renderCheck(c *CheckResult, q understand.Query, en bool) chat.Reply {
	head := map[string]catalog.Text{VerdictYes: {Zh: "对", En: "Yes"}, VerdictNo: {Zh: "不对", En: "No"}, VerdictPartly: {Zh: "部分对", En: "Partly"}}[c.Verdict].Pick(en)
	what := r.claimSubject(c, en)
	if c.Verdict == VerdictUnknown {
		rep := chat.Reply{Title: answer.Pick(en, "这个说法我没有可以核对的有出处的数据。", "I have no sourced figure to check this against.")}
		if what != "" {
			rep.Title = fmt.Sprintf(answer.Pick(en, "%s：我没有有出处的数据可以核对。", "%s: I have no sourced figure to check it against."), what)
		}
		rep.Lines = append(rep.Lines, answer.Pick(en, "能核对的：各平台 GPU 标价、数据盘和无卡模式价格、关机多久删数据、计费粒度、有没有竞价、两张卡的算力比。",
			"I can check: GPU list prices, data-disk and no-GPU-mode prices, when stopped instances are deleted, billing granularity, spot instances and the compute ratio of two cards."))
		return chat.Reply{Title: rep.Title, Lines: rep.Lines}
	}
	line := fmt.Sprintf(answer.Pick(en, "%s：%s是 %s（%s）", "%s: %s is %s (%s)"), head, what, r.actualText(c, en), c.Source)
	if c.Claimed != "" && c.Verdict != VerdictYes {
		line += fmt.Sprintf(answer.Pick(en, "，说法里是 %s", "; the claim says %s"), r.claimedText(c, en))
		if ratio := claimRatio(c); ratio >= 2 {
			line += fmt.Sprintf(answer.Pick(en, "，差了约 %.0f 倍", ", off by about %.0f×"), ratio)
		}
	}
	rep := chat.Reply{Title: line + answer.Pick(en, "。", ".")}
	if c.Claim == "disk_price" && q.PriceUnit != "gb_month" && c.Verdict == VerdictNo {
		rep.Lines = append(rep.Lines, answer.Pick(en, "常见的误读：把“元/GB/月”当成了“元/GB/天”（差 30 倍）。", "A common misreading: CNY per GB-month taken for per GB-day (30× apart)."))
	}
	rep.Lines = append(rep.Lines, answer.Pick(en, "价格会变，以平台页面为准。", "Prices change; the platform's page has the last word."))
	return rep
}

// claimSubject names what the claim is about ("AutoDL 数据盘价格").
func (r *Answers) claimSubject(c *CheckResult, en bool) string {
	name := r.Rd.PlatformName(c.Platform, en)
	switch c.Claim {
	case "disk_price":
		return name + answer.Pick(en, " 数据盘价格", " data-disk price")
	case "no_card_price":
		return name + answer.Pick(en, " 无卡模式价格", " no-GPU mode price")
	case "retention_days":
		return name + answer.Pick(en, " 关机后释放实例的天数", " days before a stopped instance is released")
	case "granularity":
		return name + answer.Pick(en, " 按量计费的粒度", " billing granularity")
	case "spot":
		return name + answer.Pick(en, " 的竞价实例", " spot instances")
	case "speed":
		return c.GPU + answer.Pick(en, " 的算力比", " compute ratio")
	case "free_disk":
		return name + answer.Pick(en, " 免费的数据盘", " free data disk")
	case "gpu_price":
		if c.Platform == "" {
			return c.GPU + answer.Pick(en, " 的价格", " price")
		}
		return name + " " + c.GPU + answer.Pick(en, " 的标价", " list price")
	}
	return ""
}

// actualText is the sourced value with its unit.
func (r *Answers) actualText(c *CheckResult, en bool) string {
	switch c.Claim {
	case "disk_price":
		return c.Actual + answer.Pick(en, " 元/GB·天", " CNY per GB-day")
	case "no_card_price":
		return c.Actual + answer.Pick(en, " 元/小时", " CNY per hour")
	case "retention_days":
		return c.Actual + answer.Pick(en, " 天", " days")
	case "granularity":
		return answer.GranularityText(c.Actual, en)
	case "spot":
		if c.Actual == "spot" {
			return answer.Pick(en, "有", "offered")
		}
		return answer.Pick(en, "没有", "not offered")
	case "speed":
		return c.Actual + answer.Pick(en, " 倍", "×")
	case "free_disk":
		if c.Actual == "free" {
			return answer.Pick(en, "全免费", "all free")
		}
		return fmt.Sprintf(answer.Pick(en, "%s GB，超出部分按天收费", "%s GB, the rest billed per day"), c.Actual)
	}
	return c.Actual + answer.Pick(en, " 元/卡时", " CNY per GPU-hour")
}

// claimedText is the claimed value with its unit.
func (r *Answers) claimedText(c *CheckResult, en bool) string {
	switch c.Claim {
	case "granularity":
		return answer.GranularityText(c.Claimed, en)
	case "spot":
		return answer.Pick(en, "有", "offered")
	}
	return r.actualText(&CheckResult{Claim: c.Claim, Actual: c.Claimed}, en)
}

// claimRatio is how many times the claim is off a numeric figure.
func claimRatio(c *CheckResult) float64 {
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
