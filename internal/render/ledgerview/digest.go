// Package ledgerview renders the storage ledger's answers: the digest
// (the week's or a period's spend, short with the rest behind "详情"),
// the release warnings and the disks at risk, registrations, the list,
// changes and the admin commands.
package ledgerview

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"

	"github.com/labgpu/bot/internal/billing/ledger"
	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// Digest renders a storage digest as a chat answer: the short form (the
// total first, then at most five members, platforms and idle disks, on
// one phone screen) with the rest behind "详情" (Full: every list up to
// DigestMoreRows rows). name turns platform ids into names.
func Digest(d ledger.Digest, en bool, name func(id string, en bool) string) chat.Reply {
	v := &digestView{d: d, en: en, l: i18n.Of(en), name: name, limit: DigestMoreRows}
	full := v.form(false)
	short := v.form(true)
	if chat.PlainText(full) != chat.PlainText(short) {
		short.Full = &full
	}
	return short
}

// DigestFull is the whole digest, every list complete (`bot digest`).
func DigestFull(d ledger.Digest, en bool, name func(id string, en bool) string) chat.Reply {
	return (&digestView{d: d, en: en, l: i18n.Of(en), name: name}).form(false)
}

// DigestMoreRows is the most rows a list has in the chat's "详情" (a
// lab with thousands of disks would otherwise fill the chat); the rest
// is counted, and `bot digest` prints all.
const DigestMoreRows = 50

// DigestTopN is how many members, platforms and idle disks the short
// form shows ("还有 N 人" for the rest).
const DigestTopN = render.ShortRows

// digestShortLines and digestScreenColumns bound the short form's text as
// the router does (commands/answer.MaxShortLines, ScreenColumns): a line
// wider than the screen counts once per screen width.
const (
	digestShortLines    = 12
	digestScreenColumns = 80
)

// digestView is a digest being rendered in the reader's language.
type digestView struct {
	d    ledger.Digest
	en   bool
	l    i18n.Lang
	name func(id string, en bool) string
	// limit is the most rows of a list in the full form (0: all).
	limit int
}

// capped is n rows cut to the full form's limit, and the line that
// counts the rest ("" when none is left out).
func (v *digestView) capped(n int, unit string) (int, string) {
	if v.limit == 0 || n <= v.limit {
		return n, ""
	}
	return v.limit, v.l.T("digest.more_rows", n-v.limit, unit)
}

// digestPart is one part of the digest view: its line (or two) in the
// short form, its lines and notes in the full form, and a table, of which
// the short form shows DigestTopN rows with More under them (the first
// part's table is the reply's; a later one is set as text lines).
// ShortMarked and FullMarked are set when a figure of that form carries
// the unverified mark (the legend follows). Optional parts are left out of
// the short form when it would not fit a phone screen.
type digestPart struct {
	Short, Full []string
	Table       *chat.Table
	More        string
	Notes       []string
	ShortMarked bool
	FullMarked  bool
	Optional    bool
}

// digestParts build the digest's parts in order. A new part of the digest
// (disks about to be released, …) is one more function here.
var digestParts = []func(v *digestView) digestPart{
	(*digestView).sharesPart,
	(*digestView).releasePart,
	(*digestView).unpricedPart,
	(*digestView).monthPart,
	(*digestView).moversPart,
	(*digestView).idlePart,
}

// releasePart is "即将被释放": the stopped disks a platform's rule will
// wipe (or by its rule already has), soonest first. The short form gives
// the soonest in one line and counts the rest (a lost disk costs more
// than any line of spend); the full form lists them.
func (v *digestView) releasePart() digestPart {
	d, en := v.d, v.en
	if len(d.ReleaseSoon) == 0 {
		return digestPart{}
	}
	c := render.ClockOf(d.From)
	line := func(a ledger.AtRisk) string {
		return v.l.T("release.line", a.Disk, v.name(a.Platform, en), GBText(a.SizeGB),
			ownerName(a.DiskState, en), whenText(c, a, d.ReleaseAsOf, en))
	}
	var soon []ledger.AtRisk
	gone := map[string]bool{}
	for _, a := range d.ReleaseSoon {
		if a.Gone(d.ReleaseAsOf) {
			gone[a.Disk] = true
		} else {
			soon = append(soon, a)
		}
	}
	var parts []string
	if len(soon) > 0 {
		a := soon[0] // one phone line: no owner (the job @mentions them), the rule's source in 详情
		when := whenText(c, a, d.ReleaseAsOf, en)
		if a.AtShutdown() {
			when = v.l.T("release.at_shutdown")
		}
		s := v.l.T("digest.release.short", a.Disk, v.name(a.Platform, en), GBText(a.SizeGB), when)
		if n := len(soon) - 1; n > 0 {
			s += v.l.T("digest.release.more", n)
		}
		parts = append(parts, s)
	}
	if len(gone) > 0 {
		parts = append(parts, v.l.T("digest.release.gone", len(gone)))
	}
	short := strings.Join(parts, v.l.T("meta.semi"))
	p := digestPart{Short: []string{short}, Full: []string{v.l.T("digest.release.full", len(d.ReleaseSoon))}}
	n, more := v.capped(len(d.ReleaseSoon), v.l.T("digest.unit.disks"))
	for _, a := range d.ReleaseSoon[:n] {
		p.Full = append(p.Full, "  "+line(a))
	}
	if more != "" {
		p.Full = append(p.Full, more)
	}
	return p
}

// form is the short or the full form. The short form keeps the parts
// that are not optional, then each optional part that still fits a phone
// screen.
func (v *digestView) form(short bool) chat.Reply {
	var parts []digestPart
	if !v.d.LastEntry.IsZero() {
		for _, f := range digestParts {
			if p := f(v); len(p.Short)+len(p.Full) > 0 || p.Table != nil {
				parts = append(parts, p)
			}
		}
	}
	if !short {
		return v.assemble(parts, false)
	}
	keep := make([]bool, len(parts))
	for i, p := range parts {
		keep[i] = !p.Optional
	}
	rep := v.assemble(kept(parts, keep), true)
	for i, p := range parts {
		if !p.Optional {
			continue
		}
		keep[i] = true
		if try := v.assemble(kept(parts, keep), true); replyLines(try) <= digestShortLines {
			rep = try
		} else {
			keep[i] = false
		}
	}
	return rep
}

// kept are the parts whose keep is set.
func kept(parts []digestPart, keep []bool) []digestPart {
	var out []digestPart
	for i, p := range parts {
		if keep[i] {
			out = append(out, p)
		}
	}
	return out
}

// assemble puts parts together as the short or the full form.
func (v *digestView) assemble(parts []digestPart, short bool) chat.Reply {
	en := v.en
	title, marked := v.title()
	rep := chat.Reply{Title: title, English: en}
	if v.d.LastEntry.IsZero() {
		rep.Lines = append(rep.Lines, v.l.T("digest.start"))
		return rep
	}
	for _, p := range parts {
		lines, m := p.Full, p.FullMarked
		if short {
			lines, m = p.Short, p.ShortMarked
		}
		rep.Lines = append(rep.Lines, lines...)
		marked = marked || m
		if p.Table != nil {
			t := *p.Table
			if short && len(t.Rows) > DigestTopN {
				t.Rows = t.Rows[:DigestTopN]
			}
			if rep.Table == nil {
				rep.Table = &t
			} else {
				// A reply has one table: a second one goes in as text.
				rep.Lines = append(rep.Lines, strings.Split(strings.TrimRight(chat.AlignTable(&t), "\n"), "\n")...)
			}
		}
		if short && p.More != "" {
			rep.Lines = append(rep.Lines, p.More)
		}
		if !short {
			rep.Notes = append(rep.Notes, p.Notes...)
		}
	}
	rep.Chart = v.chart()
	v.notes(&rep, short, marked)
	return rep
}

// replyLines counts a reply's title, lines and notes as a phone shows
// them (the table and the chart not counted), as the router does.
func replyLines(r chat.Reply) int {
	n := 0
	for _, l := range append(append([]string{r.Title}, r.Lines...), r.Notes...) {
		n += max(1, (runewidth.StringWidth(l)+digestScreenColumns-1)/digestScreenColumns)
	}
	return n
}

// title is the first line: the week and its total (or that there is
// nothing to report yet), and whether it carries the unverified mark.
func (v *digestView) title() (string, bool) {
	d := v.d
	week := v.periodTitle()
	if d.LastEntry.IsZero() {
		return week + v.l.T("digest.title.empty"), false
	}
	if v.newLedger() {
		return week + v.l.T(v.span("digest.title.new.week", "digest.title.new.period"), v.clock(d.FirstEntry)), false
	}
	total, marked := v.money(d.TotalCNY, v.weekPlatforms())
	line := week + v.l.T("digest.title.total", total)
	if n := len(d.UnpricedDisks); n > 0 {
		line = week + v.l.T("digest.title.total_unpriced", total, n)
	}
	switch {
	case d.DeltaPct != nil:
		delta := MoneyText(d.DeltaCNY)
		if d.DeltaCNY >= 0 {
			delta = "+" + delta
		}
		than := v.l.T("digest.title.than.week")
		if d.Week == "" {
			than = v.l.T("digest.title.than.period", v.before())
		}
		if d.AsOf.Before(d.To) && d.Week != "" {
			// A week in progress is compared with the same part of last week.
			than = v.l.T("digest.title.than.so_far")
		}
		line += v.l.T("digest.title.delta", than, delta, *d.DeltaPct)
	case d.TotalCNY > 0 && !d.FirstEntry.Before(d.From):
		line += v.l.T(v.span("digest.title.no_before.week", "digest.title.no_before.period"))
	case d.TotalCNY > 0 && d.Week != "":
		line += v.l.T("digest.title.zero_before.week")
	case d.TotalCNY > 0 && d.To.Sub(d.From) <= 24*time.Hour:
		line += v.l.T("digest.title.zero_before.day", v.before())
	case d.TotalCNY > 0:
		line += v.l.T("digest.title.zero_before.period", v.before())
	}
	if d.AsOf.Before(d.To) {
		line += v.l.T("digest.title.so_far", v.clock(d.AsOf))
	}
	return line + v.l.T("meta.period"), marked
}

// periodTitle starts the title: the ISO week and its days, or a scheduled
// digest's other period (its day, or its first and last day).
func (v *digestView) periodTitle() string {
	d := v.d
	c := render.ClockOf(d.From)
	first, last := c.Day(d.From), c.Day(d.To.Add(-time.Second))
	switch {
	case d.Week != "":
		return v.l.T("digest.period.week", d.Week, first, last)
	case first == last:
		return v.l.T("digest.period.day", first)
	}
	return v.l.T("digest.period.span", first, last)
}

// span is the key of the week's wording for an ISO week's digest and of
// the period's for any other.
func (v *digestView) span(week, period string) string {
	if v.d.Week != "" {
		return week
	}
	return period
}

// before names the span the period is compared with: as many days
// before it ("前 3 天", "the 3 days before").
func (v *digestView) before() string {
	days := int(math.Round(v.d.To.Sub(v.d.From).Hours() / 24))
	if days <= 1 {
		return v.l.T("digest.before.day")
	}
	return v.l.T("digest.before.days", days)
}

// newLedger reports whether the ledger began within the week and has
// nothing to show yet (a lab registered a minute ago).
func (v *digestView) newLedger() bool {
	d := v.d
	return !d.FirstEntry.Before(d.From) && roundCNY(d.TotalCNY) == 0 && len(d.UnpricedDisks) == 0
}

// clock is an instant as the digest prints it ("12-01 21:12"), in the
// zone the digest's week was computed in (the configured one).
func (v *digestView) clock(t time.Time) string { return render.ClockOf(v.d.From).Minute(t) }

// money is a CNY figure at two decimals, marked "*" when it rests on a
// price of one of platforms that only the seed articles give.
func (v *digestView) money(cny float64, platforms []string) (string, bool) {
	s := MoneyText(cny)
	if roundCNY(cny) == 0 {
		return s, false
	}
	for _, p := range platforms {
		if v.d.Unverified(p) {
			return s + "*", true
		}
	}
	return s, false
}

// weekPlatforms are the platforms the week's total rests on.
func (v *digestView) weekPlatforms() []string {
	var out []string
	for _, p := range v.d.Platforms {
		out = append(out, p.Name)
	}
	return out
}

// MoneyText is a CNY amount as the digest shows it: two decimals, none
// from 10,000 CNY on (a fen is noise there).
func MoneyText(cny float64) string {
	if math.Abs(cny) >= 1e4 {
		return strconv.FormatFloat(cny, 'f', 0, 64)
	}
	return strconv.FormatFloat(cny, 'f', 2, 64)
}

// SizeText is a total size: "628.4 TB" from 1,000 GB on, else GBText.
func SizeText(gb float64) string {
	if gb >= 1000 {
		return render.TrimF(math.Round(gb/100)/10) + " TB"
	}
	return GBText(gb)
}

// roundCNY is cny as shown (two decimals).
func roundCNY(cny float64) float64 { return math.Round(cny*100) / 100 }

// sharesPart is the members' and the platforms' shares: the top
// DigestTopN of each with how many more, all of them in the full form;
// shares that show as 0.00 are left out.
func (v *digestView) sharesPart() digestPart {
	d, en := v.d, v.en
	var p digestPart
	if v.newLedger() {
		return p
	}
	members := v.shareTexts(d.Members, func(s ledger.Share) (string, []string) { return s.Name, s.Platforms })
	platforms := v.shareTexts(d.Platforms, func(s ledger.Share) (string, []string) { return v.name(s.Name, en), []string{s.Name} })
	if len(members) == 0 {
		return p
	}
	for _, g := range []struct {
		label, unit string
		rows        []shareText
	}{
		{v.l.T("digest.shares.members"), v.l.T("digest.unit.members"), members},
		{v.l.T("digest.shares.platforms"), v.l.T("digest.unit.platforms"), platforms},
	} {
		var top []string
		for i, r := range g.rows {
			if i == DigestTopN {
				break
			}
			top = append(top, r.text)
			p.ShortMarked = p.ShortMarked || r.marked
		}
		line := g.label + strings.Join(top, v.l.T("list.sep"))
		if more := len(g.rows) - len(top); more > 0 {
			line += v.l.T("digest.shares.more", more, g.unit)
		}
		p.Short = append(p.Short, line)
		p.Full = append(p.Full, strings.TrimSpace(g.label))
		n, more := v.capped(len(g.rows), g.unit)
		for _, r := range g.rows[:n] {
			p.Full = append(p.Full, "  "+r.text)
			p.FullMarked = p.FullMarked || r.marked
		}
		if more != "" {
			p.Full = append(p.Full, more)
		}
	}
	return p
}

// shareText is one share as shown.
type shareText struct {
	text   string
	marked bool
}

// shareTexts are the shares that show as more than 0.00: "张伟 80.00（45%）".
func (v *digestView) shareTexts(shares []ledger.Share, label func(ledger.Share) (string, []string)) []shareText {
	var out []shareText
	for _, s := range shares {
		if roundCNY(s.CNY) == 0 {
			continue
		}
		name, platforms := label(s)
		cny, marked := v.money(s.CNY, platforms)
		out = append(out, shareText{v.l.T("digest.shares.share", name, cny, s.Share*100), marked})
	}
	return out
}

// moversPart is the disks whose cost changed most against last week: the
// largest in the short form (left out when the screen is full), all kept
// ones in the full form.
func (v *digestView) moversPart() digestPart {
	en := v.en
	p := digestPart{Optional: true}
	for i, m := range v.d.Movers {
		prev, _ := v.money(m.PreviousCNY, []string{m.Platform})
		cur, marked := v.money(m.CNY, []string{m.Platform})
		line := v.l.T("digest.movers.line", m.Disk, m.Owner, v.name(m.Platform, en), prev, cur)
		if i == 0 {
			p.Short = []string{v.l.T("digest.movers.short", line)}
			p.ShortMarked = marked
			p.Full = append(p.Full, v.l.T("digest.movers.title"))
		}
		p.Full = append(p.Full, "  "+line)
		p.FullMarked = p.FullMarked || marked
	}
	return p
}

// monthPart is the month to date and the forecast, as lower bounds when
// disks are unpriced; for a ledger begun this week, what its disks cost.
func (v *digestView) monthPart() digestPart {
	d := v.d
	mtd, m1 := v.money(d.MonthToDateCNY, d.MonthPlatforms)
	fc, m2 := v.money(d.ForecastCNY, d.MonthPlatforms)
	// Optional in the short form: a lab with disks about to be released
	// and unpriced ones may need the line for those.
	p := digestPart{ShortMarked: m1 || m2, FullMarked: m1 || m2, Optional: len(d.ReleaseSoon) > 0}
	if v.newLedger() {
		monthly, m := v.money(d.DailyCNY*30, d.MonthPlatforms)
		line := v.l.T("digest.month.new", d.Disks, SizeText(d.SizeGB), monthly)
		if d.MonthUnpriced > 0 {
			line += v.l.T("digest.month.new_unpriced", d.MonthUnpriced)
		}
		line += v.l.T("meta.period")
		return digestPart{Short: []string{line}, Full: []string{line}, ShortMarked: m, FullMarked: m}
	}
	line := v.l.T("digest.month.line", d.Month, mtd, fc)
	p.Short, p.Full = []string{line}, []string{line}
	if d.MonthUnpriced > 0 {
		p.Short = []string{v.l.T("digest.month.short_unpriced", d.Month, mtd, fc)}
		p.Full = []string{v.l.T("digest.month.full_unpriced",
			d.Month, mtd, fc, d.MonthUnpriced)}
	}
	return p
}

// unpricedPart lists the week's disks whose platform has no price, with
// the config keys that price them.
func (v *digestView) unpricedPart() digestPart {
	d, en := v.d, v.en
	var p digestPart
	if len(d.UnpricedDisks) == 0 {
		return p
	}
	count, gb := map[string]int{}, map[string]float64{}
	var order, keys, per []string
	for _, u := range d.UnpricedDisks {
		if count[u.Platform] == 0 {
			order = append(order, u.Platform)
		}
		count[u.Platform]++
		gb[u.Platform] += u.SizeGB
	}
	for _, id := range order {
		keys = append(keys, ledger.PriceConfigKey(id))
		if len(order) == 1 {
			per = append(per, v.l.T("digest.unpriced.one", v.name(id, en), SizeText(gb[id])))
			break
		}
		per = append(per, v.l.T("digest.unpriced.per", v.name(id, en), count[id], SizeText(gb[id])))
	}
	fix := v.l.T("digest.unpriced.fix", strings.Join(keys, v.l.T("list.sep")))
	p.Short = []string{v.l.T("digest.unpriced.short", len(d.UnpricedDisks), strings.Join(per, v.l.T("meta.semi"))) +
		v.l.T("digest.unpriced.short_fix", strings.Join(keys, v.l.T("list.sep")))}
	p.Full = append(p.Full, v.l.T("digest.unpriced.title"))
	n, more := v.capped(len(d.UnpricedDisks), v.l.T("digest.unit.disks"))
	for _, u := range d.UnpricedDisks[:n] {
		p.Full = append(p.Full, v.l.T(v.span("digest.unpriced.row.week", "digest.unpriced.row.period"), u.Disk, u.Owner, v.name(u.Platform, en), GBText(u.SizeGB), render.TrimF(u.Days)))
	}
	if more != "" {
		p.Full = append(p.Full, more)
	}
	p.Full = append(p.Full, v.l.T("digest.unpriced.config", fix))
	return p
}

// idlePart is the idle disks worth deleting or moving (those that save
// something), dearest first: five rows in the short form and what all of
// them save, the rest in the full form.
func (v *digestView) idlePart() digestPart {
	d, en := v.d, v.en
	var p digestPart
	var rows [][]string
	var rowMarked []bool
	saving, unpriced := 0.0, 0
	var platforms []string
	for _, i := range d.Idle {
		save, marked := v.l.T("digest.idle.unpriced"), false
		if i.MonthlyCNY == nil {
			unpriced++
		} else {
			if math.Round(*i.MonthlyCNY*10) == 0 {
				continue // deleting it saves nothing
			}
			saving += *i.MonthlyCNY
			platforms = append(platforms, i.Platform)
			save = strconv.FormatFloat(*i.MonthlyCNY, 'f', 1, 64)
			if d.Unverified(i.Platform) {
				save, marked = save+"*", true
			}
		}
		why := v.l.T("digest.idle.stopped", i.Days)
		if i.Reason == "unchanged" {
			why = v.l.T("digest.idle.unchanged", i.Days)
		}
		rows = append(rows, []string{"#" + i.Disk, i.Owner, v.name(i.Platform, en), GBText(i.SizeGB), why, save})
		rowMarked = append(rowMarked, marked)
	}
	if len(rows) == 0 {
		return p
	}
	n, more := v.capped(len(rows), v.l.T("digest.unit.idle"))
	p.Table = &chat.Table{Header: v.l.L("digest.idle.header"), Rows: rows[:n]}
	total, m := v.money(saving, platforms)
	p.ShortMarked, p.FullMarked = slices.Contains(rowMarked[:min(n, DigestTopN)], true), m || slices.Contains(rowMarked[:n], true)
	sum := v.l.T("digest.idle.saves", total)
	if unpriced > 0 {
		sum = v.l.T("digest.idle.saves_at_least", total)
	}
	if unpriced == len(rows) {
		sum = v.l.T("digest.idle.all_unpriced")
	}
	if len(rows) > DigestTopN {
		p.More = v.l.T("digest.idle.more", len(rows)-DigestTopN, sum)
		p.ShortMarked = p.ShortMarked || m
	}
	if unpriced > 0 && unpriced < len(rows) {
		sum += v.l.T("digest.idle.some_unpriced", unpriced)
	}
	p.Full = []string{v.l.T("digest.idle.title", len(rows), sum)}
	if more != "" {
		p.Notes = append(p.Notes, strings.TrimSpace(more))
	}
	p.Notes = append(p.Notes, v.l.T("digest.idle.note"))
	return p
}

// chart is the weekly history from the first week with a ledger entry
// (nil when nothing was spent).
func (v *digestView) chart() *chat.BarChart {
	d := v.d
	c := &chat.BarChart{Unit: v.l.T("digest.chart.unit")}
	first := ledger.WeekOf(d.FirstEntry, d.From.Location())
	positive := false
	for _, w := range d.History {
		if w.Week < first {
			continue
		}
		label := w.Week[5:]
		if from, _, err := ledger.ISOWeek(w.Week, d.From.Location()); err == nil {
			label = from.Format("01-02") // the week's Monday: readers know dates, not ISO week numbers
		}
		c.Labels = append(c.Labels, label)
		c.Values = append(c.Values, w.CNY)
		positive = positive || roundCNY(w.CNY) > 0
	}
	if !positive || len(c.Values) < 2 {
		return nil
	}
	c.Title = v.l.T("digest.chart.title", len(c.Values))
	return c
}

// notes are the notes under the digest: in the full form the parts'
// notes, skipped entries and the prices used; the unverified legend when
// a figure shown carries the mark; where the figures come from.
func (v *digestView) notes(rep *chat.Reply, short, marked bool) {
	d, en := v.d, v.en
	if !short {
		if d.Skipped > 0 {
			rep.Notes = append(rep.Notes, v.l.T("digest.skipped", d.Skipped))
		}
		if ps := v.priceTexts(); len(ps) > 0 {
			rep.Notes = append(rep.Notes, v.l.T("digest.prices", strings.Join(ps, v.l.T("meta.semi"))))
			marked = marked || v.anyUnverified()
		}
	}
	if marked {
		rep.Notes = append(rep.Notes, render.UnverifiedFigureNote(en))
	}
	last := render.ClockOf(d.From).DateMinute(d.LastEntry)
	if short {
		rep.Notes = append(rep.Notes, v.l.T("digest.source.short", v.clock(d.LastEntry)))
		return
	}
	rep.Notes = append(rep.Notes, v.l.T("digest.source.full", last))
}

// priceTexts are the prices the digest used, one per priced platform.
func (v *digestView) priceTexts() []string {
	en := v.en
	var ps []string
	for _, p := range v.d.Prices {
		if !p.Priced {
			continue // listed under 未计价 with the key that prices it
		}
		src := v.l.T("digest.price.catalog")
		if p.AsOf != "" {
			src += " " + p.AsOf
		}
		if p.Override {
			src = v.l.T("digest.price.override")
		}
		price := strconv.FormatFloat(p.CNYPerGBDay, 'g', 4, 64)
		if !p.Verified {
			price += "*"
		}
		ps = append(ps, v.l.T("digest.price.line", v.name(p.Platform, en), price, p.FreeGB, src))
	}
	return ps
}

// anyUnverified reports whether a price used is seed-only.
func (v *digestView) anyUnverified() bool {
	for _, p := range v.d.Prices {
		if p.Priced && !p.Verified {
			return true
		}
	}
	return false
}

func GBText(gb float64) string {
	if gb >= 1000 && int(gb)%100 == 0 {
		return strconv.FormatFloat(gb/1000, 'f', -1, 64) + " TB"
	}
	return strconv.FormatFloat(gb, 'f', -1, 64) + " GB"
}
