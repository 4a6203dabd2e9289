package adviceview

import (
	"strconv"
	"strings"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// Check is a fact check's answer (intent factcheck): the claim against
// the sourced figure, yes, no or partly, with the value, its date and
// its source.
type Check struct {
	Lang  i18n.Lang `json:"-"`
	Check *CheckRow `json:"check"`
	// PerMonth: the claim gave its price per GB-month (it is then no
	// misreading of a monthly price as a daily one).
	PerMonth bool `json:"-"`
}

// CheckRow is a fact check: the kind of claim (disk_price,
// no_card_price, retention_days, granularity, spot, speed, free_disk,
// gpu_price, other), the verdict (yes, no, partly, unknown), the value
// claimed and the sourced value with its source as a reader would name
// it.
type CheckRow struct {
	Claim    string `json:"claim"`
	Verdict  string `json:"verdict"`
	Platform string `json:"platform,omitempty"`
	GPU      string `json:"gpu,omitempty"`
	Claimed  string `json:"claimed,omitempty"`
	Actual   string `json:"actual,omitempty"`
	Source   string `json:"source,omitempty"`
	// OffBy is how many times the claimed figure is off the sourced one
	// (0: not a number, or within it).
	OffBy float64 `json:"-"`
	// Unverified: the sourced figure is one only the seed articles give.
	Unverified bool `json:"unverified,omitempty"`
	// Mode is a plan claim's billing mode (plan_price); HourlyCNY and
	// HourlyTerm, when no plan price is on record, the pay-as-you-go
	// price (CNY per GPU-hour) and what it comes to over the term (CNY).
	Mode       string `json:"mode,omitempty"`
	HourlyCNY  string `json:"hourly_cny,omitempty"`
	HourlyTerm string `json:"hourly_term_cny,omitempty"`
	// SizeGB and FreeGB are a month-of-disk claim's size and the free
	// part (disk_month); PerGBDay the price per GB-day behind it.
	SizeGB   float64 `json:"size_gb,omitempty"`
	FreeGB   float64 `json:"free_gb,omitempty"`
	PerGBDay string  `json:"cny_per_gb_day,omitempty"`
	// ClaimedUSD and ActualUSD are the figures in US dollars when the
	// claim was in dollars (gpu_price).
	ClaimedUSD string `json:"claimed_usd,omitempty"`
	ActualUSD  string `json:"actual_usd,omitempty"`
	// Observed: Actual is a live or recorded offer (Source says which and
	// how old), not a list price.
	Observed bool `json:"observed,omitempty"`
	// Also are the other figures the claim may mean (another variant of
	// the card, the list price beside an offer seen).
	Also []CheckAlso `json:"also,omitempty"`
	// Judge answers "is this price dear" (gpu_price asked 贵不贵, 便宜吗,
	// worth it): JudgeDear above the cheapest figure, JudgeCheap below
	// it, JudgeInside within its range; "" for a claim of fact.
	Judge string `json:"judge,omitempty"`
	// Rule is the platform's own rule behind the verdict, in words.
	Rule string `json:"rule,omitempty"`
	// LowEnd: the claimed price is only the low end of the range on
	// record (gpu_price): partly true.
	LowEnd bool `json:"low_end,omitempty"`
}

// CheckAlso is another figure beside a price check's: the card, its
// price (CNY per GPU-hour; USD in dollars when the claim was), its source
// and whether it is an offer seen.
type CheckAlso struct {
	GPU      string `json:"gpu"`
	Value    string `json:"value"`
	USD      string `json:"usd,omitempty"`
	Source   string `json:"source"`
	Observed bool   `json:"observed,omitempty"`
}

// Verdicts.
const (
	VerdictYes     = "yes"
	VerdictNo      = "no"
	VerdictPartly  = "partly"
	VerdictUnknown = "unknown"
)

// verdictKeys are the verdicts' message keys.
// What a price is against the cheapest on record (CheckRow.Judge).
const (
	JudgeDear   = "dear"
	JudgeCheap  = "cheap"
	JudgeInside = "inside"
)

var judgeKeys = map[string]string{JudgeDear: "factcheck.judge.dear", JudgeCheap: "factcheck.judge.cheap", JudgeInside: "factcheck.judge.inside"}

var verdictKeys = map[string]string{VerdictYes: "factcheck.verdict.yes", VerdictNo: "factcheck.verdict.no", VerdictPartly: "factcheck.verdict.partly"}

// Reply writes the verdict first: yes, no or partly, the value in the
// claim's own terms (its mode, its size for a month, its currency), its
// date and source; then the other figures it may mean and the rule.
func (p Check) Reply(rd *render.Renderer) chat.Reply {
	l, c := p.Lang, p.Check
	what := subject(rd, c, l)
	if c.Verdict == VerdictUnknown {
		if c.Claim == "plan_price" && c.GPU != "" {
			return chat.Reply{Title: p.noPlan(rd)}
		}
		title := l.T("factcheck.unknown")
		if what != "" {
			title = l.T("factcheck.unknown_about", what)
		}
		return chat.Reply{Title: title, Lines: []string{l.T("factcheck.can_check")}}
	}
	head := ""
	if k, ok := verdictKeys[c.Verdict]; ok {
		head = l.T(k)
	}
	if k, ok := judgeKeys[c.Judge]; ok {
		head = l.T(k)
	}
	line := l.T("factcheck.line", head, what, p.actualText(), c.Source)
	if c.Claimed != "" && (c.Verdict != VerdictYes || c.Judge != "") {
		claimed := "factcheck.claimed"
		if c.Judge != "" {
			claimed = "factcheck.asked"
		}
		line += l.T(claimed, p.claimedText())
		if c.LowEnd {
			line += l.T("factcheck.low_end")
		}
		if c.OffBy >= 2 {
			line += l.T("factcheck.off_by", c.OffBy)
		}
	}
	rep := chat.Reply{Title: l.T("factcheck.end", line)}
	for _, a := range c.Also {
		value := l.T("factcheck.value.gpu_price", a.Value)
		if a.USD != "" {
			value = l.T("factcheck.value.gpu_price_usd", a.Value, a.USD)
		}
		rep.Lines = append(rep.Lines, l.T("factcheck.also", a.GPU, value, a.Source))
	}
	if c.Rule != "" {
		rep.Lines = append(rep.Lines, l.T("factcheck.rule", rd.PlatformName(c.Platform, l.English()), c.Rule))
	}
	if c.Claim == "disk_price" && !p.PerMonth && c.Verdict == VerdictNo {
		rep.Lines = append(rep.Lines, l.T("factcheck.month_for_day"))
	}
	switch c.Claim {
	case "speed", "speed_train", "vram":
		// Not a price: nothing to say about prices changing.
	default:
		rep.Lines = append(rep.Lines, l.T("factcheck.prices_change"))
	}
	return rep
}

// noPlan says that no price of the plan claimed is on record, and what
// pay-as-you-go comes to over its term.
func (p Check) noPlan(rd *render.Renderer) string {
	l, c := p.Lang, p.Check
	en := l.English()
	name, mode := rd.PlatformName(c.Platform, en), render.ModeName(c.Mode, en)
	if c.HourlyTerm == "" {
		return l.T("factcheck.plan.none", name, c.GPU, mode)
	}
	return l.T("factcheck.plan.none_hourly", name, c.GPU, mode, c.HourlyCNY, periodWord(c.Mode, l), c.HourlyTerm)
}

// periodKeys name a plan's term ("月", "month").
var periodKeys = map[string]string{"daily": "plan.period.daily", "weekly": "plan.period.weekly", "monthly": "plan.period.monthly",
	"yearly": "plan.period.yearly"}

// periodWord names a plan's term; "" for a mode without one.
func periodWord(mode string, l i18n.Lang) string {
	if k, ok := periodKeys[mode]; ok {
		return l.T(k)
	}
	return ""
}

// actualText is the sourced value in the claim's terms.
func (p Check) actualText() string {
	l, c := p.Lang, p.Check
	mark := ""
	if c.Unverified {
		mark = render.MarkUnverified
	}
	switch {
	case c.Claim == "gpu_price" && c.ActualUSD != "":
		return l.T("factcheck.value.gpu_price_usd", c.Actual+mark, c.ActualUSD)
	case c.Claim == "disk_price" && p.PerMonth:
		return l.T("factcheck.value.disk_price_month", c.Actual, monthOf(c.Actual))
	case c.Claim == "disk_month":
		return l.T("factcheck.value.disk_month", c.Actual, render.TrimF(c.FreeGB), c.PerGBDay)
	case c.Claim == "plan_price":
		return l.T("factcheck.value.plan_price", c.Actual+mark)
	case c.Claim == "stopped_billing" && c.Actual == "yes" && c.PerGBDay != "":
		return l.T("factcheck.value.stopped_billed", c.PerGBDay)
	case c.Claim == "stopped_billing" && c.Actual == "yes":
		return l.T("factcheck.value.billed")
	case c.Claim == "stopped_billing":
		return l.T("factcheck.value.not_billed")
	}
	return actualText(c.Claim, c.Actual+mark, l)
}

// claimedText is the claimed value in its own terms.
func (p Check) claimedText() string {
	l, c := p.Lang, p.Check
	switch {
	case c.Claim == "gpu_price" && c.ClaimedUSD != "":
		return l.T("factcheck.value.claimed_usd", c.ClaimedUSD, c.Claimed)
	case c.Claim == "disk_price" && p.PerMonth:
		return l.T("factcheck.value.disk_price_per_month", monthOf(c.Claimed))
	case c.Claim == "disk_month" || c.Claim == "plan_price":
		return l.T("factcheck.value.cny", c.Claimed)
	}
	return claimedText(c, l)
}

// monthOf is a per-day figure (or range) times 30: "0.0167" → "0.5".
func monthOf(day string) string {
	lo, hi, ok := strings.Cut(day, "-")
	a, err1 := strconv.ParseFloat(lo, 64)
	if err1 != nil {
		return day
	}
	s := render.TrimF(a * 30)
	if ok {
		if b, err := strconv.ParseFloat(hi, 64); err == nil {
			s += "-" + render.TrimF(b*30)
		}
	}
	return s
}

// subject names what the claim is about ("AutoDL 数据盘价格").
func subject(rd *render.Renderer, c *CheckRow, l i18n.Lang) string {
	name := rd.PlatformName(c.Platform, l.English())
	switch c.Claim {
	case "disk_price":
		return l.T("factcheck.subject.disk_price", name)
	case "no_card_price":
		return l.T("factcheck.subject.no_card_price", name)
	case "retention_days":
		return l.T("factcheck.subject.retention_days", name)
	case "granularity":
		return l.T("factcheck.subject.granularity", name)
	case "spot":
		return l.T("factcheck.subject.spot", name)
	case "speed":
		return l.T("factcheck.subject.speed", c.GPU)
	case "speed_train":
		return l.T("factcheck.subject.speed_train", c.GPU)
	case "free_disk":
		return l.T("factcheck.subject.free_disk", name)
	case "gpu_price":
		switch {
		case c.Platform == "":
			return l.T("factcheck.subject.gpu_price", c.GPU)
		case c.Observed:
			return l.T("factcheck.subject.gpu_offer", name, c.GPU)
		}
		return l.T("factcheck.subject.gpu_list_price", name, c.GPU)
	case "plan_price":
		return l.T("factcheck.subject.plan_price", name, c.GPU, render.ModeName(c.Mode, l.English()))
	case "disk_month":
		return l.T("factcheck.subject.disk_month", name, render.TrimF(c.SizeGB))
	case "stopped_billing":
		return l.T("factcheck.subject.stopped_billing", name)
	case "vram":
		return l.T("factcheck.subject.vram", c.GPU)
	}
	return ""
}

// actualText is a value of a claim's kind with its unit.
func actualText(claim, v string, l i18n.Lang) string {
	switch claim {
	case "disk_price":
		return l.T("factcheck.value.disk_price", v)
	case "no_card_price":
		return l.T("factcheck.value.no_card_price", v)
	case "retention_days":
		return l.T("factcheck.value.days", v)
	case "granularity":
		return Granularity(v, l)
	case "spot":
		if v == "spot" {
			return l.T("factcheck.value.offered")
		}
		return l.T("factcheck.value.not_offered")
	case "speed", "speed_train":
		return l.T("factcheck.value.times", v)
	case "vram":
		return l.T("factcheck.value.gb", v)
	case "free_disk":
		if v == "free" {
			return l.T("factcheck.value.all_free")
		}
		return l.T("factcheck.value.free_part", v)
	}
	return l.T("factcheck.value.gpu_price", v)
}

// claimedText is the claimed value with its unit.
func claimedText(c *CheckRow, l i18n.Lang) string {
	switch c.Claim {
	case "granularity":
		return Granularity(c.Claimed, l)
	case "spot":
		return l.T("factcheck.value.offered")
	}
	return actualText(c.Claim, c.Claimed, l)
}

// Granularity names a billing granularity (second, minute, hour):
// "分钟", "per minute"; "未知" / "unknown" when there is none.
func Granularity(g string, l i18n.Lang) string {
	switch g {
	case "":
		return l.T("factcheck.granularity.unknown")
	case "second":
		return l.T("factcheck.granularity.second")
	case "minute":
		return l.T("factcheck.granularity.minute")
	case "hour":
		return l.T("factcheck.granularity.hour")
	}
	return l.T("factcheck.granularity.other", g)
}
