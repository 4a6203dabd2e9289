package slots

import "github.com/labgpu/bot/internal/understand/slots/when"

// WeekSlots reads the part of the week the whole message names into
// Query.When (nil when it names none: "几点有卡" asks for the best hours),
// as when.ReadWeekWindow reads it.
func (x *Extraction) WeekSlots() {
	x.q.When = when.ReadWeekWindow(x.whole)
}
