package estimate

import (
	"testing"

	"github.com/labgpu/bot/internal/understand"
)

// TestWeekHours: a schedule added by a follow-up adds its hours, what
// both cover counted once.
func TestWeekHours(t *testing.T) {
	const (
		ev  = understand.ScheduleEvenings
		ni  = understand.ScheduleNights
		day = understand.ScheduleDaytime
		wd  = understand.ScheduleWeekdays
		we  = understand.ScheduleWeekends
	)
	for _, c := range []struct {
		name           string
		schedule, also []string
		want           float64
	}{
		{"evenings", []string{ev}, nil, 28},
		{"weekend evenings", []string{ev, we}, nil, 8},
		{"evenings, weekends too", []string{ev}, []string{we}, 5*4 + 2*24},
		{"evenings, daytime too", []string{ev}, []string{day}, 7 * 14},
		{"evenings, weekends and daytime too", []string{ev}, []string{we, day}, 5*14 + 2*24},
		{"weekdays, weekends too", []string{wd}, []string{we}, 168},
		{"evenings, nights too: one hour shared", []string{ev}, []string{ni}, 7 * 13},
	} {
		got, _, ok := weekHours(c.schedule, c.also)
		if !ok || got != c.want {
			t.Errorf("%s: %v hours (ok %v), want %v", c.name, got, ok, c.want)
		}
	}
	if _, _, ok := weekHours(nil, nil); ok {
		t.Error("no schedule: ok")
	}
}
