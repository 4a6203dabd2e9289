// Package availability answers "4090 什么时候好抢" / "when is an A100
// usually free" from the availability history (internal/history): the
// best and worst windows of the week in one sentence, a 7×24 heat map of
// the share of polls with stock, the wait from sold out to available at
// this hour of the week, and how many days it rests on.
package availability

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/labgpu/bot/internal/chat"
	"github.com/labgpu/bot/internal/commands/answer"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/understand"
)

// Answers answers the availability intent.
type Answers struct {
	Env *answer.Env
	// H is the history (nil: none kept here); Loc the time zone of hours.
	H   *history.Recorder
	Loc *time.Location
}

// Result is an availability answer: the query, the figures, the reply.
type Result struct {
	understand.Query
	Availability *Figures
	Question     string
	Reply        chat.Reply
}

// Figures are the rows behind the answer (`bot ask --format json`).
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
// all day), and the known 10-minute slots behind it (0: no data).
type AskedRow struct {
	Days  []int   `json:"days,omitempty"`
	Hours []int   `json:"hours,omitempty"`
	Share float64 `json:"share"`
	Slots int     `json:"slots"`
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

// Anecdote is the seeds' evening-queue report, shown (labelled) when there
// is no history: a 2025 rental review (one of the two articles the project was started from).
func Anecdote(en bool) string {
	return answer.Pick(en,
		"传闻（一篇 2025 年租卡测评作者的个人经历，不是本机的数据）：晚高峰 19:00–23:00 开机常要排队 1–3 小时（秘塔智算），AutoDL 通常 10–30 分钟；作者白天错峰开机。",
		"Anecdote (one 2025 rental review's author, not this bot's data): in the 19:00–23:00 evening peak starting a card took a 1–3 hour queue (秘塔智算), usually 10–30 minutes on AutoDL; the author started cards in the daytime.")
}

// Availability answers the question in res.Query. Budget: one
// history.Profile (under 10 ms on a year-scale history, see the
// benchmark) and no store access.
func (a *Answers) Availability(_ context.Context, res *Result) {
	q := res.Query
	en := q.English
	if len(q.GPUs) == 0 {
		res.Question = answer.Pick(en, "哪张卡？例如“4090 什么时候好抢”“AutoDL A100 一般几点有货”。", "Which GPU? e.g. “when is a 4090 usually free”.")
		res.Reply = chat.Reply{Title: res.Question}
		return
	}
	now := a.Env.Now()
	gpu, pf := a.profile(q.GPUs, q.Platforms, now)
	where := ""
	if len(q.Platforms) > 0 {
		where = a.Env.Rd.PlatformNames(q.Platforms, en) + " "
	}
	if !pf.Known() {
		res.Reply = chat.Reply{Title: fmt.Sprintf(answer.Pick(en,
			"还没有 %s%s 的库存历史，说不出什么时候好抢：机器人轮询到实时库存后才会积累（也可以 bot history import 导入别的组的）。",
			"No stock history of %s%s yet, so I cannot say when it is usually free: it builds up as the bot polls live stock (or import one with bot history import)."), where, gpu),
			Lines: []string{Anecdote(en)}}
		res.Availability = &Figures{GPU: gpu, Platforms: q.Platforms}
		return
	}
	fig := figures(&pf, now, a.loc())
	var asked *Asked
	if w, ok := askedWindow(q.Asked, now, a.loc()); ok {
		asked = &w
		share, slots := w.share(&pf)
		fig.Asked = &AskedRow{Days: w.Days, Hours: w.Hours, Share: round2(share), Slots: slots}
	}
	res.Availability = fig
	res.Reply = a.reply(&pf, fig, asked, now, en)
}

// profile is the history of the GPU asked about: of a family named
// without its size ("A100"), the variant with the most days of history
// (the first when none has any).
func (a *Answers) profile(gpus, platforms []string, now time.Time) (string, history.Profile) {
	gpu := gpus[0]
	var pf history.Profile
	if a.H == nil {
		return gpu, pf
	}
	for _, id := range gpus {
		if p := a.H.Profile(id, platforms, now, a.loc()); p.Days > pf.Days {
			gpu, pf = id, p
		}
	}
	return gpu, pf
}

func (a *Answers) loc() *time.Location {
	if a.Loc != nil {
		return a.Loc
	}
	return time.Local
}

func figures(pf *history.Profile, now time.Time, loc *time.Location) *Figures {
	f := &Figures{GPU: pf.GPU, Platforms: pf.Platforms, Days: pf.Days, From: pf.From, To: pf.To}
	f.Best, f.Worst = pf.Windows()
	for d := range 7 {
		for h := range 24 {
			x := pf.Hours[d][h]
			if x.Weight > 0 {
				f.Hours = append(f.Hours, HourRow{Day: d, Hour: h, Share: round2(x.Share), PriceCNY: x.Price, Slots: x.Weight})
			}
		}
	}
	if w := pf.WaitAt(history.HourOfWeek(now, loc)); w.Samples > 0 {
		f.WaitNow = &WaitRow{MedianMinutes: w.Median.Minutes(), P90Minutes: w.P90.Minutes(), Samples: w.Samples}
	}
	return f
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// HeatMap is pf as a 7×24 heat map chart (rows Monday to Sunday, columns
// hours; unknown hours NaN), titled and labelled in en's language.
func HeatMap(pf *history.Profile, en bool) *chat.BarChart {
	days := []string{"一", "二", "三", "四", "五", "六", "日"}
	if en {
		days = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	}
	h := &chat.HeatMap{Rows: days, Legend: answer.Pick(en, "有货比例：█ 高 ▓ ▒ ░ 低，空白 0，· 无数据", "share with stock: █ high ▓ ▒ ░ low, blank 0, · no data")}
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
	return &chat.BarChart{Title: answer.Pick(en, "按星期×小时的有货比例", "Share of polls with stock, by day × hour"), Heat: h}
}
