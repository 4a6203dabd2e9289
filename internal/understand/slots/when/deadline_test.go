package when

import (
	"testing"
	"time"

	"github.com/labgpu/bot/internal/catalog"
)

// TestReadDeadline: due dates in folded text, resolved against an
// injected now (Wednesday 2 December 2026, 10:00 in Shanghai): the day
// (Date) and the whole days up to it (Days). Package slots' TestDeadline
// reads them through Extract, in whole plan questions.
func TestReadDeadline(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.FixedZone("CST", 8*3600))
	for _, c := range []struct {
		text, date string // date "": no deadline
		days       float64
	}{
		{"ddl是下周五", "2026-12-11", 9},
		{"下下周一前跑完", "2026-12-14", 12},
		{"这周五前要出结果", "2026-12-04", 2},
		{"这周三前", "2026-12-02", 1}, // today: at least a day
		{"周五前交", "2026-12-04", 2},
		{"deadline是周三", "2026-12-09", 7}, // a bare weekday is the next one
		{"月底前要跑完", "2026-12-31", 29},
		{"下个月底之前", "2027-01-31", 60},
		{"15号前", "2026-12-15", 13},
		{"1号前要跑完", "2027-01-01", 30},
		{"截止日期是20号", "2026-12-20", 18},
		{"明天要交", "2026-12-03", 1},
		{"后天前", "2026-12-04", 2},
		{"due next monday", "2026-12-07", 5},
		{"by friday", "2026-12-04", 2},
		{"by the end of the month", "2026-12-31", 29},
		{"by tomorrow", "2026-12-03", 1},
		{"周五有4090吗", "", 0},
		{"下周有卡吗", "", 0},
		{"32号前", "", 0},
	} {
		d := ReadDeadline(catalog.Fold(c.text))
		switch {
		case c.date == "" && d != nil:
			t.Errorf("%q: deadline %+v, want none", c.text, *d)
		case c.date == "":
		case d == nil:
			t.Errorf("%q: no deadline, want %s", c.text, c.date)
		case d.Date(now).Format(time.DateOnly) != c.date || d.Days(now) != c.days:
			t.Errorf("%q: %+v → %s, %v days; want %s, %v", c.text, *d, d.Date(now).Format(time.DateOnly), d.Days(now), c.date, c.days)
		}
	}
}
