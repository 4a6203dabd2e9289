package frame

import (
	"math"
	"slices"

	"github.com/labgpu/bot/internal/understand"
)

// whenSchedules are the schedules (Query.Schedule) a part of the week or
// of the day names (configs/slots/time.yaml ids): "周末呢" after a plan
// asks the plan run on weekends only.
var whenSchedules = map[string]string{
	"weekend": understand.ScheduleWeekends, "weekday": understand.ScheduleWeekdays,
	"evening": understand.ScheduleEvenings, "evening_peak": understand.ScheduleEvenings,
	"small_hours": understand.ScheduleNights, "daytime": understand.ScheduleDaytime,
}

// WhenAsSchedule reads the time a follow-up names ("周末呢", "白天呢",
// "weekends?") after a plan as the plan's new schedule, in place of the
// frame's (the change line says so): a plan prices when the cards run,
// not when they are usually free.
func WhenAsSchedule(f, q Query) Query {
	if f.Intent != understand.IntentPlan || q.When == nil || len(q.Schedule) > 0 || q.When.Relative || q.When.Clock {
		return q
	}
	var s []string
	if v, ok := whenSchedules[q.When.Set]; ok {
		s = append(s, v)
	}
	if v, ok := whenSchedules[q.When.Part]; ok {
		s = append(s, v)
	}
	if len(s) == 0 {
		return q
	}
	q.Schedule = s
	q.Conditions = slices.Clone(q.Conditions)
	for _, v := range s {
		q.Conditions = append(q.Conditions, understand.Condition{Kind: understand.CondSchedule, Name: v})
	}
	q.When = nil
	return q
}

// whenOnly reports whether q states only when in the day or week the
// cards run ("只晚上跑呢"), no hours, span or deadline: the frame's
// period stays.
func whenOnly(q Query) bool {
	return q.SpanDays == 0 && q.TotalHours == 0 && q.HoursPerWeek == 0 && !q.Continuous && q.Deadline == nil &&
		(q.Window != "" || len(q.Schedule) > 0)
}

// weekDays is the days a week a schedule runs: 5 on weekdays, 2 on
// weekends, else every day.
func weekDays(s []string) float64 {
	switch {
	case slices.Contains(s, understand.ScheduleWeekends):
		return 2
	case slices.Contains(s, understand.ScheduleWeekdays):
		return 5
	}
	return 7
}

// RescaleWeek keeps a day's hours when a follow-up changes the days a
// week the cards run ("周末呢" after "每晚8点到12点跑"): the same hours
// on those days (8 h a week, not 28), which the answer's week states.
func RescaleWeek(m *Query, f, q Query) {
	if f.HoursPerWeek <= 0 || f.Window == "" || q.HoursPerWeek > 0 || q.TotalHours > 0 || m.HoursPerWeek != f.HoursPerWeek {
		return
	}
	if from, to := weekDays(f.Schedule), weekDays(m.Schedule); from != to {
		m.HoursPerWeek = math.Round(f.HoursPerWeek / from * to)
	}
}
