package when

import (
	"fmt"
	"time"

	"github.com/labgpu/bot/internal/understand/slots/words"
)

// Clock times (configs/slots/time.yaml): "8点", "十点半", "8点30(分)";
// "7pm", "9:30am", "12 am"; "19:30"; "9 o'clock".
var (
	reClockPoint  = words.NewExpr("time.clock_point")
	reClockAMPM   = words.NewExpr("time.clock_ampm")
	reClockColon  = words.NewExpr("time.clock_colon")
	reClockOClock = words.NewExpr("time.clock_oclock")
)

// ClockIn finds a clock time in a folded text: its hour and minute as
// written (12-hour or 24-hour) and "am"/"pm" when it says one.
func ClockIn(s string) (h, m int, meridiem string, ok bool) {
	num := func(t string) int {
		v, _ := words.ParseNum(t)
		return int(v)
	}
	if x := reClockPoint.FindStringSubmatch(s); x != nil {
		if _, okN := words.ParseNum(x[1]); okN {
			h = num(x[1])
			if isHalf(x[2]) {
				m = 30
			} else if x[2] != "" {
				m = num(x[2])
			}
			return h, m, "", true
		}
	}
	if x := reClockAMPM.FindStringSubmatch(s); x != nil {
		if x[2] != "" {
			m = num(x[2])
		}
		return num(x[1]), m, x[3], true
	}
	if x := reClockColon.FindStringSubmatch(s); x != nil {
		return num(x[1]), num(x[2]), "", true
	}
	if x := reClockOClock.FindStringSubmatch(s); x != nil {
		return num(x[1]), 0, "", true
	}
	return 0, 0, "", false
}

// isHalf reports whether w is a word for half ("半").
func isHalf(w string) bool {
	_, ok := words.Number("numbers.half", w)
	return ok
}

// MuteEnd is when a mute given as a clock time ends: its next occurrence
// after now in loc (the next day's when tomorrow is said and the time is
// still ahead today); with a weekday (1 Monday … 7 Sunday), that time on
// the next such day after today.
func MuteEnd(now time.Time, loc *time.Location, clock string, tomorrow bool, weekday int) time.Time {
	var h, m int
	fmt.Sscanf(clock, "%d:%d", &h, &m)
	local := now.In(loc)
	end := time.Date(local.Year(), local.Month(), local.Day(), h, m, 0, 0, loc)
	if weekday >= 1 && weekday <= 7 {
		days := (weekday - ISOWeekday(local) + 7) % 7
		if days == 0 {
			days = 7
		}
		return end.AddDate(0, 0, days)
	}
	if !end.After(local) {
		end = end.AddDate(0, 0, 1)
	}
	// "明早" said after midnight (before 05:00) still means the coming
	// morning.
	if tomorrow && local.Hour() >= 5 && end.YearDay() == local.YearDay() {
		end = end.AddDate(0, 0, 1)
	}
	return end
}
