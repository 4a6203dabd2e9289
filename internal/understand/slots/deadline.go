package slots

import (
	"time"

	"github.com/labgpu/bot/internal/textgate"
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

const (
	// weekdayPat is a weekday after 周/星期/礼拜.
	weekdayPat = `([一二三四五六日天1-7])`
	// cueAfter and cueBefore say a date is a due date: "前", "之前",
	// "截止", "交", "ddl是", "deadline".
	cueAfter  = `\s*(?:前|之前|以前|截止|为止|交|要交|due|ddl)`
	cueBefore = `(?:ddl|deadline|截止|截至|due|交)\s*(?:日期|时间)?\s*(?:是|在|为|到|:)?\s*`
	enWeekday = `(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b`
)

var (
	// reDeadlineNextWeek: "下周五", "下个星期三", "下下周一" (a due date with
	// or without a cue word: a plan question names a future weekday to
	// finish by).
	reDeadlineNextWeek = textgate.MustCompile(`((?:下个?)+)(?:周|星期|礼拜)` + weekdayPat)
	// reDeadlineThisWeek: "这周五", "本周日".
	reDeadlineThisWeek = textgate.MustCompile(`(?:这|本)个?(?:周|星期|礼拜)` + weekdayPat)
	// reDeadlineWeekday: a bare weekday with a cue: "周五前", "ddl是周五".
	reDeadlineWeekday = []*textgate.Regexp{
		textgate.MustCompile(`(?:周|星期|礼拜)` + weekdayPat + cueAfter),
		textgate.MustCompile(cueBefore + `(?:周|星期|礼拜)` + weekdayPat),
	}
	// reDeadlineMonthEnd: "月底", "月末", "下个月底".
	reDeadlineMonthEnd = textgate.MustCompile(`(下个?|这个?|本)?月(?:底|末)`)
	// reDeadlineDay: "15号前", "ddl是20号", "截止到5日".
	reDeadlineDay = []*textgate.Regexp{
		textgate.MustCompile(`(\d{1,2}|[一二三四五六七八九十]+)\s*(?:号|日)` + cueAfter),
		textgate.MustCompile(cueBefore + `(?:\d{1,2}\s*月\s*)?(\d{1,2}|[一二三四五六七八九十]+)\s*(?:号|日)`),
	}
	// reDeadlineSoon: "明天前", "后天要交", "ddl是明天".
	reDeadlineSoon = []*textgate.Regexp{
		textgate.MustCompile(`(大后天|后天|明天)` + cueAfter),
		textgate.MustCompile(cueBefore + `(大后天|后天|明天)`),
	}
	// reDeadlineEnglish: "by friday", "due next monday", "before thu".
	reDeadlineEnglish = textgate.MustCompile(`\b(?:by|before|due|until|till|deadline(?: is)?)\s+(?:(?:this|the)\s+)?(next\s+)?` + enWeekday)
	// reDeadlineEnglishMonth: "by the end of the month", "by month end".
	reDeadlineEnglishMonth = textgate.MustCompile(`\b(?:by|before|until|till|due)\s+(?:the\s+)?(?:end of (?:the |this )?month|month[- ]end)\b`)
	// reDeadlineEnglishSoon: "by tomorrow".
	reDeadlineEnglishSoon = textgate.MustCompile(`\b(?:by|before|due)\s+tomorrow\b`)
)

// extractDeadline reads a due date (see Deadline) into q.Deadline.
func extractDeadline(x *Extraction) {
	s := x.rest
	set := func(d Deadline, m []string) {
		d.Text = m[0]
		x.q.Deadline = &d
	}
	if m := reDeadlineNextWeek.FindStringSubmatch(s); m != nil {
		set(Deadline{Weekday: cnWeekday(m[2]), WeeksAhead: countRune(m[1], '下')}, m)
		return
	}
	if m := reDeadlineThisWeek.FindStringSubmatch(s); m != nil {
		set(Deadline{Weekday: cnWeekday(m[1]), ThisWeek: true}, m)
		return
	}
	if m := reDeadlineMonthEnd.FindStringSubmatch(s); m != nil {
		d := Deadline{MonthEnd: true}
		if len(m[1]) > 0 && m[1][:len("下")] == "下" {
			d.MonthsAhead = 1
		}
		set(d, m)
		return
	}
	for _, re := range reDeadlineWeekday {
		if m := re.FindStringSubmatch(s); m != nil {
			set(Deadline{Weekday: cnWeekday(m[1])}, m)
			return
		}
	}
	for _, re := range reDeadlineDay {
		if m := re.FindStringSubmatch(s); m != nil {
			if v, ok := ParseNum(m[1]); ok && v >= 1 && v <= 31 {
				set(Deadline{Day: int(v)}, m)
				return
			}
		}
	}
	for _, re := range reDeadlineSoon {
		if m := re.FindStringSubmatch(s); m != nil {
			set(Deadline{InDays: map[string]int{"明天": 1, "后天": 2, "大后天": 3}[m[1]]}, m)
			return
		}
	}
	if m := reDeadlineEnglish.FindStringSubmatch(s); m != nil {
		d := Deadline{Weekday: enWeekdayNum(m[2])}
		if m[1] != "" {
			d.WeeksAhead = 1
		}
		set(d, m)
		return
	}
	if m := reDeadlineEnglishMonth.FindStringSubmatch(s); m != nil {
		set(Deadline{MonthEnd: true}, m)
		return
	}
	if m := reDeadlineEnglishSoon.FindStringSubmatch(s); m != nil {
		set(Deadline{InDays: 1}, m)
	}
}

func countRune(s string, r rune) int {
	n := 0
	for _, c := range s {
		if c == r {
			n++
		}
	}
	return n
}

// cnWeekday is 1 (一, Monday) … 7 (日/天, Sunday).
func cnWeekday(s string) int {
	switch s {
	case "日", "天", "7":
		return 7
	}
	if v, ok := ParseNum(s); ok && v >= 1 && v <= 6 {
		return int(v)
	}
	return 0
}

func enWeekdayNum(s string) int {
	for i, p := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
		if len(s) >= 3 && s[:3] == p {
			return i + 1
		}
	}
	return 0
}

// isoWeekday is 1 (Monday) … 7 (Sunday).
func isoWeekday(t time.Time) int {
	if t.Weekday() == time.Sunday {
		return 7
	}
	return int(t.Weekday())
}

// Date is the due day (midnight, in now's location).
func (d Deadline) Date(now time.Time) time.Time {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	wd := isoWeekday(today)
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
