package ledgerview

import (
	"math"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// ReleaseWarning is the message that @mentions a disk's owner in the
// lab's chat before its platform deletes it: what is lost and when, the
// platform's rule with its source, what to do (start it, move the data
// to the platform's persistent storage, or download it), and that the
// clock is the ledger's stop time. Times are in r.Clock's zone.
func ReleaseWarning(r *render.Renderer, w ledger.Warning, now time.Time, en bool) chat.Reply {
	a := w.AtRisk
	rep := chat.Reply{English: en}
	if a.Owner != "" && a.Owner != render.ConsoleOwner {
		rep.Mentions = []string{a.Owner}
	}
	rep.Title = warningTitle(r, a, now, en)
	rep.Lines = append(rep.Lines, i18n.Of(en).T("release.warning.line",
		"@"+ownerName(a.DiskState, en), r.PlatformName(a.Platform, en), GBText(a.SizeGB), noteText(a.Note, en), stoppedFor(now.Sub(a.StoppedAt), en)))
	rep.Lines = append(rep.Lines, ruleLine(r, a, en))
	if a.Kind == catalog.DiskUnknown && a.Rule.Wipes == catalog.WipesScratch && a.Rule.Survives.Pick(en) != "" {
		rep.Lines = append(rep.Lines, i18n.Of(en).T("release.warning.where", spaced(a.Rule.Survives.Pick(en), en)))
	}
	rep.Lines = append(rep.Lines, actionLine(a, en))
	rep.Notes = append(rep.Notes, i18n.Of(en).T("release.warning.counted",
		r.Clock.Minute(a.StoppedAt), a.Disk))
	return rep
}

// warningTitle is the warning's first line: the disk, when and what is
// lost.
func warningTitle(r *render.Renderer, a ledger.AtRisk, now time.Time, en bool) string {
	l := i18n.Of(en)
	lost, left, at := a.Rule.Lost.Pick(en), Left(a.Loss.Sub(now), en), r.Clock.Minute(a.Loss)
	switch {
	case a.AtShutdown():
		return l.T("release.title.at_shutdown", a.Disk, lost, unverified(a.Rule, en))
	case a.Rule.Wipes == catalog.WipesInstance:
		return l.T("release.title.instance", a.Disk, left, at, lost, unverified(a.Rule, en))
	}
	return l.T("release.title.wiped", a.Disk, left, at, lost, unverified(a.Rule, en))
}

// StopWarnings are the lines a stop reply adds for the rules now running
// on the disk: each loss's warning title, then what to do, once.
func StopWarnings(r *render.Renderer, risks []ledger.AtRisk, now time.Time, en bool) []string {
	var out []string
	for _, a := range risks {
		out = append(out, warningTitle(r, a, now, en)+i18n.Of(en).T("meta.period"), ruleLine(r, a, en))
	}
	if len(out) > 0 {
		out = append(out, i18n.Of(en).T("release.stop.keep"))
	}
	return out
}

// ReleaseList answers "哪些盘快被释放了": the lab's disks at risk at now
// (ledger.ReleaseRisks), the coming losses soonest first, then those
// whose time has passed; the rules with their sources. With none, which
// platforms have rules at all.
func ReleaseList(r *render.Renderer, risks []ledger.AtRisk, now time.Time, en bool) chat.Reply {
	if len(risks) == 0 {
		rep := chat.Reply{Title: i18n.Of(en).T("release.list.none")}
		if names := timedPlatforms(r, en); names != "" {
			rep.Notes = []string{i18n.Of(en).T("release.list.platforms", names)}
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
		rep.Title = i18n.Of(en).T("release.list.title", disksText(countDisks(soon), en), AtRiskLine(r, soon[0], now, en))
	} else {
		rep.Title = i18n.Of(en).T("release.list.gone_title", disksText(countDisks(gone), en))
	}
	if len(gone) > 0 {
		rep.Lines = append(rep.Lines, i18n.Of(en).T("release.list.check"))
	}
	rows := make([][]string, 0, len(risks))
	cites := map[string]bool{}
	var notes []string
	plans := false
	listed := map[string]bool{}
	for _, a := range append(soon, gone...) {
		plans = plans || a.Rule.PlanExpiry
		if c := ruleLine(r, a, en); !cites[c] {
			cites[c] = true
			notes = append(notes, c)
		}
		if listed[a.Disk] {
			// A disk two rules reach (released, then cleared): its
			// soonest loss is its row; the rules are both in the notes.
			continue
		}
		listed[a.Disk] = true
		rows = append(rows, []string{"#" + a.Disk, r.PlatformName(a.Platform, en), GBText(a.SizeGB), ownerName(a.DiskState, en),
			Span(now.Sub(a.StoppedAt), en), whenText(r.Clock, a, now, en), a.Rule.Lost.Pick(en)})
	}
	rep.Table = &chat.Table{Header: i18n.Of(en).L("release.list.header"), Rows: rows}
	rep.Notes = append([]string{i18n.Of(en).T("release.list.note")}, notes...)
	if plans {
		// The ledger records no plan terms: an expiry is told as a stop.
		rep.Notes = append(rep.Notes, i18n.Of(en).T("release.list.plans"))
	}
	return rep
}

// AtRiskLine is one disk at risk in a line (the digest's "即将被释放"):
// "#3 AutoDL 80 GB（小王）：05-19 10:00 释放，还剩约 3 天".
func AtRiskLine(r *render.Renderer, a ledger.AtRisk, now time.Time, en bool) string {
	return i18n.Of(en).T("release.line", a.Disk, r.PlatformName(a.Platform, en), GBText(a.SizeGB),
		ownerName(a.DiskState, en), whenText(r.Clock, a, now, en))
}

// whenText says when a disk is lost: "05-19 10:00 释放，还剩约 3 天",
// "05-19 10:00 应已释放", "关机时可能已清空（未核实）", at c's times.
func whenText(c render.Clock, a ledger.AtRisk, now time.Time, en bool) string {
	switch {
	case a.AtShutdown():
		return i18n.Of(en).T("release.at_shutdown") + unverified(a.Rule, en)
	case a.Gone(now):
		return i18n.Of(en).T("release.when.gone", c.Minute(a.Loss), lossVerb(a.Rule, en))
	}
	return i18n.Of(en).T("release.when.left", c.Minute(a.Loss), lossVerb(a.Rule, en),
		Left(a.Loss.Sub(now), en)) + unverified(a.Rule, en)
}

// ruleLine is the platform's rule with its source as a reader names it.
func ruleLine(r *render.Renderer, a ledger.AtRisk, en bool) string {
	l := i18n.Of(en)
	s := l.T("release.rule", spacedAfter(r.PlatformName(a.Platform, en), en), strings.TrimRightFunc(a.Rule.Text.Pick(en), fullStop))
	if a.Rule.PlanExpiry {
		s += l.T("release.rule_plan")
	}
	return s + l.T("release.rule_source", citeText(a.Rule, en))
}

// fullStop reports a full stop, Latin or ideographic (U+3002).
func fullStop(r rune) bool { return r == '.' || r == 0x3002 }

// actionLine says what to do to keep the data.
func actionLine(a ledger.AtRisk, en bool) string {
	if a.AtShutdown() {
		return i18n.Of(en).T("release.action.at_shutdown")
	}
	do := []string{i18n.Of(en).T("release.action.start")}
	if s := a.Rule.Survives.Pick(en); s != "" {
		do = append(do, i18n.Of(en).T("release.action.move", spaced(s, en)))
	}
	do = append(do, i18n.Of(en).T("release.action.download"))
	return i18n.Of(en).T("release.action.keep", strings.Join(do, i18n.Of(en).T("release.action.or")))
}

// citeText is the rule's source as a reader names it, with its date.
func citeText(rule catalog.Retention, en bool) string {
	c := rule.Cite.Pick(en)
	if rule.AsOf != "" {
		c = i18n.Of(en).T("release.cite_date", c, rule.AsOf)
	}
	return c
}

// unverified marks a rule only the seed articles report.
func unverified(rule catalog.Retention, en bool) string {
	if rule.Verified {
		return ""
	}
	return i18n.Of(en).T("release.unverified")
}

// lossVerb is "释放" for a released instance, "清空" for a wiped disk.
func lossVerb(rule catalog.Retention, en bool) string {
	if rule.Wipes == catalog.WipesInstance {
		return i18n.Of(en).T("release.verb.released")
	}
	return i18n.Of(en).T("release.verb.wiped")
}

// ownerName names the disk's owner: the display name, else a short
// member label (never a raw id).
func ownerName(d ledger.DiskState, en bool) string {
	switch {
	case d.OwnerName != "":
		return d.OwnerName
	case d.Owner == "" || d.Owner == render.ConsoleOwner:
		return i18n.Of(en).T("release.console")
	}
	return ledger.MemberLabel(d.Owner)
}

// noteText is a disk's note in parentheses, or the space before the
// next word.
func noteText(note string, en bool) string {
	switch {
	case strings.TrimSpace(note) != "":
		return i18n.Of(en).T("release.note", note)
	case en:
		return ""
	}
	return " "
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
func timedPlatforms(r *render.Renderer, en bool) string {
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
	return strings.Join(names, i18n.Of(en).T("list.sep"))
}

// disksText is "3 块盘", "1 disk", "3 disks".
func disksText(n int, en bool) string {
	if n == 1 {
		return i18n.Of(en).T("release.disks.one", n)
	}
	return i18n.Of(en).T("release.disks.many", n)
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
		return i18n.Of(en).T("release.left.days", int(math.Round(d.Hours()/24)))
	}
	n := max(1, int(math.Ceil(d.Hours()-1e-9)))
	if n == 1 {
		return i18n.Of(en).T("release.left.hour")
	}
	return i18n.Of(en).T("release.left.hours", n)
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
		return i18n.Of(en).T("release.span.days", int(d.Hours()/24))
	case d >= time.Hour:
		return i18n.Of(en).T("release.span.hours", int(d.Hours()))
	}
	return i18n.Of(en).T("release.span.under_hour")
}
