package frame

import (
	"slices"
	"strings"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/render/estimateview"
	"github.com/labgpu/bot/internal/understand"
)

// An edited answer says first, in one short line, what the follow-up
// changed ("换成 RTX 3090：…", "改成 2 张：…"): the differences between
// the frame's Query and the one answered, named in the answer's words.

// WithChange puts what changed from base to q before the reply's first
// line (unchanged when nothing nameable changed); after its verdict when
// the follow-up itself asked yes or no (yesNo: "恒源有吗", "and vast, any
// free?"), so the verdict stays first.
func WithChange(rd *render.Renderer, rep chat.Reply, base, q Query, yesNo bool) chat.Reply {
	if q.Intent == understand.IntentCompare && base.Intent != understand.IntentCompare {
		// A comparison asked of the last answer ("哪个更便宜", "比4090贵
		// 多少"): its first line names what it compares.
		return rep
	}
	l := i18n.Of(q.English)
	first := rep.Title
	if first == "" && len(rep.Lines) > 0 {
		first = rep.Lines[0]
	}
	// A change the answer's first line already opens with ("显存 ≥48 GB的卡：…")
	// is not said twice.
	parts := slices.DeleteFunc(changes(rd, base, q, l), func(p string) bool { return first != "" && strings.HasPrefix(first, p) })
	if len(parts) == 0 {
		return rep
	}
	head := l.T("router.frame.line", strings.Join(parts, l.T("router.frame.join")))
	if yesNo {
		// A yes/no follow-up ("恒源有吗", "and on vast, any?"): the verdict
		// stays first, what changed right after it ("有（换到 恒源云）：…").
		if w, rest, ok := render.CutVerdict(rep.Title, l); ok {
			rep.Title = l.T("router.frame.after_verdict", w, strings.Join(parts, l.T("router.frame.join"))) + rest
			return rep
		}
		if len(rep.Lines) > 0 {
			if w, rest, ok := render.CutVerdict(rep.Lines[0], l); ok {
				rep.Lines = append([]string{l.T("router.frame.after_verdict", w, strings.Join(parts, l.T("router.frame.join"))) + rest}, rep.Lines[1:]...)
				return rep
			}
		}
	}
	switch {
	case rep.Title != "":
		var names []string
		for _, g := range q.NamedGPUs {
			if !slices.Contains(base.NamedGPUs, g) {
				names = append(names, g)
			}
		}
		for _, p := range q.Platforms {
			if !slices.Contains(base.Platforms, p) {
				names = append(names, rd.PlatformName(p, l.English()))
			}
		}
		rep.Title = head + withoutName(rep.Title, names, l.L("router.frame.name_seps"))
	case len(rep.Lines) > 0:
		rep.Lines = append([]string{head + rep.Lines[0]}, rep.Lines[1:]...)
	default:
		rep.Title = strings.TrimRight(head, " ")
	}
	return rep
}

// withoutName is title without a leading card or platform name the
// change line already says ("换成 A100：A100：库存未知…" reads "换成 A100：
// 库存未知…"; "on vast.ai: vast.ai A100: …" reads "on vast.ai: A100: …").
func withoutName(title string, names, seps []string) string {
	for _, n := range names {
		for _, sep := range seps {
			if rest, ok := strings.CutPrefix(title, n+sep); ok && rest != "" {
				return rest
			}
		}
	}
	return title
}

// changes names what differs between base and q: cards, platforms, the
// count, price, billing mode and usage, the time asked about, and the
// job's figures.
func changes(rd *render.Renderer, base, q Query, l i18n.Lang) []string {
	var out []string
	add := func(cond bool, key string, args ...any) {
		if cond {
			out = append(out, l.T(key, args...))
		}
	}
	same := func(id string) string { return id }
	platform := func(id string) string { return rd.PlatformName(id, l.English()) }
	out = append(out, nameChanges(base.NamedGPUs, q.NamedGPUs, same, "router.frame.gpu", l)...)
	out = append(out, nameChanges(base.Platforms, q.Platforms, platform, "router.frame.platform", l)...)
	add(len(q.Platforms) == 0 && len(base.Platforms) > 0 && q.PlatformGroup == base.PlatformGroup, "router.frame.any_platform")
	people := q.People != base.People && q.People > 0 || q.Members != base.Members && q.Members > 0
	add(people, "router.frame.people", max(q.People, q.Members))
	add(q.GPUCount != base.GPUCount && q.GPUCount > 0 && !people, "router.frame.count", q.GPUCount)
	add(q.MaxPriceCNY != base.MaxPriceCNY && q.MaxPriceCNY > 0 && !q.Cheaper, "router.frame.price", render.TrimF(q.MaxPriceCNY))
	add(q.Cheaper && !q.FollowWhich && q.MaxPriceCNY != base.MaxPriceCNY, "router.frame.cheaper")
	modeSaid := modeSaid(base, q, l)
	add(q.BillingMode != base.BillingMode && q.BillingMode != "" && modeSaid, "router.frame.mode", render.ModeName(q.BillingMode, l.English()))
	add(q.SpanDays != base.SpanDays && q.SpanDays > 0, "router.frame.days", render.TrimF(q.SpanDays))
	add(q.HoursPerWeek != base.HoursPerWeek && q.HoursPerWeek > 0, "router.frame.hours_week", render.TrimF(q.HoursPerWeek))
	add(q.TotalHours != base.TotalHours && q.TotalHours > 0, "router.frame.hours_total", render.TrimF(q.TotalHours))
	if w := whenName(q.When, l); w != "" && !sameWhen(base.When, q.When) && q.Intent != understand.IntentPlan {
		out = append(out, l.T("router.frame.when", w))
	}
	add(q.Period != base.Period && q.Period != "", "router.frame.period", periodName(q.Period, l))
	add(q.Region != base.Region && q.Region != "", "router.frame.region", q.Region)
	add(q.PlatformGroup != base.PlatformGroup && q.PlatformGroup != "", "router.frame.group", render.GroupName(l, q.PlatformGroup))
	add(q.PeriodDays != base.PeriodDays && q.PeriodDays > 0 && q.SpanDays == base.SpanDays && (q.BillingMode == base.BillingMode || !modeSaid),
		"router.frame.days", render.TrimF(q.PeriodDays))
	add(q.VRAMMinGB != base.VRAMMinGB && q.VRAMMinGB > 0, "router.frame.vram_min", render.TrimF(q.VRAMMinGB))
	add(q.VRAMMaxGB != base.VRAMMaxGB && q.VRAMMaxGB > 0, "router.frame.vram_max", render.TrimF(q.VRAMMaxGB))
	add(q.BudgetTotalCNY != base.BudgetTotalCNY && q.BudgetTotalCNY > 0, "router.frame.budget", render.TrimF(q.BudgetTotalCNY))
	out = append(out, scheduleChanges(append(slices.Clone(base.Schedule), base.ScheduleAlso...), append(slices.Clone(q.Schedule), q.ScheduleAlso...), l)...)
	add(q.Intent == understand.IntentPlan && q.SizeGB != base.SizeGB && q.SizeGB > 0, "router.frame.disk", render.TrimF(q.SizeGB))
	return append(out, jobChanges(base, q, l)...)
}

// modeSaid reports whether a follow-up's billing mode is one it asked
// for: a plan named outright ("包周呢"), pay-as-you-go said other than as
// a time ("按量呢", not "一小时后呢"), another plan said without a new
// rental period ("monthly?", not "要是跑一周呢": its 7 days, a period
// the follow-up states, are the change).
func modeSaid(base, q Query, l i18n.Lang) bool {
	switch {
	case q.ModeNamed:
		return true
	case q.BillingMode == understand.ModeHourly:
		return whenName(q.When, l) == "" || sameWhen(base.When, q.When)
	}
	c, ok := q.Condition(understand.CondPeriod)
	return !ok || c.Value == base.PeriodDays
}

// scheduleChanges names the schedule's parts added ("加上 周末") or, when
// none of was is kept, the new schedule ("改成 白天").
func scheduleChanges(was, now []string, l i18n.Lang) []string {
	if slices.Equal(was, now) || len(now) == 0 {
		return nil
	}
	name := func(s string) string {
		switch s {
		case understand.ScheduleEvenings:
			return l.T("router.frame.schedules.evenings")
		case understand.ScheduleNights:
			return l.T("router.frame.schedules.nights")
		case understand.ScheduleDaytime:
			return l.T("router.frame.schedules.daytime")
		case understand.ScheduleWeekdays:
			return l.T("router.frame.schedules.weekdays")
		}
		return l.T("router.frame.schedules.weekends")
	}
	return nameChanges(was, now, name, "router.frame.schedule", l)
}

// nameChanges names the cards or platforms of now that were not in was:
// added to a comparison ("加上 …") when was is kept whole, else "换成 …".
func nameChanges(was, now []string, name func(string) string, key string, l i18n.Lang) []string {
	var added []string
	for _, n := range now {
		if !slices.Contains(was, n) {
			added = append(added, name(n))
		}
	}
	if len(added) == 0 {
		return nil
	}
	kept := len(was) > 0
	for _, w := range was {
		kept = kept && slices.Contains(now, w)
	}
	if kept {
		key = "router.frame.add"
	}
	return []string{l.T(key, strings.Join(added, l.T("router.frame.join")))}
}

// jobChanges names the job's figures that changed.
func jobChanges(base, q Query, l i18n.Lang) []string {
	var out []string
	add := func(cond bool, key string, args ...any) {
		if cond {
			out = append(out, l.T(key, args...))
		}
	}
	job := func(x Query) string {
		if x.Model != "" {
			return x.Model
		}
		if x.ParamsB > 0 {
			return render.TrimF(x.ParamsB) + "B"
		}
		return x.ModelText
	}
	// A size given where the question had none (the answer to "多大参数量？")
	// changes nothing the member saw.
	add(job(q) != job(base) && job(q) != "" && job(base) != "", "router.frame.job", job(q))
	add(q.Method != base.Method && q.Method != "", "router.frame.method", render.MethodName(q.Method, q.Bits, l.English()))
	add(q.SeqLen != base.SeqLen && q.SeqLen > 0, "router.frame.seq", q.SeqLen)
	add(q.Batch != base.Batch && q.Batch > 0, "router.frame.batch", q.Batch)
	add(q.Samples != base.Samples && q.Samples > 0, "router.frame.samples", estimateview.HumanNum(float64(q.Samples), l))
	add(q.Epochs != base.Epochs && q.Epochs > 0, "router.frame.epochs", render.TrimF(q.Epochs))
	add(q.LoRARank != base.LoRARank && q.LoRARank > 0, "router.frame.rank", q.LoRARank)
	add(q.Images != base.Images && q.Images > 0, "router.frame.images", q.Images)
	add(q.Runs != base.Runs && q.Runs > 0, "router.frame.runs", q.Runs)
	add(q.ZeRO != base.ZeRO && q.ZeRO > 0, "router.frame.zero", q.ZeRO)
	add(q.DataPercent != base.DataPercent && q.DataPercent > 0, "router.frame.data_share", render.TrimF(q.DataPercent))
	add(q.DPO && !base.DPO, "router.frame.dpo")
	return out
}

// whenName names the part of the week and day w asks about ("周末晚上",
// "明天"); "" for none.
func whenName(w *understand.WeekWindow, l i18n.Lang) string {
	if w == nil {
		return ""
	}
	var parts []string
	if w.Relative {
		for _, d := range understand.RelativeDays() {
			if d.Days == w.RelDays {
				parts = append(parts, d.Name.Pick(l.English()))
			}
		}
	}
	for _, p := range understand.WeekParts() {
		if p.ID == w.Set {
			parts = append(parts, p.Name.Pick(l.English()))
		}
	}
	if len(w.Days) == 1 && w.Set == "" {
		for _, d := range understand.Weekdays() {
			if d.ISO == w.Days[0]+1 {
				parts = append(parts, d.Name.Pick(l.English()))
			}
		}
	}
	for _, p := range understand.DayParts() {
		if p.ID == w.Part {
			parts = append(parts, p.Name.Pick(l.English()))
		}
	}
	return strings.Join(parts, " ")
}

// sameWhen reports whether two windows ask about the same time.
func sameWhen(a, b *understand.WeekWindow) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Set == b.Set && slices.Equal(a.Days, b.Days) && a.Relative == b.Relative && a.RelDays == b.RelDays &&
		a.Part == b.Part && a.Start == b.Start && a.End == b.End
}

// periodName names a digest's period ("上周").
func periodName(p string, l i18n.Lang) string {
	switch p {
	case understand.PeriodThisWeek:
		return l.T("router.frame.periods.this_week")
	case understand.PeriodLastWeek:
		return l.T("router.frame.periods.last_week")
	case understand.PeriodThisMonth:
		return l.T("router.frame.periods.this_month")
	}
	return l.T("router.frame.periods.last_month")
}
