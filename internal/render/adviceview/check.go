package adviceview

import (
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
}

// Verdicts.
const (
	VerdictYes     = "yes"
	VerdictNo      = "no"
	VerdictPartly  = "partly"
	VerdictUnknown = "unknown"
)

// verdictKeys are the verdicts' message keys.
var verdictKeys = map[string]string{VerdictYes: "factcheck.verdict.yes", VerdictNo: "factcheck.verdict.no", VerdictPartly: "factcheck.verdict.partly"}

// Reply writes the verdict first: yes, no or partly, the value, its date
// and source.
func (p Check) Reply(rd *render.Renderer) chat.Reply {
	l, c := p.Lang, p.Check
	what := subject(rd, c, l)
	if c.Verdict == VerdictUnknown {
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
	line := l.T("factcheck.line", head, what, actualText(c.Claim, c.Actual, l), c.Source)
	if c.Claimed != "" && c.Verdict != VerdictYes {
		line += l.T("factcheck.claimed", claimedText(c, l))
		if c.OffBy >= 2 {
			line += l.T("factcheck.off_by", c.OffBy)
		}
	}
	rep := chat.Reply{Title: l.T("factcheck.end", line)}
	if c.Claim == "disk_price" && !p.PerMonth && c.Verdict == VerdictNo {
		rep.Lines = append(rep.Lines, l.T("factcheck.month_for_day"))
	}
	rep.Lines = append(rep.Lines, l.T("factcheck.prices_change"))
	return rep
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
	case "free_disk":
		return l.T("factcheck.subject.free_disk", name)
	case "gpu_price":
		if c.Platform == "" {
			return l.T("factcheck.subject.gpu_price", c.GPU)
		}
		return l.T("factcheck.subject.gpu_list_price", name, c.GPU)
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
	case "speed":
		return l.T("factcheck.value.times", v)
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
