package render

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
)

// ReleaseWarning is the message that @mentions a disk's owner in the
// lab's chat before its platform deletes it: what is lost and when, the
// platform's rule with its source, what to do (start it, move the data
// to the platform's persistent storage, or download it), and that the
// clock is the ledger's stop time. Times are in r.Clock's zone.
func (r *Renderer) ReleaseWarning(w ledger.Warning, now time.Time, en bool) chat.Reply {
	a := w.AtRisk
	rep := chat.Reply{English: en}
	if a.Owner != "" && a.Owner != ConsoleOwner {
		rep.Mentions = []string{a.Owner}
	}
	rep.Title = r.warningTitle(a, now, en)
	rep.Lines = append(rep.Lines, fmt.Sprintf(pick1(en, "%s 你登记的 %s %s%s已关机%s。", "%s: your %s %s%s has been shut down for %s."),
		"@"+ownerName(a.DiskState, en), r.PlatformName(a.Platform, en), GBText(a.SizeGB), noteText(a.Note, en), stoppedFor(now.Sub(a.StoppedAt), en)))
	rep.Lines = append(rep.Lines, r.ruleLine(a, en))
	if a.Kind == catalog.DiskUnknown && a.Rule.Wipes == catalog.WipesScratch && a.Rule.Survives.Pick(en) != "" {
		rep.Lines = append(rep.Lines, fmt.Sprintf(pick1(en, "账本没写这块盘在哪：放在%s上的数据不受影响。", "The ledger does not say where this disk is: data on %s is not affected."), spaced(a.Rule.Survives.Pick(en), en)))
	}
	rep.Lines = append(rep.Lines, actionLine(a, en))
	rep.Notes = append(rep.Notes, fmt.Sprintf(pick1(en,
		"按账本记的关机时间（%s）算；实际关机更早的话会更早。已开机请说“存储 %s 开机”。",
		"Counted from the shutdown the ledger records (%s); an earlier real shutdown means an earlier loss. Started again? Say “storage start %s”."),
		r.Clock.Minute(a.StoppedAt), a.Disk))
	return rep
}

// warningTitle is the warning's first line: the disk, when and what is
// lost.
func (r *Renderer) warningTitle(a ledger.AtRisk, now time.Time, en bool) string {
	lost, left, at := a.Rule.Lost.Pick(en), Left(a.Loss.Sub(now), en), r.Clock.Minute(a.Loss)
	switch {
	case a.AtShutdown():
		return fmt.Sprintf(pick1(en, "⚠ 存储 #%s：关机后%s可能已被清空%s", "⚠ Storage #%s: %s may have been wiped at shutdown%s"), a.Disk, lost, unverified(a.Rule, en))
	case en && a.Rule.Wipes == catalog.WipesInstance:
		return fmt.Sprintf("⚠ Storage #%s goes with its instance in about %s (%s): %s will be deleted%s", a.Disk, left, at, lost, unverified(a.Rule, en))
	case en:
		return fmt.Sprintf("⚠ Storage #%s: %s will be wiped in about %s (%s)%s", a.Disk, lost, left, at, unverified(a.Rule, en))
	case a.Rule.Wipes == catalog.WipesInstance:
		return fmt.Sprintf("⚠ 存储 #%s 约%s后（%s）随实例释放：%s会被删除%s", a.Disk, left, at, lost, unverified(a.Rule, en))
	}
	return fmt.Sprintf("⚠ 存储 #%s 约%s后（%s）：%s会被清空%s", a.Disk, left, at, lost, unverified(a.Rule, en))
}

// StopWarnings are the lines a stop reply adds for the rules now running
// on the disk: each loss's warning title, then what to do, once.
func (r *Renderer) StopWarnings(risks []ledger.AtRisk, now time.Time, en bool) []string {
	var out []string
	for _, a := range risks {
		out = append(out, r.warningTitle(a, now, en)+pick1(en, "。", "."), r.ruleLine(a, en))
	}
	if len(out) > 0 {
		out = append(out, pick1(en, "要保留数据：开机，或把数据移到平台的持久存储，或下载到本地。", "To keep the data: start it, move it to the platform's persistent storage, or download it."))
	}
	return out
}

// ReleaseList answers "哪些盘快被释放了": the lab's disks at risk at now
// (billing.ReleaseRisks), the coming losses soonest first, then those
// whose time has passed; the rules with their sources. With none, which
// platforms have rules at all.
func (r *Renderer) ReleaseList(risks []ledger.AtRisk, now time.Time, en bool) chat.Reply {
	if len(risks) == 0 {
		rep := chat.Reply{Title: pick1(en, "没有快被释放的盘：本群没有已关机、且平台有释放规则的盘。", "No disk is about to be wiped: none is stopped on a platform with a release rule.")}
		if names := r.timedPlatforms(en); names != "" {
			rep.Notes = []string{pick1(en, "有释放规则的平台：", "Platforms with release rules: ") + names + pick1(en, "。其他平台的规则不清楚，不提醒。", ". Other platforms' rules are unknown: no warnings.")}
		}
		return rep
	}
	// Coming losses by time, then the rules that may have applied at the
	// shutdown (seed only so far), then the losses past.
	var soon, shutdown, gone []ledger.AtRisk
	for _, a := range risks {
		switch {
		case a.AtShutdown():
			shutdown = append(shutdown, a)
		case a.Gone(now):
			gone = append(gone, a)
		default:
			soon = append(soon, a)
		}
	}
	soon = append(soon, shutdown...)
	rep := chat.Reply{English: en}
	if len(soon) > 0 {
		rep.Title = fmt.Sprintf(pick1(en, "%s快被释放或清空，最早：%s", "%s about to be wiped; first: %s"), disksText(countDisks(soon), en), r.AtRiskLine(soon[0], now, en))
	} else {
		rep.Title = fmt.Sprintf(pick1(en, "没有快被释放的盘；%s按平台规则应已被释放或清空。", "No disk is about to be wiped; %s should have been wiped by their platforms' rules."), disksText(countDisks(gone), en))
	}
	if len(gone) > 0 {
		rep.Lines = append(rep.Lines, pick1(en, "“应已释放”的请上平台核实；确实没了就说“删除存储 N”，账本才准。",
			"Check the ones that “should have been” wiped on the platform; if gone, say “storage remove N” to keep the ledger right."))
	}
	rows := make([][]string, 0, len(risks))
	cites := map[string]bool{}
	var notes []string
	plans := false
	for _, a := range append(soon, gone...) {
		plans = plans || a.Rule.PlanExpiry
		rows = append(rows, []string{"#" + a.Disk, r.PlatformName(a.Platform, en), GBText(a.SizeGB), ownerName(a.DiskState, en),
			Span(now.Sub(a.StoppedAt), en), r.whenText(a, now, en), a.Rule.Lost.Pick(en)})
		if c := r.ruleLine(a, en); !cites[c] {
			cites[c] = true
			notes = append(notes, c)
		}
	}
	rep.Table = &chat.Table{Header: strings.Split(pick1(en, "编号|平台|大小|持有人|已关机|何时|会丢", "#|platform|size|owner|stopped|when|lost"), "|"), Rows: rows}
	rep.Notes = append([]string{pick1(en,
		"按账本记的关机时间算。要保留：开机，或把数据移到平台的持久存储，或下载到本地；已开机请说“存储 N 开机”。",
		"Counted from the shutdowns the ledger records. To keep the data: start it, move it to the platform's persistent storage, or download it; started already? Say “storage start N”.")}, notes...)
	if plans {
		// The ledger records no plan terms: an expiry is told as a stop.
		rep.Notes = append(rep.Notes, pick1(en, "包周/包月到期也会开始计时：到期时请说“存储 N 已关机”。", "A weekly or monthly plan's end starts the clock too: when it ends, say “storage stop N”."))
	}
	return rep
}

// AtRiskLine is one disk at risk in a line (the digest's "即将被释放"):
// "#3 AutoDL 80 GB（小王）：05-19 10:00 释放，还剩约 3 天".
func (r *Renderer) AtRiskLine(a ledger.AtRisk, now time.Time, en bool) string {
	return fmt.Sprintf(pick1(en, "#%s %s %s（%s）：%s", "#%s %s %s (%s): %s"), a.Disk, r.PlatformName(a.Platform, en), GBText(a.SizeGB),
		ownerName(a.DiskState, en), r.whenText(a, now, en))
}

// whenText says when a disk is lost: "05-19 10:00 释放，还剩约 3 天",
// "05-19 10:00 应已释放", "关机时可能已清空（未核实）".
func (r *Renderer) whenText(a ledger.AtRisk, now time.Time, en bool) string {
	return whenText(r.Clock, a, now, en)
}

func whenText(c Clock, a ledger.AtRisk, now time.Time, en bool) string {
	switch {
	case a.AtShutdown():
		return pick1(en, "关机时可能已清空", "may be wiped at shutdown") + unverified(a.Rule, en)
	case a.Gone(now):
		return c.Minute(a.Loss) + pick1(en, " 应已", " should have been ") + lossVerb(a.Rule, en)
	}
	return fmt.Sprintf(pick1(en, "%s %s，还剩约%s", "%s %s, about %s left"), c.Minute(a.Loss), lossVerb(a.Rule, en),
		Left(a.Loss.Sub(now), en)) + unverified(a.Rule, en)
}

// ruleLine is the platform's rule with its source as a reader names it.
func (r *Renderer) ruleLine(a ledger.AtRisk, en bool) string {
	s := fmt.Sprintf(pick1(en, "%s的规则：%s", "%s's rule: %s"), spacedAfter(r.PlatformName(a.Platform, en), en), strings.TrimRight(a.Rule.Text.Pick(en), "。."))
	if a.Rule.PlanExpiry {
		s += pick1(en, "（包周/包月到期后也从到期时算起）", " (also counted from the end of a weekly or monthly plan)")
	}
	return s + pick1(en, "。来源：", ". Source: ") + citeText(a.Rule, en) + pick1(en, "。", ".")
}

// actionLine says what to do to keep the data.
func actionLine(a ledger.AtRisk, en bool) string {
	if a.AtShutdown() {
		return pick1(en, "开机后先检查数据还在不在；以后关机前先把要紧的数据下载到本地或自己的网盘。",
			"Start it and check the data is still there; next time download what matters before shutting down.")
	}
	do := []string{pick1(en, "开机（关机计时归零）", "start it (the clock starts over)")}
	if s := a.Rule.Survives.Pick(en); s != "" {
		do = append(do, pick1(en, "把数据移到", "move the data to ")+spaced(s, en))
	}
	do = append(do, pick1(en, "下载到本地或自己的网盘", "download it (locally or to your own cloud drive)"))
	return pick1(en, "要保留数据：", "To keep the data: ") + strings.Join(do, pick1(en, "，或", ", or ")) + pick1(en, "。", ".")
}

// citeText is the rule's source as a reader names it, with its date.
func citeText(rule catalog.Retention, en bool) string {
	c := rule.Cite.Pick(en)
	if rule.AsOf != "" {
		c += pick1(en, "，", ", ") + rule.AsOf
	}
	return c
}

// unverified marks a rule only the seed articles report.
func unverified(rule catalog.Retention, en bool) string {
	if rule.Verified {
		return ""
	}
	return pick1(en, "（未核实）", " (unverified)")
}

// lossVerb is "释放" for a released instance, "清空" for a wiped disk.
func lossVerb(rule catalog.Retention, en bool) string {
	if rule.Wipes == catalog.WipesInstance {
		return pick1(en, "释放", "released")
	}
	return pick1(en, "清空", "wiped")
}

// ownerName names the disk's owner: the display name, else a short
// member label (never a raw id).
func ownerName(d ledger.DiskState, en bool) string {
	switch {
	case d.OwnerName != "":
		return d.OwnerName
	case d.Owner == "" || d.Owner == ConsoleOwner:
		return pick1(en, "控制台", "console")
	}
	return ledger.MemberLabel(d.Owner)
}

// noteText is a disk's note in parentheses, or the space before the
// next word.
func noteText(note string, en bool) string {
	if strings.TrimSpace(note) == "" {
		return pick1(en, " ", "")
	}
	return pick1(en, "（", " (") + note + pick1(en, "）", ")")
}

// spaced puts a space between Chinese text and Latin text in it ("放在
// /hy-nas 上"): before s when it starts with a Latin character, after it
// when it ends with one. English text is left alone.
func spaced(s string, en bool) string {
	if en || s == "" {
		return s
	}
	if s[0] < 0x80 {
		s = " " + s
	}
	return spacedAfter(s, en)
}

// spacedAfter is s with a space after it when it ends with a Latin
// character and Chinese follows ("AutoDL 的规则").
func spacedAfter(s string, en bool) string {
	if !en && s != "" && s[len(s)-1] < 0x80 && s[len(s)-1] != ')' {
		return s + " "
	}
	return s
}

// timedPlatforms names the platforms with timed retention rules.
func (r *Renderer) timedPlatforms(en bool) string {
	var names []string
	for i := range r.Cat.Platforms {
		p := &r.Cat.Platforms[i]
		for _, rt := range p.Retention {
			if rt.Timed() {
				names = append(names, p.DisplayName(en))
				break
			}
		}
	}
	return strings.Join(names, pick1(en, "、", ", "))
}

// disksText is "3 块盘", "1 disk", "3 disks".
func disksText(n int, en bool) string {
	switch {
	case !en:
		return fmt.Sprintf("%d 块盘", n)
	case n == 1:
		return "1 disk"
	}
	return fmt.Sprintf("%d disks", n)
}

// countDisks counts the distinct disks among risks.
func countDisks(risks []ledger.AtRisk) int {
	seen := map[string]bool{}
	for _, a := range risks {
		seen[a.Lab+"\x00"+a.Disk] = true
	}
	return len(seen)
}

// Left is how long until a loss, rounded: " 3 天" (to the day from
// 47 h), " 5 小时" (up to the hour), " 1 小时"; in English "3 days".
func Left(d time.Duration, en bool) string {
	if d >= 47*time.Hour {
		return fmt.Sprintf(pick1(en, " %d 天", "%d days"), int(math.Round(d.Hours()/24)))
	}
	n := max(1, int(math.Ceil(d.Hours()-1e-9)))
	if n == 1 {
		return pick1(en, " 1 小时", "an hour")
	}
	return fmt.Sprintf(pick1(en, " %d 小时", "%d hours"), n)
}

// stoppedFor is Span after "已关机" (a space before a number) or "shut
// down for".
func stoppedFor(d time.Duration, en bool) string {
	sp := Span(d, en)
	if en || d < time.Hour {
		return sp
	}
	return " " + sp
}

// Span is an elapsed time, roughly: "12 天", "5 小时", "不到 1 小时".
func Span(d time.Duration, en bool) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf(pick1(en, "%d 天", "%d days"), int(d.Hours()/24))
	case d >= time.Hour:
		return fmt.Sprintf(pick1(en, "%d 小时", "%d hours"), int(d.Hours()))
	}
	return pick1(en, "不到 1 小时", "under an hour")
}
