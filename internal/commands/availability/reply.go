package availability

import (
	"fmt"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/history"
)

// fewDays is how many days of history a weekly pattern needs before the
// answer stops saying it is thin.
const fewDays = 14

// flatShare is the gap between the best and worst windows' shares below
// which the week has no best or worst hours worth naming.
const flatShare = 0.1

// reply is the answer: the best and worst windows first, or, when the
// question names a window (asked), how available the card is then and
// the best and worst windows after.
func (a *Answers) reply(pf *history.Profile, f *Figures, asked *Asked, now time.Time, en bool) chat.Reply {
	names := a.Env.Rd.PlatformNames(pf.Platforms, en)
	title := fmt.Sprintf(answer.Pick(en, "%s %s最好抢，%s最难抢。", "%s: easiest %s, hardest %s."),
		pf.GPU, WindowText(f.Best, en), WindowText(f.Worst, en))
	if f.Best.Share-f.Worst.Share < flatShare {
		// No best or worst hours: one figure, not the same window twice.
		title = fmt.Sprintf(answer.Pick(en, "%s 各个时段差不多：有货约 %.0f%%。", "%s: about the same at every hour, in stock about %.0f%% of the time."),
			pf.GPU, (f.Best.Share+f.Worst.Share)/2*100)
	}
	rep := chat.Reply{Title: title, Chart: HeatMap(pf, en)}
	if asked != nil {
		rep.Title = askedLine(*asked, pf, en)
		overall := fmt.Sprintf(answer.Pick(en, "整体看：%s最好抢，%s最难抢。", "Over the week: easiest %s, hardest %s."),
			WindowText(f.Best, en), WindowText(f.Worst, en))
		if f.Best.Share-f.Worst.Share < flatShare {
			overall = fmt.Sprintf(answer.Pick(en, "整体看：各个时段差不多，有货约 %.0f%%。", "Over the week: about the same at every hour, in stock about %.0f%%."),
				(f.Best.Share+f.Worst.Share)/2*100)
		}
		rep.Lines = append(rep.Lines, overall)
	}
	rep.Lines = append(rep.Lines, fmt.Sprintf(answer.Pick(en, "依据过去 %d 天的轮询（%s）。", "From %d days of polls (%s)."), pf.Days, names))
	if pf.Days < fewDays {
		rep.Lines = append(rep.Lines, fmt.Sprintf(answer.Pick(en, "只有 %d 天的数据，每周的规律还不可靠，仅供参考。", "Only %d days of data: the weekly pattern is not reliable yet."), pf.Days))
	}
	how := history.HourOfWeek(now, a.loc())
	x := pf.Hours[how/24][how%24]
	if x.Weight > 0 {
		line := fmt.Sprintf(answer.Pick(en, "现在这个时段通常 %.0f%% 的时间有货", "At this hour of the week it is in stock %.0f%% of the time"), x.Share*100)
		if w := WaitText(pf.WaitAt(how), pf.Days, en); w != "" {
			line += answer.Pick(en, "；", "; ") + w
		} else {
			line += answer.Pick(en, "。", ".")
		}
		rep.Lines = append(rep.Lines, line)
	}
	full := rep
	full.Table = hourTable(pf, en)
	full.Notes = []string{answer.Pick(en,
		"有货比例 = 轮询里看到有空闲卡的比例（同一时刻任一平台有货即算）；价格是有货时最低价的中位数，元/卡时。不知道库存的轮询不计入，也不算无货。",
		"Share = polls that saw a free card (any of the platforms at that time); price = median lowest in-stock price, CNY/GPU-hour. Polls that could not tell are left out, never counted as sold out.")}
	rep.Full = &full
	return rep
}

// WindowText says a window: "工作日 7–12 点（有货 96%）", "周末全天（有货
// 100%）".
func WindowText(w history.Window, en bool) string {
	if w.End == 0 {
		return answer.Pick(en, "（数据不够）", "(not enough data)")
	}
	days := map[string][2]string{"weekday": {"工作日", "weekdays"}, "weekend": {"周末", "weekends"}, "daily": {"每天", "every day"}}[w.Days]
	if w.Start == 0 && w.End == 24 {
		if en {
			return fmt.Sprintf("%s, all day (in stock %.0f%%)", days[1], w.Share*100)
		}
		return fmt.Sprintf("%s全天（有货 %.0f%%）", days[0], w.Share*100)
	}
	if en {
		return fmt.Sprintf("%s %02d:00–%02d:00 (in stock %.0f%%)", days[1], w.Start, w.End, w.Share*100)
	}
	return fmt.Sprintf("%s %d–%d 点（有货 %.0f%%）", days[0], w.Start, w.End, w.Share*100)
}

// WaitText says the typical wait from sold out to in stock, with the
// weeks it rests on: "过去 4 周这个时段缺货时通常 1.5 小时内有货（90% 在
// 3 小时内）"; "" without samples.
func WaitText(w history.Wait, days int, en bool) string {
	if w.Samples == 0 {
		return ""
	}
	span := fmt.Sprintf(answer.Pick(en, "过去 %d 周", "over the past %d weeks"), (days+3)/7)
	if days < 7 {
		span = fmt.Sprintf(answer.Pick(en, "过去 %d 天", "over the past %d days"), days)
	}
	return fmt.Sprintf(answer.Pick(en, "%s这个时段缺货时，通常 %s内有货（90%% 在 %s内）。", "%s, when sold out at this hour it was usually back within %s (90%% within %s)."),
		span, Duration(w.Median, en), Duration(w.P90, en))
}

// Duration is a wait in words, rounded to 10 minutes or half hours.
func Duration(d time.Duration, en bool) string {
	switch {
	case d < time.Hour:
		m := max(10, int((d+5*time.Minute)/(10*time.Minute))*10)
		return fmt.Sprintf(answer.Pick(en, "%d 分钟", "%d min"), m)
	case d < 48*time.Hour:
		h := float64((d+15*time.Minute)/(30*time.Minute)) / 2
		return fmt.Sprintf(answer.Pick(en, "%.1f 小时", "%.1f h"), h)
	}
	return fmt.Sprintf(answer.Pick(en, "%.0f 天", "%.0f days"), d.Hours()/24)
}

// hourTable is the full form's table: each hour of the day, weekdays and
// weekends, share and median price.
func hourTable(pf *history.Profile, en bool) *chat.Table {
	t := &chat.Table{Header: []string{answer.Pick(en, "时", "hour"), answer.Pick(en, "工作日有货", "weekdays"), answer.Pick(en, "周末有货", "weekends"), answer.Pick(en, "中位价", "median price")}}
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

// SubscribeLine is the line a subscription reply adds from the history:
// the typical wait when sold out at this hour of the week ("" without
// history or samples).
func (a *Answers) SubscribeLine(gpus, platforms []string, en bool) string {
	if a == nil || a.H == nil || len(gpus) == 0 {
		return ""
	}
	now := a.Env.Now()
	_, pf := a.profile(gpus, platforms, now)
	if !pf.Known() {
		return ""
	}
	how := history.HourOfWeek(now, a.loc())
	if w := WaitText(pf.WaitAt(how), pf.Days, en); w != "" {
		return w
	}
	// No sold-out spell at this hour to time: how often it had stock.
	if x := pf.Hours[how/24][how%24]; x.Weight > 0 {
		return fmt.Sprintf(answer.Pick(en, "过去 %d 天这个时段 %.0f%% 的时间有货（没有缺货后等多久的记录）。", "Over the past %d days it was in stock %.0f%% of the time at this hour (no sold-out spell to time)."),
			pf.Days, x.Share*100)
	}
	return ""
}
