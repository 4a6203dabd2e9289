package render

import (
	"sync"
	"time"

	// The zone database is embedded, so the default zone loads on a
	// machine or image without /usr/share/zoneinfo.
	_ "time/tzdata"
)

// DefaultTimeZone is the zone users read times in when the config sets
// none (config key timezone).
const DefaultTimeZone = "Asia/Shanghai"

var (
	defaultLocOnce sync.Once
	defaultLoc     *time.Location
)

// DefaultLocation is DefaultTimeZone loaded (UTC+8 without daylight
// saving, should the zone database ever fail to load).
func DefaultLocation() *time.Location {
	defaultLocOnce.Do(func() {
		l, err := time.LoadLocation(DefaultTimeZone)
		if err != nil {
			l = time.FixedZone("CST", 8*3600)
		}
		defaultLoc = l
	})
	return defaultLoc
}

// Clock prints instants for people, all in one time zone: the configured
// one (config timezone; DefaultTimeZone when Loc is nil). Every time an
// answer, an alert, the digest, the console or `bot poll --once` shows
// goes through a Clock, so one instant reads the same everywhere.
type Clock struct {
	Loc *time.Location
}

// ClockOf is the clock of t's own zone: for values computed in the
// configured zone (a digest's week starts in it), so printing them
// needs no other setting.
func ClockOf(t time.Time) Clock { return Clock{Loc: t.Location()} }

// Location is the clock's zone.
func (c Clock) Location() *time.Location {
	if c.Loc == nil {
		return DefaultLocation()
	}
	return c.Loc
}

// In is t in the clock's zone.
func (c Clock) In(t time.Time) time.Time { return t.In(c.Location()) }

// Minute is "12-01 21:12": a recent time in a chat line.
func (c Clock) Minute(t time.Time) string { return c.In(t).Format("01-02 15:04") }

// DateMinute is "2026-12-01 21:12".
func (c Clock) DateMinute(t time.Time) string { return c.In(t).Format("2006-01-02 15:04") }

// Second is "2026-12-01 21:12:05" (command-line tables).
func (c Clock) Second(t time.Time) string { return c.In(t).Format(time.DateTime) }

// Date is "2026-12-01".
func (c Clock) Date(t time.Time) string { return c.In(t).Format(time.DateOnly) }

// Day is "12-01".
func (c Clock) Day(t time.Time) string { return c.In(t).Format("01-02") }

// RFC3339 is "2026-12-01T21:12:05+08:00": a time in JSON, with its offset.
func (c Clock) RFC3339(t time.Time) string { return c.In(t).Format(time.RFC3339) }

// Zoned is "2026-12-01 21:12 CST": a time sent outside a chat (an
// operator notice), with the zone's abbreviation.
func (c Clock) Zoned(t time.Time) string { return c.In(t).Format("2006-01-02 15:04 MST") }
