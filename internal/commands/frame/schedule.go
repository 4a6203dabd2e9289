package frame

import (
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
