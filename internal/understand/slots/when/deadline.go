package when

import (
	"strings"
	"time"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Deadline is a due date a plan question states relative to when it is
// asked ("ddl是下周五", "月底前交", "15号之前", "by Friday"). It is kept
// unresolved: the answer turns it into a span with the bot's clock
// (Days).
type Deadline struct {
	// Text is the words read, as folded.
	Text string `json:"text"`
	// Weekday is 1 (Monday) … 7 (Sunday); WeeksAhead is how many weeks on
	// ("下周五" 1, "下下周一" 2); ThisWeek is "这周五" / "本周五". A weekday
	// alone ("周五前", "by friday") is its next occurrence.
	Weekday    int  `json:"weekday,omitempty"`
	WeeksAhead int  `json:"weeks_ahead,omitempty"`
	ThisWeek   bool `json:"this_week,omitempty"`
	// MonthEnd is "月底" (the month's last day), MonthsAhead 1 for
	// "下个月底".
	MonthEnd    bool `json:"month_end,omitempty"`
	MonthsAhead int  `json:"months_ahead,omitempty"`
	// Day is a day of the month ("15号前"): this month's, or next month's
	// when it has passed.
	Day int `json:"day,omitempty"`
	// InDays is "明天" 1, "后天" 2, "大后天" 3.
	InDays int `json:"in_days,omitempty"`
}

// The due dates' words (configs/slots/deadline.yaml); weekdays and days
// from today are the vocabulary's (time.yaml, package words).
var (
	// reDeadlineNextWeek: "下周五", "下个星期三", "下下周一" (a due date with
	// or without a cue word: a plan question names a future weekday to
	// finish by).
	reDeadlineNextWeek = words.NewExpr("deadline.next_week")
	// reDeadlineThisWeek: "这周五", "本周日".
	reDeadlineThisWeek = words.NewExpr("deadline.this_week")
	// reDeadlineWeekday: a bare weekday with a cue: "周五前", "ddl是周五".
	reDeadlineWeekday = words.NewExprs("deadline.weekday", 2)
	// reDeadlineMonthEnd: "月底", "月末", "下个月底".
	reDeadlineMonthEnd = words.NewExpr("deadline.month_end")
	// reDeadlineDay: "15号前", "ddl是20号", "截止到5日".
	reDeadlineDay = words.NewExprs("deadline.day", 2)
	// reDeadlineSoon: "明天前", "后天要交", "ddl是明天".
	reDeadlineSoon = words.NewExprs("deadline.soon", 2)
	// reDeadlineEnglish: "by friday", "due next monday", "before thu".
	reDeadlineEnglish = words.NewExpr("deadline.english")
	// reDeadlineEnglishMonth: "by the end of the month", "by month end".
	reDeadlineEnglishMonth = words.NewExpr("deadline.english_month")
	// reDeadlineEnglishSoon: "by tomorrow".
	reDeadlineEnglishSoon = words.NewExpr("deadline.english_soon")
	// nextWords are the 下 of "下周五", "下个月底".
	nextWords = words.NewWords("deadline.next")
)

// ReadDeadline reads a due date (see Deadline) in folded text; nil when
// it names none.
func ReadDeadline(s string) *Deadline {
	at := func(d Deadline, m []string) *Deadline {
		d.Text = m[0]
		return &d
	}
	if m := reDeadlineNextWeek.FindStringSubmatch(s); m != nil {
		return at(Deadline{Weekday: words.WeekdayOf(m[2]), WeeksAhead: countWords(m[1], nextWords.List())}, m)
	}
	if m := reDeadlineThisWeek.FindStringSubmatch(s); m != nil {
		return at(Deadline{Weekday: words.WeekdayOf(m[1]), ThisWeek: true}, m)
	}
	if m := reDeadlineMonthEnd.FindStringSubmatch(s); m != nil {
		d := Deadline{MonthEnd: true}
		if countWords(m[1], nextWords.List()) > 0 {
			d.MonthsAhead = 1
		}
		return at(d, m)
	}
	for _, re := range reDeadlineWeekday.All() {
		if m := re.FindStringSubmatch(s); m != nil {
			return at(Deadline{Weekday: words.WeekdayOf(m[1])}, m)
		}
	}
	for _, re := range reDeadlineDay.All() {
		if m := re.FindStringSubmatch(s); m != nil {
			if v, ok := words.ParseNum(m[1]); ok && v >= 1 && v <= 31 {
				return at(Deadline{Day: int(v)}, m)
			}
		}
	}
	for _, re := range reDeadlineSoon.All() {
		if m := re.FindStringSubmatch(s); m != nil {
			days, _ := words.RelativeDayOf(m[1])
			return at(Deadline{InDays: days}, m)
		}
	}
	if m := reDeadlineEnglish.FindStringSubmatch(s); m != nil {
		d := Deadline{Weekday: words.WeekdayOf(m[2])}
		if m[1] != "" {
			d.WeeksAhead = 1
		}
		return at(d, m)
	}
	if m := reDeadlineEnglishMonth.FindStringSubmatch(s); m != nil {
		return at(Deadline{MonthEnd: true}, m)
	}
	if m := reDeadlineEnglishSoon.FindStringSubmatch(s); m != nil {
		return at(Deadline{InDays: 1}, m)
	}
	return nil
}

// countWords is how many times words of ws are in s.
func countWords(s string, ws []string) int {
	n := 0
	for _, w := range ws {
		n += strings.Count(s, w)
	}
	return n
}

// ISOWeekday is 1 (Monday) … 7 (Sunday).
func ISOWeekday(t time.Time) int {
	if t.Weekday() == time.Sunday {
		return 7
	}
	return int(t.Weekday())
}

// Date is the due day (midnight, in now's location).
func (d Deadline) Date(now time.Time) time.Time {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	wd := ISOWeekday(today)
	switch {
	case d.Weekday > 0 && d.WeeksAhead > 0:
		// 下周五: Friday of the calendar week (Monday first) after this one.
		return today.AddDate(0, 0, 7*d.WeeksAhead+d.Weekday-wd)
	case d.Weekday > 0:
		ahead := d.Weekday - wd
		if ahead < 0 || ahead == 0 && !d.ThisWeek {
			ahead += 7
		}
		return today.AddDate(0, 0, ahead)
	case d.MonthEnd:
		// Day 0 of the month after is the month's last day.
		return time.Date(today.Year(), today.Month()+time.Month(1+d.MonthsAhead), 0, 0, 0, 0, 0, today.Location())
	case d.Day > 0:
		t := time.Date(today.Year(), today.Month(), d.Day, 0, 0, 0, 0, today.Location())
		if t.Day() != d.Day || !t.After(today) {
			t = time.Date(today.Year(), today.Month()+1, d.Day, 0, 0, 0, 0, today.Location())
		}
		return t
	case d.InDays > 0:
		return today.AddDate(0, 0, d.InDays)
	}
	return today
}

// Days is the span from now to the due day in whole calendar days (today
// up to the day before it, the due day's own hours left for handing in;
// at least 1).
func (d Deadline) Days(now time.Time) float64 {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	days := int(d.Date(now).Sub(today).Hours()/24 + 0.5)
	return float64(max(days, 1))
}
