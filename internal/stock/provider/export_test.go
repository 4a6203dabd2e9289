package provider

import "time"

// NameRecordedAt exposes the file name time stamp parser to the tests:
// the time, whether it is a date only, and whether the name has one.
func NameRecordedAt(name string) (time.Time, bool, bool) {
	rt, ok := nameRecordedAt(name)
	return rt.t, rt.dateOnly, ok
}
