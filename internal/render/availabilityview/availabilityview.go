// Package availabilityview renders the availability answer ("4090 什么时候
// 好抢" / "when is an A100 usually free"): the best and worst windows of
// the week in one sentence, or how available the card is in the window
// the question names; a 7×24 heat map of the share of polls with stock;
// the wait from sold out to available at this hour of the week; and,
// behind "详情", each hour of the day on weekdays and weekends.
package availabilityview

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render"
)

// Availability is the availability answer: the figures behind it
// (`bot ask --format json`), or the question asked back when the message
// named no card, and the history they come from.
type Availability struct {
	Lang i18n.Lang `json:"-"`
	// Figures are the rows behind the answer; nil when Question asks which
	// card.
	Figures  *Figures `json:"availability,omitempty"`
	Question string   `json:"question,omitempty"`
	// Where are the platforms the question named (the answer without
	// history names them).
	Where []string `json:"-"`
	// Profile is the history of Figures.GPU (nil or not Known: none yet);
	// HourOfWeek is this hour of the week in the bot's time zone (0:
	// Monday 00:00–01:00).
	Profile    *history.Profile `json:"-"`
	HourOfWeek int              `json:"-"`
	// Names are the names of the days and parts of the day the answer
	// says (the vocabulary's).
	Names *Names `json:"-"`
	// Verdict answers "好抢吗" (nil when it was not asked): its word
	// opens the first line.
	Verdict *render.Verdict `json:"verdict,omitempty"`
}

// Figures are the rows behind the answer.
type Figures struct {
	GPU       string   `json:"gpu"`
	Platforms []string `json:"platforms"`
	// Days is how many days of history the answer rests on.
	Days  int            `json:"days"`
	From  time.Time      `json:"from,omitzero"`
	To    time.Time      `json:"to,omitzero"`
	Best  history.Window `json:"best"`
	Worst history.Window `json:"worst"`
	// Hours are the hours of the week with data: day 0 is Monday.
	Hours []HourRow `json:"hours"`
	// WaitNow is the wait when sold out at this hour of the week.
	WaitNow *WaitRow `json:"wait_now,omitempty"`
	// Asked is the window the question names ("周末晚上"), if any.
	Asked *AskedRow `json:"asked,omitempty"`
}

// AskedRow is the share with stock in the window a question names: its
// days of the week (0 Monday; none: every day) and local hours (none:
// all day), and the known 10-minute slots behind it (0: no data). The
// rest says how the question named it.
type AskedRow struct {
	Days  []int   `json:"days,omitempty"`
	Hours []int   `json:"hours,omitempty"`
	Share float64 `json:"share"`
	Slots int     `json:"slots"`
	// Set is a named set of days ("weekend", "weekday"); Relative a day
	// counted from today (RelDays on: 0 today, 1 tomorrow, 2 the day
	// after), whose day of the week is Days[0]; else one day of the week
	// or none.
	Set      string `json:"-"`
	Relative bool   `json:"-"`
	RelDays  int    `json:"-"`
	// Part is the part of the day named ("evening" …, the ids of
	// configs/slots/time.yaml), Clock a clock time; Start and End their
	// hours.
	Part       string `json:"-"`
	Clock      bool   `json:"-"`
	Start, End int    `json:"-"`
}

// HourRow is one hour of the week.
type HourRow struct {
	Day   int     `json:"day"`
	Hour  int     `json:"hour"`
	Share float64 `json:"share"`
	// PriceCNY is the median lowest in-stock price (0: none seen).
	PriceCNY float64 `json:"median_price_cny,omitempty"`
	Slots    int     `json:"slots"`
}

// WaitRow is a wait in minutes.
type WaitRow struct {
	MedianMinutes float64 `json:"median_minutes"`
	P90Minutes    float64 `json:"p90_minutes"`
	Samples       int     `json:"samples"`
}

// fewDays is how many days of history a weekly pattern needs before the
// answer stops saying it is thin.
const fewDays = 14

// flatShare is the gap between the best and worst windows' shares below
// which the week has no best or worst hours worth naming.
const flatShare = 0.1

// Reply is the answer: the best and worst windows first, or, when the
// question names a window, how available the card is then and the best
// and worst windows after.
func (a Availability) Reply(rd *render.Renderer) chat.Reply {
	l := a.Lang
	switch {
	case a.Figures == nil:
		return chat.Reply{Title: a.Question}
	case a.Profile == nil || !a.Profile.Known():
		where := ""
		if len(a.Where) > 0 {
			where = rd.PlatformNames(a.Where, l.English()) + " "
		}
		return chat.Reply{Title: l.T("availability.no_history", where, a.Figures.GPU), Lines: []string{l.T("availability.anecdote")}}
	}
	pf, f := a.Profile, a.Figures
	n := a.Names
	title := l.T("availability.title", pf.GPU, WindowText(f.Best, n, l), WindowText(f.Worst, n, l))
	if f.Best.Share-f.Worst.Share < flatShare {
		// No best or worst hours: one figure, not the same window twice.
		title = l.T("availability.title_flat", pf.GPU, (f.Best.Share+f.Worst.Share)/2*100)
	}
	rep := chat.Reply{Title: title, Chart: HeatMap(pf, l)}
	if f.Asked != nil {
		rep.Title = askedLine(f.Asked, pf, n, l)
		overall := l.T("availability.overall", WindowText(f.Best, n, l), WindowText(f.Worst, n, l))
		if f.Best.Share-f.Worst.Share < flatShare {
			overall = l.T("availability.overall_flat", (f.Best.Share+f.Worst.Share)/2*100)
		}
		rep.Lines = append(rep.Lines, overall)
	}
	rep.Lines = append(rep.Lines, l.T("availability.basis", pf.Days, rd.PlatformNames(pf.Platforms, l.English())))
	few := -1
	if pf.Days < fewDays {
		few = len(rep.Lines)
		rep.Lines = append(rep.Lines, l.T("availability.few_days", pf.Days))
	}
	how := a.HourOfWeek
	if x := pf.Hours[how/24][how%24]; x.Weight > 0 {
		line := l.T("availability.now", x.Share*100)
		if w := WaitText(pf.WaitAt(how), pf.Days, l); w != "" {
			line = l.T("availability.now_wait", x.Share*100, w)
		}
		rep.Lines = append(rep.Lines, line)
	}
	if a.Verdict != nil {
		// The verdict's word first, the share after it.
		why := rep.Title
		if f.Asked != nil {
			why = askedWhy(f.Asked, pf, n, l)
		}
		rep.Title = a.Verdict.Line(why, l)
	}
	full := rep
	full.Table = hourTable(pf, l)
	full.Notes = []string{l.T("availability.note")}
	return a.phone(rep, full, few, pf.Days)
}

// phone is the short form on one phone screen: the lines (that the
// history is thin in fewer words: line few, -1 none) and the heat map
// without its title when it fits with the first line or more of them
// (the last ones, this hour's figures, then in 详情 only); the rest
// behind 详情 (full).
func (a Availability) phone(rep, full chat.Reply, few, days int) chat.Reply {
	short := chat.Reply{Title: rep.Title, Lines: slices.Clone(rep.Lines), Full: &full}
	if few >= 0 {
		short.Lines[few] = a.Lang.T("availability.few_days_short", days)
	}
	if rep.Chart == nil {
		return short
	}
	c := *rep.Chart
	c.Title = ""
	// Never without the first line (the basis) nor a thin history's
	// caveat.
	for k := len(short.Lines); k >= max(1, few+1); k-- {
		with := short
		with.Lines, with.Chart = short.Lines[:k], &c
		if render.FitsPhone(with) {
			return with
		}
	}
	return short
}

// daily is the history's window on every day of the week
// (history.Window.Days; the others are sets of Names).
const daily = "daily"

// WindowText says a window: "工作日 7–12 点（有货 96%）", "周末全天（有货
// 100%）", "每天 9–12 点（有货 80%）".
func WindowText(w history.Window, n *Names, l i18n.Lang) string {
	whole := w.Start == 0 && w.End == 24
	switch {
	case w.End == 0:
		return l.T("availability.window.none")
	case w.Days == daily && whole:
		return l.T("availability.window.daily_all_day", w.Share*100)
	case w.Days == daily:
		return l.T("availability.window.daily_hours", w.Start, w.End, w.Share*100)
	}
	days := n.set(w.Days, l)
	if whole {
		return l.T("availability.window.all_day", days, w.Share*100)
	}
	return l.T("availability.window.hours", days, w.Start, w.End, w.Share*100)
}

// WaitText says the typical wait from sold out to in stock, with the
// weeks it rests on: "过去 4 周这个时段缺货时通常 1.5 小时内有货（90% 在
// 3 小时内）"; "" without samples.
func WaitText(w history.Wait, days int, l i18n.Lang) string {
	if w.Samples == 0 {
		return ""
	}
	span := l.T("availability.wait.weeks", (days+3)/7)
	if days < 7 {
		span = l.T("availability.wait.days", days)
	}
	return l.T("availability.wait.line", span, Duration(w.Median, l), Duration(w.P90, l))
}

// Duration is a wait in words, rounded to 10 minutes or half hours.
func Duration(d time.Duration, l i18n.Lang) string {
	switch {
	case d < time.Hour:
		m := max(10, int((d+5*time.Minute)/(10*time.Minute))*10)
		return l.T("availability.duration.minutes", m)
	case d < 48*time.Hour:
		h := float64((d+15*time.Minute)/(30*time.Minute)) / 2
		return l.T("availability.duration.hours", h)
	}
	return l.T("availability.duration.days", d.Hours()/24)
}

// WaitLine is the line a subscription reply adds from the history at
// this hour of the week (how): the typical wait when sold out, else how
// often it had stock; "" without history or data at this hour.
func WaitLine(pf *history.Profile, how int, l i18n.Lang) string {
	if pf == nil || !pf.Known() {
		return ""
	}
	if w := WaitText(pf.WaitAt(how), pf.Days, l); w != "" {
		return w
	}
	// No sold-out spell at this hour to time: how often it had stock.
	if x := pf.Hours[how/24][how%24]; x.Weight > 0 {
		return l.T("availability.subscribe_share", pf.Days, x.Share*100)
	}
	return ""
}

// hourTable is the full form's table: each hour of the day, weekdays and
// weekends, share and median price.
func hourTable(pf *history.Profile, l i18n.Lang) *chat.Table {
	t := &chat.Table{Header: slices.Clone(l.L("availability.table.header"))}
	for h := range 24 {
		row := []string{fmt.Sprintf("%02d", h)}
		var prices []float64
		for _, days := range [][]int{{0, 1, 2, 3, 4}, {5, 6}} {
			var s float64
			var w int
			for _, d := range days {
				x := pf.Hours[d][h]
				s += x.Share * float64(x.Weight)
				w += x.Weight
				if x.Price > 0 {
					prices = append(prices, x.Price)
				}
			}
			cell := "—"
			if w > 0 {
				cell = fmt.Sprintf("%.0f%%", s/float64(w)*100)
			}
			row = append(row, cell)
		}
		price := "—"
		if len(prices) > 0 {
			price = fmt.Sprintf("%.2f", medianOf(prices))
		}
		t.Rows = append(t.Rows, append(row, price))
	}
	return t
}

func medianOf(v []float64) float64 {
	s := append([]float64(nil), v...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// HeatMap is pf as a 7×24 heat map chart (rows Monday to Sunday, columns
// hours; unknown hours NaN), titled and labelled in l.
func HeatMap(pf *history.Profile, l i18n.Lang) *chat.BarChart {
	h := &chat.HeatMap{Rows: slices.Clone(l.L("availability.heat.days")), Legend: l.T("availability.heat.legend")}
	for c := range 24 {
		h.Cols = append(h.Cols, fmt.Sprint(c))
	}
	for d := range 7 {
		row := make([]float64, 24)
		for c := range 24 {
			row[c] = math.NaN()
			if x := pf.Hours[d][c]; x.Weight > 0 {
				row[c] = x.Share
			}
		}
		h.Values = append(h.Values, row)
	}
	return &chat.BarChart{Title: l.T("availability.heat.title"), Heat: h}
}
